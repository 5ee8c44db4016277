// Each camera's object tracker (vision/object-tracker.ts), for the frames
// cameras push: a camera's frames are run at once, several in flight, and
// may finish out of order, but a tracker must see them in order. So each
// frame takes its place in its camera's sequence when it arrives (before it
// is run), and steps the tracker only when every frame before it has
// stepped or given up its place (a frame refused or failed passes its turn
// on). A server keeps the trackers of the cameras seen most recently, up to
// a bound; a camera past it, or silent past the idle time, starts afresh
// (its objects then get new ids, as after a restart), and so does one
// whose profile changed (its tracker's settings with it). Ids start from the
// clock (milliseconds × 1000) so that a camera's fresh tracker does not give
// again the ids its last one gave. Beside the tracker, where each object is
// (vision/object-places.ts): a frame answers which confirmed objects crossed
// one of the profile's lines, and which entered a zone (after the zone's
// inertia), in it.
import type { PlacedDetection } from '../lib/image-zones.js';
import type { Box } from '../vision/kalman-box.js';
import { ObjectLifecycle, type ObjectMoves } from '../vision/object-lifecycle.js';
import type { PlacedLine, PlacedZone } from '../vision/object-places.js';
import type { TrackedInput, TrackerOptions } from '../vision/object-tracker.js';

export type { ObjectMoves } from '../vision/object-lifecycle.js';

const CAMERA_TRACKS_TUNING = {
  /** cameras whose trackers one server keeps; the least recently seen goes first */
  maxCameras: 10_000,
  /** a camera silent this long starts a fresh tracker with its next frame (ms) */
  idleMs: 10 * 60_000,
} as const;

/** A detection as the predict answer gives it, which a frame's tracking may give a trackId. */
type FrameDetection = PlacedDetection & { score?: number; trackId?: number };

/** A frame's place in its camera's sequence. */
export interface TrackTurn {
  /**
   * Waits for the frames before it, then gives each box of `detections` that
   * continues an object its trackId; what the objects did in the frame, taken at `atMs`.
   */
  track(detections: Record<string, FrameDetection[]>, atMs: number): Promise<ObjectMoves>;
  /** gives up the place without tracking (the frame was refused or failed) */
  pass(): void;
}

/** What of a camera's vision profile its tracker is made from. */
export interface TrackedProfile {
  tracking: Partial<TrackerOptions>;
  zones: readonly PlacedZone[];
  lines: readonly PlacedLine[];
  /** when the profile was last set: a tracker made from an older one starts afresh */
  updatedAt: Date;
}

interface Camera {
  objects: ObjectLifecycle;
  profileSetAt: number;
  /** settles when the last frame to arrive has stepped or passed */
  tail: Promise<void>;
  lastSeen: number;
}

export class CameraTracks {
  /** by device id; a Map keeps insertion order, so its first entry is the least recently seen */
  private readonly cameras = new Map<string, Camera>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly tuning: { maxCameras: number; idleMs: number } = CAMERA_TRACKS_TUNING,
  ) {}

  /** The arriving frame's place in its camera's sequence. */
  turn(deviceId: string, profile: TrackedProfile): TrackTurn {
    const now = this.now();
    const profileSetAt = profile.updatedAt.getTime();
    let camera = this.cameras.get(deviceId);
    if (camera) this.cameras.delete(deviceId); // re-inserted below: now the most recently seen
    if (!camera || now - camera.lastSeen > this.tuning.idleMs || camera.profileSetAt !== profileSetAt) {
      camera = {
        objects: new ObjectLifecycle(profile, now * 1000),
        profileSetAt,
        // the frames already in line keep their order, on the tracker they started with
        tail: camera?.tail ?? Promise.resolve(),
        lastSeen: now,
      };
    }
    camera.lastSeen = now;
    this.cameras.set(deviceId, camera);
    while (this.cameras.size > this.tuning.maxCameras) this.cameras.delete(this.cameras.keys().next().value!);

    const { objects } = camera;
    const before = camera.tail;
    let done!: () => void;
    camera.tail = new Promise<void>((resolve) => {
      done = resolve;
    });
    let taken = false;
    const take = () => {
      if (taken) return false;
      taken = true;
      return true;
    };
    return {
      track: async (detections, atMs) => {
        if (!take()) return { crossings: [], entries: [] };
        await before;
        try {
          return trackFrame(objects, detections, atMs);
        } finally {
          done();
        }
      },
      pass: () => {
        if (take()) void before.then(done);
      },
    };
  }
}

/**
 * One frame through a camera's objects: each rectangle that continues a
 * confirmed object gets its trackId; what the objects did is answered (the
 * object events are a stream's: a pushed frame keeps its own event).
 */
function trackFrame(objects: ObjectLifecycle, detections: Record<string, FrameDetection[]>, atMs: number): ObjectMoves {
  const boxes: FrameDetection[] = [];
  const inputs: TrackedInput[] = [];
  for (const [label, list] of Object.entries(detections)) {
    for (const detection of list) {
      const input = trackedInput(label, detection);
      if (!input) continue;
      boxes.push(detection);
      inputs.push(input);
    }
  }
  const { trackIds, moves } = objects.step(inputs, atMs);
  for (const [i, trackId] of trackIds.entries()) if (trackId !== undefined) boxes[i]!.trackId = trackId;
  return moves;
}

/** A predict detection as the tracker takes it: rectangles only (a polygon or a class has no box to follow). */
export function trackedInput(label: string, detection: FrameDetection): TrackedInput | undefined {
  const { min, max } = detection.data;
  if (detection.type !== 'rectangle' || !min || !max) return undefined;
  return { label, score: detection.score ?? 1, box: [min[0]!, min[1]!, max[0]!, max[1]!] as Box };
}
