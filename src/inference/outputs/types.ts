// Shared vocabulary of the output decoders: what a model output looks like
// (shape only at load time, data at run time) and what decoders produce.
import { CodedError, revivable } from '../../errors.js';
import type { Answer, Detection } from '../pipeline/detections.js';
import type { Placement } from '../pipeline/letterbox.js';
import type { OutputFormat } from '../versions/model-config.js';
import type { ResolvedPredictOptions } from '../predict-options.js';

/** Output metadata from the session: dims may be symbolic (strings) or -1. */
export interface OutputInfo {
  name: string;
  shape: ReadonlyArray<number | string>;
  type: string;
}

/** The part of an ONNX Runtime tensor the decoders read. */
export interface TensorLike {
  dims: readonly number[];
  type: string;
  data: unknown;
  /**
   * A dense head reduced in the model to its candidates (graph/candidates-suffix.ts):
   * dims [M, rows], one row per kept anchor, whichever way round the head
   * was, best score first, with each row's best class.
   */
  compact?: ReducedHead;
}

/** What the model found of a reduced head's rows besides their values. */
export interface ReducedHead {
  /** each row's best class: the first of its highest class scores, NaN ignored */
  classIds: Int32Array;
}

/**
 * A dense YOLO head (one column or row of `rows` values per anchor), which
 * the model can reduce to its candidates before it answers: the decoder of
 * such a head says so, and reads the reduced head (TensorLike.compact) with
 * the same code as the whole one.
 */
export interface DenseHead {
  /** the head's output name */
  output: string;
  /** yolov8: box, class scores, extra rows; yolov5: box, objectness, class scores */
  convention: 'yolov8' | 'yolov5';
  classes: number;
  /** values per anchor */
  rows: number;
}

/** Rows [from, to) of a reduced head. */
export type RowRange = readonly [from: number, to: number];

/** A box in input-tensor pixels (x1, y1, x2, y2) with its best class. */
export interface Candidate {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  score: number;
  classId: number;
  /** its column (or row) in a dense output, where more of it is read after NMS (keypoints, mask coefficients) */
  anchor?: number;
}

/** Conventions that answer boxes (and what hangs off them). */
export interface DetectionDecoder {
  readonly task: 'detect';
  readonly format: OutputFormat;
  /** true when the model already removed duplicate boxes (NMS inside, or NMS-free by design) */
  readonly nmsFree: boolean;
  /**
   * true when the outputs are the model's final answer, already thresholded
   * and capped in the graph: unset threshold and max_detections then filter
   * nothing (see resolvePredictOptions)
   */
  readonly finalOutputs?: boolean;
  /**
   * The candidates at or above the threshold, in the output's order.
   * `rows` [from, to): of a reduced head (TensorLike.compact, best first),
   * only those rows (postprocess.ts reads no more than NMS needs); ignored
   * for a whole head. A candidate's `anchor` is its row.
   */
  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number, rows?: RowRange): Candidate[];
  /** set for a dense head the model may reduce to its candidates */
  readonly denseHead?: DenseHead;
  /**
   * The answer for one kept detection where the convention gives more than
   * a box (keypoints, a mask); undefined leaves the detection out. Without
   * it, detections are answered as rectangles.
   */
  describe?(
    detection: Detection,
    outputs: Readonly<Record<string, TensorLike>>,
    placement: Placement,
    options: ResolvedPredictOptions,
  ): Answer | undefined;
}

/** Conventions that answer one score per class of the whole image. */
export interface ClassifierDecoder {
  readonly task: 'classify';
  readonly format: OutputFormat;
  /** probabilities (0-1) by class id */
  scores(outputs: Readonly<Record<string, TensorLike>>): Float64Array;
}

export type OutputDecoder = DetectionDecoder | ClassifierDecoder;

export class OutputShapeError extends CodedError {
  readonly code = 'MODEL_OUTPUT_SHAPE';
  static {
    revivable('MODEL_OUTPUT_SHAPE', ({ message }) => new OutputShapeError(message));
  }
}

export function describeShape(shape: ReadonlyArray<number | string>): string {
  return `[${shape.map((d) => (typeof d === 'number' && d >= 0 ? d : 'N')).join(', ')}]`;
}

/** A static dimension, or undefined for symbolic/dynamic ones. */
export function staticDim(shape: ReadonlyArray<number | string>, index: number): number | undefined {
  const d = shape[index < 0 ? shape.length + index : index];
  return typeof d === 'number' && d >= 0 ? d : undefined;
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

// Conversions by tensor data: decoders that read an output again for each
// kept detection (keypoints, masks) convert it once.
const converted = new WeakMap<object, ArrayLike<number>>();

function convertOnce(data: object, convert: () => ArrayLike<number>): ArrayLike<number> {
  let values = converted.get(data);
  if (!values) converted.set(data, (values = convert()));
  return values;
}

/** Tensor data as numbers: float16 expanded, int64 narrowed. */
export function numbers(tensor: TensorLike): ArrayLike<number> {
  const data = tensor.data;
  if (tensor.type === 'float16' && data instanceof Uint16Array)
    return convertOnce(data, () => Float32Array.from(data, halfToFloat));
  if (data instanceof BigInt64Array || data instanceof BigUint64Array)
    return convertOnce(data, () => Float64Array.from(data, Number));
  if (ArrayBuffer.isView(data)) return data as unknown as ArrayLike<number>;
  throw new OutputShapeError(`output of type ${tensor.type} is not numeric`);
}

export function requireOutput(outputs: Readonly<Record<string, TensorLike>>, name: string): TensorLike {
  const tensor = outputs[name];
  if (!tensor) throw new OutputShapeError(`the model produced no output named "${name}"`);
  return tensor;
}

/** Drops leading batch axes of size 1 so [1, N, 4] and [N, 4] read alike. */
export function withoutBatch(dims: readonly number[], rank: number): readonly number[] {
  let d = dims;
  while (d.length > rank && d[0] === 1) d = d.slice(1);
  return d;
}
