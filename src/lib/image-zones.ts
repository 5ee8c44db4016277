// Zones of a camera's image: named polygons in the predict answer's
// coordinates ([x, y] fractions of the image, x first, 0-1). A detection
// lies in a zone when its reference point does: a box's centre, a polygon's
// vertex mean, a point itself; a class (no position) lies in none.
export type ImagePoint = readonly [number, number];

export interface ImageZone {
  name: string;
  polygon: readonly ImagePoint[];
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
  return zones.filter((zone) => inPolygon(point, zone.polygon)).map((zone) => zone.name);
}
