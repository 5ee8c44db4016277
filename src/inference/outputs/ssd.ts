// torchvision detection models (Faster R-CNN, RetinaNet, SSD, FCOS) and other
// SSD-style exports: three outputs, boxes [N, 4] as x1, y1, x2, y2 in input
// pixels, scores [N] and integer labels [N], each with or without a batch
// axis. Labels index model.json's `labels` directly.
import type { Candidate, DetectionDecoder, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

export interface SsdOutputs {
  boxes: string;
  scores: string;
  labels: string;
}

export class SsdDecoder implements DetectionDecoder {
  readonly task = 'detect' as const;
  readonly format = 'ssd' as const;
  // These outputs come out of the exporter's own postprocessing (torchvision's
  // postprocess_detections: its score threshold, then class-wise NMS at its
  // own IoU, 0.5 for Faster R-CNN): a second NMS at another IoU would drop
  // boxes the model kept.
  readonly nmsFree = true;
  // ...and their score threshold and cap (score_thresh, detections_per_img) too.
  readonly finalOutputs = true;

  constructor(
    private readonly names: SsdOutputs,
    private readonly classes: number,
  ) {}

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number): Candidate[] {
    const boxesTensor = requireOutput(outputs, this.names.boxes);
    const boxDims = withoutBatch(boxesTensor.dims, 2);
    if (boxDims.length !== 2 || boxDims[1] !== 4) {
      throw new OutputShapeError(`boxes output "${this.names.boxes}" has shape [${boxesTensor.dims}], expected [N, 4]`);
    }
    const n = boxDims[0]!;
    const boxes = numbers(boxesTensor);
    const scores = numbers(requireOutput(outputs, this.names.scores));
    const labels = numbers(requireOutput(outputs, this.names.labels));
    if (scores.length !== n || labels.length !== n) {
      throw new OutputShapeError(`ssd outputs disagree: ${n} boxes, ${scores.length} scores, ${labels.length} labels`);
    }
    const candidates: Candidate[] = [];
    for (let i = 0; i < n; i++) {
      const score = scores[i]!;
      const classId = Math.round(labels[i]!);
      if (!(score >= threshold) || classId < 0 || classId >= this.classes) continue;
      const b = i * 4;
      candidates.push({ x1: boxes[b]!, y1: boxes[b + 1]!, x2: boxes[b + 2]!, y2: boxes[b + 3]!, score, classId });
    }
    return candidates;
  }
}
