// The second half of a prediction: one image's raw outputs (split out of its
// batch by the instance) → candidate boxes (the convention's decoder) →
// letterbox undone, class-wise NMS → the response grouped by label, as the
// JSON string the front end writes. Classifiers skip the boxes: their top
// classes are the answer. A dense head reduced in the model comes best
// first, and only the rows NMS reaches are decoded. Runs in a pipeline worker.
import {
  groupByLabel,
  rectangle,
  round,
  Selection,
  selectDetections,
  type Answer,
  type Detection,
} from './detections.js';
import type { Placement } from './letterbox.js';
import type { ModelConfig } from '../versions/model-config.js';
import { createOutputDecoder, type OutputDecoder, type OutputInfo, type TensorLike } from '../outputs/index.js';
import type { DetectionDecoder } from '../outputs/types.js';
import { resolvePredictOptions, type PredictOptions, type ResolvedPredictOptions } from '../predict-options.js';

export type ImageOutputs = Record<string, TensorLike>;

export function postprocess(
  decoder: OutputDecoder,
  labels: readonly string[],
  outputs: ImageOutputs,
  placement: Placement,
  options: PredictOptions,
): string {
  return JSON.stringify(answer(decoder, labels, outputs, placement, options));
}

/** One image's answer, grouped by label: what postprocess serialises, and what a child stage nests in its parent's. */
export function answer(
  decoder: OutputDecoder,
  labels: readonly string[],
  outputs: ImageOutputs,
  placement: Placement,
  requested: PredictOptions,
): Record<string, Answer[]> {
  const options = resolvePredictOptions(requested, decoder.task === 'detect' && decoder.finalOutputs === true);
  if (decoder.task === 'classify') {
    return groupByLabel(topClasses(decoder.scores(outputs), options), labels, (c) => ({
      type: 'class',
      data: {},
      score: round(c.score),
      children: {},
    }));
  }
  const detections = detect(decoder, outputs, placement, options);
  const describe = decoder.describe?.bind(decoder);
  return groupByLabel(
    detections,
    labels,
    describe ? (d) => describe(d, outputs, placement, options) : (d) => rectangle(d),
  );
}

/**
 * The detections NMS keeps. A reduced head's rows come best first
 * (graph/candidates-suffix.ts), the order NMS visits them in, and NMS stops
 * at max detections: so they are decoded a part at a time (four rows per
 * detection asked for, then twice as many each time) and NMS goes on where
 * it stopped, until it is full or the rows run out. That answers what
 * decoding every row answers as long as the rows read are the decoder's
 * best candidates: their scores never rise (checked as they are read), and
 * no row after them scores higher, which the graph's float32 ranking shows
 * unless the last score read and the one NMS filled up on are equal in
 * float32 (a yolov5 product). Where either fails, every row is decoded and
 * sorted, as for a whole head.
 */
function detect(
  decoder: DetectionDecoder,
  outputs: ImageOutputs,
  placement: Placement,
  options: ResolvedPredictOptions,
): Detection[] {
  const selection = { iou: options.iou, maxDetections: options.maxDetections, nms: !decoder.nmsFree };
  const everything = () => selectDetections(decoder.decode(outputs, options.threshold), placement, selection);
  const head = decoder.denseHead && outputs[decoder.denseHead.output];
  if (!head?.compact || decoder.nmsFree) return everything();
  const total = head.dims[0]!;
  const nms = new Selection(placement, selection);
  let previous = Infinity;
  for (let from = 0, size = 4 * options.maxDetections; from < total; from += size, size *= 2) {
    const candidates = decoder.decode(outputs, options.threshold, [from, from + size]);
    for (const candidate of candidates) {
      if (!(candidate.score <= previous)) return everything();
      previous = candidate.score;
    }
    if (nms.add(candidates)) {
      const last = nms.answered[nms.answered.length - 1]!;
      return from + size < total && Math.fround(previous) === Math.fround(last.score) ? everything() : nms.answered;
    }
  }
  return nms.answered;
}

/** The best `topK` classes at or above the threshold, best first (ties by class order). */
function topClasses(
  scores: Float64Array,
  options: Pick<ResolvedPredictOptions, 'threshold' | 'topK'>,
): Array<{ classId: number; score: number }> {
  const classes: Array<{ classId: number; score: number }> = [];
  scores.forEach((score, classId) => {
    if (score >= options.threshold) classes.push({ classId, score });
  });
  return classes.sort((a, b) => b.score - a.score || a.classId - b.classId).slice(0, options.topK);
}

/**
 * Decoders by loaded model, so a worker builds each once (they keep scratch
 * buffers between runs). Keyed by the load's own key: a version reloaded
 * after eviction gets a fresh decoder; old ones age out.
 */
export class DecoderCache {
  private readonly decoders = new Map<string, OutputDecoder>();
  constructor(private readonly capacity = 64) {}

  get(key: string, config: ModelConfig, outputs: readonly OutputInfo[]): OutputDecoder {
    let decoder = this.decoders.get(key);
    if (decoder) {
      this.decoders.delete(key);
    } else {
      decoder = createOutputDecoder(config, outputs);
      if (this.decoders.size >= this.capacity) this.decoders.delete(this.decoders.keys().next().value!);
    }
    this.decoders.set(key, decoder);
    return decoder;
  }
}
