// Landmark shapes: the two request spellings, the one stored form, bounding
// boxes and point-in-shape tests.
//
// Spellings accepted (docs/CONTRACT.md#v2-landmarks):
//   model (Gen A/B)  {type: "circle",    geometry: {center: {lat, lon}, radius}}   (also {lat, lon, radius})
//                    {type: "rectangle", geometry: {nw: {lat, lon}, se: {lat, lon}}}
//                    {type: "polygon",   geometry: {points: [{lat, lon}, …≥3]}}
//   shape (Gen C, Elasticsearch geo_shape, [lon, lat] order)
//                    {type: "circle",   radius: 100 | "100m" | "1.5km", coordinates: [lon, lat]}
//                    {type: "envelope", coordinates: [[minLon, maxLat], [maxLon, minLat]]}
//                    {type: "polygon",  coordinates: [[[lon, lat], …, first point again]]}
//
// Both parse to one Shape, which is what is stored (landmarks.kind +
// landmarks.geometry, the geometry in the model spelling: circle
// {center, radius}, rectangle {nw, se}, polygon {points} as an open ring) and
// what responses are written from, in both spellings.
//
// Conventions:
//   - radii are metres; distances are great-circle (haversine) on a sphere of
//     the mean Earth radius;
//   - a rectangle whose nw.lon is east of its se.lon crosses the antimeridian
//     (it spans nw.lon → 180 and -180 → se.lon);
//   - polygons are plain lon/lat rings, tested by ray casting (even-odd rule);
//     an edge may not span more than 180° of longitude, so a polygon cannot
//     cross the antimeridian by accident; holes are not supported;
//   - a bounding box with minLon > maxLon crosses the antimeridian.
import { z } from 'zod';

export interface LatLon {
  lat: number;
  lon: number;
}

export type Shape =
  | { type: 'circle'; center: LatLon; radius: number }
  | { type: 'rectangle'; nw: LatLon; se: LatLon }
  | { type: 'polygon'; points: LatLon[] };

export type ShapeType = Shape['type'];
export const SHAPE_TYPES = ['circle', 'rectangle', 'polygon'] as const satisfies readonly ShapeType[];

/** minLon > maxLon: the box crosses the antimeridian (it covers minLon → 180 and -180 → maxLon). */
export interface BBox {
  minLat: number;
  minLon: number;
  maxLat: number;
  maxLon: number;
}

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
/** The largest circle radius accepted, metres. */
const MAX_RADIUS_M = 1_000_000;
const MAX_POLYGON_POINTS = 10_000;

const RAD = Math.PI / 180;

// ---------------------------------------------------------------------------
// Distances and point-in-shape tests

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: LatLon, b: LatLon): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(haversineA(a.lat, a.lon, b.lat, b.lon))));
}

/** The haversine term a = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2); distance = 2R·asin(√a). */
function haversineA(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const sLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  return sLat * sLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sLon * sLon;
}

/** sin²(r / 2R): a point is inside a circle of radius r when its haversine term is at most this. */
function circleThreshold(radius: number): number {
  const s = Math.sin(Math.min(radius / EARTH_RADIUS_M, Math.PI) / 2);
  return s * s;
}

function lonInRange(lon: number, west: number, east: number): boolean {
  return west <= east ? lon >= west && lon <= east : lon >= west || lon <= east;
}

function inPolygon(points: readonly LatLon[], lat: number, lon: number): boolean {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const a = points[i]!;
    const b = points[j]!;
    if (a.lat > lat !== b.lat > lat && lon < ((b.lon - a.lon) * (lat - a.lat)) / (b.lat - a.lat) + a.lon)
      inside = !inside;
  }
  return inside;
}

/** Whether the point lies in the shape (boundaries count as inside for circles and rectangles). */
export function contains(shape: Shape, lat: number, lon: number): boolean {
  switch (shape.type) {
    case 'circle':
      return haversineA(shape.center.lat, shape.center.lon, lat, lon) <= circleThreshold(shape.radius);
    case 'rectangle':
      return lat <= shape.nw.lat && lat >= shape.se.lat && lonInRange(lon, shape.nw.lon, shape.se.lon);
    case 'polygon':
      return inPolygon(shape.points, lat, lon);
  }
}

/** Whether the point lies in the box (antimeridian-aware). */
export function bboxContains(box: BBox, lat: number, lon: number): boolean {
  return lat >= box.minLat && lat <= box.maxLat && lonInRange(lon, box.minLon, box.maxLon);
}

/** Width of a box in degrees of longitude (antimeridian-aware). */
export function bboxLonSpan(box: BBox): number {
  return box.minLon <= box.maxLon ? box.maxLon - box.minLon : box.maxLon + 360 - box.minLon;
}

// ---------------------------------------------------------------------------
// Bounding boxes

const wrapLon = (lon: number) => (lon < -180 ? lon + 360 : lon > 180 ? lon - 360 : lon);

/**
 * The bounding box of a shape. A circle's box is exact on the sphere: its
 * latitude span is r/R either side, its longitude half-span asin(sin(r/R) /
 * cos φ) (widest at the tangent points, not at the centre's latitude); a
 * circle that reaches a pole covers every longitude.
 */
export function bbox(shape: Shape): BBox {
  switch (shape.type) {
    case 'circle': {
      const { lat, lon } = shape.center;
      const angular = shape.radius / EARTH_RADIUS_M;
      // padded by ~0.1 mm so that rounding never puts a point of the circle outside its box
      const dLat = angular / RAD + 1e-9;
      const minLat = lat - dLat;
      const maxLat = lat + dLat;
      if (maxLat >= 90 || minLat <= -90) {
        return { minLat: Math.max(minLat, -90), minLon: -180, maxLat: Math.min(maxLat, 90), maxLon: 180 };
      }
      const dLon = Math.asin(Math.min(1, Math.sin(angular) / Math.cos(lat * RAD))) / RAD + 1e-9;
      if (dLon >= 180) return { minLat, minLon: -180, maxLat, maxLon: 180 };
      return { minLat, minLon: wrapLon(lon - dLon), maxLat, maxLon: wrapLon(lon + dLon) };
    }
    case 'rectangle':
      return { minLat: shape.se.lat, minLon: shape.nw.lon, maxLat: shape.nw.lat, maxLon: shape.se.lon };
    case 'polygon': {
      let minLat = Infinity;
      let minLon = Infinity;
      let maxLat = -Infinity;
      let maxLon = -Infinity;
      for (const p of shape.points) {
        if (p.lat < minLat) minLat = p.lat;
        if (p.lat > maxLat) maxLat = p.lat;
        if (p.lon < minLon) minLon = p.lon;
        if (p.lon > maxLon) maxLon = p.lon;
      }
      return { minLat, minLon, maxLat, maxLon };
    }
  }
}

// ---------------------------------------------------------------------------
// A compiled form for hot loops (the landmark index): no allocation, no
// trigonometry of the shape per test.

export class CompiledShape {
  /** the bounding box, also flattened below for the hot path */
  readonly box: BBox;
  readonly minLat: number;
  readonly maxLat: number;
  readonly minLon: number;
  readonly maxLon: number;
  readonly wraps: boolean;

  constructor(
    readonly kind: 0 | 1 | 2, // circle | rectangle | polygon
    box: BBox,
    /** circle: centre (degrees), cos(centre lat), haversine threshold */
    readonly cLat: number,
    readonly cLon: number,
    readonly cosLat: number,
    readonly threshold: number,
    /** polygon: [lon0, lat0, lon1, lat1, …] */
    readonly ring: Float64Array,
  ) {
    this.box = box;
    this.minLat = box.minLat;
    this.maxLat = box.maxLat;
    this.minLon = box.minLon;
    this.maxLon = box.maxLon;
    this.wraps = box.minLon > box.maxLon;
  }
}

const NO_RING = new Float64Array(0);

export function compile(shape: Shape): CompiledShape {
  const box = bbox(shape);
  switch (shape.type) {
    case 'circle':
      return new CompiledShape(
        0,
        box,
        shape.center.lat,
        shape.center.lon,
        Math.cos(shape.center.lat * RAD),
        circleThreshold(shape.radius),
        NO_RING,
      );
    case 'rectangle':
      return new CompiledShape(1, box, 0, 0, 0, 0, NO_RING);
    case 'polygon': {
      const ring = new Float64Array(shape.points.length * 2);
      shape.points.forEach((p, i) => {
        ring[2 * i] = p.lon;
        ring[2 * i + 1] = p.lat;
      });
      return new CompiledShape(2, box, 0, 0, 0, 0, ring);
    }
  }
}

/** contains() on a compiled shape; the same answers, faster. */
export function compiledContains(c: CompiledShape, lat: number, lon: number): boolean {
  return compiledContainsWithCos(c, lat, lon, Math.cos(lat * RAD));
}

/** compiledContains with cos(lat) computed once by the caller, for many shapes tested at one point. */
export function compiledContainsWithCos(c: CompiledShape, lat: number, lon: number, cosPointLat: number): boolean {
  if (lat < c.minLat || lat > c.maxLat) return false;
  if (c.wraps ? lon < c.minLon && lon > c.maxLon : lon < c.minLon || lon > c.maxLon) return false;
  if (c.kind === 1) return true;
  if (c.kind === 0) {
    const sLat = Math.sin(((lat - c.cLat) * RAD) / 2);
    const sLon = Math.sin(((lon - c.cLon) * RAD) / 2);
    return sLat * sLat + c.cosLat * cosPointLat * sLon * sLon <= c.threshold;
  }
  const ring = c.ring;
  const n = ring.length;
  let inside = false;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const ax = ring[i]!;
    const ay = ring[i + 1]!;
    const bx = ring[j]!;
    const by = ring[j + 1]!;
    if (ay > lat !== by > lat && lon < ((bx - ax) * (lat - ay)) / (by - ay) + ax) inside = !inside;
  }
  return inside;
}

// ---------------------------------------------------------------------------
// Output spellings

export type ModelSpelling =
  | { type: 'circle'; geometry: { center: LatLon; radius: number } }
  | { type: 'rectangle'; geometry: { nw: LatLon; se: LatLon } }
  | { type: 'polygon'; geometry: { points: LatLon[] } };

export type GeoShapeSpelling =
  | { type: 'circle'; radius: number; coordinates: [number, number] }
  | { type: 'envelope'; coordinates: [[number, number], [number, number]] }
  | { type: 'polygon'; coordinates: Array<Array<[number, number]>> };

/** The Gen A/B spelling; also the stored geometry (landmarks.geometry). */
export function toModel(shape: Shape): ModelSpelling {
  switch (shape.type) {
    case 'circle':
      return {
        type: 'circle',
        geometry: { center: { lat: shape.center.lat, lon: shape.center.lon }, radius: shape.radius },
      };
    case 'rectangle':
      return {
        type: 'rectangle',
        geometry: { nw: { lat: shape.nw.lat, lon: shape.nw.lon }, se: { lat: shape.se.lat, lon: shape.se.lon } },
      };
    case 'polygon':
      return { type: 'polygon', geometry: { points: shape.points.map((p) => ({ lat: p.lat, lon: p.lon })) } };
  }
}

/** The Gen C spelling (Elasticsearch geo_shape, [lon, lat]); radius in metres, polygon ring closed. */
export function toGeoShape(shape: Shape): GeoShapeSpelling {
  switch (shape.type) {
    case 'circle':
      return { type: 'circle', radius: shape.radius, coordinates: [shape.center.lon, shape.center.lat] };
    case 'rectangle':
      return {
        type: 'envelope',
        coordinates: [
          [shape.nw.lon, shape.nw.lat],
          [shape.se.lon, shape.se.lat],
        ],
      };
    case 'polygon': {
      const ring = shape.points.map((p): [number, number] => [p.lon, p.lat]);
      ring.push([shape.points[0]!.lon, shape.points[0]!.lat]);
      return { type: 'polygon', coordinates: [ring] };
    }
  }
}

/** A stored row (kind + geometry jsonb) back to a Shape. */
export function fromStored(kind: string, geometry: unknown): Shape {
  const g = geometry as Record<string, unknown>;
  switch (kind) {
    case 'circle': {
      const center = g.center as LatLon;
      return { type: 'circle', center: { lat: center.lat, lon: center.lon }, radius: g.radius as number };
    }
    case 'rectangle': {
      const nw = g.nw as LatLon;
      const se = g.se as LatLon;
      return { type: 'rectangle', nw: { lat: nw.lat, lon: nw.lon }, se: { lat: se.lat, lon: se.lon } };
    }
    case 'polygon':
      return { type: 'polygon', points: (g.points as LatLon[]).map((p) => ({ lat: p.lat, lon: p.lon })) };
    default:
      throw new Error(`unknown landmark kind ${kind}`);
  }
}

// ---------------------------------------------------------------------------
// Input: zod schemas for both spellings. Each parses to a Shape, and every
// failure names its field (model.geometry.center.lat, shape.coordinates.1, …).

const lat = z.number().min(-90, 'latitude must be between -90 and 90').max(90, 'latitude must be between -90 and 90');
const lon = z
  .number()
  .min(-180, 'longitude must be between -180 and 180')
  .max(180, 'longitude must be between -180 and 180');
const latLon = z.object({ lat, lon }).strict();
const radiusMetres = z
  .number()
  .positive('radius must be greater than 0')
  .max(MAX_RADIUS_M, `radius must be at most ${MAX_RADIUS_M} metres`);

type Issue = { path: PropertyKey[]; message: string };

/** Validates a rectangle given by its corners; issues are relative to the object holding nw/se (or the envelope). */
function rectangleIssues(nw: LatLon, se: LatLon, paths: { north: PropertyKey[]; lon: PropertyKey[] }): Issue[] {
  const issues: Issue[] = [];
  if (!(nw.lat > se.lat))
    issues.push({ path: paths.north, message: 'the north-west corner must be north of the south-east corner' });
  if (nw.lon === se.lon)
    issues.push({ path: paths.lon, message: 'the rectangle has no width (both corners have the same longitude)' });
  return issues;
}

/**
 * Drops a closing point equal to the first and repeated consecutive points;
 * then checks ≥ 3 distinct points, a non-zero area and no edge spanning more
 * than 180° of longitude. Issues carry indexes into the original list.
 */
function normalisePolygon(points: readonly LatLon[]): { points: LatLon[]; issues: Issue[] } {
  const out: LatLon[] = [];
  const issues: Issue[] = [];
  for (const p of points) {
    const last = out[out.length - 1];
    if (!last || last.lat !== p.lat || last.lon !== p.lon) out.push({ lat: p.lat, lon: p.lon });
  }
  while (out.length > 1 && out[0]!.lat === out[out.length - 1]!.lat && out[0]!.lon === out[out.length - 1]!.lon)
    out.pop();
  const distinct = new Set(out.map((p) => `${p.lat},${p.lon}`)).size;
  if (distinct < 3) {
    issues.push({ path: [], message: `a polygon needs at least 3 distinct points (got ${distinct})` });
    return { points: out, issues };
  }
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const b = out[(i + 1) % out.length]!;
    if (Math.abs(b.lon - a.lon) > 180) {
      issues.push({
        path: [],
        message:
          'a polygon edge spans more than 180° of longitude (polygons crossing the antimeridian are not supported)',
      });
      return { points: out, issues };
    }
  }
  let area = 0;
  for (let i = 0; i < out.length; i++) {
    const a = out[i]!;
    const b = out[(i + 1) % out.length]!;
    area += a.lon * b.lat - b.lon * a.lat;
  }
  if (area === 0) issues.push({ path: [], message: 'the polygon has no area (its points are collinear)' });
  return { points: out, issues };
}

function report(ctx: z.RefinementCtx, issues: Issue[], prefix: PropertyKey[]): void {
  for (const issue of issues)
    ctx.addIssue({ code: 'custom', path: [...prefix, ...issue.path], message: issue.message });
}

// model spelling

const circleGeometry = z
  .object({ center: latLon.optional(), lat: lat.optional(), lon: lon.optional(), radius: radiusMetres })
  .strict()
  .superRefine((g, ctx) => {
    const flat = g.lat !== undefined || g.lon !== undefined;
    if (g.center && flat)
      ctx.addIssue({
        code: 'custom',
        path: ['center'],
        message: 'give either center: {lat, lon} or lat and lon, not both',
      });
    else if (!g.center && (g.lat === undefined || g.lon === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path:
          g.lat === undefined && g.lon !== undefined
            ? ['lat']
            : g.lon === undefined && g.lat !== undefined
              ? ['lon']
              : ['center'],
        message: 'a circle needs center: {lat, lon} (or lat and lon) and radius',
      });
    }
  });

const rectangleGeometry = z
  .object({ nw: latLon, se: latLon })
  .strict()
  .superRefine((g, ctx) => report(ctx, rectangleIssues(g.nw, g.se, { north: ['nw', 'lat'], lon: ['se', 'lon'] }), []));

const polygonGeometry = z
  .object({ points: z.array(latLon).min(3, 'a polygon needs at least 3 points').max(MAX_POLYGON_POINTS) })
  .strict()
  .superRefine((g, ctx) => report(ctx, normalisePolygon(g.points).issues, ['points']));

export const modelInput = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('circle'), geometry: circleGeometry }).strict(),
    z.object({ type: z.literal('rectangle'), geometry: rectangleGeometry }).strict(),
    z.object({ type: z.literal('polygon'), geometry: polygonGeometry }).strict(),
  ])
  .transform((m): Shape => {
    switch (m.type) {
      case 'circle': {
        const g = m.geometry;
        const center = g.center ?? { lat: g.lat!, lon: g.lon! };
        return { type: 'circle', center: { lat: center.lat, lon: center.lon }, radius: g.radius };
      }
      case 'rectangle':
        return {
          type: 'rectangle',
          nw: { lat: m.geometry.nw.lat, lon: m.geometry.nw.lon },
          se: { lat: m.geometry.se.lat, lon: m.geometry.se.lon },
        };
      case 'polygon':
        return { type: 'polygon', points: normalisePolygon(m.geometry.points).points };
    }
  });

// shape spelling (Elasticsearch geo_shape)

const position = z.tuple([lon, lat]); // [lon, lat]

const DISTANCE_UNITS: Record<string, number> = {
  mm: 0.001,
  millimeters: 0.001,
  cm: 0.01,
  centimeters: 0.01,
  m: 1,
  meters: 1,
  km: 1000,
  kilometers: 1000,
  in: 0.0254,
  inch: 0.0254,
  ft: 0.3048,
  feet: 0.3048,
  yd: 0.9144,
  yards: 0.9144,
  mi: 1609.344,
  miles: 1609.344,
  nmi: 1852,
  NM: 1852,
  nauticalmiles: 1852,
};

/** An Elasticsearch distance: a number of metres, or a string such as "100m", "1.5km", "2mi" (no unit: metres). */
export function parseDistance(value: number | string): number | undefined {
  if (typeof value === 'number') return value;
  const match = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  if (!match) return undefined;
  const unit = match[2] ? (DISTANCE_UNITS[match[2]] ?? DISTANCE_UNITS[match[2].toLowerCase()]) : 1;
  return unit === undefined ? undefined : Number(match[1]) * unit;
}

const distance = z.union([z.number(), z.string().max(32)]).transform((v, ctx) => {
  const metres = parseDistance(v);
  if (metres === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: 'radius must be a number of metres or a distance such as "100m" or "1.5km"',
    });
    return z.NEVER;
  }
  const checked = radiusMetres.safeParse(metres);
  if (!checked.success) {
    ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
    return z.NEVER;
  }
  return metres;
});

const lowerType = (value: unknown) =>
  value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string'
    ? { ...(value as object), type: (value as { type: string }).type.toLowerCase() }
    : value;

export const shapeInput = z
  .preprocess(
    lowerType,
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('circle'), radius: distance, coordinates: position }).strict(),
      z
        .object({ type: z.literal('envelope'), coordinates: z.tuple([position, position]) })
        .strict()
        .superRefine((s, ctx) => {
          const [[west, north], [east, south]] = s.coordinates;
          report(
            ctx,
            rectangleIssues({ lat: north, lon: west }, { lat: south, lon: east }, { north: [0, 1], lon: [1, 0] }),
            ['coordinates'],
          );
        }),
      z
        .object({
          type: z.literal('polygon'),
          coordinates: z
            .array(
              z
                .array(position)
                .min(3, 'a polygon needs at least 3 points')
                .max(MAX_POLYGON_POINTS + 1),
            )
            .min(1, 'a polygon needs one ring')
            .max(1, 'polygon holes (inner rings) are not supported'),
          orientation: z.string().optional(),
        })
        .strict()
        .superRefine((s, ctx) => {
          const ring = s.coordinates[0]!.map(([pLon, pLat]) => ({ lat: pLat, lon: pLon }));
          report(ctx, normalisePolygon(ring).issues, ['coordinates', 0]);
        }),
    ]),
  )
  .transform((s): Shape => {
    switch (s.type) {
      case 'circle':
        return { type: 'circle', center: { lat: s.coordinates[1], lon: s.coordinates[0] }, radius: s.radius };
      case 'envelope': {
        const [[west, north], [east, south]] = s.coordinates;
        return { type: 'rectangle', nw: { lat: north, lon: west }, se: { lat: south, lon: east } };
      }
      case 'polygon':
        return {
          type: 'polygon',
          points: normalisePolygon(s.coordinates[0]!.map(([pLon, pLat]) => ({ lat: pLat, lon: pLon }))).points,
        };
    }
  });

/** Whether two shapes are the same (after normalisation). */
export function sameShape(a: Shape, b: Shape): boolean {
  return JSON.stringify(toModel(a)) === JSON.stringify(toModel(b));
}
