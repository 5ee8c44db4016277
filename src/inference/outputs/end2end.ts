// End-to-end exports that already contain NMS or need none (YOLOv10,
// Ultralytics `nms=True`, RT-DETR-style heads flattened to boxes):
// [1, K, 6] rows of x1, y1, x2, y2, score, class in input pixels.
import type { Candidate, DetectionDecoder, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

export class EndToEndDecoder implements DetectionDecoder {
  readonly task = 'detect' as const;
  readonly format = 'end2end' as const;
  readonly nmsFree = true;

  constructor(
    private readonly output: string,
    private readonly classes: number,
  ) {}

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number): Candidate[] {
    const tensor = requireOutput(outputs, this.output);
    const dims = withoutBatch(tensor.dims, 2);
    if (dims.length !== 2 || dims[1] !== 6) {
      throw new OutputShapeError(`end2end output "${this.output}" has shape [${tensor.dims}], expected [1, K, 6]`);
    }
    const data = numbers(tensor);
    const candidates: Candidate[] = [];
    for (let i = 0; i < dims[0]!; i++) {
      const base = i * 6;
      const score = data[base + 4]!;
      const classId = Math.round(data[base + 5]!);
      if (!(score >= threshold) || classId < 0 || classId >= this.classes) continue;
      candidates.push({
        x1: data[base]!,
        y1: data[base + 1]!,
        x2: data[base + 2]!,
        y2: data[base + 3]!,
        score,
        classId,
      });
    }
    return candidates;
  }
}
