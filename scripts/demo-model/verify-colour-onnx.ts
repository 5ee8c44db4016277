// Checks models/demo-colour/model.onnx under onnxruntime-node:
// - model.json parses as the server parses it, and agrees with the graph (input [batch,3,64,64],
//   output [batch,6]);
// - a few held-out crops run alone and as one batch give the same probabilities (within 1e-4);
// - with --ref (export_colour.py --verify-dir): every held-out crop, in batches, against PyTorch's
//   probabilities, and the held-out accuracy under onnxruntime-node;
// - the red circle (#d03030) and the blue square (#3050d0) of test/helpers/moving-shapes.ts, cut
//   from frame 25 of clipFrames() the way a child stage cuts them (generate_crops.ts cropRect() and
//   letterboxCrop(), several paddings, square or not), come out red and blue.
//
//   node --import tsx scripts/demo-model/verify-colour-onnx.ts --model models/demo-colour \
//     --eval /tmp/demo-colour/eval [--ref /tmp/demo-colour/verify]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { parseModelConfig } from '../../src/inference/versions/model-config.js';
import { CLIP, clipFrames } from '../../test/helpers/moving-shapes.js';
import { cropRect, letterboxCrop } from './generate_crops.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/demo-colour' },
    eval: { type: 'string' },
    ref: { type: 'string' },
    singles: { type: 'string', default: '8' },
  },
});
if (!values.eval) throw new Error('--eval DIR (generate_crops.ts --split eval) is required');
const evalDir = values.eval;
const modelDir = values.model!;
const SIZE = 64;
const ONE = 3 * SIZE * SIZE;

const config = parseModelConfig(JSON.parse(readFileSync(join(modelDir, 'model.json'), 'utf8')));
const labels = config.labels;
if (config.input.width !== SIZE || config.input.height !== SIZE || config.output.format !== 'classification')
  throw new Error('model.json: expected a 64x64 classifier');
console.log(`model.json: ${config.name}, labels ${labels.join(', ')}, defaults ${JSON.stringify(config.defaults)}`);

const session = await ort.InferenceSession.create(join(modelDir, 'model.onnx'));
const inputName = session.inputNames[0]!;
const outputName = session.outputNames[0]!;
console.log('inputs', session.inputNames, 'outputs', session.outputNames);

/** HWC RGB bytes (64x64) to the model's CHW float input: RGB / 255. */
function tensorOf(rgb: Uint8Array): Float32Array {
  const t = new Float32Array(ONE);
  for (let i = 0; i < SIZE * SIZE; i++) for (let k = 0; k < 3; k++) t[k * SIZE * SIZE + i] = rgb[i * 3 + k]! / 255;
  return t;
}

async function run(inputs: readonly Float32Array[]): Promise<Float32Array[]> {
  const batch = new Float32Array(inputs.length * ONE);
  inputs.forEach((x, i) => batch.set(x, i * ONE));
  const out = await session.run({ [inputName]: new ort.Tensor('float32', batch, [inputs.length, 3, SIZE, SIZE]) });
  const y = out[outputName]!;
  if (y.dims.length !== 2 || y.dims[0] !== inputs.length || y.dims[1] !== labels.length)
    throw new Error(`output shape [${y.dims}], expected [${inputs.length}, ${labels.length}]`);
  const data = y.data as Float32Array;
  return inputs.map((_, i) => data.slice(i * labels.length, (i + 1) * labels.length));
}

function argmax(p: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > p[best]!) best = i;
  return best;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

async function crop(file: string): Promise<Float32Array> {
  const { data, info } = await sharp(join(evalDir, file)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== SIZE || info.height !== SIZE) throw new Error(`${file}: ${info.width}x${info.height}`);
  return tensorOf(data);
}

// ---------------------------------------------------------------- alone and batched

const lines = readFileSync(join(evalDir, 'labels.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { file: string; label: string; classId: number });
const some = lines.slice(0, Number(values.singles));
const someInputs = await Promise.all(some.map((m) => crop(m.file)));
const alone: Float32Array[] = [];
for (const x of someInputs) alone.push((await run([x]))[0]!);
const batched = await run(someInputs);
let worst = 0;
some.forEach((m, i) => {
  const p = alone[i]!;
  worst = Math.max(worst, maxDiff(p, batched[i]!));
  const sum = p.reduce((s, v) => s + v, 0);
  if (Math.abs(sum - 1) > 1e-4) throw new Error(`${m.file}: probabilities sum to ${sum}`);
  console.log(`  ${m.file}: true ${m.label}, predicted ${labels[argmax(p)]} (${p[argmax(p)]!.toFixed(4)})`);
});
console.log(`${some.length} held-out crops alone and as one batch: max |batched - alone| ${worst.toExponential(2)}`);
if (!(worst <= 1e-4)) throw new Error('a batch differs from its crops run alone');

// ---------------------------------------------------------------- the whole held-out set against PyTorch

if (values.ref) {
  const ref = JSON.parse(readFileSync(join(values.ref, 'reference.json'), 'utf8')) as {
    crops: Array<{ file: string; classId: number; probabilities: number[] }>;
  };
  if (ref.crops.length !== lines.length) throw new Error('reference.json is of another held-out set');
  let diff = 0;
  let agree = 0;
  let correct = 0;
  for (let i = 0; i < ref.crops.length; i += 64) {
    const part = ref.crops.slice(i, i + 64);
    const ys = await run(await Promise.all(part.map((c) => crop(c.file))));
    part.forEach((c, j) => {
      const y = ys[j]!;
      diff = Math.max(diff, maxDiff(y, c.probabilities));
      if (argmax(y) === argmax(c.probabilities)) agree++;
      if (argmax(y) === c.classId) correct++;
    });
  }
  const n = ref.crops.length;
  console.log(
    `${n} held-out crops in batches of 64: max |onnx - torch| ${diff.toExponential(2)}, same class ${agree}/${n}, accuracy ${(correct / n).toFixed(4)} (${correct}/${n})`,
  );
  if (diff > 1e-4 || agree !== n) throw new Error('onnxruntime-node differs from PyTorch');
}

// ---------------------------------------------------------------- the moving-shapes clip

const frame = (await clipFrames())[25]!;
const { data: pixels, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
if (info.width !== CLIP.width || info.height !== CLIP.height) throw new Error('unexpected clip frame size');
// frame 25: the circle (radius 30) at (0.5, 0.3) of the image, the square (side 60) at (0.75, 0.7)
const shapes = [
  { name: 'circle #d03030', expected: 'red', x: 0.5 * CLIP.width, y: 0.3 * CLIP.height },
  { name: 'square #3050d0', expected: 'blue', x: 0.75 * CLIP.width, y: 0.7 * CLIP.height },
];
let failures = 0;
for (const s of shapes) {
  const box = [s.x - 30, s.y - 30, s.x + 30, s.y + 30];
  const results: string[] = [];
  for (const padding of [0, 0.1, 0.2]) {
    for (const square of [false, true]) {
      const rect = cropRect(box, info.width, info.height, padding, square);
      if (!rect) throw new Error('empty crop');
      const [p] = await run([tensorOf(letterboxCrop(pixels, info.width, rect).pixels)]);
      const got = labels[argmax(p!)];
      if (got !== s.expected) failures++;
      results.push(`padding ${padding}${square ? ' square' : ''}: ${got} ${p![argmax(p!)]!.toFixed(4)}`);
    }
  }
  console.log(`${s.name} (expected ${s.expected}): ${results.join('; ')}`);
}
if (failures) throw new Error(`${failures} moving-shapes crops got the wrong colour`);
console.log('ok');
