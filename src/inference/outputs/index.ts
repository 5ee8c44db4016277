// Picks the decoder for a model from its output names and shapes (or from
// model.json's output.format) and checks, at load time, that model.json and
// the real model agree. A contradiction fails the version with a reason that
// names both sides.
import type { ModelConfig, OutputFormat } from '../versions/model-config.js';
import { ClassificationDecoder } from './classification.js';
import { DetrDecoder } from './detr.js';
import { EndToEndDecoder } from './end2end.js';
import { YoloPoseDecoder } from './pose.js';
import { YoloSegDecoder } from './segment.js';
import { SsdDecoder } from './ssd.js';
import type { OutputDecoder, OutputInfo } from './types.js';
import { describeShape, OutputShapeError, staticDim } from './types.js';
import { YoloV5Decoder, YoloV8Decoder } from './yolo.js';

export type { Candidate, OutputDecoder, OutputInfo, TensorLike } from './types.js';

const lastDim = (o: OutputInfo) => staticDim(o.shape, -1);
const isInteger = (o: OutputInfo) => /int/.test(o.type);

function single(outputs: readonly OutputInfo[], format: OutputFormat): OutputInfo {
  if (outputs.length !== 1) {
    throw new OutputShapeError(`format ${format} expects one output, the model has ${outputs.length}`);
  }
  return outputs[0]!;
}

/** Guesses the convention; undefined when the outputs fit none unambiguously. */
function detectOutputFormat(outputs: readonly OutputInfo[], config: ModelConfig): OutputFormat | undefined {
  const classes = config.labels.length;
  // Keypoint names say pose; the decoder checks the output has room for them.
  if (config.keypoints) return 'yolov8-pose';
  if (outputs.length === 3) return 'ssd';
  // Instance segmentation's second output is the 4-D prototype masks.
  if (outputs.length === 2) return outputs.some((o) => o.shape.length === 4) ? 'yolov8-seg' : 'detr';
  if (outputs.length !== 1) return undefined;
  const shape = outputs[0]!.shape;
  if (shape.length !== 3 && shape.length !== 2) return undefined;
  const rows = staticDim(shape, -2);
  const cols = staticDim(shape, -1);
  // [batch, C]: one score per class of the whole image.
  if (shape.length === 2 && cols === classes && (rows === 1 || rows === undefined)) return 'classification';
  if (rows === 4 + classes && cols !== 4 + classes) return 'yolov8';
  if (cols === 5 + classes && cols === 6) {
    // One class: [1, N, 6] is YOLOv5 with objectness or an end-to-end export.
    // End-to-end exports keep a few hundred boxes; dense heads have thousands.
    return rows !== undefined && rows <= 1000 ? 'end2end' : 'yolov5';
  }
  if (cols === 5 + classes) return 'yolov5';
  if (cols === 6) return 'end2end';
  if (cols === 4 + classes) return 'yolov8';
  return undefined;
}

function expectDims(output: OutputInfo, expected: Array<number | undefined>, what: string): void {
  const shape = output.shape;
  // A leading batch axis, of size 1 or dynamic, is not part of the convention's shape.
  const batchAxis = staticDim(shape, 0) === 1 || staticDim(shape, 0) === undefined;
  const dims = shape.length > expected.length && batchAxis ? shape.slice(1) : shape;
  const tail = dims.slice(-expected.length);
  const ok =
    dims.length === expected.length &&
    expected.every((want, i) => want === undefined || staticDim(tail, i) === undefined || staticDim(tail, i) === want);
  if (!ok) {
    const wanted = `[${expected.map((d) => d ?? 'N').join(', ')}]`;
    throw new OutputShapeError(
      `${what}: output "${output.name}" has shape ${describeShape(shape)}, expected ${wanted}`,
    );
  }
}

/** The output of a dense YOLOv8-style head with `rows` values per anchor, either way round. */
function dense(o: OutputInfo, format: OutputFormat, rows: number, what: string): string {
  const r = staticDim(o.shape, -2);
  const c = staticDim(o.shape, -1);
  if (r !== rows && c !== rows && (r !== undefined || c !== undefined)) {
    throw new OutputShapeError(
      `model.json lists ${what} (format ${format} expects [1, ${rows}, N]) but output "${o.name}" has shape ${describeShape(o.shape)}`,
    );
  }
  return o.name;
}

function findByName(outputs: readonly OutputInfo[], pattern: RegExp): OutputInfo | undefined {
  return outputs.find((o) => pattern.test(o.name));
}

function ssdDecoder(outputs: readonly OutputInfo[], classes: number): SsdDecoder {
  if (outputs.length !== 3)
    throw new OutputShapeError(`format ssd expects 3 outputs (boxes, scores, labels), the model has ${outputs.length}`);
  const boxes = findByName(outputs, /box/i) ?? outputs.find((o) => lastDim(o) === 4);
  const rest = outputs.filter((o) => o !== boxes);
  const labels = findByName(rest, /label|class/i) ?? rest.find(isInteger);
  const scores = findByName(rest, /score|conf/i) ?? rest.find((o) => o !== labels);
  if (!boxes || !labels || !scores || new Set([boxes, labels, scores]).size !== 3) {
    throw new OutputShapeError(
      `format ssd: cannot tell boxes, scores and labels apart in outputs ${outputs.map((o) => o.name).join(', ')}`,
    );
  }
  expectDims(boxes, [undefined, 4], 'format ssd');
  if (isInteger(scores) && !isInteger(labels)) {
    // Named in the wrong order at export: torchvision's SSD and RetinaNet
    // return boxes, scores, labels, but Faster R-CNN and FCOS boxes, labels,
    // scores, and torch.onnx.export names the outputs by position.
    throw new OutputShapeError(
      `format ssd: output "${labels.name}" holds ${labels.type} and output "${scores.name}" holds ${scores.type}: their names look swapped ` +
        `(torchvision's Faster R-CNN returns boxes, labels, scores; name the outputs in that order when exporting)`,
    );
  }
  return new SsdDecoder({ boxes: boxes.name, scores: scores.name, labels: labels.name }, classes);
}

function detrDecoder(outputs: readonly OutputInfo[], classes: number, width: number, height: number): DetrDecoder {
  if (outputs.length !== 2)
    throw new OutputShapeError(`format detr expects 2 outputs (logits, boxes), the model has ${outputs.length}`);
  const boxes = findByName(outputs, /box/i) ?? outputs.find((o) => lastDim(o) === 4);
  const logits = outputs.find((o) => o !== boxes);
  if (!boxes || !logits) throw new OutputShapeError('format detr: cannot tell logits and boxes apart');
  expectDims(boxes, [undefined, 4], 'format detr');
  const width_ = lastDim(logits);
  if (width_ !== undefined && width_ !== classes && width_ !== classes + 1) {
    throw new OutputShapeError(
      `model.json lists ${classes} labels but logits output "${logits.name}" has shape ${describeShape(logits.shape)} (${width_} classes)`,
    );
  }
  return new DetrDecoder({ logits: logits.name, boxes: boxes.name }, classes, width, height);
}

function segDecoder(outputs: readonly OutputInfo[], config: ModelConfig): YoloSegDecoder {
  const classes = config.labels.length;
  if (outputs.length !== 2)
    throw new OutputShapeError(
      `format yolov8-seg expects 2 outputs (detections, prototypes), the model has ${outputs.length}`,
    );
  const prototypes = outputs.find((o) => o.shape.length === 4);
  const detections = outputs.find((o) => o !== prototypes);
  const masks = prototypes && staticDim(prototypes.shape, 1);
  if (!prototypes || !detections || masks === undefined) {
    throw new OutputShapeError(
      `format yolov8-seg: no prototype output [1, M, H, W] with a fixed M among ${outputs.map((o) => `"${o.name}" ${describeShape(o.shape)}`).join(', ')}`,
    );
  }
  const rows = 4 + classes + masks;
  const name = dense(detections, 'yolov8-seg', rows, `${classes} labels and the prototypes ${masks} masks`);
  return new YoloSegDecoder(name, prototypes.name, classes, masks, config.input, config.labels);
}

export function createOutputDecoder(config: ModelConfig, outputs: readonly OutputInfo[]): OutputDecoder {
  const classes = config.labels.length;
  const format = config.output.format ?? detectOutputFormat(outputs, config);
  const shapes = outputs.map((o) => `"${o.name}" ${describeShape(o.shape)}`).join(', ');
  if (!format) {
    if (outputs.length === 1) {
      throw new OutputShapeError(
        `model.json lists ${classes} labels but output ${shapes} fits no convention with ${classes} classes ` +
          `(yolov8 [1, ${4 + classes}, N], yolov5 [1, N, ${5 + classes}], end2end [1, K, 6], classification [1, ${classes}]); fix the labels or set output.format in model.json`,
      );
    }
    throw new OutputShapeError(
      `cannot tell the output convention of outputs ${shapes}; set output.format in model.json`,
    );
  }
  if (config.output.logits && format !== 'classification') {
    throw new OutputShapeError(
      `output.logits applies to classification models only; this model's output format is ${format}`,
    );
  }
  if (config.keypoints && format !== 'yolov8-pose') {
    throw new OutputShapeError(
      `model.json lists keypoints, which only format yolov8-pose has; this model's output format is ${format}`,
    );
  }
  switch (format) {
    case 'classification': {
      const o = single(outputs, format);
      expectDims(o, [classes], `model.json lists ${classes} labels (format classification)`);
      return new ClassificationDecoder(o.name, classes, config.output.logits);
    }
    case 'yolov8':
      return new YoloV8Decoder(dense(single(outputs, format), format, 4 + classes, `${classes} labels`), classes);
    case 'yolov8-pose': {
      const keypoints = config.keypoints;
      if (!keypoints)
        throw new OutputShapeError('format yolov8-pose needs the keypoint names in model.json ("keypoints")');
      const rows = 4 + classes + 3 * keypoints.length;
      return new YoloPoseDecoder(
        dense(single(outputs, format), format, rows, `${classes} labels and ${keypoints.length} keypoints`),
        classes,
        keypoints,
      );
    }
    case 'yolov8-seg':
      return segDecoder(outputs, config);
    case 'yolov5': {
      const o = single(outputs, format);
      expectDims(o, [undefined, 5 + classes], `model.json lists ${classes} labels (format yolov5)`);
      return new YoloV5Decoder(o.name, classes);
    }
    case 'end2end': {
      const o = single(outputs, format);
      expectDims(o, [undefined, 6], 'format end2end');
      return new EndToEndDecoder(o.name, classes);
    }
    case 'ssd':
      return ssdDecoder(outputs, classes);
    case 'detr':
      return detrDecoder(outputs, classes, config.input.width, config.input.height);
  }
}
