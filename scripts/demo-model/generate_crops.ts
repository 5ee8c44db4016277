// Writes 64x64 crops of the demo scenes' objects, labelled with the hue of each object's fill, for
// the demo colour classifier (models/demo-colour, train_colour.py).
//
//   node --import tsx scripts/demo-model/generate_crops.ts --out DIR --split train|eval
//        [--seed-start S] [--count N] [--crops-per-object 1] [--format png|jpeg|mixed] [--concurrency 2]
//
// DIR/crops/<seed>_<k>[_<j>].png (64x64 RGB, the classifier's input as the server builds it) and
// DIR/labels.jsonl, one line per crop in seed order:
//   {"file":"crops/9000000_2.png","seed":9000000,"object":2,"label":"blue","classId":4,
//    "shape":"circle","fill":{"h":231.4,"s":0.71,"l":0.42,"chroma":0.6,"gradient":false},
//    "box":[x1,y1,x2,y2],"cropBox":[x1,y1,x2,y2],"padding":0.13,"square":true,
//    "crop":{"x":..,"y":..,"width":..,"height":..},"rect":{"x":..,"y":..,"width":..,"height":..},"encoding":"png"}
//
// Seeds: --split train takes seeds from TRAIN_SEED_START (scenes.ts) and must stay below
// TRAIN_SEED_START + TRAIN_SEED_COUNT (= EVAL_SEED_START); --split eval takes seeds from
// EVAL_SEED_START. The two ranges cannot overlap.
//
// The label. scenes.ts gives every object one HSL colour (randomColour: h 0-360, s 0-1,
// l 0.05-0.95), drawn solid or as a linear gradient between two shades of it (same h and s,
// l +- 0.08..0.25). SceneObject does not carry it, so it is read back from the scene's SVG: the
// labelled objects are the last top-level elements before the foreground lines and overlays, in
// the order of `objects` (checked: element kind against label, drawn extent against the box). A
// gradient's colour is the mean of its two stops in RGB, which keeps the hue and averages chroma
// and lightness. Classes: hue buckets of 60 degrees centred on 0 (red), 60 (yellow), 120 (green),
// 180 (cyan), 240 (blue), 300 (magenta). Objects without a clear colour are skipped (no crop):
// chroma = s * (1 - |2l - 1|) (the RGB max - min, over 255) under MIN_CHROMA, or lightness outside
// [MIN_LIGHTNESS, MAX_LIGHTNESS].
//
// The crop, as the server's child stages cut it (src/inference/pipeline/crops.ts):
// - the object's ground-truth box in pixels, jittered on half of the crops (each side moved by up
//   to +-4% of the box's width or height, as a detector's box would be);
// - padded by `padding` (uniform in [0, 0.2]) x the box's width on the left and right, x its height
//   on top and bottom;
// - on half of the crops `square`: the shorter side grown around the centre to the longer one;
// - clamped to the image, then whole pixels: x0 = floor(x1), y0 = floor(y1), x1' = ceil(x2),
//   y1' = ceil(y2); a crop under 4 px either way (the stages' default minSize) is skipped;
// - resized into 64x64 as native/src/preprocess.cc does: letterbox rectangle round(w*r) x
//   round(h*r), r = min(64/w, 64/h), at floor((64-rw)/2), floor((64-rh)/2), padding 114, bilinear
//   with pixel centres aligned (its Axis struct, float32 arithmetic), rounded to uint8 as the
//   server does for a model fed uint8 pixels.
// The scene is rendered with renderScene() (PNG, or JPEG quality 60-95 on ~35% of the scenes with
// --format mixed, as generate.ts) and decoded by sharp. cropRect() and letterboxCrop() are shared
// with verify-colour-onnx.ts (the CLI runs only when this file is the command).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import {
  EVAL_SEED_START,
  makeScene,
  mulberry32,
  renderScene,
  type Scene,
  TRAIN_SEED_COUNT,
  TRAIN_SEED_START,
} from './scenes.js';
import { cropRect as serverCropRect } from '../../src/inference/pipeline/crops.js';

const COLOURS = ['red', 'yellow', 'green', 'cyan', 'blue', 'magenta'] as const;
const SIZE = 64;
const PAD = 114;
const MIN_CHROMA = 0.25;
const MIN_LIGHTNESS = 0.15;
const MAX_LIGHTNESS = 0.85;
const MAX_PADDING = 0.2;
const JITTER = 0.04;
const MIN_SIZE = 4;

// ---------------------------------------------------------------- PRNG (per seed, object, crop)

function hash(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 2654435761);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return h >>> 0;
}

function encodingFor(seed: number, format: 'png' | 'jpeg' | 'mixed'): { kind: 'png' | 'jpeg'; quality: number } {
  if (format === 'png') return { kind: 'png', quality: 90 };
  if (format === 'jpeg') return { kind: 'jpeg', quality: 90 };
  return hash(seed, 0x51) % 100 < 35
    ? { kind: 'jpeg', quality: 60 + (hash(seed, 0x77) % 36) }
    : { kind: 'png', quality: 90 };
}

// ---------------------------------------------------------------- colours from the SVG

interface Fill {
  h: number;
  s: number;
  l: number;
  chroma: number;
  gradient: boolean;
}

function rgbOfHex(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m?.[1]) throw new Error(`not a colour: ${hex}`);
  const v = Number.parseInt(m[1], 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** HSL (h in degrees, s and l 0..1) and chroma (max - min, 0..1) of an RGB colour (0..255). */
function hslOf([r, g, b]: readonly [number, number, number]): Omit<Fill, 'gradient'> {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const c = max - min;
  const l = (max + min) / 2;
  let h = 0;
  if (c > 0) {
    if (max === R) h = 60 * (((G - B) / c + 6) % 6);
    else if (max === G) h = 60 * ((B - R) / c + 2);
    else h = 60 * ((R - G) / c + 4);
  }
  const s = c === 0 ? 0 : c / (1 - Math.abs(2 * l - 1));
  return { h, s, l, chroma: c };
}

/** The top-level elements of the SVG's body (after <defs>), as strings. */
function topLevelElements(svg: string): string[] {
  const defsEnd = svg.indexOf('</defs>');
  let p = defsEnd >= 0 ? defsEnd + '</defs>'.length : svg.indexOf('>') + 1;
  const end = svg.lastIndexOf('</svg>');
  const elements: string[] = [];
  while (p < end) {
    if (svg[p] !== '<') throw new Error(`unexpected SVG text at ${p}`);
    const close = svg.startsWith('<g>', p) ? svg.indexOf('</g>', p) + '</g>'.length : svg.indexOf('/>', p) + 2;
    if (close < p + 2) throw new Error(`unterminated SVG element at ${p}`);
    elements.push(svg.slice(p, close));
    p = close;
  }
  return elements;
}

function numbers(text: string): number[] {
  return text
    .trim()
    .split(/[\s,]+/)
    .map(Number);
}

/** The full (unoccluded) extent an object element draws, outline included. */
function drawnExtent(el: string): [number, number, number, number] {
  const attr = (name: string, from = el): number => Number(new RegExp(`\\s${name}="([^"]+)"`).exec(from)?.[1]);
  const sw = Number.isNaN(attr('stroke-width')) ? 0 : attr('stroke-width') / 2;
  if (el.startsWith('<circle')) {
    const [cx, cy, r] = [attr('cx'), attr('cy'), attr('r') + sw];
    return [cx - r, cy - r, cx + r, cy + r];
  }
  if (el.startsWith('<path')) {
    // ring: the first arc starts at the outer circle's left point, "M{x-r1} {y}a{r1} ..."
    const m = /d="M([-\d.]+) ([-\d.]+)a([\d.]+) /.exec(el);
    if (!m) throw new Error('unexpected ring path');
    const [x0, y, r1] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const cx = x0 + r1;
    const r = r1 + sw;
    return [cx - r, y - r, cx + r, y + r];
  }
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const m of el.matchAll(/<polygon points="([^"]+)"([^>]*)\/>/g)) {
    const own = m[2] ?? '';
    const w = Number.isNaN(attr('stroke-width', own)) ? 0 : attr('stroke-width', own) / 2;
    const v = numbers(m[1] ?? '');
    for (let i = 0; i + 1 < v.length; i += 2) {
      box[0] = Math.min(box[0], v[i]! - w);
      box[1] = Math.min(box[1], v[i + 1]! - w);
      box[2] = Math.max(box[2], v[i]! + w);
      box[3] = Math.max(box[3], v[i + 1]! + w);
    }
  }
  return box;
}

/** Each labelled object's fill colour, read back from the scene's SVG (see the header). */
function objectFills(scene: Scene): Fill[] {
  const n = scene.objects.length;
  if (n === 0) return [];
  const els = topLevelElements(scene.svg);
  let last = els.length;
  while (last > 0 && els[last - 1]!.startsWith('<rect')) last--; // lighting, haze, grain
  while (last > 0 && els[last - 1]!.startsWith('<polyline')) last--; // foreground lines
  if (last < n) throw new Error('fewer SVG elements than objects');
  const objectEls = els.slice(last - n, last);
  return scene.objects.map((o, k) => {
    const el = objectEls[k]!;
    const kind =
      o.label === 'circle' ? '<circle' : o.label === 'ring' ? '<path' : o.label === 'traffic cone' ? '<g>' : '<polygon';
    if (!el.startsWith(kind)) throw new Error(`object ${k} (${o.label}) is drawn as ${el.slice(0, 12)}`);
    const ext = drawnExtent(el);
    const [x1, y1, x2, y2] = o.box;
    if (x1 < ext[0] - 1 || y1 < ext[1] - 1 || x2 > ext[2] + 1 || y2 > ext[3] + 1)
      throw new Error(`object ${k} (${o.label}): box ${o.box} outside its drawn extent ${ext}`);
    const fill = /\sfill="([^"]+)"/.exec(el)?.[1];
    if (!fill) throw new Error(`object ${k} has no fill`);
    const grad = /^url\(#([^)]+)\)$/.exec(fill);
    if (!grad) return { ...hslOf(rgbOfHex(fill)), gradient: false };
    const def = new RegExp(`<linearGradient id="${grad[1]}"[^>]*>(.*?)</linearGradient>`).exec(scene.svg);
    const stops = [...(def?.[1] ?? '').matchAll(/stop-color="([^"]+)"/g)].map((m) => rgbOfHex(m[1] ?? ''));
    if (stops.length !== 2) throw new Error(`object ${k}: gradient ${grad[1]} not found`);
    const [a, b] = stops as [[number, number, number], [number, number, number]];
    return { ...hslOf([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]), gradient: true };
  });
}

function colourClass(f: Fill): number | undefined {
  if (f.chroma < MIN_CHROMA || f.l < MIN_LIGHTNESS || f.l > MAX_LIGHTNESS) return undefined;
  return Math.floor(((f.h + 30) % 360) / 60);
}

// ---------------------------------------------------------------- crops (the server's way)

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The server's own crop (src/inference/pipeline/crops.ts cropRect), on a box in pixels. */
export function cropRect(box: readonly number[], width: number, height: number, padding: number, square: boolean) {
  const [x1, y1, x2, y2] = box as [number, number, number, number];
  return serverCropRect([x1 / width, y1 / height, x2 / width, y2 / height], width, height, {
    padding,
    square,
    minSize: MIN_SIZE,
  });
}

/** native/src/preprocess.cc's Axis: source positions and weights along one axis (pixel centres aligned). */
function axis(srcLen: number, dstLen: number) {
  const i0 = new Int32Array(dstLen);
  const i1 = new Int32Array(dstLen);
  const w1 = new Float32Array(dstLen);
  const scale = srcLen / dstLen;
  for (let d = 0; d < dstLen; d++) {
    let s = (d + 0.5) * scale - 0.5;
    if (s < 0) s = 0;
    let a = Math.trunc(s);
    if (a > srcLen - 1) a = srcLen - 1;
    i0[d] = a;
    i1[d] = Math.min(a + 1, srcLen - 1);
    w1[d] = s - a;
  }
  return { i0, i1, w1 };
}

/** The crop `c` of an RGB image letterboxed into SIZE x SIZE, as the server's preprocessing does it. */
export function letterboxCrop(src: Buffer, srcWidth: number, c: Rect): { pixels: Buffer; rect: Rect } {
  const ratio = Math.min(SIZE / c.width, SIZE / c.height);
  const rw = Math.min(SIZE, Math.max(1, Math.round(c.width * ratio)));
  const rh = Math.min(SIZE, Math.max(1, Math.round(c.height * ratio)));
  const rect = { x: Math.floor((SIZE - rw) / 2), y: Math.floor((SIZE - rh) / 2), width: rw, height: rh };
  const ax = axis(c.width, rw);
  const ay = axis(c.height, rh);
  const f = Math.fround;
  const pixels = Buffer.alloc(SIZE * SIZE * 3, PAD);
  for (let ry = 0; ry < rh; ry++) {
    const r0 = (c.y + ay.i0[ry]!) * srcWidth * 3;
    const r1 = (c.y + ay.i1[ry]!) * srcWidth * 3;
    const wy = ay.w1[ry]!;
    for (let rx = 0; rx < rw; rx++) {
      const c0 = (c.x + ax.i0[rx]!) * 3;
      const c1 = (c.x + ax.i1[rx]!) * 3;
      const wx = ax.w1[rx]!;
      for (let k = 0; k < 3; k++) {
        const a = src[r0 + c0 + k]!;
        const top = f(a + f((src[r0 + c1 + k]! - a) * wx));
        const b = src[r1 + c0 + k]!;
        const bottom = f(b + f((src[r1 + c1 + k]! - b) * wx));
        const v = f(top + f(f(bottom - top) * wy));
        pixels[((rect.y + ry) * SIZE + rect.x + rx) * 3 + k] = v <= 0 ? 0 : v >= 255 ? 255 : Math.trunc(f(v + 0.5));
      }
    }
  }
  return { pixels, rect };
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      split: { type: 'string' },
      'seed-start': { type: 'string' },
      count: { type: 'string', default: '100' },
      'crops-per-object': { type: 'string', default: '1' },
      format: { type: 'string', default: 'mixed' },
      concurrency: { type: 'string', default: '2' },
    },
  });
  if (!values.out || (values.split !== 'train' && values.split !== 'eval')) {
    console.error(
      'usage: generate_crops.ts --out DIR --split train|eval [--seed-start S] [--count N] [--crops-per-object K] [--format png|jpeg|mixed] [--concurrency C]',
    );
    process.exit(2);
  }
  const out = values.out;
  const split = values.split;
  const seedStart = Number(values['seed-start'] ?? (split === 'train' ? TRAIN_SEED_START : EVAL_SEED_START));
  const count = Number(values.count);
  const cropsPerObject = Math.max(1, Number(values['crops-per-object']));
  const formatArg = values.format;
  if (formatArg !== 'png' && formatArg !== 'jpeg' && formatArg !== 'mixed')
    throw new Error(`bad --format ${formatArg}`);
  const format: 'png' | 'jpeg' | 'mixed' = formatArg;
  const concurrency = Math.max(1, Number(values.concurrency));
  if (!Number.isInteger(seedStart) || !Number.isInteger(count) || count < 1) throw new Error('bad seed range');
  if (split === 'train' && (seedStart < TRAIN_SEED_START || seedStart + count > TRAIN_SEED_START + TRAIN_SEED_COUNT))
    throw new Error(`training seeds must lie in [${TRAIN_SEED_START}, ${TRAIN_SEED_START + TRAIN_SEED_COUNT})`);
  if (split === 'eval' && seedStart < EVAL_SEED_START)
    throw new Error(`held-out seeds start at EVAL_SEED_START (${EVAL_SEED_START})`);
  sharp.concurrency(1);
  sharp.cache(false);

  await mkdir(join(out, 'crops'), { recursive: true });
  const lines: string[][] = new Array<string[]>(count);
  const skipped = { grey: 0, small: 0 };
  const perClass = new Array<number>(COLOURS.length).fill(0);
  let next = 0;
  let done = 0;
  const t0 = Date.now();

  async function one(i: number): Promise<void> {
    const seed = seedStart + i;
    const scene = makeScene(seed);
    const fills = objectFills(scene);
    const enc = encodingFor(seed, format);
    const mine: string[] = [];
    lines[i] = mine;
    const wanted = scene.objects.map((_, k) => colourClass(fills[k]!));
    skipped.grey += wanted.filter((c) => c === undefined).length;
    if (wanted.every((c) => c === undefined)) return;
    const bytes = await renderScene(scene, enc.kind, enc.quality);
    const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.width !== scene.width || info.height !== scene.height || info.channels !== 3)
      throw new Error(`seed ${seed}: decoded ${info.width}x${info.height}x${info.channels}`);
    for (let k = 0; k < scene.objects.length; k++) {
      const classId = wanted[k];
      if (classId === undefined) continue;
      const o = scene.objects[k]!;
      for (let j = 0; j < cropsPerObject; j++) {
        const rand = mulberry32(hash(seed, k, j, 0xc0));
        const [x1, y1, x2, y2] = o.box;
        const bw = x2 - x1;
        const bh = y2 - y1;
        const jittered = rand() < 0.5;
        const jit = (size: number) => (jittered ? (rand() * 2 - 1) * JITTER * size : 0);
        const box = [x1 + jit(bw), y1 + jit(bh), x2 + jit(bw), y2 + jit(bh)].map((v) => Math.round(v * 100) / 100);
        const padding = Math.round(rand() * MAX_PADDING * 1000) / 1000;
        const square = rand() < 0.5;
        const crop = cropRect(box, scene.width, scene.height, padding, square);
        if (!crop) {
          skipped.small++;
          continue;
        }
        const { pixels, rect } = letterboxCrop(data, scene.width, crop);
        const file = `crops/${seed}_${k}${cropsPerObject > 1 ? `_${j}` : ''}.png`;
        await writeFile(
          join(out, file),
          await sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 3 } })
            .png({ compressionLevel: 6 })
            .toBuffer(),
        );
        perClass[classId]!++;
        const f = fills[k]!;
        mine.push(
          JSON.stringify({
            file,
            seed,
            object: k,
            label: COLOURS[classId],
            classId,
            shape: o.label,
            fill: {
              h: Math.round(f.h * 10) / 10,
              s: Math.round(f.s * 1000) / 1000,
              l: Math.round(f.l * 1000) / 1000,
              chroma: Math.round(f.chroma * 1000) / 1000,
              gradient: f.gradient,
            },
            box: o.box,
            cropBox: box,
            padding,
            square,
            crop,
            rect,
            encoding: enc.kind,
          }),
        );
      }
    }
  }

  async function worker(): Promise<void> {
    while (next < count) {
      const i = next++;
      await one(i);
      done++;
      if (done % 500 === 0) console.log(`${done}/${count} scenes (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
  }

  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  const all = lines.flat();
  await writeFile(join(out, 'labels.jsonl'), all.join('\n') + '\n');
  console.log(
    `wrote ${all.length} crops of ${count} scenes (seeds ${seedStart}-${seedStart + count - 1}) to ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  console.log(`per class: ${COLOURS.map((c, i) => `${c} ${perClass[i]}`).join(', ')}`);
  console.log(`skipped: ${skipped.grey} objects without a clear colour, ${skipped.small} crops under ${MIN_SIZE} px`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
