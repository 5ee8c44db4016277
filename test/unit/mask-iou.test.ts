import { describe, expect, it } from 'vitest';
import { instanceAreas, maskIous, rasterisePolygon } from '../../scripts/mask-iou.js';

describe('rasterisePolygon', () => {
  it('takes the pixels whose centre is inside, clipped to the image', () => {
    const square = rasterisePolygon(
      [
        [2, 1],
        [6, 1],
        [6, 4],
        [2, 4],
      ],
      10,
      10,
    );
    expect(square.area).toBe(12);
    expect([square.x0, square.y0, square.width, square.height]).toEqual([2, 1, 4, 3]);
    // a triangle x + y < 4: 3, 2, 1 and 0 pixel centres in rows y = 0.5 .. 3.5 (a centre on the edge is out)
    expect(
      rasterisePolygon(
        [
          [0, 0],
          [4, 0],
          [0, 4],
        ],
        10,
        10,
      ).area,
    ).toBe(3 + 2 + 1);
    // half outside the image
    expect(
      rasterisePolygon(
        [
          [-3, -3],
          [3, -3],
          [3, 3],
          [-3, 3],
        ],
        10,
        10,
      ).area,
    ).toBe(9);
    // edges through pixel centres: the left one is inclusive, the right one exclusive
    expect(
      rasterisePolygon(
        [
          [0.5, 0],
          [2.5, 0],
          [2.5, 1],
          [0.5, 1],
        ],
        10,
        10,
      ).area,
    ).toBe(2);
  });
});

describe('maskIous', () => {
  it('is the IoU of the polygon with each instance of the map', () => {
    const w = 8;
    const ids = new Uint8Array(w * 4);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) ids[y * w + x] = 1; // object 0: 4x4 at the left
    for (let y = 0; y < 2; y++) for (let x = 4; x < 8; x++) ids[y * w + x] = 2; // object 1: 4x2 at the top right
    const areas = instanceAreas(ids);
    expect(areas[1]).toBe(16);
    expect(areas[2]).toBe(8);
    const ious = maskIous(
      rasterisePolygon(
        [
          [2, 0],
          [6, 0],
          [6, 4],
          [2, 4],
        ],
        w,
        4,
      ),
      ids,
      w,
      areas,
      2,
    );
    expect(ious[0]).toBeCloseTo(8 / (16 + 16 - 8), 10);
    expect(ious[1]).toBeCloseTo(4 / (16 + 8 - 4), 10);
  });
});
