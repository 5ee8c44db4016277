// Mask outlines for instance segmentation: the largest 4-connected part,
// its outer boundary traced along cell edges, and Douglas-Peucker on the
// closed polygon.
import { describe, expect, it } from 'vitest';
import {
  largestPart,
  simplifyClosed,
  traceOuterContour,
  type Grid,
  type Vertex,
} from '../../src/inference/pipeline/contour.js';

/** A grid from rows of '#' (in) and '.' (out). */
function grid(...rows: string[]): Grid {
  const width = rows[0]!.length;
  return { cells: Uint8Array.from(rows.join(''), (c) => (c === '#' ? 1 : 0)), width, height: rows.length };
}

const outline = (g: Grid) => traceOuterContour(largestPart(g)!);

describe('traceOuterContour', () => {
  it('one cell: its four corners, clockwise from the top-left', () => {
    expect(outline(grid('....', '..#.', '....'))).toEqual([
      [2, 1],
      [3, 1],
      [3, 2],
      [2, 2],
    ]);
  });

  it('an L: one vertex per corner, none on straight runs', () => {
    expect(outline(grid('####', '####', '##..', '##..'))).toEqual([
      [0, 0],
      [4, 0],
      [4, 2],
      [2, 2],
      [2, 4],
      [0, 4],
    ]);
  });

  it('a U: the notch is followed (left turns)', () => {
    expect(outline(grid('#.#', '#.#', '###'))).toEqual([
      [0, 0],
      [1, 0],
      [1, 2],
      [2, 2],
      [2, 0],
      [3, 0],
      [3, 3],
      [0, 3],
    ]);
  });

  it('a ring: the outer boundary only, the hole does not show', () => {
    expect(outline(grid('....', '.###', '.#.#', '.###'))).toEqual([
      [1, 1],
      [4, 1],
      [4, 4],
      [1, 4],
    ]);
  });

  it('a part whose first cell sits below a notch of its own row above', () => {
    // Row 0's cells belong to the part through column 2; the trace starts at (0, 0).
    expect(outline(grid('#.##', '####'))).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 1],
      [2, 0],
      [4, 0],
      [4, 2],
      [0, 2],
    ]);
  });
});

describe('largestPart', () => {
  it('keeps the largest part; cells touching at a corner are separate parts', () => {
    const part = largestPart(grid('#...', '.##.', '.##.', '...#'))!;
    expect(traceOuterContour(part)).toEqual([
      [1, 1],
      [3, 1],
      [3, 3],
      [1, 3],
    ]);
    expect([...part.cells].filter(Boolean)).toHaveLength(4);
  });

  it('among equal parts, the first in row-major order', () => {
    expect(outline(grid('..#', '#..'))).toEqual([
      [2, 0],
      [3, 0],
      [3, 1],
      [2, 1],
    ]);
  });

  it('an empty mask has none', () => {
    expect(largestPart(grid('...', '...'))).toBeUndefined();
  });
});

/** Distance from p to the closed polygon's outline. */
function distanceToOutline(p: Vertex, polygon: Vertex[]): number {
  let best = Infinity;
  polygon.forEach((a, i) => {
    const b = polygon[(i + 1) % polygon.length]!;
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  });
  return best;
}

describe('simplifyClosed', () => {
  // A right triangle of cells: its hypotenuse is a staircase of 1-cell steps.
  const staircase = outline(grid('#.....', '##....', '###...', '####..', '#####.', '######'));

  it('a staircase becomes its straight edge within the tolerance', () => {
    expect(staircase).toHaveLength(14);
    // Its corners are 0.71 cells off the diagonal.
    const simplified = simplifyClosed(staircase, 0.75);
    expect(simplified).toEqual([
      [0, 0],
      [6, 6],
      [0, 6],
    ]);
    for (const v of staircase) expect(distanceToOutline(v, simplified)).toBeLessThanOrEqual(0.75);
  });

  it('keeps every corner farther from the outline than the tolerance', () => {
    const simplified = simplifyClosed(staircase, 0.5);
    expect(simplified.length).toBeGreaterThan(3);
    for (const v of staircase) expect(distanceToOutline(v, simplified)).toBeLessThanOrEqual(0.5);
    expect(simplifyClosed(staircase, 0)).toEqual(staircase);
  });

  it("an L's inner corner stays while it is farther off than the tolerance", () => {
    // The inner corner (2, 2) is 0.89 cells from the line between its neighbours.
    const l = outline(grid('####', '####', '##..', '##..'));
    expect(simplifyClosed(l, 0.75)).toEqual(l);
    expect(simplifyClosed(l, 1)).toEqual([
      [0, 0],
      [4, 0],
      [4, 2],
      [0, 4],
    ]);
  });

  it('a polygon smaller than the tolerance is kept as traced, never below 3 vertices', () => {
    const cell = outline(grid('#'));
    expect(simplifyClosed(cell, 1)).toEqual(cell);
  });
});
