// Micro-benchmark of the landmark spatial index (not a test):
//   node --import tsx scripts/bench-landmarks.ts [landmarks=10000] [queries=200000] [cellsPerSide=4]
// Builds N random landmarks (a third each circles, rectangles, concave
// polygons of 3–10 points; sizes 50 m – 5 km, log-uniform) in three layouts
// (one metro area, one country, the whole world), then times point lookups at
// random points of the same area and reports µs per lookup (best of 5 runs,
// wall clock and process CPU time), with a
// brute-force scan over every landmark for comparison.
import { performance } from 'node:perf_hooks';
import { compile, compiledContains, type LatLon, type Shape } from '../src/lib/geometry.js';
import { LandmarkIndex } from '../src/lib/landmark-index.js';

const N = Number(process.argv[2] ?? 10_000);
const QUERIES = Number(process.argv[3] ?? 200_000);
const CELLS_PER_SIDE = process.argv[4] ? Number(process.argv[4]) : undefined;
const RAD = Math.PI / 180;

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

function randomShape(rand: () => number, center: LatLon): Shape {
  const size = 50 * 100 ** rand(); // radius / half-size: 50 m … 5 km
  const kind = Math.floor(rand() * 3);
  if (kind === 0) return { type: 'circle', center, radius: size };
  const dLat = size / 111_320;
  const dLon = dLat / Math.cos(center.lat * RAD);
  if (kind === 1)
    return {
      type: 'rectangle',
      nw: { lat: center.lat + dLat, lon: center.lon - dLon },
      se: { lat: center.lat - dLat, lon: center.lon + dLon },
    };
  const points: LatLon[] = [];
  const n = 3 + Math.floor(rand() * 8);
  for (let i = 0; i < n; i++) {
    const angle = (i / n) * 2 * Math.PI;
    const r = 0.4 + 0.6 * rand();
    points.push({ lat: center.lat + Math.sin(angle) * dLat * r, lon: center.lon + Math.cos(angle) * dLon * r });
  }
  return { type: 'polygon', points };
}

interface Layout {
  name: string;
  area: { lat: number; lon: number; dLat: number; dLon: number };
}

const layouts: Layout[] = [
  { name: 'metro (0.5° x 0.7°, ~55 x 50 km)', area: { lat: 48.85, lon: 2.35, dLat: 0.5, dLon: 0.7 } },
  { name: 'country (8° x 10°)', area: { lat: 46.5, lon: 2.5, dLat: 8, dLon: 10 } },
  { name: 'world (±70° lat)', area: { lat: 0, lon: 0, dLat: 140, dLon: 359 } },
];

function pointIn(rand: () => number, a: Layout['area']): LatLon {
  return { lat: a.lat + (rand() - 0.5) * a.dLat, lon: a.lon + (rand() - 0.5) * a.dLon };
}

console.log(`landmark index: ${N} landmarks, ${QUERIES} lookups per layout, node ${process.version}`);
for (const layout of layouts) {
  const rand = random(1234);
  const shapes: Shape[] = [];
  for (let i = 0; i < N; i++) shapes.push(randomShape(rand, pointIn(rand, layout.area)));

  const t0 = performance.now();
  const index = new LandmarkIndex<{ id: string }>({ cellsPerSide: CELLS_PER_SIDE });
  shapes.forEach((shape, i) => index.insert({ id: String(i) }, shape));
  const buildMs = performance.now() - t0;

  const lats = new Float64Array(QUERIES);
  const lons = new Float64Array(QUERIES);
  for (let i = 0; i < QUERIES; i++) {
    const p = pointIn(rand, layout.area);
    lats[i] = p.lat;
    lons[i] = p.lon;
  }

  let hits = 0;
  const count = () => hits++;
  // warm-up, then the timed run
  for (let i = 0; i < Math.min(QUERIES, 20_000); i++) index.forEachContaining(lats[i]!, lons[i]!, count);
  // best of 5 runs; wall time and this process's CPU time (on a busy machine
  // the CPU time excludes the time the process was waiting for a core)
  let indexUs = Infinity;
  let indexCpuUs = Infinity;
  let indexHits = 0;
  for (let run = 0; run < 5; run++) {
    hits = 0;
    const cpu = process.cpuUsage();
    const t1 = performance.now();
    for (let i = 0; i < QUERIES; i++) index.forEachContaining(lats[i]!, lons[i]!, count);
    indexUs = Math.min(indexUs, ((performance.now() - t1) * 1000) / QUERIES);
    const used = process.cpuUsage(cpu);
    indexCpuUs = Math.min(indexCpuUs, (used.user + used.system) / QUERIES);
    indexHits = hits;
  }

  // brute force over compiled shapes (bounding box first), on fewer points
  const compiled = shapes.map(compile);
  const bruteQueries = Math.min(QUERIES, 2_000);
  let bruteHits = 0;
  const t2 = performance.now();
  for (let i = 0; i < bruteQueries; i++)
    for (const c of compiled) if (compiledContains(c, lats[i]!, lons[i]!)) bruteHits++;
  const bruteUs = ((performance.now() - t2) * 1000) / bruteQueries;
  let check = 0;
  for (let i = 0; i < bruteQueries; i++) check += index.query(lats[i]!, lons[i]!).length;
  if (check !== bruteHits) throw new Error(`index and brute force disagree: ${check} vs ${bruteHits}`);

  console.log(
    `${layout.name.padEnd(34)} build ${buildMs.toFixed(1).padStart(6)} ms | index ${indexUs.toFixed(2).padStart(6)} µs/lookup wall, ` +
      `${indexCpuUs.toFixed(2).padStart(6)} µs CPU ` +
      `(${(indexHits / QUERIES).toFixed(2)} hits/lookup) | brute force ${bruteUs.toFixed(1).padStart(7)} µs/lookup`,
  );
}
