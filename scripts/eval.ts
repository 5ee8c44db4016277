// npm run eval -- --images N [--url URL --key KEY] [--model ID] [--format png|jpeg] [--concurrency C]
// Measures the demo detector through the HTTP predict API on held-out scenes
// made by the training generator with its evaluation seeds (never seen in
// training): COCO-style mAP@0.5 and mAP@0.5:0.95 (101-point interpolated AP
// per class, averaged over classes). Without --url it starts a server on
// embedded defaults. The last line printed is
//   mAP@0.5=<x> mAP@0.5:0.95=<y> images=<N>
import { parseArgs } from 'node:util';
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
  },
});
const count = Number(values.images);
const format = values.format === 'jpeg' ? 'jpeg' : 'png';

async function predictScene(url: string, key: string, scene: Scene): Promise<Array<{ label: string; box: Box; score: number }>> {
  const form = new FormData();
  form.append('file', new Blob([await renderScene(scene, format)]), `scene.${format}`);
  const res = await fetch(`${url}/v1/models/${values.model}/predict?threshold=0.001&max_detections=100`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`predict answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as Record<string, Array<{ data: { min: [number, number]; max: [number, number] }; score: number }>>;
  return Object.entries(body).flatMap(([label, detections]) =>
    detections.map((d) => ({
      label,
      score: d.score,
      box: [d.data.min[0] * scene.width, d.data.min[1] * scene.height, d.data.max[0] * scene.width, d.data.max[1] * scene.height] as Box,
    })),
  );
}

async function main(): Promise<void> {
  await withEvalServer(values, async (url, key) => {
    const predictions = new Map<string, Prediction[]>(DEMO_LABELS.map((l) => [l, []]));
    const truths = new Map<string, Map<number, Box[]>>(DEMO_LABELS.map((l) => [l, new Map()]));
    const evaluateScene = async (i: number) => {
      const scene = makeScene(EVAL_SEED_START + i);
      for (const o of scene.objects) {
        const byImage = truths.get(o.label)!;
        byImage.set(i, [...(byImage.get(i) ?? []), o.box]);
      }
      for (const p of await predictScene(url, key, scene)) predictions.get(p.label)?.push({ image: i, box: p.box, score: p.score });
    };
    await forEachScene(count, Number(values.concurrency), evaluateScene);

    const thresholds = Array.from({ length: 10 }, (_, k) => 0.5 + 0.05 * k);
    const perClass = DEMO_LABELS.map((label) => {
      const aps = thresholds.map((t) => averagePrecision(predictions.get(label)!, truths.get(label)!, t));
      return { label, ap50: aps[0]!, ap: aps.reduce((a, b) => a + b, 0) / aps.length, objects: [...truths.get(label)!.values()].flat().length };
    }).filter((c) => Number.isFinite(c.ap50));
    process.stdout.write(`model version ${values.model}, ${count} held-out scenes (seeds ${EVAL_SEED_START}..${EVAL_SEED_START + count - 1}), ${format}\n`);
    process.stdout.write('class                 objects   AP@0.5  AP@0.5:0.95\n');
    for (const c of perClass) {
      process.stdout.write(`${c.label.padEnd(20)} ${String(c.objects).padStart(8)}   ${c.ap50.toFixed(4)}   ${c.ap.toFixed(4)}\n`);
    }
    const map50 = perClass.reduce((s, c) => s + c.ap50, 0) / perClass.length;
    const map = perClass.reduce((s, c) => s + c.ap, 0) / perClass.length;
    process.stdout.write(`mAP@0.5=${map50.toFixed(4)} mAP@0.5:0.95=${map.toFixed(4)} images=${count}\n`);
  });
}

main().catch((error) => {
  process.stderr.write(`eval failed: ${(error as Error).message}\n`);
  process.exit(1);
});
