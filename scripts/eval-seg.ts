// npm run eval:seg -- --images N [--url URL --key KEY] [--model ID] [--format png|jpeg] [--concurrency C]
// Measures the demo segmentation model (models/demo-seg) through the HTTP
// predict API on held-out scenes of the training generator (evaluation seeds,
// never trained on). Each answered polygon is rasterised on the image's pixel
// grid (pixel-centre rule) and compared with the generator's ground-truth mask
// of the visible pixels (scenes.ts instanceMask(): the same pixel-centre
// sampling), so the figures include everything the server does: letterbox,
// ONNX Runtime, NMS, the 0.5 cut on the prototype grid, the box crop, the
// largest part, the outline and its simplification.
//
// Printed:
// - mask AP (COCO-style: greedy matching by score at a mask-IoU threshold,
//   101-point interpolated precision, averaged over classes) at IoU 0.5 and
//   averaged over 0.50:0.05:0.95, from answers at threshold 0.001, at most
//   100 detections per image; box AP of the same answers (box=true) beside it;
// - at the model's default score threshold (model.json): the mean polygon IoU
//   of the detections matched to a ground truth (same class, mask IoU >= 0.5,
//   greedy by score), the recall of that matching, and the mean over ALL
//   ground truths of the IoU with the best same-class polygon (0 when none).
// Without --url it starts a server on embedded defaults. The last line is
//   mask-mAP@0.5=<x> mask-mAP@0.5:0.95=<y> box-mAP@0.5=<z> matched-IoU=<m> images=<N>
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readModelConfig } from '../src/inference/versions/model-config.js';
import { DEFAULT_THRESHOLD } from '../src/inference/predict-options.js';
import { DEMO_SEG_MODEL_VERSION_ID } from '../src/platform/bootstrap.js';
import { DEMO_LABELS, EVAL_SEED_START, makeScene, renderScene, type Scene } from './demo-model/scenes.js';
import { forEachScene, withEvalServer } from './eval-server.js';
import { iou, overlapAveragePrecision, type Box, type ScoredOverlaps } from './map.js';
import { instanceAreas, maskIous, rasterisePolygon } from './mask-iou.js';

const { values } = parseArgs({
  options: {
    images: { type: 'string', default: '500' },
    url: { type: 'string' },
    key: { type: 'string' },
    model: { type: 'string', default: DEMO_SEG_MODEL_VERSION_ID },
    format: { type: 'string', default: 'png' },
    concurrency: { type: 'string', default: '2' },
    'seed-start': { type: 'string', default: String(EVAL_SEED_START) },
  },
});
const count = Number(values.images);
const seedStart = Number(values['seed-start']);
const format = values.format === 'jpeg' ? 'jpeg' : 'png';
const defaults = (await readModelConfig(join(import.meta.dirname, '..', 'models', 'demo-seg'))).defaults;
const threshold = defaults.threshold ?? DEFAULT_THRESHOLD;

interface Answer {
  label: string;
  score: number;
  points: Array<[number, number]>;
  box: Box;
}

async function predictPolygons(
  url: string,
  key: string,
  model: string,
  scene: Scene,
  image: Buffer,
  query = 'threshold=0.001&max_detections=100&box=true',
): Promise<Answer[]> {
  const form = new FormData();
  form.append('file', new Blob([image]), `scene.${format}`);
  const res = await fetch(`${url}/v1/models/${model}/predict?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`predict answered ${res.status}: ${await res.text()}`);
  type Polygon = {
    type: string;
    data: { points: Array<[number, number]> };
    score: number;
    children: Record<string, Array<{ data: { min: [number, number]; max: [number, number] } }>>;
  };
  const body = (await res.json()) as Record<string, Polygon[]>;
  return Object.entries(body).flatMap(([label, list]) =>
    list.map((d) => {
      if (d.type !== 'polygon') throw new Error(`expected polygons, got ${d.type}`);
      const rect = d.children[label]?.[0]?.data;
      if (!rect) throw new Error('box=true answered no rectangle');
      return {
        label,
        score: d.score,
        points: d.data.points.map(([x, y]): [number, number] => [x * scene.width, y * scene.height]),
        box: [
          rect.min[0] * scene.width,
          rect.min[1] * scene.height,
          rect.max[0] * scene.width,
          rect.max[1] * scene.height,
        ] as Box,
      };
    }),
  );
}

interface Scored extends ScoredOverlaps {
  boxOverlaps: number[];
}

async function main(): Promise<void> {
  await withEvalServer(values, async (url, key) => {
    const predictions = new Map<string, Scored[]>(DEMO_LABELS.map((l) => [l, []]));
    const truths = new Map<string, Map<number, number>>(DEMO_LABELS.map((l) => [l, new Map()]));
    // at the default threshold: per ground truth, the best IoU; per image and class, the greedy matches
    const bestIou = new Map<string, number[]>(DEMO_LABELS.map((l) => [l, []]));
    const matchedIou = new Map<string, number[]>(DEMO_LABELS.map((l) => [l, []]));
    let answered = 0;
    const evaluateScene = async (i: number) => {
      const scene = makeScene(seedStart + i);
      const ids = scene.instanceMask();
      const areas = instanceAreas(ids);
      const answers = await predictPolygons(url, key, values.model!, scene, await renderScene(scene, format));
      answered += answers.length;
      for (const label of DEMO_LABELS) {
        const objects = scene.objects.flatMap((o, k) => (o.label === label ? [k] : []));
        if (objects.length) truths.get(label)!.set(i, objects.length);
        const mine = answers
          .filter((a) => a.label === label)
          .map((a) => {
            const all = maskIous(
              rasterisePolygon(a.points, scene.width, scene.height),
              ids,
              scene.width,
              areas,
              scene.objects.length,
            );
            return {
              answer: a,
              overlaps: objects.map((k) => all[k]!),
              boxOverlaps: objects.map((k) => iou(a.box, scene.objects[k]!.box)),
            };
          });
        for (const m of mine)
          predictions
            .get(label)!
            .push({ image: i, score: m.answer.score, overlaps: m.overlaps, boxOverlaps: m.boxOverlaps });
        const kept = mine.filter((m) => m.answer.score >= threshold).sort((a, b) => b.answer.score - a.answer.score);
        objects.forEach((_, g) => bestIou.get(label)!.push(Math.max(0, ...kept.map((m) => m.overlaps[g]!))));
        const used = objects.map(() => false);
        for (const m of kept) {
          let best = -1;
          m.overlaps.forEach((o, g) => {
            if (!used[g] && o >= 0.5 && (best < 0 || o > m.overlaps[best]!)) best = g;
          });
          if (best >= 0) {
            used[best] = true;
            matchedIou.get(label)!.push(m.overlaps[best]!);
          }
        }
      }
    };
    const started = Date.now();
    await forEachScene(count, Number(values.concurrency), evaluateScene);
    const seconds = (Date.now() - started) / 1000;

    const thresholds = Array.from({ length: 10 }, (_, k) => 0.5 + 0.05 * k);
    const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const perClass = DEMO_LABELS.map((label) => {
      const preds = predictions.get(label)!;
      const gts = truths.get(label)!;
      const mask = thresholds.map((t) => overlapAveragePrecision(preds, gts, t));
      const box = thresholds.map((t) =>
        overlapAveragePrecision(
          preds.map((p) => ({ ...p, overlaps: p.boxOverlaps })),
          gts,
          t,
        ),
      );
      const objects = [...gts.values()].reduce((a, b) => a + b, 0);
      const matched = matchedIou.get(label)!;
      return {
        label,
        objects,
        mask50: mask[0]!,
        mask: mean(mask),
        box50: box[0]!,
        box: mean(box),
        matched: matched.length ? mean(matched) : NaN,
        recall: matched.length / objects,
        best: mean(bestIou.get(label)!),
      };
    }).filter((c) => c.objects > 0);
    const out = (line: string) => process.stdout.write(line + '\n');
    out(
      `model version ${values.model}, ${count} held-out scenes (seeds ${seedStart}..${seedStart + count - 1}), ${format}, ${answered} polygons answered at threshold 0.001 (${seconds.toFixed(0)} s)`,
    );
    out(
      `mask AP / box AP: answers at threshold 0.001, at most 100 per image; IoU of polygons rasterised at full size against the visible-pixel masks`,
    );
    out(
      `matched IoU, recall, best IoU: answers at the default threshold ${threshold}; matched = same class, mask IoU >= 0.5, greedy by score`,
    );
    out(
      'class                 objects  mask AP@0.5  mask AP@.5:.95  box AP@0.5  box AP@.5:.95  matched IoU  recall  best IoU',
    );
    for (const c of perClass) {
      out(
        `${c.label.padEnd(20)} ${String(c.objects).padStart(8)}  ${c.mask50.toFixed(4).padStart(11)}  ${c.mask.toFixed(4).padStart(14)}  ${c.box50.toFixed(4).padStart(10)}  ${c.box.toFixed(4).padStart(13)}  ${c.matched.toFixed(4).padStart(11)}  ${c.recall.toFixed(3).padStart(6)}  ${c.best.toFixed(4).padStart(8)}`,
      );
    }
    const allMatched = [...matchedIou.values()].flat();
    const allBest = [...bestIou.values()].flat();
    const totalObjects = perClass.reduce((s, c) => s + c.objects, 0);
    const m = (f: (c: (typeof perClass)[number]) => number) => mean(perClass.map(f));
    out(
      `${'all'.padEnd(20)} ${String(totalObjects).padStart(8)}  ${m((c) => c.mask50)
        .toFixed(4)
        .padStart(11)}  ${m((c) => c.mask)
        .toFixed(4)
        .padStart(14)}  ${m((c) => c.box50)
        .toFixed(4)
        .padStart(10)}  ${m((c) => c.box)
        .toFixed(4)
        .padStart(
          13,
        )}  ${mean(allMatched).toFixed(4).padStart(11)}  ${(allMatched.length / totalObjects).toFixed(3).padStart(6)}  ${mean(allBest).toFixed(4).padStart(8)}`,
    );
    out(
      `mask-mAP@0.5=${m((c) => c.mask50).toFixed(4)} mask-mAP@0.5:0.95=${m((c) => c.mask).toFixed(4)} box-mAP@0.5=${m((c) => c.box50).toFixed(4)} box-mAP@0.5:0.95=${m((c) => c.box).toFixed(4)} matched-IoU=${mean(allMatched).toFixed(4)} images=${count}`,
    );
  });
}

main().catch((error) => {
  process.stderr.write(`eval failed: ${(error as Error).message}\n`);
  process.exit(1);
});
