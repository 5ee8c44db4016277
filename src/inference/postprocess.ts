// The second half of a prediction: one image's raw outputs (split out of its
// batch by the instance) → candidate boxes (the convention's decoder) →
// letterbox undone, class-wise NMS → the response grouped by label, as the
// JSON string the front end writes. Classifiers skip the boxes: their top
// classes are the answer. Runs in a pipeline worker.
import { groupByLabel, rectangle, round, selectDetections, type Answer } from './detections.js';
import type { Placement } from './letterbox.js';
import type { ModelConfig } from './model-config.js';
import { createOutputDecoder, type OutputDecoder, type OutputInfo, type TensorLike } from './outputs/index.js';
import { resolvePredictOptions, type PredictOptions, type ResolvedPredictOptions } from './predict-options.js';

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

function answer(
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
  const candidates = decoder.decode(outputs, options.threshold);
  const detections = selectDetections(candidates, placement, {
    iou: options.iou,
    maxDetections: options.maxDetections,
    nms: !decoder.nmsFree,
  });
  const describe = decoder.describe?.bind(decoder);
  return groupByLabel(detections, labels, describe ? (d) => describe(d, outputs, placement, options) : (d) => rectangle(d));
}

/** The best `topK` classes at or above the threshold, best first (ties by class order). */
function topClasses(scores: Float64Array, options: Pick<ResolvedPredictOptions, 'threshold' | 'topK'>): Array<{ classId: number; score: number }> {
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
