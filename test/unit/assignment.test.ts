// The linear assignment the tracker matches with, against every matching
// tried by brute force on small random matrices, and its refusal of pairs
// past the cost bound.
import { describe, expect, it } from 'vitest';
import { assign } from '../../src/vision/assignment.js';

/** A small deterministic generator, so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/** The least total cost of matching min(rows, columns) pairs, every injection tried. */
function bruteForce(cost: number[][]): number {
  const [rows, columns] = [cost.length, cost[0]!.length];
  let best = Number.POSITIVE_INFINITY;
  const used = new Array<boolean>(columns).fill(false);
  const visit = (r: number, sum: number, taken: number) => {
    if (taken === Math.min(rows, columns) || r === rows) {
      if (taken === Math.min(rows, columns)) best = Math.min(best, sum);
      return;
    }
    if (rows - r > Math.min(rows, columns) - taken) visit(r + 1, sum, taken); // row r unmatched
    for (let c = 0; c < columns; c++) {
      if (used[c]) continue;
      used[c] = true;
      visit(r + 1, sum + cost[r]![c]!, taken + 1);
      used[c] = false;
    }
  };
  visit(0, 0, 0);
  return best;
}

describe('assign', () => {
  it('finds the cheapest matching, as brute force does, for square and both kinds of rectangle', () => {
    const next = random(7);
    for (const [rows, columns] of [
      [4, 4],
      [3, 5],
      [5, 3],
      [6, 6],
      [1, 4],
    ] as const) {
      for (let trial = 0; trial < 20; trial++) {
        const cost = Array.from({ length: rows }, () => Array.from({ length: columns }, () => next()));
        const pairs = assign(cost, Number.POSITIVE_INFINITY);
        expect(pairs).toHaveLength(Math.min(rows, columns));
        expect(new Set(pairs.map(([, c]) => c)).size).toBe(pairs.length);
        const total = pairs.reduce((sum, [r, c]) => sum + cost[r]![c]!, 0);
        expect(total).toBeCloseTo(bruteForce(cost), 9);
      }
    }
  });

  it('prefers the matching that keeps both pairs over the single cheapest pair', () => {
    // Greedy would take (0, 0) at 0.1 and leave row 1 with (1, 1) at 0.9; the optimum is 0.3 + 0.3.
    expect(
      assign(
        [
          [0.1, 0.3],
          [0.3, 0.9],
        ],
        1,
      ),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('leaves out pairs costing more than the bound, and infinite ones', () => {
    expect(
      assign(
        [
          [0.9, Number.POSITIVE_INFINITY],
          [0.2, 0.95],
        ],
        0.8,
      ),
    ).toEqual([[1, 0]]);
    expect(assign([], 0.5)).toEqual([]);
    expect(assign([[], []], 0.5)).toEqual([]);
  });
});
