// YOLOv8/YOLO11-seg: output0 [1, 4+C+M, N], the YOLOv8 rows followed by M
// mask coefficients, and prototypes [1, M, Hp, Wp] (a quarter of the input's
// size in Ultralytics' exports). A kept box's mask is sigmoid(coefficients ·
// prototypes) > 0.5 on the prototype grid, cropped to the box as Ultralytics
// crops it and to the image (the letterbox padding is not part of it); the
// answer is the outline of its largest part as a polygon (contour.ts).
import { largestPart, simplifyClosed, traceOuterContour } from '../pipeline/contour.js';
import { labelMap, rectangle, round, type Answer, type Detection } from '../pipeline/detections.js';
import { normaliseX, normaliseY, type Placement } from '../pipeline/letterbox.js';
import type { PredictOptions } from '../predict-options.js';
import { numbers, OutputShapeError, requireOutput, withoutBatch, type RowRange, type TensorLike } from './types.js';
import { YoloV8Decoder } from './yolo.js';

/**
 * Douglas-Peucker tolerance, in prototype cells: removes the cell grid's
 * staircase along slanted edges (its corners lie 0.71 cells off a 45° edge)
 * and keeps features two cells wide.
 */
const POLYGON_TOLERANCE_CELLS = 0.75;

/** The first and one-past-last cell whose index i satisfies from <= i and (i + offset) * scale < to, within [0, cells]. */
function cellRange(from: number, to: number, scale: number, offset: number, cells: number): [number, number] {
  return [Math.max(0, Math.ceil(from / scale - offset)), Math.min(cells, Math.ceil(to / scale - offset))];
}

export class YoloSegDecoder extends YoloV8Decoder {
  constructor(
    output: string,
    private readonly prototypesName: string,
    classes: number,
    private readonly masks: number,
    private readonly input: { width: number; height: number },
    private readonly labels: readonly string[],
  ) {
    super(output, classes, masks, 'yolov8-seg');
  }

  private prototypes(outputs: Readonly<Record<string, TensorLike>>) {
    const tensor = requireOutput(outputs, this.prototypesName);
    const dims = withoutBatch(tensor.dims, 3);
    if (dims.length !== 3 || dims[0] !== this.masks) {
      throw new OutputShapeError(
        `prototype output "${this.prototypesName}" has shape [${tensor.dims}], expected [1, ${this.masks}, H, W]`,
      );
    }
    return { data: numbers(tensor), height: dims[1]!, width: dims[2]! };
  }

  override decode(outputs: Readonly<Record<string, TensorLike>>, threshold: number, rows?: RowRange) {
    this.prototypes(outputs); // a wrong prototype shape fails every run (and the warm-up), not only runs with detections
    return super.decode(outputs, threshold, rows);
  }

  describe(
    detection: Detection,
    outputs: Readonly<Record<string, TensorLike>>,
    placement: Placement,
    options: PredictOptions,
  ): Answer | undefined {
    const { data, anchorStride, rowStride } = this.layout(outputs);
    const base = detection.source.anchor! * anchorStride;
    const coefficients = Array.from({ length: this.masks }, (_, m) => data[base + (4 + this.classes + m) * rowStride]!);
    const protos = this.prototypes(outputs);
    const sx = this.input.width / protos.width;
    const sy = this.input.height / protos.height;
    const box = detection.source;
    // Cells whose index lies in the box scaled to the grid (Ultralytics' crop_mask)
    // and whose centre lies on the image.
    const [boxX0, boxX1] = cellRange(Math.min(box.x1, box.x2), Math.max(box.x1, box.x2), sx, 0, protos.width);
    const [boxY0, boxY1] = cellRange(Math.min(box.y1, box.y2), Math.max(box.y1, box.y2), sy, 0, protos.height);
    const [imgX0, imgX1] = cellRange(placement.rectX, placement.rectX + placement.rectWidth, sx, 0.5, protos.width);
    const [imgY0, imgY1] = cellRange(placement.rectY, placement.rectY + placement.rectHeight, sy, 0.5, protos.height);
    const [x0, x1, y0, y1] = [
      Math.max(boxX0, imgX0),
      Math.min(boxX1, imgX1),
      Math.max(boxY0, imgY0),
      Math.min(boxY1, imgY1),
    ];
    if (x1 <= x0 || y1 <= y0) return undefined;

    const width = x1 - x0;
    const cells = new Uint8Array(width * (y1 - y0));
    const plane = protos.width * protos.height;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        let logit = 0;
        for (let m = 0; m < this.masks; m++) logit += coefficients[m]! * protos.data[m * plane + y * protos.width + x]!;
        // sigmoid(logit) > 0.5, without the exp
        cells[(y - y0) * width + (x - x0)] = logit > 0 ? 1 : 0;
      }
    }
    const part = largestPart({ cells, width, height: y1 - y0 });
    // An empty mask has no outline to answer: the detection is left out.
    if (!part) return undefined;
    const points = simplifyClosed(traceOuterContour(part), POLYGON_TOLERANCE_CELLS).map(([x, y]): [number, number] => [
      round(normaliseX(placement, (x0 + x) * sx)),
      round(normaliseY(placement, (y0 + y) * sy)),
    ]);
    const children = labelMap<Answer[]>();
    if (options.box) children[this.labels[detection.classId] ?? String(detection.classId)] = [rectangle(detection)];
    return { type: 'polygon', data: { points }, score: round(detection.score), children };
  }
}
