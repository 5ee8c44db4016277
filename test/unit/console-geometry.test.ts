// The arrow the console draws on a camera's counting line (web/src/line-geometry.ts):
// it points the way the server counts `in` (src/lib/image-zones.ts), from the
// left of the line's start → end to its right, as drawn with y down.
import { describe, expect, it } from 'vitest';
import { crossingOf, sideOfLine } from '../../src/lib/image-zones.js';
import { inArrow } from '../../web/src/line-geometry.js';

/** A frame's drawing size: 640 wide, 16:9. */
const W = 640;
const H = 360;
const toDrawing = ([x, y]: readonly [number, number]): [number, number] => [x * W, y * H];
const toImage = ([x, y]: readonly [number, number]): [number, number] => [x / W, y / H];

describe('inArrow', () => {
  it('points left for a line drawn top to bottom: an object moving from x 0.8 to x 0.2 crosses it `in`', () => {
    const line = [
      [0.5, 0],
      [0.5, 1],
    ] as const;
    // the definition the arrow follows, as the server applies it
    expect(crossingOf([0.8, 0.5], [0.2, 0.5], line)).toBe('in');
    const arrow = inArrow(toDrawing(line[0]), toDrawing(line[1]))!;
    expect(arrow.tail).toEqual([320, 180]);
    expect(arrow.tip[0]).toBeLessThan(arrow.tail[0]);
    expect(arrow.tip[1]).toBeCloseTo(arrow.tail[1], 9);
    expect(arrow.tail[0] - arrow.tip[0]).toBeCloseTo(28, 9);
  });

  it('points down for a line drawn left to right, up for one drawn right to left', () => {
    const down = inArrow([0, 100], [640, 100])!;
    expect(down.tip[1]).toBeGreaterThan(down.tail[1]);
    expect(down.tip[0]).toBeCloseTo(down.tail[0], 9);
    const up = inArrow([640, 100], [0, 100])!;
    expect(up.tip[1]).toBeLessThan(up.tail[1]);
  });

  it("ends on the line's right side for any line, as the server tells sides, square to the line as drawn", () => {
    const lines: Array<readonly [readonly [number, number], readonly [number, number]]> = [
      [
        [0.1, 0.2],
        [0.9, 0.7],
      ],
      [
        [0.9, 0.7],
        [0.1, 0.2],
      ],
      [
        [0.3, 0.9],
        [0.35, 0.05],
      ],
      [
        [0.8, 0.1],
        [0.2, 0.15],
      ],
    ];
    for (const line of lines) {
      const [a, b] = [toDrawing(line[0]), toDrawing(line[1])];
      const arrow = inArrow(a, b)!;
      // the tip, back in the image's fractions, lies on the right: the side `in` crosses to
      expect(sideOfLine(toImage(arrow.tip), line), JSON.stringify(line)).toBe(1);
      // …and a move from the arrow's tail side across to its tip is `in` (the tail nudged to the left)
      const before: [number, number] = [
        arrow.tail[0] - (arrow.tip[0] - arrow.tail[0]),
        arrow.tail[1] - (arrow.tip[1] - arrow.tail[1]),
      ];
      expect(crossingOf(toImage(before), toImage(arrow.tip), line)).toBe('in');
      // square to the line in drawing units
      const along = [b[0] - a[0], b[1] - a[1]];
      const arrowing = [arrow.tip[0] - arrow.tail[0], arrow.tip[1] - arrow.tail[1]];
      expect(along[0]! * arrowing[0]! + along[1]! * arrowing[1]!).toBeCloseTo(0, 6);
      // the head's corners either side of the shaft, behind the tip
      const [tip, left, right] = arrow.head;
      expect(tip).toEqual(arrow.tip);
      const side = (p: [number, number]) =>
        Math.sign(arrowing[0]! * (p[1] - arrow.tail[1]) - arrowing[1]! * (p[0] - arrow.tail[0]));
      expect(side(left)).toBe(-side(right));
    }
  });

  it('has no arrow for a line whose ends coincide', () => {
    expect(inArrow([10, 10], [10, 10])).toBeUndefined();
  });
});
