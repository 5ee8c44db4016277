// Synthetic scenes for the bundled demo detector ("demo" model).
//
// One seed -> one scene, deterministically (own mulberry32 PRNG, never
// Math.random). A scene is an SVG document plus the ground-truth boxes of the
// objects in it; sharp (librsvg) rasterises the SVG. The training script
// (train.py) and the server's evaluation tooling both use this file, so the
// held-out evaluation set is simply "the same generator, another seed range":
//
//   training seeds:   TRAIN_SEED_START .. TRAIN_SEED_START + 7_999_999
//   evaluation seeds: EVAL_SEED_START  .. (never used for training)
//
// What is in a scene (see README.md for the full rationale):
// - image size: width and height each 240..1280 px, aspect ratio at most 2.5:1;
// - background: two-colour linear/radial gradient, a fractal value-noise
//   texture (smooth or ridged, tinted, feature size 4..120 px; computed here
//   and embedded as a PNG because librsvg's feTurbulence is too slow), sometimes
//   stripes at any angle or a checkerboard, 3..25 clutter shapes (lines,
//   zigzags, curves, elongated bars and ellipses, L-shapes) that are NOT any
//   class; on top of the objects, 0..3 thin foreground lines/curves that may
//   cross them, a brightness (lighting) gradient, sometimes a grey haze
//   (lower contrast) and grain noise;
// - 1..12 objects of DEMO_LABELS, any hue (classes differ by shape, not by
//   colour), solid or gradient fill, sometimes a contrasting outline,
//   rotated (traffic cones stay roughly upright);
// - object size: the nominal size is log-uniform between
//   max(13 px, 13 px * longSide / 320) and half the short side of the image,
//   i.e. about 11..160 px once the image is letterboxed into a 320x320 model
//   input, whatever the image size (a 13 px object in a 1280 px image would be
//   3 px at the model input: unsolvable, so the floor scales with the image);
// - overlaps: later objects are drawn over earlier ones; a placement is
//   rejected when the bounding boxes overlap too much, and an object of which
//   less than 55% of the pixels stay visible (occluded by later objects or
//   foreground lines, or cut by the image border) is removed from the scene
//   altogether (not drawn, not labelled). Every labelled object is therefore at
//   least 55% visible;
// - boxes: x1,y1,x2,y2 in image pixels (pixel i covers [i, i+1)), tight around
//   the VISIBLE extent. They come from the exact geometry emitted into the SVG
//   (rotated vertices rounded to 0.01 px before emitting, outlines drawn with
//   round joins so the outline adds exactly half its width on every side),
//   clipped to the image. Where occlusion hides an extreme part of an object,
//   that side of the box comes from a pixel-centre rasterisation of what is
//   still visible (accurate to about half a pixel).
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export const TRAIN_SEED_START = 1_000_000;
export const TRAIN_SEED_COUNT = 8_000_000;
export const EVAL_SEED_START = 9_000_000;
/** The model input size the generator's object-size floor is designed for. */
export const DESIGN_INPUT_SIZE = 320;

export const DEMO_LABELS: readonly string[] = [
  'circle',
  'square',
  'triangle',
  'star',
  'cross',
  'ring',
  'arrow',
  'traffic cone',
];

export interface SceneObject {
  label: string;
  classId: number;
  /** x1, y1, x2, y2 in image pixels, tight around the visible extent */
  box: [number, number, number, number];
}

export interface Scene {
  width: number;
  height: number;
  objects: SceneObject[];
  svg: string;
  /**
   * Visible-pixel instance ids on an outW x outH grid (default: full size), row-major:
   * 0 = no object, k + 1 = objects[k]. See instanceMask() below. A method, not data,
   * so that serialising `objects` (labels.jsonl) is unchanged.
   */
  instanceMask(outW?: number, outH?: number): Uint8Array;
}

// ---------------------------------------------------------------- PRNG

/** The scenes' PRNG (mulberry32): also the crops' (generate_crops.ts), so one seed draws alike. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    // Scramble the seed so that neighbouring seeds give unrelated streams.
    let h = (seed ^ 0x9e3779b9) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    this.next = mulberry32((h ^ (h >>> 16)) >>> 0);
  }
  float(): number {
    return this.next();
  }
  uniform(a: number, b: number): number {
    return a + (b - a) * this.next();
  }
  int(a: number, b: number): number {
    return a + Math.floor(this.next() * (b - a + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  logUniform(a: number, b: number): number {
    return Math.exp(this.uniform(Math.log(a), Math.log(b)));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

// ---------------------------------------------------------------- colours

interface Hsl {
  h: number; // 0..360
  s: number; // 0..1
  l: number; // 0..1
}

function hex(c: Hsl): string {
  const a = c.s * Math.min(c.l, 1 - c.l);
  const f = (n: number): string => {
    const k = (n + c.h / 30) % 12;
    const v = c.l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(Math.max(0, Math.min(1, v)) * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

function randomColour(rng: Rng): Hsl {
  return { h: rng.uniform(0, 360), s: rng.uniform(0, 1), l: rng.uniform(0.05, 0.95) };
}

/** A colour whose lightness stays at least `gap` away from every background lightness given. */
function contrastingColour(rng: Rng, avoid: readonly number[], gap: number): Hsl {
  let best: Hsl = randomColour(rng);
  let bestDist = -1;
  for (let i = 0; i < 12; i++) {
    const c = randomColour(rng);
    const d = Math.min(...avoid.map((l) => Math.abs(l - c.l)));
    if (d >= gap) return c;
    if (d > bestDist) {
      best = c;
      bestDist = d;
    }
  }
  return best;
}

// ---------------------------------------------------------------- geometry

/** Coordinates go into the SVG with 2 decimals; the boxes use the same rounded numbers. */
function q(v: number): number {
  return Math.round(v * 100) / 100;
}

type Box = [number, number, number, number];

/** Hit-test primitives (pixel-centre rasterisation of what is drawn). */
type Prim =
  | { kind: 'poly'; pts: number[]; pad: number }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  | { kind: 'annulus'; cx: number; cy: number; r0: number; r1: number }
  | { kind: 'line'; pts: number[]; hw: number };

interface Item {
  classId: number; // -1: foreground clutter (occludes, never labelled)
  prims: Prim[];
  box: Box; // full (unoccluded, unclipped) extent
  svg: string;
}

function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

function at(a: readonly number[], i: number): number {
  const v = a[i];
  if (v === undefined) throw new Error('index out of range');
  return v;
}

function insidePrim(p: Prim, x: number, y: number): boolean {
  switch (p.kind) {
    case 'circle': {
      const dx = x - p.cx;
      const dy = y - p.cy;
      return dx * dx + dy * dy <= p.r * p.r;
    }
    case 'annulus': {
      const dx = x - p.cx;
      const dy = y - p.cy;
      const d2 = dx * dx + dy * dy;
      return d2 <= p.r1 * p.r1 && d2 >= p.r0 * p.r0;
    }
    case 'poly': {
      const n = p.pts.length / 2;
      let inside = false;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        const xi = at(p.pts, 2 * i);
        const yi = at(p.pts, 2 * i + 1);
        const xj = at(p.pts, 2 * j);
        const yj = at(p.pts, 2 * j + 1);
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      if (inside || p.pad <= 0) return inside;
      const pad2 = p.pad * p.pad;
      for (let i = 0, j = n - 1; i < n; j = i++) {
        if (segDist2(x, y, at(p.pts, 2 * j), at(p.pts, 2 * j + 1), at(p.pts, 2 * i), at(p.pts, 2 * i + 1)) <= pad2) {
          return true;
        }
      }
      return false;
    }
    case 'line': {
      const hw2 = p.hw * p.hw;
      for (let i = 2; i < p.pts.length; i += 2) {
        if (segDist2(x, y, at(p.pts, i - 2), at(p.pts, i - 1), at(p.pts, i), at(p.pts, i + 1)) <= hw2) return true;
      }
      return false;
    }
  }
}

function insideItem(item: Item, x: number, y: number): boolean {
  const b = item.box;
  if (x < b[0] || x > b[2] || y < b[1] || y > b[3]) return false;
  for (const p of item.prims) if (insidePrim(p, x, y)) return true;
  return false;
}

function polyBox(pts: readonly number[], pad: number): Box {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (let i = 0; i < pts.length; i += 2) {
    const x = at(pts, i);
    const y = at(pts, i + 1);
    x1 = Math.min(x1, x);
    x2 = Math.max(x2, x);
    y1 = Math.min(y1, y);
    y2 = Math.max(y2, y);
  }
  return [x1 - pad, y1 - pad, x2 + pad, y2 + pad];
}

function unionBox(a: Box, b: Box): Box {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

function boxArea(b: Box): number {
  return Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
}

function interArea(a: Box, b: Box): number {
  return (
    Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
  );
}

/** Local shape coordinates -> rotated, translated, rounded flat point list. */
function place(local: ReadonlyArray<readonly [number, number]>, cx: number, cy: number, angle: number): number[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const out: number[] = [];
  for (const [u, v] of local) out.push(q(cx + u * c - v * s), q(cy + u * s + v * c));
  return out;
}

function pointsAttr(pts: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < pts.length; i += 2) parts.push(`${at(pts, i)},${at(pts, i + 1)}`);
  return parts.join(' ');
}

// ---------------------------------------------------------------- SVG building

class Svg {
  private defs: string[] = [];
  private nextId = 0;
  id(prefix: string): string {
    return `${prefix}${this.nextId++}`;
  }
  def(markup: string): void {
    this.defs.push(markup);
  }
  defsMarkup(): string {
    return this.defs.length ? `<defs>${this.defs.join('')}</defs>` : '';
  }
}

/** A fill: solid, or a linear gradient between two shades of the colour. */
function paint(rng: Rng, svg: Svg, c: Hsl, box: Box): string {
  if (!rng.chance(0.35)) return hex(c);
  const id = svg.id('g');
  const a = rng.uniform(0, Math.PI * 2);
  const dl = rng.uniform(0.08, 0.25);
  const c1 = hex({ ...c, l: Math.min(0.97, c.l + dl) });
  const c2 = hex({ ...c, l: Math.max(0.03, c.l - dl) });
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  const r = Math.max(box[2] - box[0], box[3] - box[1]) / 2;
  svg.def(
    `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${q(cx - r * Math.cos(a))}" y1="${q(cy - r * Math.sin(a))}" x2="${q(cx + r * Math.cos(a))}" y2="${q(cy + r * Math.sin(a))}"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient>`,
  );
  return `url(#${id})`;
}

interface Style {
  fill: Hsl;
  stroke: Hsl | null;
  strokeWidth: number; // 0 when no outline
}

function strokeAttrs(st: Style): string {
  if (!st.stroke || st.strokeWidth <= 0) return '';
  return ` stroke="${hex(st.stroke)}" stroke-width="${st.strokeWidth}" stroke-linejoin="round"`;
}

function polygonItem(classId: number, pts: number[], st: Style, rng: Rng, svg: Svg): Item {
  const pad = st.stroke ? st.strokeWidth / 2 : 0;
  const box = polyBox(pts, pad);
  const fill = paint(rng, svg, st.fill, box);
  return {
    classId,
    prims: [{ kind: 'poly', pts, pad }],
    box,
    svg: `<polygon points="${pointsAttr(pts)}" fill="${fill}"${strokeAttrs(st)}/>`,
  };
}

function regular(n: number, r: number, phase: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let k = 0; k < n; k++) {
    const a = phase + (k * 2 * Math.PI) / n;
    out.push([r * Math.cos(a), r * Math.sin(a)]);
  }
  return out;
}

/** Builds object `classId` of nominal size `s` centred at (cx, cy). */
function makeObject(classId: number, s: number, cx: number, cy: number, st: Style, rng: Rng, svg: Svg): Item {
  const angle = rng.uniform(0, Math.PI * 2);
  const label = DEMO_LABELS[classId];
  switch (label) {
    case 'circle': {
      const r = q(s * 0.45);
      const x = q(cx);
      const y = q(cy);
      const pad = st.stroke ? st.strokeWidth / 2 : 0;
      const box: Box = [x - r - pad, y - r - pad, x + r + pad, y + r + pad];
      return {
        classId,
        prims: [{ kind: 'circle', cx: x, cy: y, r: r + pad }],
        box,
        svg: `<circle cx="${x}" cy="${y}" r="${r}" fill="${paint(rng, svg, st.fill, box)}"${strokeAttrs(st)}/>`,
      };
    }
    case 'ring': {
      const r1 = q(s * 0.47);
      const r0 = q(r1 * rng.uniform(0.42, 0.62));
      const x = q(cx);
      const y = q(cy);
      const pad = st.stroke ? st.strokeWidth / 2 : 0;
      const box: Box = [x - r1 - pad, y - r1 - pad, x + r1 + pad, y + r1 + pad];
      const d =
        `M${q(x - r1)} ${y}a${r1} ${r1} 0 1 0 ${q(2 * r1)} 0a${r1} ${r1} 0 1 0 ${q(-2 * r1)} 0Z` +
        `M${q(x - r0)} ${y}a${r0} ${r0} 0 1 0 ${q(2 * r0)} 0a${r0} ${r0} 0 1 0 ${q(-2 * r0)} 0Z`;
      return {
        classId,
        prims: [{ kind: 'annulus', cx: x, cy: y, r0: Math.max(0, r0 - pad), r1: r1 + pad }],
        box,
        svg: `<path d="${d}" fill-rule="evenodd" fill="${paint(rng, svg, st.fill, box)}"${strokeAttrs(st)}/>`,
      };
    }
    case 'square': {
      const h = s * 0.38;
      return polygonItem(
        classId,
        place(
          [
            [-h, -h],
            [h, -h],
            [h, h],
            [-h, h],
          ],
          cx,
          cy,
          angle,
        ),
        st,
        rng,
        svg,
      );
    }
    case 'triangle':
      return polygonItem(classId, place(regular(3, s * 0.55, 0), cx, cy, angle), st, rng, svg);
    case 'star': {
      const ro = s * 0.52;
      const ri = ro * rng.uniform(0.38, 0.5);
      const local: Array<[number, number]> = [];
      for (let k = 0; k < 10; k++) {
        const r = k % 2 === 0 ? ro : ri;
        const a = (k * Math.PI) / 5;
        local.push([r * Math.cos(a), r * Math.sin(a)]);
      }
      return polygonItem(classId, place(local, cx, cy, angle), st, rng, svg);
    }
    case 'cross': {
      const l = s * 0.5;
      const w = s * rng.uniform(0.13, 0.19);
      const local: Array<[number, number]> = [
        [-w, -l],
        [w, -l],
        [w, -w],
        [l, -w],
        [l, w],
        [w, w],
        [w, l],
        [-w, l],
        [-w, w],
        [-l, w],
        [-l, -w],
        [-w, -w],
      ];
      return polygonItem(classId, place(local, cx, cy, angle), st, rng, svg);
    }
    case 'arrow': {
      const l = s * 0.5;
      const a = s * rng.uniform(0.08, 0.13);
      const hl = s * rng.uniform(0.33, 0.45);
      const hw = s * rng.uniform(0.24, 0.32);
      const local: Array<[number, number]> = [
        [-l, -a],
        [l - hl, -a],
        [l - hl, -hw],
        [l, 0],
        [l - hl, hw],
        [l - hl, a],
        [-l, a],
      ];
      return polygonItem(classId, place(local, cx, cy, angle), st, rng, svg);
    }
    case 'traffic cone': {
      // Upright (tilted at most 20 degrees): a striped trapezoid on a wide base plate.
      const tilt = rng.uniform(-0.35, 0.35);
      const top = -0.5 * s;
      const baseTop = 0.38 * s;
      const bottom = 0.5 * s;
      const tw = 0.07 * s;
      const bw = 0.3 * s;
      const plate = rng.uniform(0.4, 0.46) * s;
      const half = (v: number): number => tw + ((v - top) / (baseTop - top)) * (bw - tw);
      const body = place(
        [
          [-tw, top],
          [tw, top],
          [bw, baseTop],
          [-bw, baseTop],
        ],
        cx,
        cy,
        tilt,
      );
      const base = place(
        [
          [-plate, baseTop],
          [plate, baseTop],
          [plate, bottom],
          [-plate, bottom],
        ],
        cx,
        cy,
        tilt,
      );
      const pad = st.stroke ? st.strokeWidth / 2 : 0;
      const box = unionBox(polyBox(body, pad), polyBox(base, pad));
      const fill = paint(rng, svg, st.fill, box);
      const stripeColour = hex({
        h: rng.uniform(0, 360),
        s: rng.uniform(0, 0.3),
        l: st.fill.l < 0.5 ? rng.uniform(0.8, 0.97) : rng.uniform(0.03, 0.2),
      });
      const bands: Array<[number, number]> = rng.chance(0.5)
        ? [
            [-0.2, -0.05],
            [0.1, 0.24],
          ]
        : [[-0.1, 0.08]];
      let stripes = '';
      for (const [a, b] of bands) {
        const v0 = a * s;
        const v1 = b * s;
        const pts = place(
          [
            [-half(v0), v0],
            [half(v0), v0],
            [half(v1), v1],
            [-half(v1), v1],
          ],
          cx,
          cy,
          tilt,
        );
        stripes += `<polygon points="${pointsAttr(pts)}" fill="${stripeColour}"/>`;
      }
      const strokes = strokeAttrs(st);
      return {
        classId,
        prims: [
          { kind: 'poly', pts: body, pad },
          { kind: 'poly', pts: base, pad },
        ],
        box,
        svg:
          `<g><polygon points="${pointsAttr(base)}" fill="${fill}"${strokes}/>` +
          `<polygon points="${pointsAttr(body)}" fill="${fill}"${strokes}/>${stripes}</g>`,
      };
    }
    default:
      throw new Error(`no shape for class ${classId}`);
  }
}

// ---------------------------------------------------------------- clutter

/** A smooth random curve, emitted as a polyline (so hit tests see exactly what is drawn). */
function curvePoints(rng: Rng, x: number, y: number, len: number): number[] {
  const a = rng.uniform(0, Math.PI * 2);
  const bend = rng.uniform(-1.2, 1.2);
  const pts: number[] = [];
  const n = 12;
  let px = x;
  let py = y;
  for (let i = 0; i <= n; i++) {
    pts.push(q(px), q(py));
    const t = a + (bend * i) / n;
    px += (Math.cos(t) * len) / n;
    py += (Math.sin(t) * len) / n;
  }
  return pts;
}

function lineItem(pts: number[], width: number, colour: Hsl, opacity: number): Item {
  const hw = width / 2;
  return {
    classId: -1,
    prims: [{ kind: 'line', pts, hw }],
    box: polyBox(pts, hw),
    svg: `<polyline points="${pointsAttr(pts)}" fill="none" stroke="${hex(colour)}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"${opacity < 1 ? ` opacity="${opacity}"` : ''}/>`,
  };
}

/** Background clutter: shapes that are NOT any class (elongated, open or thin). */
function clutter(rng: Rng, w: number, h: number, unit: number): string {
  const x = rng.uniform(-0.05, 1.05) * w;
  const y = rng.uniform(-0.05, 1.05) * h;
  const size = rng.logUniform(unit * 0.6, Math.min(w, h) * 0.7);
  const colour = randomColour(rng);
  const opacity = rng.chance(0.3) ? q(rng.uniform(0.3, 0.9)) : 1;
  const op = opacity < 1 ? ` opacity="${opacity}"` : '';
  const angle = rng.uniform(0, Math.PI * 2);
  switch (rng.int(0, 5)) {
    case 0: // straight line
      return lineItem(
        place(
          [
            [-size / 2, 0],
            [size / 2, 0],
          ],
          x,
          y,
          angle,
        ),
        q(rng.uniform(0.8, Math.max(1, unit * 0.25))),
        colour,
        opacity,
      ).svg;
    case 1: {
      // zigzag
      const k = rng.int(3, 8);
      const amp = size * rng.uniform(0.05, 0.2);
      const local: Array<[number, number]> = [];
      for (let i = 0; i <= k; i++) local.push([-size / 2 + (size * i) / k, i % 2 ? amp : -amp]);
      return lineItem(place(local, x, y, angle), q(rng.uniform(0.8, Math.max(1, unit * 0.2))), colour, opacity).svg;
    }
    case 2: // curve
      return lineItem(curvePoints(rng, x, y, size), q(rng.uniform(0.8, Math.max(1, unit * 0.25))), colour, opacity).svg;
    case 3: {
      // elongated bar (aspect >= 3)
      const hl = size / 2;
      const hw = hl / rng.uniform(3, 8);
      return `<polygon points="${pointsAttr(
        place(
          [
            [-hl, -hw],
            [hl, -hw],
            [hl, hw],
            [-hl, hw],
          ],
          x,
          y,
          angle,
        ),
      )}" fill="${hex(colour)}"${op}/>`;
    }
    case 4: {
      // elongated ellipse (aspect >= 2.5)
      const rx = size / 2;
      const ry = rx / rng.uniform(2.5, 6);
      return `<ellipse cx="${q(x)}" cy="${q(y)}" rx="${q(rx)}" ry="${q(ry)}" transform="rotate(${q((angle * 180) / Math.PI)} ${q(x)} ${q(y)})" fill="${hex(colour)}"${op}/>`;
    }
    default: {
      // L-shape
      const l = size / 2;
      const t = l * rng.uniform(0.12, 0.25);
      const local: Array<[number, number]> = [
        [-l, -l],
        [-l + t, -l],
        [-l + t, l - t],
        [l, l - t],
        [l, l],
        [-l, l],
      ];
      return `<polygon points="${pointsAttr(place(local, x, y, angle))}" fill="${hex(colour)}"${op}/>`;
    }
  }
}

// ---------------------------------------------------------------- visibility

const MIN_VISIBLE_FRACTION = 0.55;

interface Visible {
  fraction: number;
  box: Box;
}

/**
 * What remains visible of `item` under `occluders` inside the image: pixel
 * centres inside the shape and under no occluder. Sides of the box that
 * occlusion does not change keep their exact (analytic, clipped) value.
 */
function visibility(item: Item, occluders: readonly Item[], w: number, h: number): Visible {
  const b = item.box;
  const clipped: Box = [Math.max(0, b[0]), Math.max(0, b[1]), Math.min(w, b[2]), Math.min(h, b[3])];
  const over = occluders.filter((o) => interArea(o.box, b) > 0);
  const inImage = b[0] >= 0 && b[1] >= 0 && b[2] <= w && b[3] <= h;
  if (over.length === 0 && inImage) return { fraction: 1, box: clipped };

  let total = 0;
  let visible = 0;
  // pixel extents: u = unoccluded inside the image, v = visible
  let ux1 = Infinity,
    uy1 = Infinity,
    ux2 = -Infinity,
    uy2 = -Infinity;
  let vx1 = Infinity,
    vy1 = Infinity,
    vx2 = -Infinity,
    vy2 = -Infinity;
  const px1 = Math.floor(b[0]);
  const px2 = Math.ceil(b[2]);
  const py1 = Math.floor(b[1]);
  const py2 = Math.ceil(b[3]);
  for (let py = py1; py < py2; py++) {
    const y = py + 0.5;
    for (let px = px1; px < px2; px++) {
      const x = px + 0.5;
      if (!insideItem(item, x, y)) continue;
      total++;
      if (px < 0 || py < 0 || px >= w || py >= h) continue;
      if (px < ux1) ux1 = px;
      if (px > ux2) ux2 = px;
      if (py < uy1) uy1 = py;
      if (py > uy2) uy2 = py;
      let hidden = false;
      for (const o of over) {
        if (insideItem(o, x, y)) {
          hidden = true;
          break;
        }
      }
      if (hidden) continue;
      visible++;
      if (px < vx1) vx1 = px;
      if (px > vx2) vx2 = px;
      if (py < vy1) vy1 = py;
      if (py > vy2) vy2 = py;
    }
  }
  if (visible === 0 || total === 0) return { fraction: 0, box: clipped };
  return {
    fraction: visible / total,
    box: [
      vx1 === ux1 ? clipped[0] : vx1,
      vy1 === uy1 ? clipped[1] : vy1,
      vx2 === ux2 ? clipped[2] : vx2 + 1,
      vy2 === uy2 ? clipped[3] : vy2 + 1,
    ],
  };
}

/**
 * Instance ids of the visible pixels, painted back to front exactly as the SVG is
 * (labelled objects in order, then the foreground lines, which erase), sampled at
 * pixel centres: the same hit tests and the same occluders as visibility(), so
 * an object's mask is the set of pixels that visibility() counted as visible.
 * The result is outW x outH (row-major, 0 = no object, k + 1 = objects[k]); pixel
 * (i, j) samples the scene point ((i + 0.5) * w / outW, (j + 0.5) * h / outH), so
 * a smaller grid is a point-sampled (nearest) downscale of the full-size mask.
 */
function instanceMask(
  items: readonly Item[],
  fg: readonly Item[],
  w: number,
  h: number,
  outW: number,
  outH: number,
): Uint8Array {
  if (items.length > 254) throw new Error('too many objects for an 8-bit mask');
  const out = new Uint8Array(outW * outH);
  const sx = w / outW;
  const sy = h / outH;
  const paintItem = (item: Item, value: number): void => {
    const b = item.box;
    const i1 = Math.max(0, Math.floor(b[0] / sx - 0.5));
    const i2 = Math.min(outW - 1, Math.ceil(b[2] / sx - 0.5));
    const j1 = Math.max(0, Math.floor(b[1] / sy - 0.5));
    const j2 = Math.min(outH - 1, Math.ceil(b[3] / sy - 0.5));
    for (let j = j1; j <= j2; j++) {
      const y = (j + 0.5) * sy;
      for (let i = i1; i <= i2; i++) {
        if (insideItem(item, (i + 0.5) * sx, y)) out[j * outW + i] = value;
      }
    }
  };
  items.forEach((item, k) => paintItem(item, k + 1));
  for (const f of fg) paintItem(f, 0);
  return out;
}

// ---------------------------------------------------------------- raster textures
//
// librsvg's feTurbulence (~250 ms per megapixel and octave) and rotated
// <pattern>s are far too slow for generating tens of thousands of images, so
// textures are computed here (value noise from the scene's PRNG) at reduced
// resolution and embedded as PNG data URIs that librsvg scales up.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = (CRC_TABLE[(c ^ (buf[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Minimal synchronous PNG encoder (8-bit, colour type 2 = RGB, 4 = grey+alpha, 6 = RGBA). */
function encodePng(pixels: Uint8Array, w: number, h: number, channels: 2 | 3 | 4): string {
  const colourType = channels === 2 ? 4 : channels === 3 ? 2 : 6;
  const stride = w * channels;
  const raw = Buffer.alloc((stride + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 3 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Fractal value noise in 0..1 on a w x h grid; `freq` in lattice cells per grid pixel. */
function valueNoise(rng: Rng, w: number, h: number, freq: number, octaves: number): Float32Array {
  const out = new Float32Array(w * h);
  let amp = 1;
  let total = 0;
  let f = freq;
  for (let o = 0; o < octaves; o++) {
    const gw = Math.ceil(w * f) + 2;
    const gh = Math.ceil(h * f) + 2;
    const grid = new Float32Array(gw * gh);
    for (let i = 0; i < grid.length; i++) grid[i] = rng.float();
    for (let y = 0; y < h; y++) {
      const gy = y * f;
      const y0 = Math.floor(gy);
      let ty = gy - y0;
      ty = ty * ty * (3 - 2 * ty);
      for (let x = 0; x < w; x++) {
        const gx = x * f;
        const x0 = Math.floor(gx);
        let tx = gx - x0;
        tx = tx * tx * (3 - 2 * tx);
        const i = y0 * gw + x0;
        const a = grid[i] ?? 0;
        const b = grid[i + 1] ?? 0;
        const c = grid[i + gw] ?? 0;
        const d = grid[i + gw + 1] ?? 0;
        const top = a + (b - a) * tx;
        const bottom = c + (d - c) * tx;
        out[y * w + x] = (out[y * w + x] ?? 0) + amp * (top + (bottom - top) * ty);
      }
    }
    total += amp;
    amp *= 0.5;
    f *= 2;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / total;
  return out;
}

function rgbOf(c: Hsl): [number, number, number] {
  const s = hex(c);
  return [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];
}

/** A tinted noise texture (RGBA at reduced resolution) as an <image> covering the scene. */
function noiseTexture(rng: Rng, w: number, h: number): string {
  const k = Math.min(1, 320 / Math.max(w, h));
  const tw = Math.max(8, Math.round(w * k));
  const th = Math.max(8, Math.round(h * k));
  // feature size 4..120 image pixels
  const freq = 1 / (rng.logUniform(4, 120) * k);
  const n = valueNoise(rng, tw, th, Math.min(freq, 0.7), rng.int(1, 4));
  const ridged = rng.chance(0.4);
  const a = rgbOf(randomColour(rng));
  const b = rgbOf(randomColour(rng));
  const strength = rng.uniform(0.3, 0.95);
  const px = new Uint8Array(tw * th * 4);
  for (let i = 0; i < tw * th; i++) {
    let v = n[i] ?? 0;
    v = Math.min(1, Math.max(0, (v - 0.5) * 2.2 + 0.5));
    if (ridged) v = 1 - Math.abs(2 * v - 1);
    px[i * 4] = a[0] + (b[0] - a[0]) * v;
    px[i * 4 + 1] = a[1] + (b[1] - a[1]) * v;
    px[i * 4 + 2] = a[2] + (b[2] - a[2]) * v;
    px[i * 4 + 3] = 255 * strength * v;
  }
  return `<image width="${w}" height="${h}" preserveAspectRatio="none" href="${encodePng(px, tw, th, 4)}"/>`;
}

/** Grain: a tile of grey noise with alpha, repeated (a plain, unrotated pattern is cheap in librsvg). */
function grain(rng: Rng, svg: Svg, w: number, h: number): string {
  const size = 96;
  const alpha = rng.uniform(0.08, 0.3);
  const px = new Uint8Array(size * size * 2);
  for (let i = 0; i < size * size; i++) {
    const v = rng.float();
    px[2 * i] = v < 0.5 ? 0 : 255;
    px[2 * i + 1] = 255 * alpha * Math.abs(2 * v - 1);
  }
  const id = svg.id('gr');
  svg.def(
    `<pattern id="${id}" patternUnits="userSpaceOnUse" width="${size}" height="${size}"><image width="${size}" height="${size}" href="${encodePng(px, size, size, 2)}"/></pattern>`,
  );
  return `<rect width="${w}" height="${h}" fill="url(#${id})"/>`;
}

// ---------------------------------------------------------------- scenes

function backgroundLayers(rng: Rng, svg: Svg, w: number, h: number): { markup: string; lightness: number[] } {
  const c1 = randomColour(rng);
  const c2 = rng.chance(0.3)
    ? { ...c1, l: Math.min(0.95, Math.max(0.05, c1.l + rng.uniform(-0.25, 0.25))) }
    : randomColour(rng);
  const id = svg.id('bg');
  if (rng.chance(0.7)) {
    const a = rng.uniform(0, Math.PI * 2);
    svg.def(
      `<linearGradient id="${id}" x1="${q(0.5 - 0.5 * Math.cos(a))}" y1="${q(0.5 - 0.5 * Math.sin(a))}" x2="${q(0.5 + 0.5 * Math.cos(a))}" y2="${q(0.5 + 0.5 * Math.sin(a))}"><stop offset="0" stop-color="${hex(c1)}"/><stop offset="1" stop-color="${hex(c2)}"/></linearGradient>`,
    );
  } else {
    svg.def(
      `<radialGradient id="${id}" cx="${q(rng.uniform(0, 1))}" cy="${q(rng.uniform(0, 1))}" r="${q(rng.uniform(0.4, 1.2))}"><stop offset="0" stop-color="${hex(c1)}"/><stop offset="1" stop-color="${hex(c2)}"/></radialGradient>`,
    );
  }
  let markup = `<rect width="${w}" height="${h}" fill="url(#${id})"/>`;
  if (rng.chance(0.85)) markup += noiseTexture(rng, w, h);
  if (rng.chance(0.3)) {
    const period = rng.uniform(6, 48);
    const colour = hex(randomColour(rng));
    const opacity = q(rng.uniform(0.1, 0.4));
    if (rng.chance(0.35)) {
      // checkerboard (unrotated pattern)
      const p = svg.id('pt');
      const c = q(period / 2);
      svg.def(
        `<pattern id="${p}" patternUnits="userSpaceOnUse" width="${q(2 * c)}" height="${q(2 * c)}"><rect width="${c}" height="${c}" fill="${colour}"/><rect x="${c}" y="${c}" width="${c}" height="${c}" fill="${colour}"/></pattern>`,
      );
      markup += `<rect width="${w}" height="${h}" fill="url(#${p})" fill-opacity="${opacity}"/>`;
    } else {
      // stripes at any angle, as one path
      const a = rng.uniform(0, Math.PI);
      const duty = rng.uniform(0.2, 0.6);
      const r = Math.hypot(w, h) / 2;
      const n = Math.ceil((2 * r) / period);
      let d = '';
      for (let i = 0; i < n; i++) {
        const u0 = -r + i * period;
        const u1 = u0 + period * duty;
        const pts = place(
          [
            [u0, -r],
            [u1, -r],
            [u1, r],
            [u0, r],
          ],
          w / 2,
          h / 2,
          a,
        );
        d += `M${at(pts, 0)} ${at(pts, 1)}L${at(pts, 2)} ${at(pts, 3)}L${at(pts, 4)} ${at(pts, 5)}L${at(pts, 6)} ${at(pts, 7)}Z`;
      }
      markup += `<path d="${d}" fill="${colour}" fill-opacity="${opacity}"/>`;
    }
  }
  return { markup, lightness: [c1.l, c2.l] };
}

function overlayLayers(rng: Rng, svg: Svg, w: number, h: number): string {
  let markup = '';
  if (rng.chance(0.7)) {
    // lighting: a white or black gradient across the image
    const id = svg.id('lt');
    const a = rng.uniform(0, Math.PI * 2);
    const colour = rng.chance(0.5) ? '#ffffff' : '#000000';
    svg.def(
      `<linearGradient id="${id}" x1="${q(0.5 - 0.5 * Math.cos(a))}" y1="${q(0.5 - 0.5 * Math.sin(a))}" x2="${q(0.5 + 0.5 * Math.cos(a))}" y2="${q(0.5 + 0.5 * Math.sin(a))}"><stop offset="0" stop-color="${colour}" stop-opacity="${q(rng.uniform(0, 0.15))}"/><stop offset="1" stop-color="${colour}" stop-opacity="${q(rng.uniform(0.2, 0.5))}"/></linearGradient>`,
    );
    markup += `<rect width="${w}" height="${h}" fill="url(#${id})"/>`;
  }
  if (rng.chance(0.2)) {
    // haze: lower contrast overall
    markup += `<rect width="${w}" height="${h}" fill="#808080" fill-opacity="${q(rng.uniform(0.1, 0.3))}"/>`;
  }
  if (rng.chance(0.4)) markup += grain(rng, svg, w, h);
  return markup;
}

export function makeScene(seed: number): Scene {
  const rng = new Rng(seed);
  let width = 0;
  let height = 0;
  do {
    width = rng.int(240, 1280);
    height = rng.int(240, 1280);
  } while (Math.max(width, height) / Math.min(width, height) > 2.5);
  const svg = new Svg();
  const longSide = Math.max(width, height);
  const minSize = Math.max(13, (13 * longSide) / DESIGN_INPUT_SIZE);
  const maxSize = Math.max(minSize * 1.5, Math.min(width, height) * 0.5);

  const bg = backgroundLayers(rng, svg, width, height);
  let clutterMarkup = '';
  const nClutter = rng.int(3, 25);
  for (let i = 0; i < nClutter; i++) clutterMarkup += clutter(rng, width, height, minSize);

  // objects, back to front
  const wanted = rng.int(1, 12);
  const items: Item[] = [];
  for (let k = 0; k < wanted; k++) {
    const classId = rng.int(0, DEMO_LABELS.length - 1);
    const fill = contrastingColour(rng, bg.lightness, 0.22);
    const outline = rng.chance(0.35);
    const s = rng.logUniform(minSize, maxSize);
    const style: Style = {
      fill,
      stroke: outline ? contrastingColour(rng, [fill.l], 0.35) : null,
      strokeWidth: outline ? q(Math.max(0.8, s * rng.uniform(0.015, 0.05))) : 0,
    };
    const partlyOutside = rng.chance(0.12);
    for (let attempt = 0; attempt < 30; attempt++) {
      const m = partlyOutside ? 0 : s * 0.55;
      if (2 * m >= width || 2 * m >= height) break;
      const cx = rng.uniform(m, width - m);
      const cy = rng.uniform(m, height - m);
      // A rejected attempt may leave an unused gradient in <defs>: harmless.
      const item = makeObject(classId, s, cx, cy, style, rng, svg);
      const b = item.box;
      if (b[2] - b[0] < 4 || b[3] - b[1] < 4) continue;
      const ok = items.every((o) => {
        const inter = interArea(o.box, b);
        return inter <= 0.4 * boxArea(o.box) && inter <= 0.6 * boxArea(b);
      });
      if (!ok) continue;
      items.push(item);
      break;
    }
  }

  // foreground clutter: thin lines/curves that may cross objects
  const fg: Item[] = [];
  const nFg = rng.int(0, 3);
  for (let i = 0; i < nFg; i++) {
    const x = rng.uniform(0, width);
    const y = rng.uniform(0, height);
    const len = rng.uniform(0.2, 0.8) * Math.min(width, height);
    const lw = q(rng.uniform(0.8, Math.max(1.2, minSize * 0.08)));
    const pts = rng.chance(0.5)
      ? place(
          [
            [-len / 2, 0],
            [len / 2, 0],
          ],
          x,
          y,
          rng.uniform(0, Math.PI * 2),
        )
      : curvePoints(rng, x, y, len);
    fg.push(lineItem(pts, lw, randomColour(rng), 1));
  }

  // visibility, front to back: drop objects that are mostly hidden
  const kept: Array<{ item: Item; box: Box }> = [];
  const occluders: Item[] = [...fg];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!item) continue;
    const vis = visibility(item, occluders, width, height);
    if (vis.fraction < MIN_VISIBLE_FRACTION) continue;
    const vb = vis.box;
    if (vb[2] - vb[0] < 2 || vb[3] - vb[1] < 2) continue;
    kept.unshift({ item, box: vb });
    occluders.push(item);
  }

  const body = bg.markup + clutterMarkup + kept.map((k) => k.item.svg).join('') + fg.map((f) => f.svg).join('');
  const overlay = overlayLayers(rng, svg, width, height);
  const doc =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${svg.defsMarkup()}${body}${overlay}</svg>`;

  const maskItems = kept.map((k) => k.item);
  return {
    width,
    height,
    svg: doc,
    instanceMask: (outW = width, outH = height) => instanceMask(maskItems, fg, width, height, outW, outH),
    objects: kept.map(({ item, box }) => {
      const label = DEMO_LABELS[item.classId];
      if (label === undefined) throw new Error('bad class id');
      return { label, classId: item.classId, box: [q(box[0]), q(box[1]), q(box[2]), q(box[3])] };
    }),
  };
}

/** Rasterises a scene (sharp / librsvg) and encodes it. */
export async function renderScene(scene: Scene, format: 'png' | 'jpeg' = 'png', quality = 90): Promise<Buffer> {
  const img = sharp(Buffer.from(scene.svg), { density: 72 }).removeAlpha();
  return format === 'jpeg' ? img.jpeg({ quality }).toBuffer() : img.png({ compressionLevel: 4 }).toBuffer();
}

/** The scene with its ground-truth boxes drawn on top (for eyeballing box tightness). */
export function annotatedSvg(scene: Scene): string {
  const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#ff00ff', '#00ffff', '#ff8000', '#ffffff'];
  const boxes = scene.objects
    .map((o) => {
      const [x1, y1, x2, y2] = o.box;
      const c = colours[o.classId % colours.length] ?? '#ff0000';
      return (
        `<rect x="${x1}" y="${y1}" width="${q(x2 - x1)}" height="${q(y2 - y1)}" fill="none" stroke="${c}" stroke-width="1"/>` +
        `<text x="${x1}" y="${Math.max(9, y1 - 2)}" font-family="sans-serif" font-size="10" fill="${c}">${o.label}</text>`
      );
    })
    .join('');
  return scene.svg.replace(/<\/svg>$/, `${boxes}</svg>`);
}
