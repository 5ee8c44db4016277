// The console's map arithmetic (web/src/map.ts): the first view of a
// project's landmarks shows every one of them whole.
import { describe, expect, it } from 'vitest';
import { circleBox, distance, fitView, toScreen } from '../../web/src/map.js';

const WIDTH = 960;
const HEIGHT = 360;
const inside = (view: ReturnType<typeof fitView>, p: { lat: number; lon: number }) => {
  const [x, y] = toScreen(view, p);
  return x >= 0 && x <= WIDTH && y >= 0 && y <= HEIGHT;
};

describe('fitView', () => {
  it('shows a 200 m circle whole, with a margin (before: the zoom chosen for its centre cut it)', () => {
    const center = { lat: 48.8566, lon: 2.3522 };
    const [sw, ne] = circleBox(center, 200);
    expect(distance(center, { lat: ne.lat, lon: center.lon })).toBeCloseTo(200, 0);
    expect(distance(center, { lat: center.lat, lon: ne.lon })).toBeCloseTo(200, 0);
    const view = fitView([sw, ne], WIDTH, HEIGHT);
    for (const p of [sw, ne, { lat: sw.lat, lon: ne.lon }, { lat: ne.lat, lon: sw.lon }])
      expect(inside(view, p)).toBe(true);
    // …and not from far away: the circle fills most of the height.
    const [, top] = toScreen(view, ne);
    const [, bottom] = toScreen(view, sw);
    expect(bottom - top).toBeGreaterThan(HEIGHT * 0.75);
    expect(view.center.lat).toBeCloseTo(center.lat, 5);
    expect(view.center.lon).toBeCloseTo(center.lon, 5);
  });

  it('holds landmarks far apart, and caps the zoom for a single point', () => {
    const points = [
      { lat: 48.85, lon: 2.35 },
      { lat: 52.52, lon: 13.4 },
      { lat: 41.9, lon: 12.5 },
    ];
    const view = fitView(points, WIDTH, HEIGHT);
    for (const p of points) expect(inside(view, p)).toBe(true);
    expect(fitView([points[0]!], WIDTH, HEIGHT).zoom).toBe(18);
  });
});
