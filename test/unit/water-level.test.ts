import { describe, expect, it } from 'vitest';
import { waterLevel } from '../../src/lib/water-level.js';

const cut = (holdings: number[], level: number) => holdings.reduce((sum, h) => sum + Math.min(h, level), 0);

describe('waterLevel', () => {
  it('cuts the largest holdings first, all to one level, to fit the total', () => {
    expect(waterLevel([100, 10, 10], 60)).toBe(40);
    expect(cut([100, 10, 10], 40)).toBe(60);
    // Two at the top share the cut.
    expect(waterLevel([50, 50, 10], 70)).toBe(30);
    // Everyone cut when the total is small.
    expect(waterLevel([30, 20, 10], 15)).toBe(5);
    expect(waterLevel([30, 20], 0)).toBe(0);
  });

  it('cuts nothing when the holdings fit', () => {
    expect(waterLevel([30, 20], 50)).toBe(30);
    expect(waterLevel([], 10)).toBe(0);
  });
});
