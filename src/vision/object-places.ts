// Where each tracked object of one camera is, frame after frame: which zones
// it is in (after `inertia` frames inside in a row, so a box that flickers
// over a zone's edge does not enter and leave it on every frame), since
// when, and which lines it crossed in which direction. Each zone and line
// follows the object's anchor (lib/image-zones.ts: the box's centre or the
// middle of its bottom edge). What changed in a frame is what an object
// event reports: the zones entered and left and the lines crossed.
import {
  anchorPoint,
  type CrossingDirection,
  crossingOf,
  type ImageLine,
  type ImagePoint,
  type ImageZone,
  inPolygon,
  sideOfLine,
  type ZoneAnchor,
} from '../lib/image-zones.js';
import type { Box } from './kalman-box.js';

export interface PlacedZone extends ImageZone {
  /** frames in a row an object's anchor must be inside before it is in the zone (default 1) */
  inertia?: number;
}

export interface PlacedLine extends ImageLine {
  /** the point of a box the line follows (default center) */
  anchor?: ZoneAnchor;
}

/** What changed for one object in one frame. */
export interface PlaceChanges {
  entered: string[];
  left: string[];
  /** the visits of the zones left: each zone with when the object had entered it (ms) */
  leftVisits: Array<{ zone: string; since: number }>;
  crossed: Array<{ line: string; direction: CrossingDirection }>;
}

interface ObjectPlace {
  /** zone name → when the object entered it (ms) */
  inside: Map<string, number>;
  /** zone name → frames in a row its anchor has been inside, before it counts as in */
  pending: Map<string, number>;
  /** line name → the last anchor seen on one side of it (a point on the line is on neither) */
  lastSide: Map<string, ImagePoint>;
}

export class ObjectPlaces {
  private readonly objects = new Map<number, ObjectPlace>();

  constructor(
    private readonly zones: readonly PlacedZone[],
    private readonly lines: readonly PlacedLine[],
  ) {}

  /** The object's box in a frame taken at `atMs`: the zones it entered and left and the lines it crossed. */
  observe(trackId: number, box: Box, atMs: number): PlaceChanges {
    let place = this.objects.get(trackId);
    if (!place) {
      place = { inside: new Map(), pending: new Map(), lastSide: new Map() };
      this.objects.set(trackId, place);
    }
    const changes: PlaceChanges = { entered: [], left: [], leftVisits: [], crossed: [] };
    for (const zone of this.zones) {
      const isIn = inPolygon(anchorPoint(box, zone.anchor ?? 'center'), zone.polygon);
      if (!isIn) {
        place.pending.delete(zone.name);
        const since = place.inside.get(zone.name);
        if (since !== undefined) {
          place.inside.delete(zone.name);
          changes.left.push(zone.name);
          changes.leftVisits.push({ zone: zone.name, since });
        }
        continue;
      }
      if (place.inside.has(zone.name)) continue;
      const frames = (place.pending.get(zone.name) ?? 0) + 1;
      if (frames >= (zone.inertia ?? 1)) {
        place.pending.delete(zone.name);
        place.inside.set(zone.name, atMs);
        changes.entered.push(zone.name);
      } else place.pending.set(zone.name, frames);
    }
    for (const line of this.lines) {
      const point = anchorPoint(box, line.anchor ?? 'center');
      if (sideOfLine(point, line.line) === 0) continue;
      const last = place.lastSide.get(line.name);
      const direction = last && crossingOf(last, point, line.line);
      if (direction) changes.crossed.push({ line: line.name, direction });
      place.lastSide.set(line.name, point);
    }
    return changes;
  }

  /** The zones the object is in now, each with the milliseconds it has spent there by `nowMs`. */
  zonesOf(trackId: number, nowMs: number): Array<{ zone: string; ms: number }> {
    const place = this.objects.get(trackId);
    if (!place) return [];
    return [...place.inside].map(([zone, since]) => ({ zone, ms: nowMs - since }));
  }

  /** Takes back an object another camera's places followed: the zones it is in and since when. */
  restore(trackId: number, inside: ReadonlyArray<{ zone: string; since: number }>): void {
    this.objects.set(trackId, {
      inside: new Map(inside.map(({ zone, since }) => [zone, since])),
      pending: new Map(),
      lastSide: new Map(),
    });
  }

  /** Forgets an object whose track ended: the zones it was in, which it leaves with it, each with when it entered. */
  end(trackId: number): Array<{ zone: string; since: number }> {
    const place = this.objects.get(trackId);
    this.objects.delete(trackId);
    return place ? [...place.inside].map(([zone, since]) => ({ zone, since })) : [];
  }
}
