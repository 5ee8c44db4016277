// Device state kept with the device row and updated in the same commit as
// the events: when it was last seen and its last known location.
import type { PendingQuery, Sql } from 'postgres';
import { arrayLiteral, jsonElements } from '../db/array-literal.js';
import type { IncomingEvent } from './event-writer.js';

export interface LastLocation {
  latitude: number;
  longitude: number;
  accuracy?: number | undefined;
  timestamp?: number | undefined;
}

/** The newest location an event carries: mobile `locations[]`, or IoT latitude/longitude fields. */
export function eventLocation(event: IncomingEvent): LastLocation | undefined {
  const p = event.payload as Record<string, any>;
  if (Array.isArray(p.locations) && p.locations.length) {
    let best = p.locations[0];
    for (const l of p.locations) if ((l.timestamp ?? 0) >= (best.timestamp ?? 0)) best = l;
    return { latitude: best.latitude, longitude: best.longitude, accuracy: best.accuracy, timestamp: best.timestamp };
  }
  const lat = p.latitude ?? p.lat;
  const lon = p.longitude ?? p.lon ?? p.lng;
  if (typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) {
    return { latitude: lat, longitude: lon };
  }
  return undefined;
}

export type DevicePatches = Map<string, { seenAt: Date; patch: Record<string, unknown> }>;

/**
 * The UPDATE writing each device's state patch (merged into `state`) and
 * last-seen time, returning each row's new version (xmin). With `expected`
 * (the version each device was read at), a row that changed since is left
 * out, for the caller to check. Not run here: a statement of its own, or a
 * part of a larger one.
 */
export function updateDeviceStates(tx: Sql, patches: DevicePatches, expected?: ReadonlyMap<string, string>): PendingQuery<Array<{ id: string; version: string }>> {
  const ids = [...patches.keys()];
  const values = [...patches.values()];
  return tx<Array<{ id: string; version: string }>>`
    UPDATE devices d SET last_seen_at = u.seen_at, state = d.state || j.value
    FROM unnest(
      ${arrayLiteral(ids)}::text::text[], ${arrayLiteral(values.map((v) => v.seenAt.toISOString()))}::text::timestamptz[],
      ${arrayLiteral(ids.map((id) => expected?.get(id) ?? null))}::text::text[]
    ) WITH ORDINALITY AS u(id, seen_at, version, n)
    JOIN ${jsonElements(tx, values.map((v) => v.patch))} USING (n)
    WHERE d.id = u.id AND (u.version IS NULL OR d.xmin = u.version::xid)
    RETURNING d.id, d.xmin::text AS version`;
}

/** Runs updateDeviceStates; resolves to each updated device's new version. */
export async function saveDeviceStates(tx: Sql, patches: DevicePatches): Promise<Map<string, string>> {
  if (patches.size === 0) return new Map();
  return new Map((await updateDeviceStates(tx, patches)).map((r) => [r.id, r.version]));
}
