// Zones of a camera's image: named polygons in the predict answer's
// coordinates ([x, y] fractions of the image, x first, 0-1). A detection
// lies in a zone when its reference point does: a box's centre (or, for a
// zone anchored at the bottom, the middle of its bottom edge), a polygon's
// vertex mean, a point itself; a class (no position) lies in none.
export type ImagePoint = readonly [number, number];

export interface ImageZone {
  name: string;
  polygon: readonly ImagePoint[];
  /** the point of a box the zone follows (default center) */
  anchor?: ZoneAnchor;
}

/** The part of a predict detection zones look at. */
export interface PlacedDetection {
  type: string;
  data: {
    min?: readonly number[];
    max?: readonly number[];
    points?: ReadonlyArray<readonly number[]>;
    point?: readonly number[];
  };
}

/** Where a detection is, for zones; undefined for one without a position. */
export function referencePoint(detection: PlacedDetection): ImagePoint | undefined {
  const { data } = detection;
  switch (detection.type) {
    case 'rectangle':
      if (!data.min || !data.max) return undefined;
      return [(data.min[0]! + data.max[0]!) / 2, (data.min[1]! + data.max[1]!) / 2];
    case 'polygon': {
      if (!data.points?.length) return undefined;
      let x = 0;
      let y = 0;
      for (const p of data.points) {
        x += p[0]!;
        y += p[1]!;
      }
      return [x / data.points.length, y / data.points.length];
    }
    case 'point':
      return data.point ? [data.point[0]!, data.point[1]!] : undefined;
    default:
      return undefined;
  }
}

/** Even-odd rule; a point on an edge may fall either side. */
export function inPolygon(point: ImagePoint, polygon: readonly ImagePoint[]): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The names of the zones a detection lies in, in the zones' order. */
export function zonesOf(detection: PlacedDetection, zones: readonly ImageZone[]): string[] {
  const point = referencePoint(detection);
  if (!point) return [];
  const { min, max } = detection.data;
  const bottom: ImagePoint | undefined =
    detection.type === 'rectangle' && min && max ? [point[0], Math.max(min[1]!, max[1]!)] : undefined;
  return zones
    .filter((zone) => inPolygon(zone.anchor === 'bottom' && bottom ? bottom : point, zone.polygon))
    .map((zone) => zone.name);
}

/**
 * The point of a box that zones and lines follow: its centre, or the middle
 * of its bottom edge, where an object stands on the ground the camera sees
 * (Frigate's and supervision's convention for people and cars).
 */
export type ZoneAnchor = 'center' | 'bottom';

/** A box's anchor point; the box is [x1, y1, x2, y2] in the image's fractions, y down. */
export function anchorPoint(box: readonly [number, number, number, number], anchor: ZoneAnchor): ImagePoint {
  const x = (box[0] + box[2]) / 2;
  return anchor === 'bottom' ? [x, box[3]] : [x, (box[1] + box[3]) / 2];
}

/**
 * A counting line: a segment from `line[0]` to `line[1]`. Crossing it `in`
 * is going from the left of that vector to its right as drawn on the image
 * (x right, y down): for a line from [0.5, 0] to [0.5, 1], drawn top to
 * bottom, an object moving from x = 0.8 to x = 0.2 crosses in. `out` is the
 * other way.
 */
export interface ImageLine {
  name: string;
  line: readonly [ImagePoint, ImagePoint];
}

export type CrossingDirection = 'in' | 'out';

/** Which side of the line's vector a point lies on: -1 left (as drawn), 1 right, 0 on it. */
export function sideOfLine(point: ImagePoint, line: ImageLine['line']): -1 | 0 | 1 {
  const [[x1, y1], [x2, y2]] = line;
  // The z of (end - start) × (point - start); with y pointing down, positive is the right as drawn.
  const cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1);
  return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

/**
 * The crossing of a move from `from` to `to` over the line, or undefined:
 * the two points on opposite sides, and the move passing between the
 * segment's ends (a move around the end of a line crosses nothing). A point
 * exactly on the line is on neither side: callers keep the last point that
 * was on one.
 */
export function crossingOf(from: ImagePoint, to: ImagePoint, line: ImageLine['line']): CrossingDirection | undefined {
  const [before, after] = [sideOfLine(from, line), sideOfLine(to, line)];
  if (before === 0 || after === 0 || before === after) return undefined;
  // The line's ends must lie on opposite sides of the move (or on it) for the segments to meet.
  const move = [from, to] as const;
  const [a, b] = [sideOfLine(line[0], move), sideOfLine(line[1], move)];
  if (a !== 0 && a === b) return undefined;
  return before < 0 ? 'in' : 'out';
}
