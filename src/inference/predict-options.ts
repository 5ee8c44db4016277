// The options of one prediction: the client's threshold, iou,
// max_detections, top_k, keypoint_threshold and box (validated by the predict route's query schema)
// over the model version's defaults from model.json.
import type { ModelConfig } from './versions/model-config.js';

export interface PredictOptions {
  /** undefined: the convention's default (resolvePredictOptions) */
  threshold: number | undefined;
  iou: number;
  /** undefined: the convention's default (resolvePredictOptions) */
  maxDetections: number | undefined;
  /** classes a classifier answers at most */
  topK: number;
  /** the visibility below which a keypoint is left out */
  keypointThreshold: number;
  /** segmentation: each polygon's box too, in its children */
  box: boolean;
}

export const MAX_DETECTIONS_LIMIT = 1000;
export const TOP_K_LIMIT = 1000;
/** The defaults where neither the request nor model.json says, for scores the server filters itself. */
export const DEFAULT_THRESHOLD = 0.25;
const DEFAULT_MAX_DETECTIONS = 100;

/** The options with every default filled in: what decoding and selection use. */
export type ResolvedPredictOptions = PredictOptions & { threshold: number; maxDetections: number };

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
    maxDetections:
      requested.maxDetections ??
      (defaults.maxDetections === undefined ? undefined : Math.min(defaults.maxDetections, MAX_DETECTIONS_LIMIT)),
    topK: requested.topK ?? defaults.topK,
    keypointThreshold: requested.keypointThreshold ?? defaults.keypointThreshold,
    box: requested.box ?? false,
  };
}

/**
 * Fills the defaults neither the request nor model.json set. Outputs the
 * model already filtered (`final`: torchvision's detectors ran their own
 * score threshold, NMS and per-image cap in the graph) are answered whole:
 * a second threshold or cap the model never had would drop boxes it kept
 * (a Faster R-CNN keeps boxes from 0.05). Others get 0.25 and 100.
 */
export function resolvePredictOptions(options: PredictOptions, final: boolean): ResolvedPredictOptions {
  return {
    ...options,
    threshold: options.threshold ?? (final ? 0 : DEFAULT_THRESHOLD),
    maxDetections: options.maxDetections ?? (final ? MAX_DETECTIONS_LIMIT : DEFAULT_MAX_DETECTIONS),
  };
}
