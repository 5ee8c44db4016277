// COCO-style average precision, for the demo detector's evaluation.

export type Box = [number, number, number, number];
export interface Prediction {
  image: number;
  box: Box;
  score: number;
}

export function iou(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter);
}

/** COCO AP for one class at one IoU threshold: greedy matching by score, 101-point interpolation. */
export function averagePrecision(predictions: Prediction[], truths: Map<number, Box[]>, threshold: number): number {
  const counts = new Map([...truths].map(([image, boxes]) => [image, boxes.length]));
  return overlapAveragePrecision(
    predictions.map((p) => ({
      image: p.image,
      score: p.score,
      overlaps: (truths.get(p.image) ?? []).map((g) => iou(p.box, g)),
    })),
    counts,
    threshold,
  );
}

/** A prediction with its overlap (box or mask IoU) with each ground truth of its class in its image. */
export interface ScoredOverlaps {
  image: number;
  score: number;
  overlaps: readonly number[];
}

/**
 * COCO AP for one class at one IoU threshold from precomputed overlaps (so
 * that boxes and masks share it): `truths` maps an image to its number of
 * ground truths of the class; greedy matching by score, 101-point
 * interpolation.
 */
export function overlapAveragePrecision(
  predictions: readonly ScoredOverlaps[],
  truths: Map<number, number>,
  threshold: number,
): number {
  const total = [...truths.values()].reduce((n, count) => n + count, 0);
  if (total === 0) return NaN;
  const matched = new Map<number, boolean[]>(
    [...truths].map(([image, count]) => [image, new Array<boolean>(count).fill(false)]),
  );
  const sorted = [...predictions].sort((a, b) => b.score - a.score);
  const tp: number[] = [];
  for (const p of sorted) {
    const used = matched.get(p.image) ?? [];
    let best = -1;
    let bestIou = threshold;
    p.overlaps.forEach((o, i) => {
      if (used[i]) return;
      if (o >= bestIou) {
        bestIou = o;
        best = i;
      }
    });
    if (best >= 0) used[best] = true;
    tp.push(best >= 0 ? 1 : 0);
  }
  const precision: number[] = [];
  const recall: number[] = [];
  let hits = 0;
  tp.forEach((t, i) => {
    hits += t;
    precision.push(hits / (i + 1));
    recall.push(hits / total);
  });
  for (let i = precision.length - 2; i >= 0; i--) precision[i] = Math.max(precision[i]!, precision[i + 1]!);
  let sum = 0;
  for (let k = 0; k <= 100; k++) {
    const r = k / 100;
    const at = recall.findIndex((v) => v >= r);
    sum += at >= 0 ? precision[at]! : 0;
  }
  return sum / 101;
}
