// The options of one prediction: the client's threshold, iou,
// max_detections, top_k, keypoint_threshold and box (validated by the predict route's query schema)
// over the model version's defaults from model.json.
import type { ModelConfig } from './model-config.js';

export interface PredictOptions {
  threshold: number;
  iou: number;
  maxDetections: number;
  /** classes a classifier answers at most */
  topK: number;
  /** the visibility below which a keypoint is left out */
  keypointThreshold: number;
  /** segmentation: each polygon's box too, in its children */
  box: boolean;
}

export const MAX_DETECTIONS_LIMIT = 1000;
export const TOP_K_LIMIT = 1000;

export interface RequestedOptions {
  threshold?: number | undefined;
  iou?: number | undefined;
  maxDetections?: number | undefined;
  topK?: number | undefined;
  keypointThreshold?: number | undefined;
  box?: boolean | undefined;
}

export function predictOptions(requested: RequestedOptions, defaults: ModelConfig['defaults']): PredictOptions {
  return {
    threshold: requested.threshold ?? defaults.threshold,
    iou: requested.iou ?? defaults.iou,
    maxDetections: requested.maxDetections ?? Math.min(defaults.maxDetections, MAX_DETECTIONS_LIMIT),
    topK: requested.topK ?? defaults.topK,
    keypointThreshold: requested.keypointThreshold ?? defaults.keypointThreshold,
    box: requested.box ?? false,
  };
}
