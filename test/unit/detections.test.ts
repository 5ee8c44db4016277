// Box selection (detections.ts): NMS on the boxes as the model drew them,
// then clipping to the image, as the exporters' own postprocessing does.
import { describe, expect, it } from 'vitest';
import { selectDetections } from '../../src/inference/pipeline/detections.js';
import { placeImage } from '../../src/inference/pipeline/letterbox.js';
import type { Candidate } from '../../src/inference/outputs/index.js';

const box = (x1: number, y1: number, x2: number, y2: number, score: number, classId = 0): Candidate => ({
  x1,
  y1,
  x2,
  y2,
  score,
  classId,
});
const options = { iou: 0.45, maxDetections: 100, nms: true };
const fractions = (ds: ReturnType<typeof selectDetections>) => ds.map((d) => [d.x1, d.y1, d.x2, d.y2, d.score]);

describe('selectDetections', () => {
  // A 100 x 100 image in a 100 x 100 input: input pixels are hundredths.
  const placement = placeImage(100, 100, 100, 100, 'letterbox');

  it('runs NMS before clipping: a box reaching past the border does not suppress one inside it', () => {
    // As drawn, the two overlap by 40 / 100 (IoU 0.4, kept); clipped first they would be the same box (IoU 1).
    const kept = selectDetections([box(-60, 0, 40, 100, 0.9), box(0, 0, 40, 100, 0.8)], placement, options);
    expect(fractions(kept)).toEqual([
      [0, 0, 0.4, 1, 0.9],
      [0, 0, 0.4, 1, 0.8],
    ]);
  });

  it('still suppresses boxes that overlap as drawn, within a class only', () => {
    const kept = selectDetections(
      [box(10, 10, 50, 50, 0.9), box(12, 10, 52, 50, 0.8), box(12, 10, 52, 50, 0.7, 1)],
      placement,
      options,
    );
    expect(kept.map((d) => [d.score, d.classId])).toEqual([
      [0.9, 0],
      [0.7, 1],
    ]);
  });

  it('answers no box that lies wholly in the padding, and caps what it answers', () => {
    const wide = placeImage(200, 100, 100, 100, 'letterbox'); // the image fills rows 25..75
    const kept = selectDetections(
      [box(10, 0, 30, 20, 0.95), box(10, 30, 30, 60, 0.9), box(40, 30, 60, 60, 0.8), box(70, 30, 90, 60, 0.7)],
      wide,
      {
        ...options,
        maxDetections: 2,
      },
    );
    expect(fractions(kept)).toEqual([
      [0.1, 0.1, 0.3, 0.7, 0.9],
      [0.4, 0.1, 0.6, 0.7, 0.8],
    ]);
  });

  it('clips the boxes of a model that ran its own NMS too', () => {
    const kept = selectDetections([box(-10, 90, 50, 120, 0.5)], placement, { ...options, nms: false });
    expect(fractions(kept)).toEqual([[0, 0.9, 0.5, 1, 0.5]]);
  });
});
