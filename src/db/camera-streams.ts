// Queries of cameras' stream leases (migration 025): each enabled stream is
// read by one replica, the holder of its row's lease, which renews it and
// writes the stream's state there; a lease not renewed in time may be taken
// by another replica. Reads of a stream's state are scoped to one organization.
import type { Queryable } from './database.js';

export interface StreamLeaseRow {
  deviceId: string;
  organizationId: string;
  replicaId: string;
  leaseUntil: Date;
  state: string;
  reason: string | null;
  stats: Record<string, unknown>;
  updatedAt: Date;
}

/**
 * Takes or renews the leases of these streams for `replicaId`, for
 * `leaseSeconds`: those it holds already, and those nobody holds or whose
 * holder let the lease run out. Answers the device ids it holds now.
 */
export async function leaseStreams(
  sql: Queryable,
  replicaId: string,
  streams: ReadonlyArray<{ deviceId: string; organizationId: string }>,
  leaseSeconds: number,
): Promise<string[]> {
  if (streams.length === 0) return [];
  const rows = await sql<Array<{ deviceId: string }>>`
    INSERT INTO camera_streams (device_id, organization_id, replica_id, lease_until, state)
    SELECT device_id, organization_id, ${replicaId}, now() + make_interval(secs => ${leaseSeconds}), 'connecting'
    FROM unnest(${streams.map((s) => s.deviceId)}::text[], ${streams.map((s) => s.organizationId)}::text[])
      AS t(device_id, organization_id)
    WHERE EXISTS (SELECT 1 FROM devices d WHERE d.id = t.device_id)
    ON CONFLICT (device_id) DO UPDATE
      SET replica_id = EXCLUDED.replica_id, lease_until = EXCLUDED.lease_until,
          state = CASE WHEN camera_streams.replica_id = EXCLUDED.replica_id THEN camera_streams.state ELSE 'connecting' END,
          updated_at = now()
      WHERE camera_streams.replica_id = EXCLUDED.replica_id OR camera_streams.lease_until < now()
    RETURNING device_id`;
  return rows.map((row) => row.deviceId);
}

/** Writes the state of streams `replicaId` holds (a stream another replica took meanwhile is left alone). */
export async function reportStreams(
  sql: Queryable,
  replicaId: string,
  reports: ReadonlyArray<{ deviceId: string; state: string; reason: string | null; stats: Record<string, unknown> }>,
): Promise<void> {
  if (reports.length === 0) return;
  await sql`
    UPDATE camera_streams SET state = r.state, reason = r.reason, stats = r.stats::jsonb, updated_at = now()
    FROM unnest(${reports.map((r) => r.deviceId)}::text[], ${reports.map((r) => r.state)}::text[],
                ${reports.map((r) => r.reason) as string[]}::text[], ${reports.map((r) => JSON.stringify(r.stats))}::text[])
      AS r(device_id, state, reason, stats)
    WHERE camera_streams.device_id = r.device_id AND camera_streams.replica_id = ${replicaId}`;
}

/** Gives up `replicaId`'s leases of these streams (all of them when `deviceIds` is undefined). */
export async function releaseStreams(sql: Queryable, replicaId: string, deviceIds?: readonly string[]): Promise<void> {
  if (deviceIds === undefined) await sql`DELETE FROM camera_streams WHERE replica_id = ${replicaId}`;
  else if (deviceIds.length > 0)
    await sql`DELETE FROM camera_streams WHERE replica_id = ${replicaId} AND device_id = ANY(${deviceIds as string[]}::text[])`;
}

/** Removes the rows of streams no longer enabled (their profile changed or went) whose lease ran out. */
export async function deleteDisabledStreams(sql: Queryable): Promise<void> {
  await sql`
    DELETE FROM camera_streams cs WHERE lease_until < now() AND NOT EXISTS (
      SELECT 1 FROM device_vision v WHERE v.device_id = cs.device_id AND (v.stream->>'enabled')::boolean)`;
}

/** The state of a camera's stream as its holder last wrote it; undefined when no replica holds it. */
export async function findStreamLease(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
): Promise<StreamLeaseRow | undefined> {
  const [row] = await sql<Array<Omit<StreamLeaseRow, 'stats'> & { stats: string }>>`
    SELECT device_id, organization_id, replica_id, lease_until, state, reason, stats::text AS stats, updated_at
    FROM camera_streams WHERE organization_id = ${organizationId} AND device_id = ${deviceId}`;
  return row && { ...row, stats: JSON.parse(row.stats) as Record<string, unknown> };
}

/** How many replicas have beaten their heartbeat within `staleSeconds`: the streams are shared out among them. */
export async function liveReplicaCount(sql: Queryable, staleSeconds: number): Promise<number> {
  const [row] = await sql<Array<{ count: number }>>`
    SELECT count(*)::int AS count FROM replicas WHERE heartbeat_at >= now() - make_interval(secs => ${staleSeconds})`;
  return Math.max(1, row!.count);
}
