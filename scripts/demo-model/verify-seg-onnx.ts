// Checks models/demo-seg/model.onnx under onnxruntime-node against PyTorch's outputs (written by
// export_seg.py --verify-dir): both outputs (boxes/scores/mask coefficients, prototypes) for each
// reference input, and that a batch of all of them gives what each gives alone.
//
//   node --import tsx scripts/demo-model/verify-seg-onnx.ts --model models/demo-seg --ref /tmp/demo-seg/verify
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';

const { values } = parseArgs({
  options: { model: { type: 'string', default: 'models/demo-seg' }, ref: { type: 'string' } },
});
if (!values.ref) throw new Error('--ref DIR is required');
const ref = values.ref;
const session = await ort.InferenceSession.create(join(values.model!, 'model.onnx'));
console.log('inputs', session.inputNames, 'outputs', session.outputNames);
const [H, W] = [320, 320];

function floats(path: string): Float32Array {
  const b = readFileSync(path);
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

async function run(input: Float32Array, batch = 1) {
  const out = await session.run({ images: new ort.Tensor('float32', input, [batch, 3, H, W]) });
  const det = out['output0'];
  const protos = out['output1'];
  if (!det || !protos) throw new Error('expected outputs output0 and output1');
  return {
    det: det.data as Float32Array,
    detDims: det.dims,
    protos: protos.data as Float32Array,
    protoDims: protos.dims,
  };
}

function maxDiff(a: Float32Array, b: Float32Array, from = 0, to = a.length): number {
  let m = 0;
  for (let i = from; i < to; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const inputs = readdirSync(ref)
  .filter((f) => /^input_\d+\.bin$/.test(f))
  .sort();
const singles: Array<Awaited<ReturnType<typeof run>>> = [];
for (const f of inputs) {
  const k = f.slice(6, -4);
  const out = await run(floats(join(ref, f)));
  singles.push(out);
  const det = floats(join(ref, `torch_${k}.bin`));
  const protos = floats(join(ref, `protos_${k}.bin`));
  if (det.length !== out.det.length || protos.length !== out.protos.length)
    throw new Error('output sizes differ from PyTorch');
  const n = out.detDims[2]!;
  const boxes = maxDiff(out.det, det, 0, 4 * n);
  const rest = maxDiff(out.det, det, 4 * n);
  const p = maxDiff(out.protos, protos);
  console.log(
    `${f}: output0 [${out.detDims.join(',')}] max |onnx - torch| boxes ${boxes.toExponential(2)} px, scores+coefficients ${rest.toExponential(2)}; output1 [${out.protoDims.join(',')}] ${p.toExponential(2)}`,
  );
  if (boxes > 1e-2 || rest > 1e-3 || p > 1e-3) throw new Error('ONNX output differs from PyTorch');
}
if (inputs.length > 1) {
  const batch = new Float32Array(inputs.length * 3 * H * W);
  inputs.forEach((f, i) => batch.set(floats(join(ref, f)), i * 3 * H * W));
  const out = await run(batch, inputs.length);
  let worst = 0;
  singles.forEach((one, i) => {
    worst = Math.max(worst, maxDiff(one.det, out.det.subarray(i * one.det.length, (i + 1) * one.det.length)));
    worst = Math.max(
      worst,
      maxDiff(one.protos, out.protos.subarray(i * one.protos.length, (i + 1) * one.protos.length)),
    );
  });
  console.log(
    `batch of ${inputs.length}: output0 [${out.detDims.join(',')}], output1 [${out.protoDims.join(',')}], max |batched - alone| ${worst.toExponential(2)}`,
  );
  if (!(worst <= 1e-3)) throw new Error('batched output differs from single-image output');
}
console.log('ok');
