// Image classifiers: one output [1, C] (or [C]) of class probabilities, or of
// logits when model.json says `output.logits` (a softmax turns those into
// probabilities; a classifier that ends in its own softmax must not get a
// second one, which would flatten its scores towards 1/C).
import type { ClassifierDecoder, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

export class ClassificationDecoder implements ClassifierDecoder {
  readonly task = 'classify' as const;
  readonly format = 'classification' as const;

  constructor(
    private readonly output: string,
    private readonly classes: number,
    private readonly logits: boolean,
  ) {}

  scores(outputs: Readonly<Record<string, TensorLike>>): Float64Array {
    const tensor = requireOutput(outputs, this.output);
    const dims = withoutBatch(tensor.dims, 1);
    if (dims.length !== 1 || dims[0] !== this.classes) {
      throw new OutputShapeError(
        `classification output "${this.output}" has shape [${tensor.dims}], expected [1, ${this.classes}]`,
      );
    }
    const scores = Float64Array.from(numbers(tensor));
    if (!this.logits) return scores;
    const max = scores.reduce((m, v) => Math.max(m, v), -Infinity);
    let sum = 0;
    for (let c = 0; c < scores.length; c++) {
      scores[c] = Math.exp(scores[c]! - max);
      sum += scores[c]!;
    }
    for (let c = 0; c < scores.length; c++) scores[c] = scores[c]! / sum;
    return scores;
  }
}
