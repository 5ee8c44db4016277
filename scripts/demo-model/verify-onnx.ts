// Checks models/demo/model.onnx under onnxruntime-node against PyTorch's outputs (written by
// export.py --verify-dir), then runs one scene through a server-like path (sharp letterbox,
// decode, class-wise NMS) and prints the detections next to the ground truth.
//
//   node --import tsx scripts/demo-model/verify-onnx.ts --model models/demo --ref /tmp/demo-model/verify [--seed 9000000]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import { makeScene, renderScene } from './scenes.js';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'models/demo' },
    ref: { type: 'string' },
    seed: { type: 'string', default: '9000000' },
  },
});
const dir = values.model ?? 'models/demo';
interface ModelJson {
  labels: string[];
  input: { name: string; width: number; height: number; padValue: number };
  defaults: { threshold: number; iou: number; maxDetections: number };
}
const config = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as ModelJson;
const session = await ort.InferenceSession.create(join(dir, 'model.onnx'));
const W = config.input.width;
const H = config.input.height;
console.log('inputs', session.inputNames, 'outputs', session.outputNames);

function floats(path: string): Float32Array {
  const b = readFileSync(path);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

async function run(input: Float32Array, batch = 1): Promise<{ data: Float32Array; dims: readonly number[] }> {
  const out = await session.run({ [config.input.name]: new ort.Tensor('float32', input, [batch, 3, H, W]) });
  const t = out['output0'];
  if (!t) throw new Error('no output0');
  return { data: t.data as Float32Array, dims: t.dims };
}

let worst = 0;
if (values.ref) {
  const inputs = readdirSync(values.ref).filter((f) => /^input_\d+\.bin$/.test(f));
  for (const f of inputs) {
    const k = f.slice(6, -4);
    const ref = floats(join(values.ref, `torch_${k}.bin`));
    const { data, dims } = await run(floats(join(values.ref, f)));
    if (data.length !== ref.length) throw new Error(`length ${data.length} vs ${ref.length}`);
    let maxBox = 0;
    let maxScore = 0;
    const n = dims[2] ?? 0;
    for (let i = 0; i < data.length; i++) {
      const d = Math.abs((data[i] ?? 0) - (ref[i] ?? 0));
      if (Math.floor(i / n) < 4) maxBox = Math.max(maxBox, d);
      else maxScore = Math.max(maxScore, d);
    }
    worst = Math.max(worst, maxBox);
    console.log(
      `${f}: dims [${dims.join(',')}], max |onnx - torch| boxes ${maxBox.toExponential(2)} px, scores ${maxScore.toExponential(2)}`,
    );
    if (maxBox > 1e-2 || maxScore > 1e-4) throw new Error('ONNX output differs from PyTorch');
  }
  // The batch axis is dynamic: all inputs in one call must give what each gives alone.
  if (inputs.length > 1) {
    const ref = values.ref;
    const singles: Float32Array[] = [];
    for (const f of inputs) singles.push((await run(floats(join(ref, f)))).data);
    const batch = new Float32Array(inputs.length * 3 * H * W);
    inputs.forEach((f, i) => batch.set(floats(join(ref, f)), i * 3 * H * W));
    const { data, dims } = await run(batch, inputs.length);
    const per = data.length / inputs.length;
    let maxDiff = 0;
    singles.forEach((one, i) =>
      one.forEach((v, k) => (maxDiff = Math.max(maxDiff, Math.abs((data[i * per + k] ?? NaN) - v)))),
    );
    console.log(
      `batch of ${inputs.length}: dims [${dims.join(',')}], max |batched - alone| ${maxDiff.toExponential(2)}`,
    );
    if (!(maxDiff <= 1e-4)) throw new Error('batched output differs from single-image output');
  }
}

// One held-out scene through a server-like path.
const scene = makeScene(Number(values.seed));
const png = await renderScene(scene, 'png');
const ratio = Math.min(W / scene.width, H / scene.height);
const rw = Math.min(W, Math.max(1, Math.round(scene.width * ratio)));
const rh = Math.min(H, Math.max(1, Math.round(scene.height * ratio)));
const rx = Math.floor((W - rw) / 2);
const ry = Math.floor((H - rh) / 2);
const { data: px } = await sharp(png)
  .resize(rw, rh, { fit: 'fill', kernel: 'linear' })
  .removeAlpha()
  .raw()
  .toBuffer({ resolveWithObject: true });
const input = new Float32Array(3 * W * H).fill(config.input.padValue / 255);
for (let y = 0; y < rh; y++) {
  for (let x = 0; x < rw; x++) {
    for (let c = 0; c < 3; c++) input[c * W * H + (y + ry) * W + x + rx] = (px[(y * rw + x) * 3 + c] ?? 0) / 255;
  }
}
const { data, dims } = await run(input);
const n = dims[2] ?? 0;
const nc = config.labels.length;
interface Det {
  box: [number, number, number, number];
  score: number;
  cls: number;
}
const cands: Det[] = [];
for (let i = 0; i < n; i++) {
  for (let c = 0; c < nc; c++) {
    const s = data[(4 + c) * n + i] ?? 0;
    if (s < config.defaults.threshold) continue;
    const cx = data[i] ?? 0,
      cy = data[n + i] ?? 0,
      w = data[2 * n + i] ?? 0,
      h = data[3 * n + i] ?? 0;
    const back = (v: number, o: number, len: number, full: number): number =>
      Math.min(1, Math.max(0, (v - o) / len)) * full;
    cands.push({
      box: [
        back(cx - w / 2, rx, rw, scene.width),
        back(cy - h / 2, ry, rh, scene.height),
        back(cx + w / 2, rx, rw, scene.width),
        back(cy + h / 2, ry, rh, scene.height),
      ],
      score: s,
      cls: c,
    });
  }
}
cands.sort((a, b) => b.score - a.score);
const iou = (a: Det['box'], b: Det['box']): number => {
  const iw = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const ih = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const i = iw * ih;
  return i / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i);
};
const kept: Det[] = [];
for (const d of cands) {
  if (kept.every((k) => k.cls !== d.cls || iou(k.box, d.box) < config.defaults.iou)) kept.push(d);
  if (kept.length >= config.defaults.maxDetections) break;
}
const fmt = (b: readonly number[]): string => b.map((v) => v.toFixed(1)).join(',');
console.log(
  `scene ${values.seed} (${scene.width}x${scene.height}): ${scene.objects.length} objects, ${kept.length} detections`,
);
for (const o of scene.objects) {
  const best = kept
    .filter((d) => d.cls === o.classId)
    .map((d) => ({ d, v: iou(d.box, o.box) }))
    .sort((a, b) => b.v - a.v)[0];
  console.log(
    `  gt ${o.label.padEnd(12)} [${fmt(o.box)}]  ->  ${best ? `${best.d.score.toFixed(2)} [${fmt(best.d.box)}] IoU ${best.v.toFixed(3)}` : 'missed'}`,
  );
}
console.log(
  worst > 0 ? `ONNX matches PyTorch (max box difference ${worst.toExponential(2)} px)` : 'no reference outputs checked',
);
