// Ultralytics-style dense outputs: one row or column per anchor point with a
// centre-form box in input pixels followed by class scores.
//   YOLOv8/YOLO11: [1, 4+C, N] (channels first; [1, N, 4+C] also read), no objectness
//   YOLOv5/YOLOv7: [1, N, 5+C], objectness then class scores; score = obj * cls
import type { OutputFormat } from '../versions/model-config.js';
import type { Candidate, DenseHead, DetectionDecoder, ReducedHead, RowRange, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

function centreBox(
  cx: number,
  cy: number,
  w: number,
  h: number,
  score: number,
  classId: number,
  anchor: number,
): Candidate {
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2, score, classId, anchor };
}

/** Rows [from, to) of a reduced head of `count` rows: all of them when no range is asked for. */
function rowsToRead(count: number, rows: RowRange | undefined): [number, number] {
  return rows ? [Math.min(rows[0], count), Math.min(rows[1], count)] : [0, count];
}

/** Where a dense output's values lie: value(anchor i, row r) = data[i * anchorStride + r * rowStride]. */
export interface DenseLayout {
  data: ArrayLike<number>;
  anchors: number;
  anchorStride: number;
  rowStride: number;
  /** the head reduced in the model to its candidates, best first, with each one's best class */
  reduced?: ReducedHead;
}

/**
 * YOLOv8/YOLO11 and the Ultralytics heads built on it: rows of box, class
 * scores, then `extraRows` more per anchor (keypoints, mask coefficients),
 * read back for the detections NMS keeps.
 */
export class YoloV8Decoder implements DetectionDecoder {
  readonly task = 'detect' as const;
  readonly nmsFree = false;
  // Reused between runs: best score and class per anchor.
  private best = new Float32Array(0);
  private bestClass = new Int32Array(0);

  readonly denseHead: DenseHead;

  constructor(
    private readonly output: string,
    protected readonly classes: number,
    extraRows = 0,
    readonly format: OutputFormat = 'yolov8',
  ) {
    this.denseHead = { output, convention: 'yolov8', classes, rows: 4 + classes + extraRows };
  }

  protected layout(outputs: Readonly<Record<string, TensorLike>>): DenseLayout {
    const tensor = requireOutput(outputs, this.output);
    const { rows } = this.denseHead;
    if (tensor.compact) {
      if (tensor.dims.length !== 2 || tensor.dims[1] !== rows) {
        throw new OutputShapeError(
          `${this.format} candidates of "${this.output}" have shape [${tensor.dims}], expected [M, ${rows}]`,
        );
      }
      return {
        data: numbers(tensor),
        anchors: tensor.dims[0]!,
        anchorStride: rows,
        rowStride: 1,
        reduced: tensor.compact,
      };
    }
    const dims = withoutBatch(tensor.dims, 2);
    if (dims.length !== 2 || (dims[0] !== rows && dims[1] !== rows)) {
      throw new OutputShapeError(
        `${this.format} output "${this.output}" has shape [${tensor.dims}], expected [1, ${rows}, N]`,
      );
    }
    const channelsFirst = dims[0] === rows;
    const anchors = channelsFirst ? dims[1]! : dims[0]!;
    // Strides let one loop read both layouts.
    return {
      data: numbers(tensor),
      anchors,
      anchorStride: channelsFirst ? 1 : rows,
      rowStride: channelsFirst ? anchors : 1,
    };
  }

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number, rows?: RowRange): Candidate[] {
    const layout = this.layout(outputs);
    if (layout.reduced) return this.decodeReduced(layout, layout.reduced, threshold, rows);
    const { data, anchors, anchorStride, rowStride } = layout;
    if (this.best.length < anchors) {
      this.best = new Float32Array(anchors);
      this.bestClass = new Int32Array(anchors);
    }
    const best = this.best.fill(-Infinity, 0, anchors);
    const bestClass = this.bestClass;
    // Class by class, so that a channels-first head is read row by row, in memory order.
    for (let c = 0; c < this.classes; c++) {
      const row = (4 + c) * rowStride;
      for (let i = 0; i < anchors; i++) {
        const s = data[i * anchorStride + row]!;
        if (s > best[i]!) {
          best[i] = s;
          bestClass[i] = c;
        }
      }
    }
    const candidates: Candidate[] = [];
    for (let i = 0; i < anchors; i++) {
      const score = best[i]!;
      if (!(score >= threshold)) continue;
      const base = i * anchorStride;
      candidates.push(
        centreBox(
          data[base]!,
          data[base + rowStride]!,
          data[base + 2 * rowStride]!,
          data[base + 3 * rowStride]!,
          score,
          bestClass[i]!,
          i,
        ),
      );
    }
    return candidates;
  }

  /** A reduced head's rows (one row an anchor, its values together): the model found each one's class. */
  private decodeReduced(
    { data, anchors, anchorStride }: DenseLayout,
    { classIds }: ReducedHead,
    threshold: number,
    rows?: RowRange,
  ): Candidate[] {
    const [from, to] = rowsToRead(anchors, rows);
    const candidates: Candidate[] = [];
    for (let i = from; i < to; i++) {
      const base = i * anchorStride;
      const classId = classIds[i]!;
      const score = data[base + 4 + classId]!;
      if (score >= threshold)
        candidates.push(centreBox(data[base]!, data[base + 1]!, data[base + 2]!, data[base + 3]!, score, classId, i));
    }
    return candidates;
  }
}

export class YoloV5Decoder implements DetectionDecoder {
  readonly task = 'detect' as const;
  readonly format = 'yolov5' as const;
  readonly nmsFree = false;
  readonly denseHead: DenseHead;

  constructor(
    private readonly output: string,
    private readonly classes: number,
  ) {
    this.denseHead = { output, convention: 'yolov5', classes, rows: 5 + classes };
  }

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number, rows?: RowRange): Candidate[] {
    const tensor = requireOutput(outputs, this.output);
    // The reduced head ([M, 5+C], compact) has the whole head's layout.
    const dims = tensor.compact ? tensor.dims : withoutBatch(tensor.dims, 2);
    const cols = 5 + this.classes;
    if (dims.length !== 2 || dims[1] !== cols) {
      throw new OutputShapeError(`yolov5 output "${this.output}" has shape [${tensor.dims}], expected [1, N, ${cols}]`);
    }
    const data = numbers(tensor);
    const [from, to] = tensor.compact ? rowsToRead(dims[0]!, rows) : [0, dims[0]!];
    const classIds = tensor.compact?.classIds;
    const candidates: Candidate[] = [];
    for (let i = from; i < to; i++) {
      const base = i * cols;
      const objectness = data[base + 4]!;
      if (!(objectness >= threshold)) continue; // score = obj * cls <= obj
      const [bestScore, bestClass] = classIds
        ? [data[base + 5 + classIds[i]!]!, classIds[i]!]
        : this.bestClass(data, base + 5);
      const score = objectness * bestScore;
      if (score >= threshold)
        candidates.push(centreBox(data[base]!, data[base + 1]!, data[base + 2]!, data[base + 3]!, score, bestClass, i));
    }
    return candidates;
  }

  /** The first highest of the class scores from `first` (NaN ignored), and its class. */
  private bestClass(data: ArrayLike<number>, first: number): [score: number, classId: number] {
    let bestScore = -Infinity;
    let bestClass = 0;
    for (let c = 0; c < this.classes; c++) {
      const s = data[first + c]!;
      if (s > bestScore) {
        bestScore = s;
        bestClass = c;
      }
    }
    return [bestScore, bestClass];
  }
}
