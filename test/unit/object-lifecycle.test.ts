// The object events of one camera, on scripted trajectories: one start per
// confirmed object (none for a flicker), an update for each zone entered or
// left and each line crossed, one end when it is lost past the buffer or the
// video stops, with the time it spent in each zone.
import { describe, expect, it } from 'vitest';
import type { Box } from '../../src/vision/kalman-box.js';
import { type ObjectEvent, ObjectLifecycle } from '../../src/vision/object-lifecycle.js';

const SETTINGS = {
  tracking: { minFrames: 3, lostFrames: 2 },
  // the right half of the image, and a vertical line down its middle drawn top to bottom
  zones: [
    {
      name: 'right',
      polygon: [
        [0.5, 0],
        [1, 0],
        [1, 1],
        [0.5, 1],
      ] as Array<[number, number]>,
    },
  ],
  lines: [
    {
      name: 'gate',
      line: [
        [0.5, 0],
        [0.5, 1],
      ] as [[number, number], [number, number]],
    },
  ],
};

const box = (x: number, y = 0.5, size = 0.1): Box => [x - size / 2, y - size / 2, x + size / 2, y + size / 2];
const circle = (x: number, score = 0.9) => ({ label: 'circle', score, box: box(x, 0.5, 0.2) });
const summary = (events: ObjectEvent[]) =>
  events.map((e) => ({ type: e.type, entered: e.entered, left: e.left, crossed: e.crossed }));

describe('ObjectLifecycle', () => {
  it('starts an object once confirmed, updates it as it crosses a line into a zone and out again, and ends it once lost', () => {
    const objects = new ObjectLifecycle(SETTINGS, 100);
    const all: ObjectEvent[] = [];
    // left to right at 0.04 a frame (one frame every 200 ms), a pause, then back out to the left
    const path = [0.32, 0.36, 0.4, 0.44, 0.48, 0.52, 0.56, 0.6, 0.6, 0.56, 0.52, 0.48, 0.44];
    for (const [i, x] of path.entries()) {
      const step = objects.step([circle(x)], i * 200);
      all.push(...step.events);
      expect(step.trackIds).toEqual([i < 2 ? undefined : 100]);
    }
    // three frames unseen (lostFrames 2): it ends on the third
    for (let i = 0; i < 3; i++) all.push(...objects.step([], (path.length + i) * 200).events);
    expect(summary(all)).toEqual([
      { type: 'object.start', entered: [], left: [], crossed: [] },
      { type: 'object.update', entered: ['right'], left: [], crossed: [{ line: 'gate', direction: 'out' }] },
      { type: 'object.update', entered: [], left: ['right'], crossed: [{ line: 'gate', direction: 'in' }] },
      { type: 'object.end', entered: [], left: [], crossed: [] },
    ]);
    expect(all.every((e) => e.trackId === 100 && e.label === 'circle')).toBe(true);
    const end = all.at(-1)!;
    // in the right half from frame 5 (1000 ms) until it left on frame 11 (2200 ms)
    expect(end.timeInZones).toEqual({ right: 1.2 });
    expect(end.zones).toEqual([]);
    expect(end.crossings).toEqual([
      { line: 'gate', direction: 'out', at: 1000 },
      { line: 'gate', direction: 'in', at: 2200 },
    ]);
    expect([end.firstSeen, end.lastSeen]).toEqual([0, 2400]);
    expect(objects.size).toBe(0);
  });

  it('gives a detection seen fewer frames than minFrames no event at all', () => {
    const objects = new ObjectLifecycle(SETTINGS);
    const events = [
      ...objects.step([circle(0.2)], 0).events,
      ...objects.step([circle(0.2)], 100).events,
      ...objects.step([], 200).events,
      ...objects.step([], 300).events,
      ...objects.end(),
    ];
    expect(events).toEqual([]);
  });

  it('reports the time spent so far in a zone while the object stays, and ends every object when the video stops', () => {
    const objects = new ObjectLifecycle(SETTINGS, 1);
    let started: ObjectEvent[] = [];
    for (let i = 0; i < 10; i++) started.push(...objects.step([circle(0.8), circle(0.2)], 1000 + i * 500).events);
    started = started.filter((e) => e.type === 'object.start');
    expect(started.map((e) => e.trackId).sort()).toEqual([1, 2]);
    // in the zone from its first frame, before it was confirmed: its start says it entered
    expect(started.find((e) => e.trackId === 1)!.entered).toEqual(['right']);
    expect(started.find((e) => e.trackId === 2)!.entered).toEqual([]);
    const ended = objects.end();
    expect(ended.map((e) => e.type)).toEqual(['object.end', 'object.end']);
    const inZone = ended.find((e) => e.trackId === 1)!;
    // in the zone from its first frame (1000 ms) to its last (5500 ms)
    expect(inZone.timeInZones).toEqual({ right: 4.5 });
    expect(inZone.left).toEqual(['right']);
    expect(ended.find((e) => e.trackId === 2)!.timeInZones).toEqual({});
    expect(objects.end()).toEqual([]);
    // what is seen after the end are new objects, with new ids, started again
    const after: ObjectEvent[] = [];
    for (let i = 0; i < 3; i++) after.push(...objects.step([circle(0.8)], 7000 + i * 500).events);
    expect(after.map((e) => [e.type, e.trackId])).toEqual([['object.start', 3]]);
  });

  it('keeps an object through a few missed frames, without a new start', () => {
    const objects = new ObjectLifecycle({ ...SETTINGS, tracking: { minFrames: 3, lostFrames: 5 } }, 7);
    const events: ObjectEvent[] = [];
    const xs = [0.1, 0.12, 0.14, 0.16, null, null, 0.22, 0.24];
    for (const [i, x] of xs.entries()) events.push(...objects.step(x === null ? [] : [circle(x)], i * 100).events);
    expect(events.map((e) => [e.type, e.trackId])).toEqual([['object.start', 7]]);
  });

  it('tells once when an object has stayed in a zone as long as a dwell mark, and never for one passing through', () => {
    const objects = new ObjectLifecycle(SETTINGS, 1);
    objects.setDwellMarks(new Map([['right', [1, 2]]]));
    const events: ObjectEvent[] = [];
    // a circle still in the right half for 3 s; a square crossing the right half in 0.8 s (x 0.55 → 0.95)
    for (let i = 0; i <= 15; i++) {
      const square = i <= 4 ? [{ label: 'square', score: 0.9, box: box(0.55 + i * 0.1, 0.2, 0.2) }] : [];
      events.push(...objects.step([circle(0.8), ...square], i * 200).events);
    }
    const dwelled = events.filter((e) => e.dwelled.length > 0).map((e) => [e.label, e.type, e.dwelled]);
    expect(dwelled).toEqual([
      ['circle', 'object.update', [{ zone: 'right', seconds: 1 }]],
      ['circle', 'object.update', [{ zone: 'right', seconds: 2 }]],
    ]);
    // the started objects in each zone at each event's frame, per label
    const start = events.find((e) => e.type === 'object.start' && e.label === 'square')!;
    expect(start.inZone).toEqual({ right: { circle: 1, square: 1 } });
    expect(events.at(-1)!.inZone).toEqual({ right: { circle: 1 } });
  });

  it('takes back the objects of a previous reading: one seen again continues without a second start, one gone ends', () => {
    const before = new ObjectLifecycle(SETTINGS, 10);
    const told = new Map<number, ObjectEvent>();
    for (let i = 0; i < 4; i++) {
      for (const e of before.step([circle(0.7), { label: 'square', score: 0.9, box: box(0.2, 0.5, 0.2) }], i * 200)
        .events)
        told.set(e.trackId, e);
    }
    expect([...told.keys()].sort()).toEqual([10, 11]);
    // A new reading (another replica, or after a restart) with ids of its own; only the circle is still there.
    const after = new ObjectLifecycle(SETTINGS, 1000);
    after.resume([...told.values()]);
    const events: ObjectEvent[] = [];
    const ids: Array<number | undefined> = [];
    for (let i = 0; i < 5; i++) {
      const step = after.step([circle(0.7)], 5000 + i * 200);
      events.push(...step.events);
      ids.push(...step.trackIds);
    }
    expect(ids).toEqual([10, 10, 10, 10, 10]);
    const square = told.get(11)!;
    expect(events.map((e) => [e.type, e.trackId])).toEqual([['object.end', 11]]);
    expect(events[0]).toMatchObject({ label: 'square', firstSeen: square.firstSeen, lastSeen: square.lastSeen });
    // the circle stayed in the right half all along: its time there counts from before
    expect(after.end()[0]).toMatchObject({ trackId: 10, timeInZones: { right: 5.8 } });
  });
});
