// Writes synthetic scenes (images + one labels.jsonl) for training / evaluation.
//
//   node --import tsx scripts/demo-model/generate.ts --out DIR --seed-start S --count N
//        [--format png|jpeg|mixed] [--quality 90] [--resize-to 320x320] [--concurrency 2]
//
// DIR/images/<seed>.<png|jpg> and DIR/labels.jsonl, one line per image in seed order:
//   {"file":"images/9000000.png","seed":9000000,"width":839,"height":377,
//    "objects":[{"label":"arrow","classId":6,"box":[x1,y1,x2,y2]}, ...]}
// Boxes are in original-image pixels.
//
// --format mixed: per seed, ~35% JPEG at quality 60..95, the rest PNG (the
//   choice is a hash of the seed, so it is reproducible).
// --resize-to WxH: instead of the full image, write what the server's
//   preprocessing hands to the model before padding: the encoded image decoded
//   by sharp and resized (kernel 'linear', fit 'fill') to the letterbox
//   rectangle round(w*r) x round(h*r), r = min(W/w, H/h); saved as lossless PNG.
//   The label line then also has "rect":{"x":..,"y":..,"width":..,"height":..}
//   (floor-centred placement inside the W x H input). Used for training so
//   that the model sees exactly the server's resampling (incl. JPEG
//   shrink-on-load), leaving only the padding (value 114) to the trainer.
// --masks: also writes DIR/masks/<seed>.png, an 8-bit greyscale instance map
//   of the VISIBLE pixels at the written image's size (the letterbox rectangle
//   with --resize-to, else the full image): 0 = no object, k + 1 = objects[k].
//   It comes from the same hit tests and occluders as the boxes (scenes.ts,
//   instanceMask(): pixel-centre sampling, nearest when downscaled), and the
//   label line gains "mask":"masks/<seed>.png". Without --masks the output is
//   byte-identical to what it was before the option existed.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { makeScene, renderScene } from './scenes.js';

sharp.concurrency(1);
sharp.cache(false);

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    'seed-start': { type: 'string' },
    count: { type: 'string' },
    format: { type: 'string', default: 'png' },
    quality: { type: 'string', default: '90' },
    'resize-to': { type: 'string' },
    concurrency: { type: 'string', default: '2' },
    masks: { type: 'boolean', default: false },
  },
});
if (!values.out || values['seed-start'] === undefined || values.count === undefined) {
  console.error(
    'usage: generate.ts --out DIR --seed-start S --count N [--format png|jpeg|mixed] [--quality Q] [--resize-to WxH] [--concurrency C] [--masks]',
  );
  process.exit(2);
}
const out = values.out;
const seedStart = Number(values['seed-start']);
const count = Number(values.count);
const format = values.format;
if (format !== 'png' && format !== 'jpeg' && format !== 'mixed') throw new Error(`bad --format ${format}`);
const quality = Number(values.quality);
let target: { width: number; height: number } | null = null;
if (values['resize-to']) {
  const m = /^(\d+)x(\d+)$/.exec(values['resize-to']);
  if (!m) throw new Error('--resize-to takes WxH');
  target = { width: Number(m[1]), height: Number(m[2]) };
}
const concurrency = Math.max(1, Number(values.concurrency));
const masks = values.masks === true;

function hash(seed: number, salt: number): number {
  let h = Math.imul((seed ^ salt) >>> 0, 2654435761);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

function encodingFor(seed: number): { kind: 'png' | 'jpeg'; quality: number } {
  if (format === 'png') return { kind: 'png', quality };
  if (format === 'jpeg') return { kind: 'jpeg', quality };
  return hash(seed, 0x51) % 100 < 35
    ? { kind: 'jpeg', quality: 60 + (hash(seed, 0x77) % 36) }
    : { kind: 'png', quality };
}

await mkdir(join(out, 'images'), { recursive: true });
if (masks) await mkdir(join(out, 'masks'), { recursive: true });
const lines: string[] = new Array<string>(count);
let next = 0;
let done = 0;
const t0 = Date.now();

async function one(i: number): Promise<void> {
  const seed = seedStart + i;
  const scene = makeScene(seed);
  const enc = encodingFor(seed);
  const bytes = await renderScene(scene, enc.kind, enc.quality);
  const record: Record<string, unknown> = { file: '', seed, width: scene.width, height: scene.height };
  if (target) {
    // Same placement and resize as the server (src/inference/pipeline/letterbox.ts, decode-image.ts).
    const ratio = Math.min(target.width / scene.width, target.height / scene.height);
    const rw = Math.min(target.width, Math.max(1, Math.round(scene.width * ratio)));
    const rh = Math.min(target.height, Math.max(1, Math.round(scene.height * ratio)));
    const rect = {
      x: Math.floor((target.width - rw) / 2),
      y: Math.floor((target.height - rh) / 2),
      width: rw,
      height: rh,
    };
    const { data, info } = await sharp(bytes, { failOn: 'error', sequentialRead: true })
      .autoOrient()
      .resize(rw, rh, { fit: 'fill', kernel: 'linear' })
      .flatten({ background: { r: 114, g: 114, b: 114 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const file = `images/${seed}.png`;
    await writeFile(
      join(out, file),
      await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
        .png({ compressionLevel: 1 })
        .toBuffer(),
    );
    record.file = file;
    record.encoding = enc.kind;
    record.rect = rect;
  } else {
    const file = `images/${seed}.${enc.kind === 'jpeg' ? 'jpg' : 'png'}`;
    await writeFile(join(out, file), bytes);
    record.file = file;
  }
  if (masks) {
    const size = (record.rect as { width: number; height: number } | undefined) ?? scene;
    const ids = scene.instanceMask(size.width, size.height);
    const file = `masks/${seed}.png`;
    await writeFile(
      join(out, file),
      await sharp(Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength), {
        raw: { width: size.width, height: size.height, channels: 1 },
      })
        .toColourspace('b-w')
        .png({ compressionLevel: 6 })
        .toBuffer(),
    );
    record.mask = file;
  }
  record.objects = scene.objects;
  lines[i] = JSON.stringify(record);
}

async function worker(): Promise<void> {
  while (next < count) {
    const i = next++;
    await one(i);
    done++;
    if (done % 500 === 0) console.log(`${done}/${count} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
}

await Promise.all(Array.from({ length: concurrency }, () => worker()));
await writeFile(join(out, 'labels.jsonl'), lines.join('\n') + '\n');
console.log(`wrote ${count} images to ${out} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
