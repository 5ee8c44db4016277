// The naive baseline: the predict server a typical user would write in an
// afternoon. express + multer (memory storage) + sharp + onnxruntime-node,
// everything on the main thread, default session options, per-pixel
// normalisation in JavaScript. Same answer format as the real server, for
// YOLOv8-convention models. Used only by the benchmark harness.
//   PORT=8090 MODEL_DIR=models/demo node --import tsx bench/baseline/server.ts
import express from 'express';
import multer from 'multer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';

const modelDir = process.env.MODEL_DIR ?? 'models/demo';
const config = JSON.parse(readFileSync(join(modelDir, 'model.json'), 'utf8')) as {
  labels: string[];
  input: { width: number; height: number };
};
const { width: W, height: H } = config.input;
const session = await ort.InferenceSession.create(join(modelDir, 'model.onnx'));
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 10 * 1024 * 1024 } });
const app = express();

function iou(a: number[], b: number[]): number {
  const w = Math.max(0, Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!));
  const h = Math.max(0, Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = w * h;
  return inter / ((a[2]! - a[0]!) * (a[3]! - a[1]!) + (b[2]! - b[0]!) * (b[3]! - b[1]!) - inter);
}

app.post('/v1/models/:id/predict', upload.single('file'), async (req, res) => {
  try {
    if (!req.file) {
      res.status(400).json({ status: 400, message: 'could not parse multipart form' });
      return;
    }
    const meta = await sharp(req.file.buffer).metadata();
    const scale = Math.min(W / meta.width!, H / meta.height!);
    const nw = Math.round(meta.width! * scale);
    const nh = Math.round(meta.height! * scale);
    const padX = Math.floor((W - nw) / 2);
    const padY = Math.floor((H - nh) / 2);
    const { data } = await sharp(req.file.buffer)
      .resize(nw, nh)
      .extend({
        top: padY,
        bottom: H - nh - padY,
        left: padX,
        right: W - nw - padX,
        background: { r: 114, g: 114, b: 114 },
      })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const input = new Float32Array(3 * W * H);
    for (let i = 0; i < W * H; i++) {
      input[i] = data[i * 3]! / 255;
      input[W * H + i] = data[i * 3 + 1]! / 255;
      input[2 * W * H + i] = data[i * 3 + 2]! / 255;
    }
    const outputs = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, H, W]) });
    const out = outputs[session.outputNames[0]!]!;
    const [, rows, n] = out.dims as [number, number, number];
    const d = out.data as Float32Array;
    const found: Array<{ box: number[]; score: number; cls: number }> = [];
    for (let i = 0; i < n; i++) {
      let best = 0;
      let cls = 0;
      for (let c = 4; c < rows; c++) {
        if (d[c * n + i]! > best) {
          best = d[c * n + i]!;
          cls = c - 4;
        }
      }
      if (best < 0.25) continue;
      const cx = d[i]!;
      const cy = d[n + i]!;
      const w = d[2 * n + i]!;
      const h = d[3 * n + i]!;
      found.push({ box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], score: best, cls });
    }
    found.sort((a, b) => b.score - a.score);
    const kept: typeof found = [];
    for (const f of found) if (!kept.some((k) => k.cls === f.cls && iou(k.box, f.box) > 0.45)) kept.push(f);
    const result: Record<string, unknown[]> = {};
    for (const k of kept.slice(0, 100)) {
      const clamp = (v: number) => Math.min(1, Math.max(0, v));
      const [x1, y1, x2, y2] = k.box as [number, number, number, number];
      (result[config.labels[k.cls]!] ??= []).push({
        type: 'rectangle',
        data: {
          min: [clamp((x1 - padX) / nw), clamp((y1 - padY) / nh)],
          max: [clamp((x2 - padX) / nw), clamp((y2 - padY) / nh)],
        },
        score: k.score,
        children: {},
      });
    }
    res.json(result);
  } catch (error) {
    res.status(500).json({ status: 500, message: 'could not inference model', error: String(error) });
  }
});

app.get('/health', (_req, res) => res.send('ok'));

const server = app.listen(Number(process.env.PORT ?? 8090), '127.0.0.1', () => {
  const address = server.address();
  process.stderr.write(`baseline listening port=${typeof address === 'object' && address ? address.port : '?'}\n`);
});
