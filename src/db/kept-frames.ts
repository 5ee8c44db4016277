// Queries of cameras' kept frames (migration 018). Reads are scoped to one
// organization; the retention sweep is the one statement across them.
import type { Sql } from 'postgres';
import type { Queryable } from './database.js';

export interface KeptFrameRow {
  eventId: string;
  organizationId: string;
  deviceId: string;
  contentType: string;
  bytes: number;
  sha256: string;
  keptAt: Date;
}

/** A removed frame: what its image in a bucket is named by. */
export type RemovedFrame = Pick<KeptFrameRow, 'eventId' | 'organizationId' | 'bytes'>;

/**
 * Records a kept frame, with its image (`data`) when the database holds it;
 * a frame already kept under this event is left as it is. Committed
 * without waiting for the WAL flush: the frame's event is committed after
 * it, and that commit's flush makes the frame durable too (the WAL is
 * flushed in order), so an event never names a frame a crash lost, and
 * frames cost no flush of their own. The image goes as base64 text,
 * decoded by PostgreSQL: postgres.js would send a Buffer as hex, twice its
 * size and more work on both sides.
 */
export async function insertKeptFrame(sql: Sql, frame: Omit<KeptFrameRow, 'keptAt'>, data: Buffer | null): Promise<void> {
  await sql.begin((tx) => [
    tx`SET LOCAL synchronous_commit TO off`,
    tx`
      INSERT INTO kept_frames (event_id, organization_id, device_id, content_type, bytes, sha256, data)
      VALUES (${frame.eventId}, ${frame.organizationId}, ${frame.deviceId}, ${frame.contentType}, ${frame.bytes}, ${frame.sha256},
              decode(${data?.toString('base64') ?? null}, 'base64'))
      ON CONFLICT (event_id) DO NOTHING`,
  ]);
}

/** A device's kept frame, with its image when the database holds it. */
export async function findKeptFrame(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
  eventId: string,
): Promise<(KeptFrameRow & { data: Buffer | null }) | undefined> {
  const [row] = await sql<Array<KeptFrameRow & { data: Buffer | null }>>`
    SELECT event_id, organization_id, device_id, content_type, bytes, sha256, kept_at, data
      FROM kept_frames WHERE organization_id = ${organizationId} AND device_id = ${deviceId} AND event_id = ${eventId}`;
  return row;
}

/** The bytes of the organization's kept frames. */
export async function keptFrameBytes(sql: Queryable, organizationId: string): Promise<number> {
  const [row] = await sql<Array<{ bytes: number }>>`
    SELECT coalesce(sum(bytes), 0)::float8 AS bytes FROM kept_frames WHERE organization_id = ${organizationId}`;
  return row!.bytes;
}

/** Removes one kept frame of the organization (a retried frame's second copy); what was removed. */
export async function deleteKeptFrame(sql: Queryable, organizationId: string, eventId: string): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE organization_id = ${organizationId} AND event_id = ${eventId}
    RETURNING event_id, organization_id, bytes`;
}

/** Removes up to `limit` frames kept before `horizon`, oldest first (a page of the retention sweep). */
export async function deleteFramesKeptBefore(sql: Queryable, horizon: Date, limit: number): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM kept_frames WHERE kept_at < ${horizon} ORDER BY kept_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING event_id, organization_id, bytes`;
}

/** Removes up to `limit` of the organization's frames (a page of its deletion). */
export async function deleteOrganizationFrames(sql: Queryable, organizationId: string, limit: number): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM kept_frames WHERE organization_id = ${organizationId} LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING event_id, organization_id, bytes`;
}

/**
 * Removes the organization's oldest frames until the newest ones left
 * total at most `keepBytes`; what was removed.
 */
export async function deleteOldestFramesBeyond(sql: Queryable, organizationId: string, keepBytes: number): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM (
        SELECT event_id, sum(bytes) OVER (ORDER BY kept_at DESC, event_id DESC) AS newer
          FROM kept_frames WHERE organization_id = ${organizationId}) AS ranked
       WHERE newer > ${keepBytes})
      AND organization_id = ${organizationId}
    RETURNING event_id, organization_id, bytes`;
}
