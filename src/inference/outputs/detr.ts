// DETR and RT-DETR: per-query class logits [1, Q, C] or [1, Q, C+1] (the
// extra last class is "no object") and boxes [1, Q, 4] as normalised centre
// x, centre y, width, height of the input. C+1 logits take a softmax (DETR);
// C logits take a sigmoid (RT-DETR's focal-loss heads). Set prediction needs
// no NMS.
import type { Candidate, DetectionDecoder, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

export interface DetrOutputs {
  logits: string;
  boxes: string;
}

export class DetrDecoder implements DetectionDecoder {
  readonly task = 'detect' as const;
  readonly format = 'detr' as const;
  readonly nmsFree = true;

  constructor(
    private readonly names: DetrOutputs,
    private readonly classes: number,
    private readonly inputWidth: number,
    private readonly inputHeight: number,
  ) {}

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number): Candidate[] {
    const logitsTensor = requireOutput(outputs, this.names.logits);
    const boxesTensor = requireOutput(outputs, this.names.boxes);
    const ld = withoutBatch(logitsTensor.dims, 2);
    const bd = withoutBatch(boxesTensor.dims, 2);
    const width = ld[1];
    if (ld.length !== 2 || (width !== this.classes && width !== this.classes + 1)) {
      throw new OutputShapeError(
        `logits output "${this.names.logits}" has shape [${logitsTensor.dims}], expected [1, Q, ${this.classes}] or [1, Q, ${this.classes + 1}]`,
      );
    }
    if (bd.length !== 2 || bd[1] !== 4 || bd[0] !== ld[0]) {
      throw new OutputShapeError(
        `boxes output "${this.names.boxes}" has shape [${boxesTensor.dims}], expected [1, ${ld[0]}, 4]`,
      );
    }
    const softmax = width === this.classes + 1;
    const logits = numbers(logitsTensor);
    const boxes = numbers(boxesTensor);
    const candidates: Candidate[] = [];
    for (let q = 0; q < ld[0]!; q++) {
      const base = q * width;
      let maxLogit = -Infinity;
      for (let c = 0; c < width; c++) maxLogit = Math.max(maxLogit, logits[base + c]!);
      let denominator = 0;
      if (softmax) for (let c = 0; c < width; c++) denominator += Math.exp(logits[base + c]! - maxLogit);
      let bestScore = -Infinity;
      let bestClass = 0;
      for (let c = 0; c < this.classes; c++) {
        const l = logits[base + c]!;
        const s = softmax ? Math.exp(l - maxLogit) / denominator : 1 / (1 + Math.exp(-l));
        if (s > bestScore) {
          bestScore = s;
          bestClass = c;
        }
      }
      if (!(bestScore >= threshold)) continue;
      const b = q * 4;
      const cx = boxes[b]! * this.inputWidth;
      const cy = boxes[b + 1]! * this.inputHeight;
      const w = boxes[b + 2]! * this.inputWidth;
      const h = boxes[b + 3]! * this.inputHeight;
      candidates.push({
        x1: cx - w / 2,
        y1: cy - h / 2,
        x2: cx + w / 2,
        y2: cy + h / 2,
        score: bestScore,
        classId: bestClass,
      });
    }
    return candidates;
  }
}
