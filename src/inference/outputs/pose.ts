// YOLOv8/YOLO11-pose: [1, 4+C+K*3, N], the YOLOv8 rows followed by K
// keypoint triples x, y (input pixels) and visibility (0-1, the export
// applies the sigmoid). Each kept box is answered as a rectangle with its
// keypoints in `children`, keyed by the names model.json gives them.
import { labelMap, rectangle, round, type Answer, type Detection } from '../pipeline/detections.js';
import { normaliseX, normaliseY, type Placement } from '../pipeline/letterbox.js';
import type { PredictOptions } from '../predict-options.js';
import type { TensorLike } from './types.js';
import { YoloV8Decoder } from './yolo.js';

export class YoloPoseDecoder extends YoloV8Decoder {
  constructor(
    output: string,
    classes: number,
    private readonly keypoints: readonly string[],
  ) {
    super(output, classes, keypoints.length * 3, 'yolov8-pose');
  }

  describe(
    detection: Detection,
    outputs: Readonly<Record<string, TensorLike>>,
    placement: Placement,
    options: PredictOptions,
  ): Answer {
    const { data, anchorStride, rowStride } = this.layout(outputs);
    const at = (row: number) => data[detection.source.anchor! * anchorStride + row * rowStride]!;
    const children = labelMap<Answer[]>();
    this.keypoints.forEach((name, k) => {
      const row = 4 + this.classes + 3 * k;
      const visibility = at(row + 2);
      // A keypoint the model does not see (occluded, outside the image) is left out rather than guessed.
      if (!(visibility >= options.keypointThreshold)) return;
      const point: [number, number] = [
        round(normaliseX(placement, at(row))),
        round(normaliseY(placement, at(row + 1))),
      ];
      (children[name] ??= []).push({ type: 'point', data: { point }, score: round(visibility), children: {} });
    });
    return rectangle(detection, children);
  }
}
