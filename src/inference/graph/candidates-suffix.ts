// Candidates out: a dense YOLO head (one column or row per anchor, 8400 of
// them for a 640 input) is reduced inside the model to the anchors that can
// pass the request's score threshold, before anything leaves the device.
// The graph gets a second input, the score floor of each image ([N, 1]
// float32), and the head's output is replaced by two:
//
//   <head>_candidates  [M, rows]  every kept anchor's whole row (box, class
//                                  scores, mask coefficients or keypoints),
//                                  in the head's element type, in anchor
//                                  order, images one after another
//   <head>_image       [M]        (int64) the image each row belongs to
//
// An anchor is kept when its best class score is not below the floor
// (YOLOv8 family), or when its objectness and objectness x best class score
// are not (YOLOv5). The server feeds the threshold rounded down to float32,
// and for the product a floor a little lower still, so the kept set is
// always a superset of what the decoder in JavaScript keeps: it reads the
// kept rows with the same code as the whole head, and the answer is the
// same. A NaN score is kept (NaN < floor is false) and left to the decoder.
// Non-maximum suppression stays in JavaScript: ONNX's NonMaxSuppression
// orders ties and overlaps its own way, which would change answers.
import type { DenseHead } from '../outputs/types.js';
import type { OnnxModel } from './onnx-model.js';
import { DataType, type NodeSpec } from './onnx-schema.js';

/** The names the server feeds and reads once the suffix is in. */
export interface CandidateOutputs {
  /** the head it replaced: the decoder still reads it under this name */
  head: string;
  candidates: string;
  image: string;
  /** the score floor input, [N, 1] float32 */
  floor: string;
  rows: number;
}

/** yolov5's product test runs a little below the floor, so float32 rounding never drops what float64 keeps. */
const PRODUCT_MARGIN = 1 - 2 ** -16;

/**
 * Adds the suffix for `head`, whose output has `shape` as ONNX Runtime
 * reports it. Throws (with the reason) for a head it cannot reduce.
 */
export function addCandidatesSuffix(model: OnnxModel, head: DenseHead, shape: ReadonlyArray<number | string>): CandidateOutputs {
  if (model.opset < 11) throw new Error(`operator set ${model.opset} is older than 11 (no GatherND, Range)`);
  const declared = model.outputs.find((o) => o.name === head.output);
  if (!declared) throw new Error(`the graph has no output named "${head.output}"`);
  if (declared.elemType !== DataType.FLOAT && declared.elemType !== DataType.FLOAT16) throw new Error(`output "${head.output}" is not float32 or float16`);
  if (shape.length !== 3) throw new Error(`output "${head.output}" has ${shape.length} dimensions; the reduction needs [batch, rows, anchors] or [batch, anchors, rows]`);
  const [batch, d1, d2] = shape;
  const channelsFirst = d1 === head.rows;
  if (head.convention === 'yolov5' ? d2 !== head.rows : !channelsFirst && d2 !== head.rows) {
    throw new Error(`output "${head.output}" has shape [${shape.join(', ')}]; no axis of ${head.rows} values per anchor`);
  }

  const g = new GraphBuilder(model);
  const floor = model.newPublicName('score_floor');
  const candidates = model.newPublicName(`${head.output}_candidates`);
  const image = model.newPublicName(`${head.output}_image`);
  const valueAxis = channelsFirst ? 1 : 2;
  const scores = (from: number, to: number) => g.reduceMax(g.slice(head.output, from, to, valueAxis), valueAxis, declared.elemType);

  let keep: string;
  if (head.convention === 'yolov5') {
    const objectness = scores(4, 5);
    const best = scores(5, 5 + head.classes);
    const product = g.op('Mul', [objectness, best]);
    const productFloor = g.op('Mul', [floor, g.floats('margin', [], [PRODUCT_MARGIN])]);
    keep = g.op('And', [g.notBelow(objectness, floor), g.notBelow(product, productFloor)]);
  } else {
    keep = g.notBelow(scores(4, 4 + head.classes), floor);
  }
  const found = g.op('NonZero', [keep]); // [2, M]: image and anchor of each kept anchor, in order
  g.node('Gather', [found, g.ints('row0', [], [0])], [image], [{ name: 'axis', int: 0 }]);
  if (channelsFirst) {
    // [N, rows, A]: gather the kept anchors' columns of every image, then
    // pick each one's own image: [M, N, rows] at (m, image[m]).
    const anchors = g.op('Gather', [found, g.ints('row1', [], [1])], [{ name: 'axis', int: 0 }]);
    const columns = g.op('Gather', [head.output, anchors], [{ name: 'axis', int: 2 }]);
    const byCandidate = g.op('Transpose', [columns], [{ name: 'perm', ints: [2, 0, 1] }]);
    const count = g.op('Reshape', [g.op('Shape', [anchors]), g.ints('scalar_shape', [0], [])]);
    const positions = g.op('Range', [g.ints('zero', [], [0]), count, g.ints('one', [], [1])]);
    const column = g.ints('column_shape', [2], [-1, 1]);
    const pairs = g.op('Concat', [g.op('Reshape', [positions, column]), g.op('Reshape', [image, column])], [{ name: 'axis', int: 1 }]);
    g.node('GatherND', [byCandidate, pairs], [candidates]);
  } else {
    // [N, A, rows]: one GatherND with the (image, anchor) pairs.
    g.node('GatherND', [head.output, g.op('Transpose', [found], [{ name: 'perm', ints: [1, 0] }])], [candidates]);
  }
  model.append(g.nodes);
  model.replaceOutput(head.output, [
    { name: candidates, elemType: declared.elemType, shape: ['candidates', head.rows] },
    { name: image, elemType: DataType.INT64, shape: ['candidates'] },
  ]);
  model.addInput({ name: floor, elemType: DataType.FLOAT, shape: [batch ?? 'batch', 1] });
  return { head: head.output, candidates, image, floor, rows: head.rows };
}

type Attributes = NonNullable<NodeSpec['attributes']>;

/** Nodes with fresh names for their outputs, and constants, for the suffix. */
class GraphBuilder {
  readonly nodes: NodeSpec[] = [];
  constructor(private readonly model: OnnxModel) {}

  node(opType: string, inputs: string[], outputs: string[], attributes: Attributes = []): void {
    this.nodes.push({ opType, inputs, outputs, attributes });
  }

  op(opType: string, inputs: string[], attributes: Attributes = []): string {
    const out = this.model.newName(opType.toLowerCase());
    this.node(opType, inputs, [out], attributes);
    return out;
  }

  ints(base: string, dims: number[], values: number[]): string {
    return this.model.constant(base, { dataType: DataType.INT64, dims, int64s: values });
  }

  floats(base: string, dims: number[], values: number[]): string {
    return this.model.constant(base, { dataType: DataType.FLOAT, dims, floats: values });
  }

  slice(data: string, from: number, to: number, axis: number): string {
    return this.op('Slice', [data, this.ints('starts', [1], [from]), this.ints('ends', [1], [to]), this.ints('axes', [1], [axis])]);
  }

  /** The maximum along `axis`, that axis dropped, in float32. */
  reduceMax(data: string, axis: number, elemType: number): string {
    // ReduceMax takes its axes as an attribute before operator set 18, as an input since.
    const max =
      this.model.opset >= 18
        ? this.op('ReduceMax', [data, this.ints('reduce_axes', [1], [axis])], [{ name: 'keepdims', int: 0 }])
        : this.op('ReduceMax', [data], [
            { name: 'axes', ints: [axis] },
            { name: 'keepdims', int: 0 },
          ]);
    return elemType === DataType.FLOAT ? max : this.op('Cast', [max], [{ name: 'to', int: DataType.FLOAT }]);
  }

  /** value >= floor, and true for NaN. */
  notBelow(value: string, floor: string): string {
    return this.op('Not', [this.op('Less', [value, floor])]);
  }
}
