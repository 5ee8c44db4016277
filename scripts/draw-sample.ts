// node --import tsx scripts/draw-sample.ts [--seed N] [--out docs/demo-sample.png] [--model demo|demo-seg]
// Renders a held-out scene of the demo generator, runs a bundled demo model
// (models/<--model>) on it through the server's own engine (InferenceEngine:
// decode, native preprocessing, ONNX Runtime, NMS, masks to polygons) and
// draws the answer over it for docs/MODELS.md: the detector's boxes with the
// ground-truth boxes dashed, or the segmentation model's polygons (filled,
// outlined) with the outline of each ground-truth visible-pixel mask in white.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { readModelConfig } from '../src/inference/versions/model-config.js';
import { predictOptions } from '../src/inference/predict-options.js';
import { jpegDecoder } from '../src/inference/pipeline/decode-image.js';
import { InferenceEngine } from '../src/inference/inference-engine.js';
import { Logger } from '../src/log.js';
import { EVAL_SEED_START, makeScene, renderScene } from './demo-model/scenes.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(EVAL_SEED_START + 123) },
    out: { type: 'string', default: 'docs/demo-sample.png' },
    model: { type: 'string', default: 'demo' },
  },
});
const directory = join(import.meta.dirname, '..', 'models', values.model!);
const config = await readModelConfig(directory);
const engine = new InferenceEngine(
  {
    instances: {
      kind: 'cpu',
      count: 1,
      gpuDevices: [0],
      intraOpThreads: 2,
      runner: 'auto',
      cudaOptions: {},
      pinnedMemory: true,
    },
    batching: { maxBatchSize: 1, maxQueueDelayMs: 0, runTimeoutMs: 60_000 },
    graphRewrite: true,
    gpuPrecision: 'fp32',
    instanceMemoryBytes: 2048 * 1024 * 1024,
    executionProviders: ['cpu'],
    workers: 1,
    maxImageBytes: 10 * 1024 * 1024,
    maxImagePixels: 40_000_000,
    jpegDecoder: jpegDecoder().decoder,
    cache: { maxLoaded: 1, memoryBudgetBytes: Number.MAX_SAFE_INTEGER, concurrentLoads: 1 },
    keptImages: { bytes: 1024 * 1024 * 1024, organizationBytes: 512 * 1024 * 1024 },
  },
  new Logger({ level: 'info', format: 'text' }),
);
const scene = makeScene(Number(values.seed));
const image = await renderScene(scene, 'jpeg');
const model = await engine.acquire({ id: 'demo', organizationId: 'local', directory, config });
const json = Buffer.from(JSON.stringify({ image: image.toString('base64') }));
const body = new Uint8Array(json.byteLength);
body.set(json);
const result = await engine.predict(model, body.buffer, 'application/json', predictOptions({}, config.defaults));
engine.release(model);
await engine.close();

type Drawn = {
  type: string;
  data: { min: [number, number]; max: [number, number]; points: Array<[number, number]> };
  score: number;
};
const detections = JSON.parse(result.json) as Record<string, Drawn[]>;
const colours = [
  '#e6194b',
  '#3cb44b',
  '#4363d8',
  '#f58231',
  '#911eb4',
  '#42d4f4',
  '#f032e6',
  '#bfef45',
  '#fabed4',
  '#469990',
];
const colourOf = (label: string) => colours[config.labels.indexOf(label) % colours.length];
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const { width: W, height: H } = scene;
const shapes: string[] = [];
const layers: NonNullable<Parameters<ReturnType<typeof sharp>['composite']>[0]> = [];
const segmentation = config.output.format === 'yolov8-seg';
if (segmentation) {
  // ground truth: the outline (edge pixels) of each object's visible-pixel mask
  const ids = scene.instanceMask();
  const edges = Buffer.alloc(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = ids[y * W + x]!;
      if (!v) continue;
      const edge =
        x === 0 ||
        y === 0 ||
        x === W - 1 ||
        y === H - 1 ||
        ids[y * W + x - 1] !== v ||
        ids[y * W + x + 1] !== v ||
        ids[(y - 1) * W + x] !== v ||
        ids[(y + 1) * W + x] !== v;
      if (edge) edges.fill(255, (y * W + x) * 4, (y * W + x) * 4 + 4);
    }
  }
  layers.push({ input: edges, raw: { width: W, height: H, channels: 4 } });
} else {
  for (const truth of scene.objects) {
    const [x1, y1, x2, y2] = truth.box;
    shapes.push(
      `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="none" stroke="white" stroke-width="1.5" stroke-dasharray="4,3"/>`,
    );
  }
}
for (const [label, list] of Object.entries(detections)) {
  for (const d of list) {
    if (d.type === 'polygon') {
      const points = d.data.points.map(([x, y]) => [x * W, y * H] as const);
      const text = `${escapeXml(label)} ${d.score.toFixed(2)}`;
      const top = points.reduce((a, b) => (b[1] < a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a));
      shapes.push(
        `<polygon points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}" fill="${colourOf(label)}" fill-opacity="0.45" stroke="${colourOf(label)}" stroke-width="2.5" stroke-linejoin="round"/>`,
      );
      shapes.push(
        `<rect x="${top[0]}" y="${Math.max(0, top[1] - 20)}" width="${text.length * 7.5 + 6}" height="18" fill="${colourOf(label)}"/>`,
      );
      shapes.push(
        `<text x="${top[0] + 3}" y="${Math.max(0, top[1] - 20) + 13}" font-family="sans-serif" font-size="13" fill="white">${text}</text>`,
      );
      continue;
    }
    const x1 = d.data.min[0] * W;
    const y1 = d.data.min[1] * H;
    const x2 = d.data.max[0] * W;
    const y2 = d.data.max[1] * H;
    const text = `${escapeXml(label)} ${d.score.toFixed(2)}`;
    shapes.push(
      `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="none" stroke="${colourOf(label)}" stroke-width="3"/>`,
    );
    shapes.push(
      `<rect x="${x1}" y="${Math.max(0, y1 - 18)}" width="${text.length * 7.5 + 6}" height="18" fill="${colourOf(label)}"/>`,
    );
    shapes.push(
      `<text x="${x1 + 3}" y="${Math.max(0, y1 - 18) + 13}" font-family="sans-serif" font-size="13" fill="white">${text}</text>`,
    );
  }
}
const overlay = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${shapes.join('')}</svg>`,
);
await writeFile(
  values.out!,
  await sharp(image)
    .composite([...layers, { input: overlay }])
    .png()
    .toBuffer(),
);
const found = Object.entries(detections)
  .map(([l, d]) => `${d.length} ${l}`)
  .join(', ');
process.stdout.write(
  `${values.out}: ${W}x${H}, ${scene.objects.length} objects, detected ${found} (${result.timings.inferenceMs.toFixed(1)} ms inference)\n`,
);
