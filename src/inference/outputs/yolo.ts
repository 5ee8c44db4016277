// Ultralytics-style dense outputs: one row or column per anchor point with a
// centre-form box in input pixels followed by class scores.
//   YOLOv8/YOLO11: [1, 4+C, N] (channels first; [1, N, 4+C] also read), no objectness
//   YOLOv5/YOLOv7: [1, N, 5+C], objectness then class scores; score = obj * cls
import type { OutputFormat } from '../model-config.js';
import type { Candidate, DenseHead, DetectionDecoder, RowRange, TensorLike } from './types.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch } from './types.js';

function centreBox(cx: number, cy: number, w: number, h: number, score: number, classId: number): Candidate {
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2, score, classId };
}

/** Where a dense output's values lie: value(anchor i, row r) = data[i * anchorStride + r * rowStride]. */
export interface DenseLayout {
  data: ArrayLike<number>;
  anchors: number;
  anchorStride: number;
  rowStride: number;
  /** the head reduced in the model to its candidates, best first */
  compact: boolean;
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
        throw new OutputShapeError(`${this.format} candidates of "${this.output}" have shape [${tensor.dims}], expected [M, ${rows}]`);
      }
      return { data: numbers(tensor), anchors: tensor.dims[0]!, anchorStride: rows, rowStride: 1, compact: true };
    }
    const dims = withoutBatch(tensor.dims, 2);
    if (dims.length !== 2 || (dims[0] !== rows && dims[1] !== rows)) {
      throw new OutputShapeError(`${this.format} output "${this.output}" has shape [${tensor.dims}], expected [1, ${rows}, N]`);
    }
    const channelsFirst = dims[0] === rows;
    const anchors = channelsFirst ? dims[1]! : dims[0]!;
    // Strides let one loop read both layouts.
    return { data: numbers(tensor), anchors, anchorStride: channelsFirst ? 1 : rows, rowStride: channelsFirst ? anchors : 1, compact: false };
  }

  decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number, rows?: RowRange): Candidate[] {
    const { data, anchors, anchorStride, rowStride, compact } = this.layout(outputs);
    const [from, n] = compact && rows ? [Math.min(rows[0], anchors), Math.min(rows[1], anchors)] : [0, anchors];
    if (this.best.length < n) {
      this.best = new Float32Array(n);
      this.bestClass = new Int32Array(n);
    }
    const best = this.best.fill(-Infinity, from, n);
    const bestClass = this.bestClass;
    if (rowStride === 1) {
      // One anchor's values lie together (a reduced head, rows last): read them in order.
      for (let i = from; i < n; i++) {
        const base = i * anchorStride + 4;
        let top = -Infinity;
        let topClass = 0;
        for (let c = 0; c < this.classes; c++) {
          const s = data[base + c]!;
          if (s > top) {
            top = s;
            topClass = c;
          }
        }
        best[i] = top;
        bestClass[i] = topClass;
      }
    } else {
      for (let c = 0; c < this.classes; c++) {
        const row = (4 + c) * rowStride;
        for (let i = from; i < n; i++) {
          const s = data[i * anchorStride + row]!;
          if (s > best[i]!) {
            best[i] = s;
            bestClass[i] = c;
          }
        }
      }
    }
    const candidates: Candidate[] = [];
    for (let i = from; i < n; i++) {
      const score = best[i]!;
      if (!(score >= threshold)) continue;
      const base = i * anchorStride;
      const candidate = centreBox(data[base]!, data[base + rowStride]!, data[base + 2 * rowStride]!, data[base + 3 * rowStride]!, score, bestClass[i]!);
      candidate.anchor = i;
      candidates.push(candidate);
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
    const [from, n] = tensor.compact && rows ? [Math.min(rows[0], dims[0]!), Math.min(rows[1], dims[0]!)] : [0, dims[0]!];
    const candidates: Candidate[] = [];
    for (let i = from; i < n; i++) {
      const base = i * cols;
      const objectness = data[base + 4]!;
      if (!(objectness >= threshold)) continue; // score = obj * cls <= obj
      let bestScore = -Infinity;
      let bestClass = 0;
      for (let c = 0; c < this.classes; c++) {
        const s = data[base + 5 + c]!;
        if (s > bestScore) {
          bestScore = s;
          bestClass = c;
        }
      }
      const score = objectness * bestScore;
      if (score >= threshold) {
        const candidate = centreBox(data[base]!, data[base + 1]!, data[base + 2]!, data[base + 3]!, score, bestClass);
        candidate.anchor = i;
        candidates.push(candidate);
      }
    }
    return candidates;
  }
}
