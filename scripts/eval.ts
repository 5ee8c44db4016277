// npm run eval -- --images N [--url URL --key KEY] [--model ID] [--format png|jpeg] [--concurrency C] [--precision fp16]
// Measures the demo detector through the HTTP predict API on held-out scenes
// made by the training generator with its evaluation seeds (never seen in
// training): COCO-style mAP@0.5 and mAP@0.5:0.95 (101-point interpolated AP
// per class, averaged over classes). Without --url it starts a server on
// embedded defaults; --precision fp16 runs the bundled demo converted to
// float16 there (model.json "precision": "fp16"), and --compare-precision
// runs both and also reports how far fp16 moves the boxes. The last line printed is
//   mAP@0.5=<x> mAP@0.5:0.95=<y> images=<N>
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../test/helpers/server.js';
import { DEMO_LABELS, EVAL_SEED_START, makeScene, renderScene, type Scene } from './demo-model/scenes.js';
import { forEachScene, withEvalServer } from './eval-server.js';
import { averagePrecision, type Box, type Prediction } from './map.js';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '500' },
    url: { type: 'string' },
    key: { type: 'string' },
    model: { type: 'string', default: '01JDEM0DETECT0R00000000001' },
    format: { type: 'string', default: 'png' },
    concurrency: { type: 'string', default: '4' },
    precision: { type: 'string', default: 'fp32' },
    'compare-precision': { type: 'boolean', default: false },
  },
});
const count = Number(values.images);
const format = values.format === 'jpeg' ? 'jpeg' : 'png';

async function predictScene(
  url: string,
  key: string,
  scene: Scene,
): Promise<Array<{ label: string; box: Box; score: number }>> {
  const form = new FormData();
  form.append('file', new Blob([await renderScene(scene, format)]), `scene.${format}`);
  const res = await fetch(`${url}/v1/models/${values.model}/predict?threshold=0.001&max_detections=100`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`predict answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as Record<
    string,
    Array<{ data: { min: [number, number]; max: [number, number] }; score: number }>
  >;
  return Object.entries(body).flatMap(([label, detections]) =>
    detections.map((d) => ({
      label,
      score: d.score,
      box: [
        d.data.min[0] * scene.width,
        d.data.min[1] * scene.height,
        d.data.max[0] * scene.width,
        d.data.max[1] * scene.height,
      ] as Box,
    })),
  );
}

type Detections = Array<{ label: string; box: Box; score: number }>;

interface Evaluation {
  map50: number;
  map: number;
  /** each scene's detections */
  scenes: Detections[];
}

/** Every scene through the server at `url`: mAP and the detections. */
async function evaluate(url: string, key: string): Promise<Evaluation> {
  const predictions = new Map<string, Prediction[]>(DEMO_LABELS.map((l) => [l, []]));
  const truths = new Map<string, Map<number, Box[]>>(DEMO_LABELS.map((l) => [l, new Map()]));
  const scenes: Detections[] = [];
  const evaluateScene = async (i: number) => {
    const scene = makeScene(EVAL_SEED_START + i);
    for (const o of scene.objects) {
      const byImage = truths.get(o.label)!;
      byImage.set(i, [...(byImage.get(i) ?? []), o.box]);
    }
    scenes[i] = await predictScene(url, key, scene);
    for (const p of scenes[i]) predictions.get(p.label)?.push({ image: i, box: p.box, score: p.score });
  };
  await forEachScene(count, Number(values.concurrency), evaluateScene);

  const thresholds = Array.from({ length: 10 }, (_, k) => 0.5 + 0.05 * k);
  const perClass = DEMO_LABELS.map((label) => {
    const aps = thresholds.map((t) => averagePrecision(predictions.get(label)!, truths.get(label)!, t));
    return {
      label,
      ap50: aps[0]!,
      ap: aps.reduce((a, b) => a + b, 0) / aps.length,
      objects: [...truths.get(label)!.values()].flat().length,
    };
  }).filter((c) => Number.isFinite(c.ap50));
  process.stdout.write(
    `model version ${values.model}, ${count} held-out scenes (seeds ${EVAL_SEED_START}..${EVAL_SEED_START + count - 1}), ${format}\n`,
  );
  process.stdout.write('class                 objects   AP@0.5  AP@0.5:0.95\n');
  for (const c of perClass) {
    process.stdout.write(
      `${c.label.padEnd(20)} ${String(c.objects).padStart(8)}   ${c.ap50.toFixed(4)}   ${c.ap.toFixed(4)}\n`,
    );
  }
  const map50 = perClass.reduce((s, c) => s + c.ap50, 0) / perClass.length;
  const map = perClass.reduce((s, c) => s + c.ap, 0) / perClass.length;
  return { map50, map, scenes };
}

/** A models directory holding the bundled demo with `precision` in its model.json (the same version id). */
async function demoAt(precision: string): Promise<{ env: Record<string, string>; dir: string } | undefined> {
  if (precision === 'fp32') return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'sense-eval-models-'));
  await cp(join(ROOT, 'models', 'demo'), join(dir, 'demo'), { recursive: true });
  const config = JSON.parse(await readFile(join(dir, 'demo', 'model.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(dir, 'demo', 'model.json'), JSON.stringify({ ...config, precision }, null, 2));
  return { env: { MODELS_DIR: dir }, dir };
}

async function evaluateAt(precision: string): Promise<Evaluation> {
  const models = await demoAt(precision);
  try {
    process.stderr.write(`precision ${precision}\n`);
    return await withEvalServer(values, evaluate, models?.env);
  } finally {
    if (models) await rm(models.dir, { recursive: true, force: true });
  }
}

/** Box corners of fp16's detections against fp32's, matched by label and overlap, in pixels. */
function boxShift(
  a: Detections[],
  b: Detections[],
): { matched: number; unmatched: number; meanPx: number; maxPx: number } {
  let matched = 0;
  let unmatched = 0;
  let sum = 0;
  let max = 0;
  a.forEach((scene, i) => {
    const others = [...(b[i] ?? [])];
    for (const d of scene.filter((x) => x.score >= 0.25)) {
      let best = -1;
      let bestIou = 0.5;
      others.forEach((o, j) => {
        const iou = o.label === d.label ? boxIou(o.box, d.box) : 0;
        if (iou > bestIou) [best, bestIou] = [j, iou];
      });
      if (best < 0) {
        unmatched++;
        continue;
      }
      const o = others.splice(best, 1)[0]!;
      for (let k = 0; k < 4; k++) {
        const shift = Math.abs(o.box[k]! - d.box[k]!);
        sum += shift;
        max = Math.max(max, shift);
      }
      matched++;
    }
  });
  return { matched, unmatched, meanPx: sum / Math.max(1, matched * 4), maxPx: max };
}

function boxIou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const h = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = w * h;
  return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter);
}

async function main(): Promise<void> {
  if (values['compare-precision']) {
    const fp32 = await evaluateAt('fp32');
    const fp16 = await evaluateAt('fp16');
    const shift = boxShift(fp32.scenes, fp16.scenes);
    process.stdout.write(
      `fp32: mAP@0.5=${fp32.map50.toFixed(4)} mAP@0.5:0.95=${fp32.map.toFixed(4)}; fp16: mAP@0.5=${fp16.map50.toFixed(4)} mAP@0.5:0.95=${fp16.map.toFixed(4)}\n` +
        `fp16 boxes against fp32 (detections scoring 0.25 or more, matched by label and IoU > 0.5): ${shift.matched} matched, ${shift.unmatched} unmatched, ` +
        `corners moved ${shift.meanPx.toFixed(3)} px on average, at most ${shift.maxPx.toFixed(2)} px\n`,
    );
    return;
  }
  const { map50, map } = await evaluateAt(values.precision);
  process.stdout.write(`mAP@0.5=${map50.toFixed(4)} mAP@0.5:0.95=${map.toFixed(4)} images=${count}\n`);
}

main().catch((error) => {
  process.stderr.write(`eval failed: ${(error as Error).message}\n`);
  process.exit(1);
});
