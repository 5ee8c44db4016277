// Landmark shapes: both spellings, validation, bounding boxes, point-in-shape
// tests, and the spatial index against brute force.
import { describe, expect, it } from 'vitest';
import {
  bbox,
  bboxContains,
  compile,
  compiledContains,
  contains,
  distanceMetres,
  EARTH_RADIUS_M,
  modelInput,
  parseDistance,
  shapeInput,
  toGeoShape,
  toModel,
  type LatLon,
  type Shape,
} from '../../src/lib/geometry.js';
import { LandmarkIndex } from '../../src/lib/landmark-index.js';

const RAD = Math.PI / 180;

/** The point `metres` from `from` on initial bearing `bearing` (degrees), on the same sphere. */
function destination(from: LatLon, bearing: number, metres: number): LatLon {
  const d = metres / EARTH_RADIUS_M;
  const φ1 = from.lat * RAD;
  const λ1 = from.lon * RAD;
  const θ = bearing * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  let lon = λ2 / RAD;
  if (lon > 180) lon -= 360;
  if (lon < -180) lon += 360;
  return { lat: φ2 / RAD, lon };
}

const parseModel = (value: unknown) => modelInput.parse(value);
const parseShape = (value: unknown) => shapeInput.parse(value);
const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.success ? [] : result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

// A Paris circle of 100 m.
const paris = { lat: 48.8566, lon: 2.3522 };
const circle: Shape = { type: 'circle', center: paris, radius: 100 };

describe('circles', () => {
  it('uses great-circle distance: a few metres inside and outside the edge, in every direction', () => {
    for (const bearing of [0, 45, 90, 135, 180, 225, 270, 315]) {
      const inside = destination(paris, bearing, 97);
      const outside = destination(paris, bearing, 103);
      expect(distanceMetres(paris, inside)).toBeCloseTo(97, 6);
      expect(contains(circle, inside.lat, inside.lon)).toBe(true);
      expect(contains(circle, outside.lat, outside.lon)).toBe(false);
    }
    // 1 m either side of a 5 km edge
    const big: Shape = { type: 'circle', center: paris, radius: 5000 };
    expect(contains(big, destination(paris, 30, 4999).lat, destination(paris, 30, 4999).lon)).toBe(true);
    expect(contains(big, destination(paris, 30, 5001).lat, destination(paris, 30, 5001).lon)).toBe(false);
  });

  it('is not fooled by degrees of longitude being shorter than degrees of latitude', () => {
    // 0.0012° of longitude at 48.86° N is ~88 m; 0.0012° of latitude is ~133 m
    expect(contains(circle, paris.lat, paris.lon + 0.0012)).toBe(true);
    expect(contains(circle, paris.lat + 0.0012, paris.lon)).toBe(false);
  });

  it('works across the antimeridian and at the poles', () => {
    const dateLine: Shape = { type: 'circle', center: { lat: 0, lon: 179.9995 }, radius: 200 };
    expect(contains(dateLine, 0, -179.9995)).toBe(true); // ~111 m away, across the line
    expect(contains(dateLine, 0, -179.997)).toBe(false); // ~390 m away
    const box = bbox(dateLine);
    expect(box.minLon).toBeGreaterThan(box.maxLon); // wraps
    expect(bboxContains(box, 0, -179.9995)).toBe(true);
    expect(bboxContains(box, 0, 0)).toBe(false);

    const pole: Shape = { type: 'circle', center: { lat: 89.999, lon: 0 }, radius: 500 };
    const across = { lat: 89.9995, lon: 150 }; // on the far side of the pole
    expect(distanceMetres(pole.center, across)).toBeLessThan(500);
    expect(contains(pole, across.lat, across.lon)).toBe(true);
    expect(bbox(pole)).toMatchObject({ minLon: -180, maxLon: 180, maxLat: 90 });
  });

  it('has a bounding box that holds the whole circle and is tight in longitude, also at high latitudes', () => {
    for (const center of [paris, { lat: 70, lon: 20 }, { lat: -85, lon: -120 }, { lat: 0, lon: 0 }]) {
      const shape: Shape = { type: 'circle', center, radius: 5000 };
      const box = bbox(shape);
      let widest = 0;
      for (let bearing = 0; bearing < 360; bearing += 0.5) {
        const edge = destination(center, bearing, 5000 * 0.999999);
        expect(bboxContains(box, edge.lat, edge.lon)).toBe(true);
        widest = Math.max(widest, Math.abs(edge.lon - center.lon));
      }
      // the box's half-width is the true widest point (which is not at the centre's latitude)
      expect((box.maxLon - box.minLon) / 2).toBeCloseTo(widest, 4);
      expect(box.maxLat - center.lat).toBeCloseTo(5000 / EARTH_RADIUS_M / RAD, 6);
    }
  });
});

describe('rectangles', () => {
  it('tests lat/lon bounds, boundaries included', () => {
    const r: Shape = { type: 'rectangle', nw: { lat: 10, lon: 20 }, se: { lat: 5, lon: 25 } };
    expect(contains(r, 7, 22)).toBe(true);
    expect(contains(r, 10, 20)).toBe(true);
    expect(contains(r, 10.0001, 22)).toBe(false);
    expect(contains(r, 7, 25.0001)).toBe(false);
    expect(contains(r, 7, 19.9999)).toBe(false);
  });

  it('crosses the antimeridian when nw.lon is east of se.lon', () => {
    const r = parseModel({ type: 'rectangle', geometry: { nw: { lat: 10, lon: 170 }, se: { lat: -10, lon: -170 } } });
    expect(contains(r, 0, 175)).toBe(true);
    expect(contains(r, 0, -175)).toBe(true);
    expect(contains(r, 0, 180)).toBe(true);
    expect(contains(r, 0, 0)).toBe(false);
    expect(contains(r, 0, 165)).toBe(false);
    expect(contains(r, 0, -165)).toBe(false);
    expect(bbox(r)).toEqual({ minLat: -10, minLon: 170, maxLat: 10, maxLon: -170 });
  });
});

describe('polygons', () => {
  // A "C" opening to the east: the notch (lon 1..3, lat 1..2) is outside.
  const c: Shape = parseModel({
    type: 'polygon',
    geometry: {
      points: [
        { lat: 0, lon: 0 },
        { lat: 0, lon: 3 },
        { lat: 1, lon: 3 },
        { lat: 1, lon: 1 },
        { lat: 2, lon: 1 },
        { lat: 2, lon: 3 },
        { lat: 3, lon: 3 },
        { lat: 3, lon: 0 },
      ],
    },
  });

  it('handles concave polygons by ray casting', () => {
    expect(contains(c, 0.5, 2)).toBe(true); // bottom arm
    expect(contains(c, 2.5, 2)).toBe(true); // top arm
    expect(contains(c, 1.5, 0.5)).toBe(true); // spine
    expect(contains(c, 1.5, 2)).toBe(false); // the notch
    expect(contains(c, 1.5, 3.5)).toBe(false);
    expect(contains(c, -0.1, 1)).toBe(false);
    expect(bbox(c)).toEqual({ minLat: 0, minLon: 0, maxLat: 3, maxLon: 3 });
  });

  it('drops the closing point and repeated points', () => {
    const closed = parseModel({
      type: 'polygon',
      geometry: {
        points: [
          { lat: 0, lon: 0 },
          { lat: 0, lon: 1 },
          { lat: 0, lon: 1 },
          { lat: 1, lon: 1 },
          { lat: 0, lon: 0 },
        ],
      },
    });
    expect(closed).toEqual({
      type: 'polygon',
      points: [
        { lat: 0, lon: 0 },
        { lat: 0, lon: 1 },
        { lat: 1, lon: 1 },
      ],
    });
  });
});

describe('spellings', () => {
  it('parses every circle spelling to the same stored shape', () => {
    const expected: Shape = { type: 'circle', center: { lat: 48.8566, lon: 2.3522 }, radius: 100 };
    expect(parseModel({ type: 'circle', geometry: { center: { lat: 48.8566, lon: 2.3522 }, radius: 100 } })).toEqual(
      expected,
    );
    expect(parseModel({ type: 'circle', geometry: { lat: 48.8566, lon: 2.3522, radius: 100 } })).toEqual(expected);
    expect(parseShape({ type: 'circle', radius: '100m', coordinates: [2.3522, 48.8566] })).toEqual(expected);
    expect(parseShape({ type: 'circle', radius: 100, coordinates: [2.3522, 48.8566] })).toEqual(expected);
    expect(parseShape({ type: 'Circle', radius: '0.1km', coordinates: [2.3522, 48.8566] })).toEqual(expected);
  });

  it('reads the shape form in [lon, lat] order', () => {
    // [lon, lat] = [120, 45]: 120 is only valid as a longitude
    expect(parseShape({ type: 'circle', radius: 50, coordinates: [120, 45] })).toMatchObject({
      center: { lat: 45, lon: 120 },
    });
    expect(issues(shapeInput.safeParse({ type: 'circle', radius: 50, coordinates: [45, 120] }))).toEqual([
      'coordinates.1: latitude must be between -90 and 90',
    ]);
  });

  it('parses envelope = rectangle and polygon ring = points, and writes both spellings back', () => {
    const rect = parseModel({ type: 'rectangle', geometry: { nw: { lat: 10, lon: 20 }, se: { lat: 5, lon: 25 } } });
    const envelope = parseShape({
      type: 'envelope',
      coordinates: [
        [20, 10],
        [25, 5],
      ],
    });
    expect(envelope).toEqual(rect);
    expect(toGeoShape(rect)).toEqual({
      type: 'envelope',
      coordinates: [
        [20, 10],
        [25, 5],
      ],
    });

    const poly = parseModel({
      type: 'polygon',
      geometry: {
        points: [
          { lat: 0, lon: 0 },
          { lat: 0, lon: 1 },
          { lat: 1, lon: 1 },
        ],
      },
    });
    const ring = parseShape({
      type: 'polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
    expect(ring).toEqual(poly);
    expect(toGeoShape(poly)).toEqual({
      type: 'polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
    expect(toModel(poly)).toEqual({
      type: 'polygon',
      geometry: {
        points: [
          { lat: 0, lon: 0 },
          { lat: 0, lon: 1 },
          { lat: 1, lon: 1 },
        ],
      },
    });

    const c = parseShape({ type: 'circle', radius: '1.5km', coordinates: [2, 48] });
    expect(toModel(c)).toEqual({ type: 'circle', geometry: { center: { lat: 48, lon: 2 }, radius: 1500 } });
    expect(toGeoShape(c)).toEqual({ type: 'circle', radius: 1500, coordinates: [2, 48] });
    // what is written back parses to the same shape
    expect(parseShape(toGeoShape(c))).toEqual(c);
    expect(parseModel(toModel(c))).toEqual(c);
  });

  it('understands Elasticsearch distance units', () => {
    expect(parseDistance('100m')).toBe(100);
    expect(parseDistance('2km')).toBe(2000);
    expect(parseDistance('1mi')).toBeCloseTo(1609.344);
    expect(parseDistance('250')).toBe(250);
    expect(parseDistance('10 parsecs')).toBeUndefined();
  });
});

describe('validation names the offending field', () => {
  it.each([
    [
      { type: 'circle', geometry: { center: { lat: 91, lon: 0 }, radius: 10 } },
      'geometry.center.lat: latitude must be between -90 and 90',
    ],
    [
      { type: 'circle', geometry: { center: { lat: 0, lon: -181 }, radius: 10 } },
      'geometry.center.lon: longitude must be between -180 and 180',
    ],
    [
      { type: 'circle', geometry: { center: { lat: 0, lon: 0 }, radius: 0 } },
      'geometry.radius: radius must be greater than 0',
    ],
    [
      { type: 'circle', geometry: { center: { lat: 0, lon: 0 }, radius: 5e6 } },
      'geometry.radius: radius must be at most 1000000 metres',
    ],
    [
      { type: 'circle', geometry: { lat: 0, radius: 5 } },
      'geometry.lon: a circle needs center: {lat, lon} (or lat and lon) and radius',
    ],
    [
      { type: 'rectangle', geometry: { nw: { lat: 5, lon: 0 }, se: { lat: 10, lon: 1 } } },
      'geometry.nw.lat: the north-west corner must be north of the south-east corner',
    ],
    [
      {
        type: 'polygon',
        geometry: {
          points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 1 },
            { lat: 0, lon: 0 },
          ],
        },
      },
      'geometry.points: a polygon needs at least 3 distinct points (got 2)',
    ],
    [
      {
        type: 'polygon',
        geometry: {
          points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 1 },
            { lat: 2, lon: 2 },
          ],
        },
      },
      'geometry.points: the polygon has no area (its points are collinear)',
    ],
    [
      {
        type: 'polygon',
        geometry: {
          points: [
            { lat: 0, lon: 0 },
            { lat: 1, lon: 1 },
          ],
        },
      },
      'geometry.points: a polygon needs at least 3 points',
    ],
    [
      { type: 'hexagon', geometry: {} },
      "type: Invalid discriminator value. Expected 'circle' | 'rectangle' | 'polygon'",
    ],
  ])('model %j', (input, message) => {
    expect(issues(modelInput.safeParse(input))).toContain(message);
  });

  it.each([
    [
      { type: 'circle', radius: 'far', coordinates: [0, 0] },
      'radius: radius must be a number of metres or a distance such as "100m" or "1.5km"',
    ],
    [
      {
        type: 'envelope',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      'coordinates.0.1: the north-west corner must be north of the south-east corner',
    ],
    [
      {
        type: 'polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
          [
            [0.1, 0.1],
            [0.2, 0.1],
            [0.2, 0.2],
            [0.1, 0.1],
          ],
        ],
      },
      'coordinates: polygon holes (inner rings) are not supported',
    ],
    [
      {
        type: 'polygon',
        coordinates: [
          [
            [170, 0],
            [-170, 0],
            [-170, 1],
            [170, 0],
          ],
        ],
      },
      'coordinates.0: a polygon edge spans more than 180° of longitude (polygons crossing the antimeridian are not supported)',
    ],
    [{ type: 'circle', radius: 10, coordinates: [0, 0], extra: 1 }, ': Unrecognized key: "extra"'],
  ])('shape %j', (input, message) => {
    expect(issues(shapeInput.safeParse(input))).toContain(message);
  });
});

// A seeded generator so failures reproduce.
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomShape(rand: () => number, near: LatLon, spread: number): Shape {
  const center = {
    lat: Math.max(-89.9, Math.min(89.9, near.lat + (rand() - 0.5) * spread)),
    lon: near.lon + (rand() - 0.5) * spread,
  };
  if (center.lon > 180) center.lon -= 360;
  if (center.lon < -180) center.lon += 360;
  const size = 50 * 100 ** rand(); // 50 m … 5 km
  const kind = Math.floor(rand() * 3);
  if (kind === 0) return { type: 'circle', center, radius: size };
  const dLat = size / 111_320;
  const dLon = Math.min(10, dLat / Math.max(0.05, Math.cos(center.lat * RAD)));
  if (kind === 1) {
    const west = center.lon - dLon;
    const east = center.lon + dLon;
    return {
      type: 'rectangle',
      nw: { lat: Math.min(90, center.lat + dLat), lon: west < -180 ? west + 360 : west },
      se: { lat: Math.max(-90, center.lat - dLat), lon: east > 180 ? east - 360 : east },
    };
  }
  const points: LatLon[] = [];
  const n = 3 + Math.floor(rand() * 8);
  for (let i = 0; i < n; i++) {
    const angle = (i / n) * 2 * Math.PI;
    const r = 0.4 + 0.6 * rand(); // star-shaped, often concave
    points.push({
      lat: center.lat + Math.sin(angle) * dLat * r,
      lon: Math.max(-180, Math.min(180, center.lon + Math.cos(angle) * dLon * r)),
    });
  }
  return { type: 'polygon', points };
}

describe('compiled shapes', () => {
  it('answer exactly as contains() does', () => {
    const rand = random(7);
    for (let i = 0; i < 300; i++) {
      const shape = randomShape(rand, { lat: (rand() - 0.5) * 170, lon: (rand() - 0.5) * 360 }, 0.1);
      const compiled = compile(shape);
      const box = bbox(shape);
      for (let j = 0; j < 50; j++) {
        const lat = box.minLat + (rand() * 1.4 - 0.2) * (box.maxLat - box.minLat);
        let lon = box.minLon + (rand() * 1.4 - 0.2) * ((box.maxLon - box.minLon + 360) % 360 || 360);
        if (lon > 180) lon -= 360;
        expect(compiledContains(compiled, lat, lon)).toBe(contains(shape, lat, lon));
      }
    }
  });
});

describe('LandmarkIndex', () => {
  it('finds exactly the landmarks a brute-force scan finds (city cluster, antimeridian, poles)', () => {
    const rand = random(42);
    const shapes = new Map<string, Shape>();
    const index = new LandmarkIndex<{ id: string }>();
    const clusters: Array<[LatLon, number]> = [
      [paris, 0.5],
      [{ lat: -17, lon: 179.99 }, 0.3], // Fiji, across the antimeridian
      [{ lat: 89.95, lon: 0 }, 0.05], // the North Pole
      [{ lat: 0, lon: 0 }, 120], // anywhere
    ];
    for (let i = 0; i < 2000; i++) {
      const [near, spread] = clusters[i % clusters.length]!;
      const shape = randomShape(rand, near, spread);
      const id = `L${i}`;
      shapes.set(id, shape);
      index.insert({ id }, shape);
    }
    // a few large ones too
    shapes.set('big', { type: 'circle', center: paris, radius: 900_000 });
    index.insert({ id: 'big' }, shapes.get('big')!);
    shapes.set('polar', { type: 'circle', center: { lat: 89.99, lon: 45 }, radius: 20_000 });
    index.insert({ id: 'polar' }, shapes.get('polar')!);
    expect(index.size).toBe(2002);

    const check = (lat: number, lon: number) => {
      const expected = [...shapes]
        .filter(([, s]) => contains(s, lat, lon))
        .map(([id]) => id)
        .sort();
      expect(
        index
          .query(lat, lon)
          .map((l) => l.id)
          .sort(),
      ).toEqual(expected);
      return expected.length;
    };
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      const [near, spread] = clusters[i % clusters.length]!;
      let lon = near.lon + (rand() - 0.5) * spread;
      if (lon > 180) lon -= 360;
      hits += check(Math.max(-90, Math.min(90, near.lat + (rand() - 0.5) * spread)), lon);
    }
    expect(hits).toBeGreaterThan(500); // the points do land in landmarks
    check(90, 0);
    check(0, 180);
    check(0, -180);

    // removal and replacement
    for (let i = 0; i < 2000; i += 2) {
      expect(index.remove(`L${i}`)).toBe(true);
      shapes.delete(`L${i}`);
    }
    expect(index.remove('L0')).toBe(false);
    index.insert({ id: 'big' }, { type: 'circle', center: { lat: -17, lon: 179.99 }, radius: 1000 });
    shapes.set('big', { type: 'circle', center: { lat: -17, lon: 179.99 }, radius: 1000 });
    expect(index.size).toBe(1002);
    for (let i = 0; i < 1000; i++) {
      const [near, spread] = clusters[i % clusters.length]!;
      let lon = near.lon + (rand() - 0.5) * spread;
      if (lon > 180) lon -= 360;
      check(Math.max(-90, Math.min(90, near.lat + (rand() - 0.5) * spread)), lon);
    }
    index.clear();
    expect(index.query(paris.lat, paris.lon)).toEqual([]);
  });
});
