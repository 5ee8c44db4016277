// The second half of a prediction: one image's raw outputs (split out of its
// batch by the instance) → candidate boxes (the convention's decoder) →
// letterbox undone, class-wise NMS → the response grouped by label, as the
// JSON string the front end writes. Runs in a pipeline worker.
import { groupByLabel, selectDetections } from './detections.js';
import type { Placement } from './letterbox.js';
import type { ModelConfig } from './model-config.js';
import { createOutputDecoder, type OutputDecoder, type OutputInfo, type TensorLike } from './outputs/index.js';
import type { PredictOptions } from './predict-options.js';

export type ImageOutputs = Record<string, TensorLike>;

export function postprocess(
  decoder: OutputDecoder,
  labels: readonly string[],
  outputs: ImageOutputs,
  placement: Placement,
  options: PredictOptions,
): string {
  const candidates = decoder.decode(outputs, options.threshold);
  const detections = selectDetections(candidates, placement, {
    iou: options.iou,
    maxDetections: options.maxDetections,
    nms: !decoder.nmsFree,
  });
  return JSON.stringify(groupByLabel(detections, labels));
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
