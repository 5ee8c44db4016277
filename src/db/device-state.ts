// Device state kept with the device row (last-seen time, last location,
// landmarks inside), read locked and written in the same commit as the
// events that change it. Row versions are the rows' xmin, as text.
import type { PendingQuery, Sql } from 'postgres';
import { arrayLiteral, jsonElements } from './array-literal.js';
import type { Queryable } from './database.js';

/** Per device: the last-seen time and the state patch to merge into `state`. */
export type DevicePatches = Map<string, { seenAt: Date; patch: Record<string, unknown> }>;

/** A device as the rules engine evaluates it, with its row version. */
export interface EngineDeviceRow {
  id: string;
  name: string | null;
  model: string | null;
  type: string | null;
  tags: string[];
  properties: Record<string, unknown>;
  attributes: Record<string, unknown>;
  state: Record<string, unknown>;
  version: string;
}

/**
 * The devices' rows, locked until the transaction ends (a concurrent batch
 * of another server for the same devices waits), in id order; not awaited
 * here, so that it is pipelined with the commit's other statements.
 */
export function lockEngineDevices<T extends EngineDeviceRow = EngineDeviceRow>(
  tx: Sql,
  deviceIds: string[],
): PendingQuery<T[]> {
  return tx<T[]>`
        SELECT id, name, model, type, tags, properties, attributes, state, xmin::text AS version FROM devices
        WHERE id = ANY(${deviceIds}) ORDER BY id FOR UPDATE`;
}

/**
 * The UPDATE writing each device's state patch (merged into `state`) and
 * last-seen time, returning each row's new version (xmin). With `expected`
 * (the version each device was read at), a row that changed since is left
 * out, for the caller to check. Not run here: a statement of its own, or a
 * part of a larger one.
 */
export function updateDeviceStates(
  tx: Sql,
  patches: DevicePatches,
  expected?: ReadonlyMap<string, string>,
): PendingQuery<Array<{ id: string; version: string }>> {
  const ids = [...patches.keys()];
  const values = [...patches.values()];
  return tx<Array<{ id: string; version: string }>>`
    UPDATE devices d SET last_seen_at = u.seen_at, state = d.state || j.value
    FROM unnest(
      ${arrayLiteral(ids)}::text::text[], ${arrayLiteral(values.map((v) => v.seenAt.toISOString()))}::text::timestamptz[],
      ${arrayLiteral(ids.map((id) => expected?.get(id) ?? null))}::text::text[]
    ) WITH ORDINALITY AS u(id, seen_at, version, n)
    JOIN ${jsonElements(
      tx,
      values.map((v) => v.patch),
    )} USING (n)
    WHERE d.id = u.id AND (u.version IS NULL OR d.xmin = u.version::xid)
    RETURNING d.id, d.xmin::text AS version`;
}

/** Runs updateDeviceStates; resolves to each updated device's new version. */
export async function saveDeviceStates(tx: Sql, patches: DevicePatches): Promise<Map<string, string>> {
  if (patches.size === 0) return new Map();
  return new Map((await updateDeviceStates(tx, patches)).map((r) => [r.id, r.version]));
}

/** The configuration override a device's state carries (`state.configuration`), null when none; undefined when no such device. */
export async function findDeviceConfiguration(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
): Promise<{ configuration: Record<string, unknown> | null } | undefined> {
  const [row] = await sql<{ configuration: Record<string, unknown> | null }[]>`
      SELECT state->'configuration' AS configuration FROM devices WHERE id = ${deviceId} AND organization_id = ${organizationId}`;
  return row;
}
