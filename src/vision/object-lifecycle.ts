// The life of each object one camera follows, from its tracker's steps
// (object-tracker.ts) and its places (object-places.ts): a frame's
// detections go in, and out come which object each box continues, what the
// confirmed objects did in the frame (lines crossed, zones entered), and
// the object events a stream stores instead of an event per frame:
//   object.start   the track is confirmed (after the tracker's minFrames),
//                  with the zones it entered and lines it crossed before;
//   object.update  a started object entered or left a zone, crossed a line,
//                  or has stayed in a zone as long as a dwell mark (the
//                  seconds rules ask of that zone: setDwellMarks);
//   object.end     it was lost past the tracker's buffer, or the camera's
//                  video stopped (end()).
// Each event carries the object as it is then: its label, its latest score
// and box, the zones it is in with the time spent in each so far, every
// line it crossed, and when it was first and last seen. An object that
// never got confirmed has no event at all. Every event also carries how
// many started objects of each label each zone holds at its frame.
import type { CrossingDirection } from '../lib/image-zones.js';
import type { Box } from './kalman-box.js';
import { ObjectPlaces, type PlacedLine, type PlacedZone } from './object-places.js';
import { ObjectTracker, type TrackedInput, type TrackerOptions } from './object-tracker.js';

/** What a frame's confirmed objects did: each a line crossed, or a zone entered. */
export interface ObjectMoves {
  crossings: Array<{ line: string; direction: CrossingDirection; trackId: number; label: string }>;
  entries: Array<{ zone: string; trackId: number; label: string }>;
}

export type ObjectEventType = 'object.start' | 'object.update' | 'object.end';

/** One object event: the object as it is when it happens. */
export interface ObjectEvent {
  type: ObjectEventType;
  trackId: number;
  label: string;
  /** its latest detection's score */
  score: number;
  /** its latest box, [x1, y1, x2, y2] in the image's fractions */
  box: Box;
  /** the zones it is in now (none once it ended), each with the seconds it has spent there */
  zones: Array<{ zone: string; seconds: number }>;
  /** zone → seconds it spent there in all, the visits it left included */
  timeInZones: Record<string, number>;
  /** what happened this frame: the zones it entered and left, the lines it crossed */
  entered: string[];
  left: string[];
  crossed: Array<{ line: string; direction: CrossingDirection }>;
  /** the dwell marks it reached this frame: each zone with the mark's seconds */
  dwelled: Array<{ zone: string; seconds: number }>;
  /** zone → label → started objects inside it at this frame (every zone, {} for an empty one) */
  inZone: Record<string, Record<string, number>>;
  /** every line it crossed so far, in order */
  crossings: Array<{ line: string; direction: CrossingDirection; at: number }>;
  /** when it was first and last seen (ms since the epoch, the frames' times) */
  firstSeen: number;
  lastSeen: number;
}

export interface LifecycleStep {
  /** one per input detection: the track it continues when that track is confirmed */
  trackIds: Array<number | undefined>;
  moves: ObjectMoves;
  events: ObjectEvent[];
}

interface ObjectRecord {
  label: string;
  score: number;
  box: Box;
  firstSeen: number;
  lastSeen: number;
  started: boolean;
  crossings: ObjectEvent['crossings'];
  /** zone → ms spent in visits it has left */
  spentMs: Map<string, number>;
}

export interface LifecycleSettings {
  tracking: Partial<TrackerOptions>;
  zones: readonly PlacedZone[];
  lines: readonly PlacedLine[];
}

type EventChanges = Pick<ObjectEvent, 'entered' | 'left' | 'crossed' | 'dwelled'>;

export class ObjectLifecycle {
  private tracker: ObjectTracker;
  private readonly places: ObjectPlaces;
  private readonly zoneNames: string[];
  private readonly objects = new Map<number, ObjectRecord>();
  /** zone → the seconds in it that are told, ascending */
  private dwellMarks: ReadonlyMap<string, readonly number[]> = new Map();

  /** `firstId`: the first track's id (ObjectTracker). */
  constructor(
    private readonly settings: LifecycleSettings,
    firstId = 1,
  ) {
    this.tracker = new ObjectTracker(settings.tracking, firstId);
    this.places = new ObjectPlaces(settings.zones, settings.lines);
    this.zoneNames = settings.zones.map((zone) => zone.name);
  }

  /** The times in a zone an object's event tells when it reaches them (zone → seconds): what rules' dwell conditions ask. */
  setDwellMarks(marks: ReadonlyMap<string, readonly number[]>): void {
    this.dwellMarks = marks;
  }

  /** The next frame's detections, taken at `atMs` (its time: a dwell is counted on it). */
  step(inputs: readonly TrackedInput[], atMs: number): LifecycleStep {
    const { assignments, ended } = this.tracker.step(inputs);
    const events: ObjectEvent[] = [];
    for (const track of ended) {
      const record = this.objects.get(track.trackId);
      const left = this.places.end(track.trackId);
      this.objects.delete(track.trackId);
      if (record?.started) events.push(this.ended(track.trackId, record, left, record.lastSeen));
    }
    const moves: ObjectMoves = { crossings: [], entries: [] };
    const trackIds: Array<number | undefined> = [];
    for (const [i, { trackId, confirmed }] of assignments.entries()) {
      if (trackId === undefined) {
        trackIds.push(undefined);
        continue;
      }
      const { label, box, score } = inputs[i]!;
      const changes = this.places.observe(trackId, box, atMs);
      let record = this.objects.get(trackId);
      if (!record) {
        record = {
          label,
          score,
          box,
          firstSeen: atMs,
          lastSeen: atMs,
          started: false,
          crossings: [],
          spentMs: new Map(),
        };
        this.objects.set(trackId, record);
      }
      const previousSight = record.lastSeen;
      Object.assign(record, { score, box, lastSeen: atMs });
      for (const { zone, since } of changes.leftVisits) {
        record.spentMs.set(zone, (record.spentMs.get(zone) ?? 0) + (atMs - since));
      }
      for (const crossing of changes.crossed) record.crossings.push({ ...crossing, at: atMs });
      if (!confirmed) {
        trackIds.push(undefined);
        continue;
      }
      trackIds.push(trackId);
      for (const { line, direction } of changes.crossed) moves.crossings.push({ line, direction, trackId, label });
      for (const zone of changes.entered) moves.entries.push({ zone, trackId, label });
      if (!record.started) {
        // What it did before it was confirmed is told with its start: the zones it is in, the lines it crossed, the marks it reached.
        const entered = this.places.zonesOf(trackId, atMs).map((visit) => visit.zone);
        const crossed = record.crossings.map(({ line, direction }) => ({ line, direction }));
        const dwelled = this.marksReached(trackId, atMs, Number.NEGATIVE_INFINITY);
        events.push(this.event('object.start', trackId, record, { entered, left: [], crossed, dwelled }));
        record.started = true;
      } else {
        const dwelled = this.marksReached(trackId, atMs, previousSight);
        if (changes.entered.length + changes.left.length + changes.crossed.length + dwelled.length > 0) {
          events.push(this.event('object.update', trackId, record, { ...changes, dwelled }));
        }
      }
    }
    const inZone = this.inZoneCounts(atMs);
    for (const event of events) event.inZone = inZone;
    return { trackIds, moves, events };
  }

  /** The dwell marks an object passed between its previous sight and `atMs`: each zone it is in, each mark crossed. */
  private marksReached(trackId: number, atMs: number, previousSight: number): ObjectEvent['dwelled'] {
    const reached: ObjectEvent['dwelled'] = [];
    for (const { zone, ms } of this.places.zonesOf(trackId, atMs)) {
      const before = ms - (atMs - previousSight);
      for (const seconds of this.dwellMarks.get(zone) ?? []) {
        if (before < seconds * 1000 && seconds * 1000 <= ms) reached.push({ zone, seconds });
      }
    }
    return reached;
  }

  /** Zone → label → the started objects inside it now. */
  private inZoneCounts(atMs: number): ObjectEvent['inZone'] {
    const counts: ObjectEvent['inZone'] = Object.fromEntries(this.zoneNames.map((zone) => [zone, {}]));
    for (const [trackId, record] of this.objects) {
      if (!record.started) continue;
      for (const { zone } of this.places.zonesOf(trackId, atMs)) {
        const byLabel = counts[zone]!;
        byLabel[record.label] = (byLabel[record.label] ?? 0) + 1;
      }
    }
    return counts;
  }

  /**
   * Takes back the objects a previous reading of the camera left started
   * (their last object events: the stream moved to another replica, or the
   * server restarted): each continues under its id when it is seen again,
   * without a second start, and ends when it is not.
   */
  resume(objects: readonly ObjectEvent[]): void {
    this.tracker.restore(objects);
    for (const object of objects) {
      const inside = object.zones.map(({ zone, seconds }) => ({ zone, since: object.lastSeen - seconds * 1000 }));
      this.places.restore(object.trackId, inside);
      const spentMs = new Map<string, number>();
      for (const [zone, seconds] of Object.entries(object.timeInZones)) {
        const current = object.zones.find((visit) => visit.zone === zone)?.seconds ?? 0;
        if (seconds > current) spentMs.set(zone, (seconds - current) * 1000);
      }
      this.objects.set(object.trackId, {
        label: object.label,
        score: object.score,
        box: object.box,
        firstSeen: object.firstSeen,
        lastSeen: object.lastSeen,
        started: true,
        crossings: [...object.crossings],
        spentMs,
      });
    }
  }

  /** The camera's video stopped: every started object ends, at its last sight; the next frame's objects are new ones. */
  end(): ObjectEvent[] {
    this.tracker = new ObjectTracker(this.settings.tracking, this.tracker.upcomingId);
    const events: ObjectEvent[] = [];
    for (const [trackId, record] of this.objects) {
      const left = this.places.end(trackId);
      if (record.started) events.push(this.ended(trackId, record, left, record.lastSeen));
    }
    this.objects.clear();
    const empty = Object.fromEntries(this.zoneNames.map((zone) => [zone, {}]));
    for (const event of events) event.inZone = empty;
    return events;
  }

  /** The objects followed now, confirmed or not. */
  get size(): number {
    return this.tracker.size;
  }

  private event(type: ObjectEventType, trackId: number, record: ObjectRecord, changes: EventChanges): ObjectEvent {
    const zones = this.places.zonesOf(trackId, record.lastSeen);
    const timeInZones: Record<string, number> = {};
    for (const [zone, ms] of record.spentMs) timeInZones[zone] = ms / 1000;
    for (const { zone, ms } of zones) timeInZones[zone] = (timeInZones[zone] ?? 0) + ms / 1000;
    return {
      type,
      trackId,
      label: record.label,
      score: record.score,
      box: record.box,
      zones: zones.map(({ zone, ms }) => ({ zone, seconds: ms / 1000 })),
      timeInZones,
      entered: changes.entered,
      left: changes.left,
      crossed: changes.crossed,
      dwelled: changes.dwelled,
      inZone: {},
      crossings: [...record.crossings],
      firstSeen: record.firstSeen,
      lastSeen: record.lastSeen,
    };
  }

  /** An object's end: the zones it was in are left at its last sight. */
  private ended(
    trackId: number,
    record: ObjectRecord,
    left: Array<{ zone: string; since: number }>,
    atMs: number,
  ): ObjectEvent {
    for (const { zone, since } of left) record.spentMs.set(zone, (record.spentMs.get(zone) ?? 0) + (atMs - since));
    return this.event('object.end', trackId, record, {
      entered: [],
      left: left.map((v) => v.zone),
      crossed: [],
      dwelled: [],
    });
  }
}
