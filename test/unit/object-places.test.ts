// Lines and zones as objects move through them: the direction of a
// crossing as the line is drawn, a move around a line's end, an anchor that
// stops on the line, a zone's inertia and anchor, and the time spent inside.
import { describe, expect, it } from 'vitest';
import { anchorPoint, crossingOf, type ImageLine, zonesOf } from '../../src/lib/image-zones.js';
import type { Box } from '../../src/vision/kalman-box.js';
import { ObjectPlaces } from '../../src/vision/object-places.js';

const box = (cx: number, cy: number, w = 0.1, h = 0.2): Box => [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
const DOWN: ImageLine['line'] = [
  [0.5, 0],
  [0.5, 1],
];

describe('crossingOf', () => {
  it('reads in as left to right of the line as drawn (x right, y down), out the other way', () => {
    expect(crossingOf([0.8, 0.5], [0.2, 0.5], DOWN)).toBe('in');
    expect(crossingOf([0.2, 0.5], [0.8, 0.5], DOWN)).toBe('out');
    // the same line drawn bottom to top swaps them
    expect(crossingOf([0.8, 0.5], [0.2, 0.5], [DOWN[1], DOWN[0]])).toBe('out');
    // a horizontal line drawn left to right: in is from above (its left as drawn) to below
    expect(
      crossingOf(
        [0.5, 0.1],
        [0.5, 0.9],
        [
          [0, 0.5],
          [1, 0.5],
        ],
      ),
    ).toBe('in');
  });

  it('counts no crossing for a move past the end of the segment, or one that stays on a side', () => {
    const short: ImageLine['line'] = [
      [0.5, 0.4],
      [0.5, 0.6],
    ];
    expect(crossingOf([0.8, 0.9], [0.2, 0.9], short)).toBeUndefined();
    expect(crossingOf([0.8, 0.5], [0.2, 0.5], short)).toBe('in');
    expect(crossingOf([0.8, 0.5], [0.6, 0.1], DOWN)).toBeUndefined();
  });

  it("places a frame's box in a zone by the zone's anchor", () => {
    const floor = [
      [0, 0.6],
      [1, 0.6],
      [1, 1],
      [0, 1],
    ] as const;
    const detection = { type: 'rectangle', data: { min: [0.4, 0.4], max: [0.6, 0.7] } };
    expect(
      zonesOf(detection, [
        { name: 'by_feet', polygon: floor, anchor: 'bottom' },
        { name: 'by_centre', polygon: floor },
      ]),
    ).toEqual(['by_feet']);
  });

  it("anchors a box at its centre or at its bottom edge's middle", () => {
    expect(anchorPoint([0.2, 0.2, 0.4, 0.6], 'center')).toEqual([0.30000000000000004, 0.4]);
    expect(anchorPoint([0.2, 0.2, 0.4, 0.6], 'bottom')).toEqual([0.30000000000000004, 0.6]);
  });
});

describe('ObjectPlaces', () => {
  it('counts a crossing once when the anchor stops on the line on its way over', () => {
    const places = new ObjectPlaces([], [{ name: 'gate', line: DOWN }]);
    const crossed = [0.8, 0.65, 0.5, 0.5, 0.35, 0.2].flatMap((x, f) => places.observe(7, box(x, 0.5), f * 200).crossed);
    expect(crossed).toEqual([{ line: 'gate', direction: 'in' }]);
  });

  it('enters a zone after its inertia in frames inside in a row; a flicker enters nothing', () => {
    const zone = {
      name: 'dock',
      polygon: [
        [0, 0],
        [0.5, 0],
        [0.5, 1],
        [0, 1],
      ] as const,
      inertia: 3,
    };
    const places = new ObjectPlaces([zone], []);
    const xs = [0.8, 0.3, 0.8, 0.3, 0.3, 0.3, 0.3, 0.8];
    const changes = xs.map((x, f) => places.observe(1, box(x, 0.5), f * 1000));
    expect(changes.map((c) => c.entered.length)).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
    expect(changes.map((c) => c.left.length)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(places.zonesOf(1, 6000)).toEqual([]);
  });

  it('follows the bottom anchor where asked, and tells the time spent in each zone', () => {
    const floor = {
      name: 'floor',
      polygon: [
        [0, 0.6],
        [1, 0.6],
        [1, 1],
        [0, 1],
      ] as const,
      anchor: 'bottom' as const,
    };
    const places = new ObjectPlaces([floor, { ...floor, name: 'floor by centre', anchor: 'center' as const }], []);
    // centre at y 0.55, bottom at 0.65: on the floor by its feet, not by its centre
    expect(places.observe(3, box(0.5, 0.55), 1000).entered).toEqual(['floor']);
    places.observe(3, box(0.5, 0.56), 2000);
    expect(places.zonesOf(3, 3500)).toEqual([{ zone: 'floor', ms: 2500 }]);
    expect(places.end(3)).toEqual([{ zone: 'floor', since: 1000 }]);
    expect(places.zonesOf(3, 4000)).toEqual([]);
  });
});
