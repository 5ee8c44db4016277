// Optional query parameters of predict: threshold, iou, max_detections.
// Out-of-range or malformed values are the client's mistake: 400.
import type { ModelConfig } from './model-config.js';
import { predictErrors } from './predict-errors.js';

export interface PredictOptions {
  threshold: number;
  iou: number;
  maxDetections: number;
}

const MAX_DETECTIONS_LIMIT = 1000;

function fraction(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw predictErrors.badQuery(`${name}: must be a number between 0 and 1, got "${raw}"`);
  }
  return value;
}

export function parsePredictOptions(query: URLSearchParams, defaults: ModelConfig['defaults']): PredictOptions {
  const raw = query.get('max_detections');
  let maxDetections = Math.min(defaults.maxDetections, MAX_DETECTIONS_LIMIT);
  if (raw !== null) {
    maxDetections = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isInteger(maxDetections) || maxDetections < 1 || maxDetections > MAX_DETECTIONS_LIMIT) {
      throw predictErrors.badQuery(`max_detections: must be an integer between 1 and ${MAX_DETECTIONS_LIMIT}, got "${raw}"`);
    }
  }
  return {
    threshold: fraction(query, 'threshold', defaults.threshold),
    iou: fraction(query, 'iou', defaults.iou),
    maxDetections,
  };
}
