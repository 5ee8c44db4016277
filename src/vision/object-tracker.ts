// A multi-object tracker in the manner of ByteTrack (Zhang et al., 2022):
// one per camera, fed each frame's detections in time order, it answers
// which detection continues which object. Each track's box moves under a
// constant-velocity Kalman filter (kalman-box.ts); every frame
//   1. the tracks predict where their box is now;
//   2. the detections scoring at least `activationScore` (high) are matched
//      to the confirmed and lost tracks by IoU (cost 1 - IoU, the cheapest
//      one-to-one matching, assignment.ts), pairs under `matchIou` refused;
//   3. the confirmed tracks still unmatched get a second chance with the
//      low-scoring detections (ByteTrack's point: an occluded object's
//      score drops before it disappears), at a stricter IoU of 0.5;
//   4. tentative tracks (seen fewer than `minFrames` frames) take what high
//      detections are left, at IoU 0.3; one that misses a frame is dropped;
//   5. a high detection left over starts a tentative track.
// A confirmed track that goes unmatched is lost; lost past `lostFrames`
// frames it ends. Detections match only tracks of their own label. A track
// is confirmed after `minFrames` frames matched in a row; its id is given at
// its start and never reused.
import { assign } from './assignment.js';
import { type Box, KalmanBox } from './kalman-box.js';

export interface TrackerOptions {
  /** a detection scoring this or more may start a track and is matched first (ByteTrack's track_thresh) */
  activationScore: number;
  /** frames a confirmed track may go unseen before it ends (ByteTrack's track_buffer) */
  lostFrames: number;
  /** least IoU between a track's predicted box and a high detection for them to match (1 - match_thresh) */
  matchIou: number;
  /** frames a new track must be matched in a row before it counts */
  minFrames: number;
}

const DEFAULT_TRACKER_OPTIONS: TrackerOptions = {
  activationScore: 0.5,
  lostFrames: 30,
  matchIou: 0.2,
  minFrames: 3,
};

/** Second association (low-score detections to confirmed tracks): ByteTrack's 0.5 IoU. */
const LOW_SCORE_MATCH_IOU = 0.5;
/** Tentative tracks to the high detections left: ByteTrack's 0.3 IoU (cost 0.7). */
const TENTATIVE_MATCH_IOU = 0.3;

export interface TrackedInput {
  label: string;
  score: number;
  box: Box;
}

/** What became of one input detection. */
interface TrackAssignment {
  /** the track it continues or starts; undefined for a low-score detection no track took */
  trackId?: number;
  /** whether that track has been seen `minFrames` frames: only such tracks count as objects */
  confirmed: boolean;
}

/** A track that ended this frame (lost past the buffer), or one dropped before it was confirmed. */
interface EndedTrack {
  trackId: number;
  label: string;
  /** whether it had been confirmed: an unconfirmed one was never an object */
  confirmed: boolean;
}

export interface TrackerStep {
  /** one per input detection, in the input's order */
  assignments: TrackAssignment[];
  /** tracks that ended this frame */
  ended: EndedTrack[];
}

type TrackState = 'tentative' | 'tracked' | 'lost';

class Track {
  readonly motion: KalmanBox;
  state: TrackState = 'tentative';
  hits = 1;
  missed = 0;

  constructor(
    readonly id: number,
    readonly label: string,
    box: Box,
  ) {
    this.motion = new KalmanBox(box);
  }
}

function iou(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

export class ObjectTracker {
  private tracks: Track[] = [];
  private nextId: number;
  private readonly options: TrackerOptions;

  /** `firstId`: the id the first track gets (a camera's tracker restarted continues past the ids it gave). */
  constructor(options: Partial<TrackerOptions> = {}, firstId = 1) {
    this.options = { ...DEFAULT_TRACKER_OPTIONS, ...options };
    this.nextId = firstId;
  }

  /** The next frame's detections: which track each belongs to, and the tracks that ended. */
  step(detections: readonly TrackedInput[]): TrackerStep {
    const { activationScore, lostFrames, matchIou, minFrames } = this.options;
    for (const track of this.tracks) track.motion.predict();
    const assignments: TrackAssignment[] = detections.map(() => ({ confirmed: false }));
    const high = detections.flatMap((d, i) => (d.score >= activationScore ? [i] : []));
    const low = detections.flatMap((d, i) => (d.score < activationScore ? [i] : []));
    const matched = new Set<Track>();
    const take = (track: Track, index: number) => {
      track.motion.update(detections[index]!.box);
      track.hits++;
      track.missed = 0;
      if (track.state === 'lost' || (track.state === 'tentative' && track.hits >= minFrames)) track.state = 'tracked';
      matched.add(track);
      assignments[index] = { trackId: track.id, confirmed: track.state === 'tracked' };
    };
    const match = (tracks: Track[], indices: number[], minIou: number): number[] => {
      const cost = tracks.map((t) => {
        const predicted = t.motion.box();
        return indices.map((i) =>
          detections[i]!.label === t.label ? 1 - iou(predicted, detections[i]!.box) : Number.POSITIVE_INFINITY,
        );
      });
      const pairs = assign(cost, 1 - minIou);
      for (const [t, d] of pairs) take(tracks[t]!, indices[d]!);
      const used = new Set(pairs.map(([, d]) => d));
      return indices.filter((_, d) => !used.has(d));
    };

    // 2. high detections to confirmed and lost tracks
    const pool = this.tracks.filter((t) => t.state !== 'tentative');
    const highLeft = match(pool, high, matchIou);
    // 3. low detections to confirmed tracks (not lost ones) still unmatched
    match(
      pool.filter((t) => t.state === 'tracked' && !matched.has(t)),
      low,
      LOW_SCORE_MATCH_IOU,
    );
    // 4. tentative tracks to the high detections left
    const tentative = this.tracks.filter((t) => t.state === 'tentative');
    const unclaimed = match(tentative, highLeft, TENTATIVE_MATCH_IOU);

    const ended: EndedTrack[] = [];
    const kept: Track[] = [];
    for (const track of this.tracks) {
      if (matched.has(track)) {
        kept.push(track);
        continue;
      }
      if (track.state === 'tentative') {
        ended.push({ trackId: track.id, label: track.label, confirmed: false });
        continue;
      }
      track.state = 'lost';
      track.missed++;
      if (track.missed > lostFrames) ended.push({ trackId: track.id, label: track.label, confirmed: true });
      else kept.push(track);
    }
    // 5. new tracks from the high detections no track took
    for (const index of unclaimed) {
      const d = detections[index]!;
      const track = new Track(this.nextId++, d.label, d.box);
      if (minFrames <= 1) track.state = 'tracked';
      kept.push(track);
      assignments[index] = { trackId: track.id, confirmed: track.state === 'tracked' };
    }
    this.tracks = kept;
    return { assignments, ended };
  }

  /**
   * Takes back objects another tracker followed (a stream started again on
   * another replica, or after a restart), as lost tracks at their last box:
   * a detection that matches one continues it, under its id; one not seen
   * again within `lostFrames` frames ends.
   */
  restore(tracks: ReadonlyArray<{ trackId: number; label: string; box: Box }>): void {
    for (const { trackId, label, box } of tracks) {
      const track = new Track(trackId, label, box);
      track.state = 'lost';
      track.hits = this.options.minFrames;
      this.tracks.push(track);
      this.nextId = Math.max(this.nextId, trackId + 1);
    }
  }

  /** The tracks alive now (confirmed, lost or tentative): how many objects a camera is following. */
  get size(): number {
    return this.tracks.length;
  }

  /** The id the next new track will get. */
  get upcomingId(): number {
    return this.nextId;
  }
}
