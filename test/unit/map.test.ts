// The evaluation's AP computation on cases whose answer is known.
import { describe, expect, it } from 'vitest';
import { averagePrecision, type Box } from '../../scripts/map.js';

const truths = new Map<number, Box[]>([
  [
    0,
    [
      [0, 0, 10, 10],
      [20, 20, 30, 30],
    ],
  ],
  [1, [[5, 5, 15, 15]]],
]);

describe('averagePrecision', () => {
  it('is 1 for perfect detections and 0 for none', () => {
    const perfect = [...truths].flatMap(([image, boxes]) => boxes.map((box) => ({ image, box, score: 0.9 })));
    expect(averagePrecision(perfect, truths, 0.5)).toBeCloseTo(1, 6);
    expect(averagePrecision([], truths, 0.5)).toBe(0);
  });

  it('counts a duplicate as a false positive and misses lower the recall', () => {
    const predictions = [
      { image: 0, box: [0, 0, 10, 10] as Box, score: 0.9 },
      { image: 0, box: [0, 0, 10, 10] as Box, score: 0.8 }, // duplicate: FP
      { image: 1, box: [5, 5, 15, 15] as Box, score: 0.7 },
    ];
    // precision 1, 0.5, 0.667 at recall 1/3, 1/3, 2/3 -> envelope 1 up to 1/3, 0.667 up to 2/3, 0 after
    const expected = (34 * 1 + 33 * (2 / 3)) / 101;
    expect(averagePrecision(predictions, truths, 0.5)).toBeCloseTo(expected, 6);
  });

  it('requires the IoU threshold', () => {
    const shifted = [{ image: 1, box: [8, 8, 18, 18] as Box, score: 0.9 }]; // IoU 49/151 = 0.32
    expect(averagePrecision(shifted, new Map([[1, [[5, 5, 15, 15]]]]), 0.3)).toBeCloseTo(1, 6);
    expect(averagePrecision(shifted, new Map([[1, [[5, 5, 15, 15]]]]), 0.5)).toBe(0);
  });
});
