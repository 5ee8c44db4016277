// From decoded candidates to the predict response: boxes mapped back onto
// the original image (letterbox undone, x first), class-wise NMS, the boxes
// clipped to the image (0-1), the detection cap, and the JSON grouped by
// label.
import type { Placement } from './letterbox.js';
import { clamp01, fractionX, fractionY } from './letterbox.js';
import type { Candidate } from '../outputs/index.js';

/** Candidates kept for NMS at most, best first (as Ultralytics' max_nms). */
const MAX_NMS_CANDIDATES = 30_000;

export interface Detection {
  classId: number;
  score: number;
  /** 0-1 fractions of the original image */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** what the decoder found, in input pixels (conventions that answer more than the box read it back) */
  source: Candidate;
}

function iou(a: Detection, b: Detection): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const intersection = w * h;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - intersection;
  return union > 0 ? intersection / union : 0;
}

export interface SelectionOptions {
  iou: number;
  maxDetections: number;
  nms: boolean;
}

/**
 * Maps candidates onto the original image and keeps the best `maxDetections`.
 * IoU is unchanged by the (axis-aligned) mapping, so NMS runs on mapped boxes.
 * Models that remove duplicates themselves (nmsFree) skip NMS.
 *
 * Boxes are clipped to the image after NMS, as the exporters' own
 * postprocessing does (Ultralytics' scale_boxes): two boxes that reach past
 * the same border overlap less as drawn than clipped, and clipping first
 * would let one suppress the other near the edges. A box that lies wholly
 * in the padding still takes part in NMS but is not answered.
 */
export function selectDetections(
  candidates: Candidate[],
  placement: Placement,
  options: SelectionOptions,
): Detection[] {
  const mapped = candidates.map((c) => mapCandidate(c, placement));
  mapped.sort((a, b) => b.score - a.score);
  const pool = options.nms && mapped.length > MAX_NMS_CANDIDATES ? mapped.slice(0, MAX_NMS_CANDIDATES) : mapped;
  const selection = new Selection(placement, options);
  selection.visit(pool);
  return selection.answered;
}

function mapCandidate(c: Candidate, placement: Placement): Detection {
  return {
    classId: c.classId,
    score: c.score,
    x1: fractionX(placement, Math.min(c.x1, c.x2)),
    y1: fractionY(placement, Math.min(c.y1, c.y2)),
    x2: fractionX(placement, Math.max(c.x1, c.x2)),
    y2: fractionY(placement, Math.max(c.y1, c.y2)),
    source: c,
  };
}

/**
 * The same selection fed in order, a part at a time: for candidates that
 * come best first (a reduced head's rows), so that NMS stops reading where
 * it is full. What it answers is what selectDetections answers for all the
 * parts at once, as long as every part scores no higher than the last.
 */
export class Selection {
  readonly answered: Detection[] = [];
  /** NMS's kept boxes by class: a box is compared with its own class's only */
  private readonly kept = new Map<number, Detection[]>();

  constructor(
    private readonly placement: Placement,
    private readonly options: SelectionOptions,
  ) {}

  get full(): boolean {
    return this.answered.length >= this.options.maxDetections;
  }

  /** Adds the next candidates, best first; true once max detections are answered (the rest are not read). */
  add(candidates: readonly Candidate[]): boolean {
    for (const c of candidates) {
      if (this.full) return true;
      this.consider(mapCandidate(c, this.placement));
    }
    return this.full;
  }

  /** Candidates already mapped, best first. */
  visit(mapped: readonly Detection[]): void {
    for (const d of mapped) {
      if (this.full) return;
      this.consider(d);
    }
  }

  private consider(d: Detection): void {
    if (this.options.nms) {
      let kept = this.kept.get(d.classId);
      if (!kept) this.kept.set(d.classId, (kept = []));
      for (const k of kept) {
        if (iou(k, d) > this.options.iou) return;
      }
      kept.push(d);
    }
    this.answer(d);
  }

  private answer(d: Detection): void {
    const clipped = { ...d, x1: clamp01(d.x1), y1: clamp01(d.y1), x2: clamp01(d.x2), y2: clamp01(d.y2) };
    if (clipped.x2 > clipped.x1 && clipped.y2 > clipped.y1) this.answered.push(clipped);
  }
}

export const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** [x, y], fractions of the original image's width and height */
type Point = [number, number];

/**
 * One detection of the answer. `children` holds nested detections keyed by
 * their own label (a person's keypoints by keypoint name).
 */
export type Answer =
  | { type: 'rectangle'; data: { min: Point; max: Point }; score: number; children: Children }
  | { type: 'polygon'; data: { points: Point[] }; score: number; children: Children }
  | { type: 'point'; data: { point: Point }; score: number; children: Children }
  | { type: 'class'; data: Record<string, never>; score: number; children: Children };
export type Children = Record<string, Answer[]>;

/** A map without a prototype: a label may be any string, "__proto__" included. */
export function labelMap<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function rectangle(d: Detection, children: Children = {}): Answer {
  return {
    type: 'rectangle',
    data: { min: [round(d.x1), round(d.y1)], max: [round(d.x2), round(d.y2)] },
    score: round(d.score),
    children,
  };
}

/**
 * The response body: label -> answers, labels in order of their best score
 * (`items` come best first). An item the convention cannot answer
 * (undefined) is left out.
 */
export function groupByLabel<T extends { classId: number }>(
  items: readonly T[],
  labels: readonly string[],
  answer: (item: T) => Answer | undefined,
): Record<string, Answer[]> {
  const result = labelMap<Answer[]>();
  for (const item of items) {
    const a = answer(item);
    if (a) (result[labels[item.classId] ?? String(item.classId)] ??= []).push(a);
  }
  return result;
}
