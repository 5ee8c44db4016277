import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { convertToFloat16 } from './src/inference/graph/float16.js';
for (const dir of ['models/demo', 'bench/.cache/yolov8n', 'models/demo-seg']) {
  const bytes = readFileSync(`${dir}/model.onnx`);
  const cfg = JSON.parse(readFileSync(`${dir}/model.json`, 'utf8'));
  let t = performance.now();
  const half = convertToFloat16(bytes);
  console.log(dir, 'convert ms', (performance.now() - t).toFixed(0), bytes.length, '->', half.length);
  const a = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 });
  const b = await ort.InferenceSession.create(half, { intraOpNumThreads: 1 });
  const W = cfg.input.width, H = cfg.input.height;
  const x = new Float32Array(3 * W * H); for (let i = 0; i < x.length; i++) x[i] = ((i * 7919) % 256) / 255;
  const feeds = { [a.inputNames[0]!]: new ort.Tensor('float32', x, [1, 3, H, W]) };
  const ra = await a.run(feeds); const rb = await b.run(feeds);
  for (const n of a.outputNames) { const p = ra[n]!.data as Float32Array, q = rb[n]!.data as Float32Array; let m = 0, s = 0; for (let i = 0; i < p.length; i++) { const d = Math.abs(p[i]! - q[i]!); m = Math.max(m, d); s += Math.abs(p[i]!); } console.log(' ', n, rb[n]!.type, ra[n]!.dims, 'max abs diff', m.toFixed(4), 'mean abs', (s / p.length).toFixed(4)); }
  for (const [name, s] of [['fp32', a], ['fp16', b]] as const) { for (let i = 0; i < 3; i++) await s.run(feeds); t = performance.now(); for (let i = 0; i < 10; i++) await s.run(feeds); console.log(' ', name, ((performance.now() - t) / 10).toFixed(1), 'ms'); }
}
