// The tracker on scripted trajectories: objects moving on known paths, a
// box 0.1 wide and 0.15 high (fractions of the image), detections scripted
// frame by frame: paths that cross, an object hidden for a few frames, a
// missed detection, a score that drops while an object is half hidden, and
// flickers that must never become objects.
import { describe, expect, it } from 'vitest';
import type { Box } from '../../src/vision/kalman-box.js';
import { ObjectTracker, type TrackedInput, type TrackerStep } from '../../src/vision/object-tracker.js';

const box = (cx: number, cy: number, w = 0.1, h = 0.15): Box => [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
const seen = (cx: number, cy: number, label = 'circle', score = 0.9): TrackedInput => ({
  label,
  score,
  box: box(cx, cy),
});

/** Runs frames through a tracker: each frame's steps. */
function run(tracker: ObjectTracker, frames: TrackedInput[][]): TrackerStep[] {
  return frames.map((frame) => tracker.step(frame));
}

describe('ObjectTracker', () => {
  it('follows one moving object with one id, confirmed from its third frame', () => {
    const tracker = new ObjectTracker({ minFrames: 3 });
    const steps = run(
      tracker,
      Array.from({ length: 20 }, (_, f) => [seen(0.1 + f * 0.03, 0.5)]),
    );
    const ids = steps.map((s) => s.assignments[0]!.trackId);
    expect(new Set(ids)).toEqual(new Set([1]));
    expect(steps.map((s) => s.assignments[0]!.confirmed)).toEqual(Array.from({ length: 20 }, (_, f) => f >= 2));
    expect(steps.flatMap((s) => s.ended)).toEqual([]);
  });

  it('keeps each object its own id where two paths cross', () => {
    const tracker = new ObjectTracker();
    // One goes right along y = 0.5, the other left along y = 0.52: at frame 10 their boxes all but coincide.
    const steps = run(
      tracker,
      Array.from({ length: 21 }, (_, f) => [seen(0.2 + f * 0.03, 0.5), seen(0.8 - f * 0.03, 0.52)]),
    );
    const [a, b] = [steps[0]!.assignments[0]!.trackId, steps[0]!.assignments[1]!.trackId];
    expect(a).not.toBe(b);
    for (const step of steps) expect(step.assignments.map((x) => x.trackId)).toEqual([a, b]);
  });

  it('takes an object back under its id after it was hidden for five frames', () => {
    const tracker = new ObjectTracker({ lostFrames: 30 });
    const frames = Array.from({ length: 25 }, (_, f) => (f >= 10 && f < 15 ? [] : [seen(0.1 + f * 0.02, 0.4)]));
    const steps = run(tracker, frames);
    const ids = steps.flatMap((s) => s.assignments.map((x) => x.trackId));
    expect(ids).toHaveLength(20);
    expect(new Set(ids)).toEqual(new Set([1]));
    expect(steps.flatMap((s) => s.ended)).toEqual([]);
  });

  it('keeps its id through a missed detection, and through low scores while half hidden', () => {
    const tracker = new ObjectTracker({ activationScore: 0.5 });
    const frames = Array.from({ length: 20 }, (_, f) =>
      f === 6 ? [] : [seen(0.3, 0.2 + f * 0.02, 'square', f >= 10 && f < 14 ? 0.2 : 0.85)],
    );
    const steps = run(tracker, frames);
    const ids = steps.flatMap((s) => s.assignments.map((x) => x.trackId));
    expect(new Set(ids)).toEqual(new Set([1]));
    expect(ids).toHaveLength(19);
  });

  it('starts no track from a low-score detection, and none from a flicker of one frame', () => {
    const tracker = new ObjectTracker({ activationScore: 0.5, minFrames: 3 });
    const [first, second] = run(tracker, [[seen(0.5, 0.5, 'star', 0.3), seen(0.2, 0.2, 'star', 0.9)], []]);
    expect(first!.assignments[0]).toEqual({ confirmed: false }); // no track
    expect(first!.assignments[1]).toEqual({ trackId: 1, confirmed: false });
    // the flicker's tentative track, missed once, ends as never having been an object
    expect(second!.ended).toEqual([{ trackId: 1, label: 'star', confirmed: false }]);
    expect(tracker.size).toBe(0);
  });

  it('ends a lost object once, after the lost-frame buffer, and gives a returning one a new id', () => {
    const tracker = new ObjectTracker({ lostFrames: 4, minFrames: 1 });
    const steps = run(tracker, [
      [seen(0.5, 0.5)],
      [seen(0.5, 0.5)],
      ...Array.from({ length: 6 }, () => []),
      [seen(0.5, 0.5)],
    ]);
    const ended = steps.flatMap((s, f) => s.ended.map((e) => ({ ...e, frame: f })));
    expect(ended).toEqual([{ trackId: 1, label: 'circle', confirmed: true, frame: 6 }]);
    expect(steps.at(-1)!.assignments[0]).toEqual({ trackId: 2, confirmed: true });
  });

  it('never continues a track with a detection of another label', () => {
    const tracker = new ObjectTracker({ minFrames: 1 });
    const steps = run(tracker, [[seen(0.5, 0.5, 'circle')], [seen(0.5, 0.5, 'square')]]);
    expect(steps[1]!.assignments[0]!.trackId).toBe(2);
  });

  it('continues past the ids it is told were given before', () => {
    const tracker = new ObjectTracker({}, 41);
    expect(tracker.step([seen(0.5, 0.5)]).assignments[0]!.trackId).toBe(41);
    expect(tracker.upcomingId).toBe(42);
  });
});
