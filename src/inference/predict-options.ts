// The options of one prediction: the client's threshold, iou and
// max_detections (validated by the predict route's query schema) over the
// model version's defaults from model.json.
import type { ModelConfig } from './model-config.js';

export interface PredictOptions {
  threshold: number;
  iou: number;
  maxDetections: number;
}

export const MAX_DETECTIONS_LIMIT = 1000;

export interface RequestedOptions {
  threshold?: number | undefined;
  iou?: number | undefined;
  maxDetections?: number | undefined;
}

export function predictOptions(requested: RequestedOptions, defaults: ModelConfig['defaults']): PredictOptions {
  return {
    threshold: requested.threshold ?? defaults.threshold,
    iou: requested.iou ?? defaults.iou,
    maxDetections: requested.maxDetections ?? Math.min(defaults.maxDetections, MAX_DETECTIONS_LIMIT),
  };
}
