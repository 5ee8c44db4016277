// Candidates out: a dense YOLO head (one column or row per anchor, 8400 of
// them for a 640 input) is reduced inside the model to the best anchors that
// can pass the request's score threshold, before anything leaves the device.
// The graph gets a second input, the score floor of each image ([N, 1]
// float32), and the head's output is replaced by two:
//
//   <head>_candidates  [M, rows]  every kept anchor's whole row (box, class
//                                  scores, mask coefficients or keypoints),
//                                  in the head's element type, best score
//                                  first, images one after another
//   <head>_image       [M]        (int64) the image each row belongs to
//   <head>_class       [M]        (int32) each row's best class: the first of
//                                  its highest class scores, NaN ignored
//
// An anchor is kept when its best class score is not below the floor
// (YOLOv8 family), or when its objectness and objectness x best class score
// are not (YOLOv5). The server feeds the threshold rounded down to float32,
// and for the product a floor a little lower still, so the kept set is
// always a superset of what the decoder in JavaScript keeps: it reads the
// kept rows with the same code as the whole head, and the answer is the
// same. The best class score ignores NaN, as the decoder's does.
//
// At most MAX_CANDIDATES anchors of an image leave the model: a TopK over
// the kept anchors' scores (the decoder's score: the best class score, or
// the product in float32), as exporters' end-to-end graphs bound what their
// NMS sees (Ultralytics' NMS export: max_det x 5). TopK orders ties by
// anchor, the order the decoder sorts them in, so the rows come in the order
// NMS visits them, and postprocess decodes only as many as NMS needs
// (postprocess.ts). A head with more candidates than that answers as the
// whole head does whenever NMS fills the request's max detections from its
// best MAX_CANDIDATES, which takes a head with thousands of overlapping
// boxes an object.
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
  /** each row's best class (int32): the decoder reads its score and the box, not every class score */
  classOf: string;
  /** the score floor input, [N, 1] float32 */
  floor: string;
  rows: number;
}

/** yolov5's product test runs a little below the floor, so float32 rounding never drops what float64 keeps. */
const PRODUCT_MARGIN = 1 - 2 ** -16;

/**
 * The most candidates one image lets out: five times the most detections a
 * request may ask for (MAX_DETECTIONS_LIMIT, 1000), Ultralytics' factor.
 */
export const MAX_CANDIDATES = 5000;

/**
 * Adds the suffix for `head`, whose output has `shape` as ONNX Runtime
 * reports it. Throws (with the reason) for a head it cannot reduce.
 */
export function addCandidatesSuffix(
  model: OnnxModel,
  head: DenseHead,
  shape: ReadonlyArray<number | string>,
): CandidateOutputs {
  if (model.opset < 11) throw new Error(`operator set ${model.opset} is older than 11 (no GatherND, Range)`);
  const declared = model.outputs.find((o) => o.name === head.output);
  if (!declared) throw new Error(`the graph has no output named "${head.output}"`);
  if (declared.elemType !== DataType.FLOAT && declared.elemType !== DataType.FLOAT16)
    throw new Error(`output "${head.output}" is not float32 or float16`);
  if (shape.length !== 3)
    throw new Error(
      `output "${head.output}" has ${shape.length} dimensions; the reduction needs [batch, rows, anchors] or [batch, anchors, rows]`,
    );
  const [batch, d1, d2] = shape;
  const channelsFirst = d1 === head.rows;
  if (head.convention === 'yolov5' ? d2 !== head.rows : !channelsFirst && d2 !== head.rows) {
    throw new Error(
      `output "${head.output}" has shape [${shape.join(', ')}]; no axis of ${head.rows} values per anchor`,
    );
  }

  const g = new GraphBuilder(model);
  const floor = model.newPublicName('score_floor');
  const candidates = model.newPublicName(`${head.output}_candidates`);
  const image = model.newPublicName(`${head.output}_image`);
  const classOf = model.newPublicName(`${head.output}_class`);
  const valueAxis = channelsFirst ? 1 : 2;
  const scores = (from: number, to: number) =>
    g.reduceMax(g.slice(head.output, from, to, valueAxis), valueAxis, declared.elemType);
  const firstClass = head.convention === 'yolov5' ? 5 : 4;

  // keep: the anchors the floor lets through; score: what TopK ranks them by, the decoder's score.
  let keep: string;
  let score: string;
  if (head.convention === 'yolov5') {
    const objectness = scores(4, 5);
    const best = scores(firstClass, firstClass + head.classes);
    score = g.op('Mul', [objectness, best]);
    const productFloor = g.op('Mul', [floor, g.floats('margin', [], [PRODUCT_MARGIN])]);
    keep = g.op('And', [g.notBelow(objectness, floor), g.notBelow(score, productFloor)]);
  } else {
    score = scores(firstClass, firstClass + head.classes);
    keep = g.notBelow(score, floor);
  }
  // A NaN score (a NaN objectness) is one the decoder drops: it is not let out.
  keep = g.op('And', [keep, g.op('Not', [g.op('IsNaN', [score])])]);
  const ranked = g.op('Where', [keep, score, g.floats('minus_infinity', [], [-Infinity])]); // [N, A]

  // The best min(MAX_CANDIDATES, A) of each image, best first (ties by anchor), then those kept.
  // k = min(MAX_CANDIDATES, anchors), in float: Min takes int64 only from operator set 12.
  const anchorCount = g.op('Slice', [
    g.op('Shape', [ranked]),
    g.ints('axis1_start', [1], [1]),
    g.ints('axis1_end', [1], [2]),
  ]);
  const asFloat = g.op('Cast', [anchorCount], [{ name: 'to', int: DataType.FLOAT }]);
  const k = g.op(
    'Cast',
    [g.op('Min', [asFloat, g.floats('max_candidates', [1], [MAX_CANDIDATES])])],
    [{ name: 'to', int: DataType.INT64 }],
  );
  const top = g.model.newName('top_scores');
  const topAnchors = g.model.newName('top_anchors');
  g.node(
    'TopK',
    [ranked, k],
    [top, topAnchors],
    [
      { name: 'axis', int: 1 },
      { name: 'largest', int: 1 },
      { name: 'sorted', int: 1 },
    ],
  );
  const topKept = g.op('GatherElements', [keep, topAnchors], [{ name: 'axis', int: 1 }]); // [N, K]
  const found = g.op('NonZero', [topKept]); // [2, M]: image and rank of each kept anchor, in order
  g.node('Gather', [found, g.ints('row0', [], [0])], [image], [{ name: 'axis', int: 0 }]);
  const pairs = g.op('Transpose', [found], [{ name: 'perm', ints: [1, 0] }]); // [M, 2]
  const anchors = g.op('GatherND', [topAnchors, pairs]); // [M]: each one's anchor
  if (channelsFirst) {
    // [N, rows, A]: gather the kept anchors' columns of every image, then
    // pick each one's own image: [M, N, rows] at (m, image[m]).
    const columns = g.op('Gather', [head.output, anchors], [{ name: 'axis', int: 2 }]);
    const byCandidate = g.op('Transpose', [columns], [{ name: 'perm', ints: [2, 0, 1] }]);
    const count = g.op('Reshape', [g.op('Shape', [anchors]), g.ints('scalar_shape', [0], [])]);
    const positions = g.op('Range', [g.ints('zero', [], [0]), count, g.ints('one', [], [1])]);
    const column = g.ints('column_shape', [2], [-1, 1]);
    const byImage = g.op(
      'Concat',
      [g.op('Reshape', [positions, column]), g.op('Reshape', [image, column])],
      [{ name: 'axis', int: 1 }],
    );
    g.node('GatherND', [byCandidate, byImage], [candidates]);
  } else {
    // [N, A, rows]: one GatherND with the (image, anchor) pairs.
    const column = g.ints('column_shape', [2], [-1, 1]);
    const byAnchor = g.op(
      'Concat',
      [g.op('Reshape', [image, column]), g.op('Reshape', [anchors, column])],
      [{ name: 'axis', int: 1 }],
    );
    g.node('GatherND', [head.output, byAnchor], [candidates]);
  }
  // Each kept row's best class, found once here rather than by a scan of
  // its class scores in JavaScript: the first highest (ArgMax keeps the
  // first, as the decoders' `s > best` does), NaN as -Infinity.
  const rowScores = g.nanAsLowest(g.slice(candidates, firstClass, firstClass + head.classes, 1), declared.elemType);
  const bestClass = g.op(
    'ArgMax',
    [rowScores],
    [
      { name: 'axis', int: 1 },
      { name: 'keepdims', int: 0 },
    ],
  );
  g.node('Cast', [bestClass], [classOf], [{ name: 'to', int: DataType.INT32 }]);
  model.append(g.nodes);
  model.replaceOutput(head.output, [
    { name: candidates, elemType: declared.elemType, shape: ['candidates', head.rows] },
    { name: image, elemType: DataType.INT64, shape: ['candidates'] },
    { name: classOf, elemType: DataType.INT32, shape: ['candidates'] },
  ]);
  model.addInput({ name: floor, elemType: DataType.FLOAT, shape: [batch ?? 'batch', 1] });
  return { head: head.output, candidates, image, classOf, floor, rows: head.rows };
}

type Attributes = NonNullable<NodeSpec['attributes']>;

/** Nodes with fresh names for their outputs, and constants, for the suffix. */
class GraphBuilder {
  readonly nodes: NodeSpec[] = [];
  constructor(readonly model: OnnxModel) {}

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
    return this.op('Slice', [
      data,
      this.ints('starts', [1], [from]),
      this.ints('ends', [1], [to]),
      this.ints('axes', [1], [axis]),
    ]);
  }

  /** The maximum along `axis`, that axis dropped, in float32, NaN ignored (as the decoders' `s > best`): -Infinity where all are NaN. */
  reduceMax(data: string, axis: number, elemType: number): string {
    const clean = this.nanAsLowest(data, elemType);
    // ReduceMax takes its axes as an attribute before operator set 18, as an input since.
    return this.model.opset >= 18
      ? this.op('ReduceMax', [clean, this.ints('reduce_axes', [1], [axis])], [{ name: 'keepdims', int: 0 }])
      : this.op(
          'ReduceMax',
          [clean],
          [
            { name: 'axes', ints: [axis] },
            { name: 'keepdims', int: 0 },
          ],
        );
  }

  /** The values in float32, NaN as -Infinity (never the best). */
  nanAsLowest(data: string, elemType: number): string {
    const values = elemType === DataType.FLOAT ? data : this.op('Cast', [data], [{ name: 'to', int: DataType.FLOAT }]);
    return this.op('Where', [this.op('IsNaN', [values]), this.floats('minus_infinity', [], [-Infinity]), values]);
  }

  /** value >= floor, and true for NaN. */
  notBelow(value: string, floor: string): string {
    return this.op('Not', [this.op('Less', [value, floor])]);
  }
}
