// Zones of a camera image (src/lib/image-zones.ts) and the event a frame
// becomes (framePayload, src/ingest/frames.ts): where each detection shape
// lies, and the counts rules read.
import { describe, expect, it } from 'vitest';
import { framePayload } from '../../src/ingest/frames.js';
import { inPolygon, referencePoint, zonesOf, type ImageZone } from '../../src/lib/image-zones.js';

const SQUARE: ImageZone = {
  name: 'square',
  polygon: [
    [0.2, 0.2],
    [0.6, 0.2],
    [0.6, 0.6],
    [0.2, 0.6],
  ],
};
/** An L shape: the square's lower-left part only, so a concave polygon is tested too. */
const ELL: ImageZone = {
  name: 'ell',
  polygon: [
    [0, 0],
    [0.3, 0],
    [0.3, 0.7],
    [1, 0.7],
    [1, 1],
    [0, 1],
  ],
};

const box = (x1: number, y1: number, x2: number, y2: number) => ({
  type: 'rectangle',
  score: 0.9,
  data: { min: [x1, y1], max: [x2, y2] },
  children: {},
});

describe('image zones', () => {
  it('places each detection shape by its reference point', () => {
    expect(referencePoint(box(0.1, 0.2, 0.3, 0.6))).toEqual([0.2, 0.4]);
    expect(
      referencePoint({
        type: 'polygon',
        data: {
          points: [
            [0, 0],
            [0.6, 0],
            [0.3, 0.9],
          ],
        },
      }),
    ).toEqual([0.3, 0.3]);
    expect(referencePoint({ type: 'point', data: { point: [0.7, 0.1] } })).toEqual([0.7, 0.1]);
    expect(referencePoint({ type: 'class', data: {} })).toBeUndefined();
  });

  it('tells inside from outside, concave polygons included', () => {
    expect(inPolygon([0.4, 0.4], SQUARE.polygon)).toBe(true);
    expect(inPolygon([0.7, 0.4], SQUARE.polygon)).toBe(false);
    expect(inPolygon([0.1, 0.5], ELL.polygon)).toBe(true);
    expect(inPolygon([0.5, 0.5], ELL.polygon)).toBe(false); // in the L's notch
    expect(inPolygon([0.8, 0.8], ELL.polygon)).toBe(true);
  });

  it('names every zone a detection lies in, in the zones’ order, and none for a class', () => {
    expect(zonesOf(box(0.2, 0.5, 0.3, 0.6), [SQUARE, ELL])).toEqual(['square', 'ell']);
    expect(zonesOf(box(0.7, 0.7, 0.9, 0.9), [SQUARE, ELL])).toEqual(['ell']);
    expect(zonesOf(box(0.4, 0.1, 0.5, 0.2), [SQUARE, ELL])).toEqual([]);
    expect(zonesOf({ type: 'class', data: {} }, [SQUARE, ELL])).toEqual([]);
  });
});

describe('a frame’s event', () => {
  it('carries the detections with their zones, the counts by label and by zone', () => {
    const detections = { cone: [box(0.3, 0.3, 0.4, 0.4), box(0.8, 0.8, 0.9, 0.9)], circle: [box(0.7, 0.1, 0.9, 0.2)] };
    expect(framePayload('v1', 'frame-7', detections, [SQUARE, ELL])).toEqual({
      frameId: 'frame-7',
      modelVersionId: 'v1',
      detections: {
        cone: [
          { ...detections.cone[0], zones: ['square'] },
          { ...detections.cone[1], zones: ['ell'] },
        ],
        circle: [{ ...detections.circle[0], zones: [] }],
      },
      counts: { cone: 2, circle: 1 },
      zoneCounts: { square: { cone: 1 }, ell: { cone: 1 } },
    });
  });

  it('lists every zone, empty ones too, and leaves out an absent frame id', () => {
    expect(framePayload('v1', undefined, {}, [SQUARE])).toEqual({
      modelVersionId: 'v1',
      detections: {},
      counts: {},
      zoneCounts: { square: {} },
    });
  });
});
