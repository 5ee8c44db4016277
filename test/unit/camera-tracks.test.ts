// A camera's frames reach its tracker in the order they arrived, whatever
// order they finish running in; a frame that fails passes its turn on; a
// camera silent too long, or pushed out by others, starts afresh with ids
// its last tracker did not give.
import { describe, expect, it } from 'vitest';
import { CameraTracks } from '../../src/ingest/camera-tracks.js';
import type { PlacedDetection } from '../../src/lib/image-zones.js';

type Detection = PlacedDetection & { score: number; trackId?: number };
const frame = (x: number): Record<string, Detection[]> => ({
  circle: [{ type: 'rectangle', data: { min: [x, 0.4], max: [x + 0.1, 0.6] }, score: 0.9 }],
});
const PROFILE = { tracking: {}, zones: [], lines: [], updatedAt: new Date(0) };
const idOf = (detections: Record<string, Detection[]>) => detections.circle![0]!.trackId;

describe('CameraTracks', () => {
  it("steps a camera's tracker in arrival order when frames finish out of order", async () => {
    let clock = 1_000;
    const tracks = new CameraTracks(() => clock++);
    const frames = [0.1, 0.12, 0.14, 0.16].map(frame);
    const turns = frames.map(() => tracks.turn('cam', PROFILE));
    // The last two finish first: they wait for the first two.
    const late = [turns[3]!.track(frames[3]!, 0), turns[2]!.track(frames[2]!, 0)];
    await Promise.resolve();
    expect(frames.map(idOf)).toEqual([undefined, undefined, undefined, undefined]);
    await turns[0]!.track(frames[0]!, 0);
    await turns[1]!.track(frames[1]!, 0);
    await Promise.all(late);
    // confirmed on the third frame in arrival order, the same object after
    const first = 1_000 * 1000;
    expect(frames.map(idOf)).toEqual([undefined, undefined, first, first]);
  });

  it('lets a failed frame pass its turn, and ignores a second use of a turn', async () => {
    const tracks = new CameraTracks(() => 5);
    const failed = tracks.turn('cam', PROFILE);
    const next = tracks.turn('cam', PROFILE);
    const detections = frame(0.3);
    const waiting = next.track(detections, 0);
    failed.pass();
    failed.pass();
    await waiting;
    await next.track(frame(0.3), 0); // taken already: no second step
    const third = tracks.turn('cam', PROFILE);
    const again = frame(0.3);
    await third.track(again, 0);
    expect(idOf(again)).toBeUndefined(); // the object's second frame only: not yet confirmed
  });

  it('starts a camera afresh after its idle time, with ids past the last ones', async () => {
    let clock = 0;
    const tracks = new CameraTracks(() => clock, { maxCameras: 10, idleMs: 1000 });
    const ids = async () => {
      const seen: Array<number | undefined> = [];
      for (let i = 0; i < 3; i++) {
        const detections = frame(0.5);
        await tracks.turn('cam', PROFILE).track(detections, 0);
        seen.push(idOf(detections));
        clock += 10;
      }
      return seen;
    };
    const before = await ids();
    clock += 5_000;
    const after = await ids();
    expect(before[2]).toBeDefined();
    expect(after.slice(0, 2)).toEqual([undefined, undefined]); // a fresh tracker confirms again
    expect(after[2]).toBeGreaterThan(before[2]!);
  });

  it('keeps the most recently seen cameras up to its bound', async () => {
    let clock = 0;
    const tracks = new CameraTracks(() => ++clock, { maxCameras: 2, idleMs: 60_000 });
    const step = async (camera: string) => {
      const detections = frame(0.5);
      await tracks.turn(camera, PROFILE).track(detections, 0);
      return idOf(detections);
    };
    for (let i = 0; i < 3; i++) await step('a');
    await step('b');
    await step('c'); // a, least recently seen, is let go
    expect(await step('a')).toBeUndefined();
    expect(await step('c')).toBeUndefined(); // c's second frame
  });

  it("tracks with the profile's settings, and starts afresh when the profile is set again", async () => {
    const tracks = new CameraTracks(() => 7);
    const once = { ...PROFILE, tracking: { minFrames: 1 }, updatedAt: new Date(1) };
    const first = frame(0.4);
    await tracks.turn('cam', once).track(first, 0);
    expect(idOf(first)).toBe(7000); // an object from its first frame
    const same = frame(0.4);
    await tracks.turn('cam', once).track(same, 0);
    expect(idOf(same)).toBe(7000);
    const changed = frame(0.4);
    await tracks.turn('cam', { ...once, updatedAt: new Date(2) }).track(changed, 0);
    expect(idOf(changed)).toBe(7000); // a fresh tracker: its ids start from the clock again
    const later = frame(0.4);
    await tracks.turn('cam', { ...PROFILE, updatedAt: new Date(3) }).track(later, 0);
    expect(idOf(later)).toBeUndefined(); // the default of 3 frames again
  });

  it("answers the profile's lines crossed and zones entered by confirmed objects, once each", async () => {
    const tracks = new CameraTracks(() => 1);
    const profile = {
      ...PROFILE,
      zones: [
        {
          name: 'left',
          polygon: [
            [0, 0],
            [0.5, 0],
            [0.5, 1],
            [0, 1],
          ] as const,
          inertia: 2,
        },
      ],
      lines: [
        {
          name: 'gate',
          line: [
            [0.5, 0],
            [0.5, 1],
          ] as const,
        },
      ],
    };
    // A circle moving left across the gate, its box's left edge at x: its centre 0.05 to the right.
    const xs = [0.6, 0.55, 0.5, 0.42, 0.35, 0.3, 0.25];
    const moves = [];
    for (const [f, x] of xs.entries()) moves.push(await tracks.turn('cam', profile).track(frame(x), f * 100));
    const crossings = moves.flatMap((m) => m.crossings);
    const entries = moves.flatMap((m) => m.entries);
    const id = 1000;
    expect(crossings).toEqual([{ line: 'gate', direction: 'in', trackId: id, label: 'circle' }]);
    // inside from the fourth frame (centre 0.47), counted in after two frames in a row
    expect(entries).toEqual([{ zone: 'left', trackId: id, label: 'circle' }]);
    expect(moves.findIndex((m) => m.entries.length > 0)).toBe(4);
    expect(moves.findIndex((m) => m.crossings.length > 0)).toBe(3);
  });
});
