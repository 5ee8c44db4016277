// Queries of cameras' kept frames (migrations 018, 021). Reads are scoped to
// one organization or account; the retention sweep and the store's total
// (its cap, and the accounts holding the most) read across them.
import type { Sql } from 'postgres';
import type { Queryable } from './database.js';

export interface KeptFrameRow {
  eventId: string;
  organizationId: string;
  /** the account whose organization kept it (platform/kept-frames.ts: its creator) */
  accountId: string;
  deviceId: string;
  contentType: string;
  bytes: number;
  sha256: string;
  keptAt: Date;
}

/** A removed frame: what its image in a bucket is named by. */
export type RemovedFrame = Pick<KeptFrameRow, 'eventId' | 'organizationId' | 'accountId' | 'bytes'>;

/** An account's kept bytes, all its organizations together. */
export interface AccountHolding {
  accountId: string;
  bytes: number;
}

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
export async function insertKeptFrame(
  sql: Sql,
  frame: Omit<KeptFrameRow, 'keptAt'>,
  data: Buffer | null,
): Promise<void> {
  await sql.begin((tx) => [
    tx`SET LOCAL synchronous_commit TO off`,
    tx`
      INSERT INTO kept_frames (event_id, organization_id, account_id, device_id, content_type, bytes, sha256, data)
      VALUES (${frame.eventId}, ${frame.organizationId}, ${frame.accountId}, ${frame.deviceId}, ${frame.contentType}, ${frame.bytes}, ${frame.sha256},
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
    SELECT event_id, organization_id, account_id, device_id, content_type, bytes, sha256, kept_at, data
      FROM kept_frames WHERE organization_id = ${organizationId} AND device_id = ${deviceId} AND event_id = ${eventId}`;
  return row;
}

/** The bytes of the organization's kept frames. */
export async function keptFrameBytes(sql: Queryable, organizationId: string): Promise<number> {
  const [row] = await sql<Array<{ bytes: number }>>`
    SELECT coalesce(sum(bytes), 0)::float8 AS bytes FROM kept_frames WHERE organization_id = ${organizationId}`;
  return row!.bytes;
}

/** The bytes of the frames kept by all the organizations of the account. */
export async function accountKeptFrameBytes(sql: Queryable, accountId: string): Promise<number> {
  const [row] = await sql<Array<{ bytes: number }>>`
    SELECT coalesce(sum(bytes), 0)::float8 AS bytes FROM kept_frames WHERE account_id = ${accountId}`;
  return row!.bytes;
}

/** The bytes of every kept frame. */
export async function totalKeptFrameBytes(sql: Queryable): Promise<number> {
  const [row] = await sql<Array<{ bytes: number }>>`SELECT coalesce(sum(bytes), 0)::float8 AS bytes FROM kept_frames`;
  return row!.bytes;
}

/** What each account keeps, the largest first (accounts keeping nothing are not listed). */
export async function accountHoldings(sql: Queryable): Promise<AccountHolding[]> {
  return sql<AccountHolding[]>`
    SELECT account_id, sum(bytes)::float8 AS bytes FROM kept_frames GROUP BY account_id ORDER BY bytes DESC, account_id`;
}

/**
 * The account an organization's frames count against: the user who created
 * it, its first member (memberships are never removed), or the organization
 * itself when it has no member.
 */
export async function organizationAccount(sql: Queryable, organizationId: string): Promise<string> {
  const [row] = await sql<Array<{ userId: string }>>`
    SELECT user_id FROM memberships WHERE organization_id = ${organizationId} ORDER BY created_at, user_id LIMIT 1`;
  return row?.userId ?? organizationId;
}

/**
 * Marks the space of removed frames free for the next ones (their rows
 * and TOAST chunks stay on disk as dead tuples until a VACUUM); VACUUM
 * runs outside a transaction.
 */
export async function reclaimKeptFramesSpace(sql: Sql): Promise<void> {
  await sql`VACUUM kept_frames`;
}

/** Removes one kept frame of the organization (a retried frame's second copy); what was removed. */
export async function deleteKeptFrame(
  sql: Queryable,
  organizationId: string,
  eventId: string,
): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE organization_id = ${organizationId} AND event_id = ${eventId}
    RETURNING event_id, organization_id, account_id, bytes`;
}

/** Removes up to `limit` frames kept before `horizon`, oldest first (a page of the retention sweep). */
export async function deleteFramesKeptBefore(sql: Queryable, horizon: Date, limit: number): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM kept_frames WHERE kept_at < ${horizon} ORDER BY kept_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING event_id, organization_id, account_id, bytes`;
}

/** Removes up to `limit` of the organization's frames (a page of its deletion). */
export async function deleteOrganizationFrames(
  sql: Queryable,
  organizationId: string,
  limit: number,
): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM kept_frames WHERE organization_id = ${organizationId} LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING event_id, organization_id, account_id, bytes`;
}

/**
 * Removes the account's oldest frames, whichever of its organizations kept
 * them, until the newest ones left total at most `keepBytes`; what was removed.
 */
export async function deleteOldestAccountFramesBeyond(
  sql: Queryable,
  accountId: string,
  keepBytes: number,
): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM (
        SELECT event_id, sum(bytes) OVER (ORDER BY kept_at DESC, event_id DESC) AS newer
          FROM kept_frames WHERE account_id = ${accountId}) AS ranked
       WHERE newer > ${keepBytes})
      AND account_id = ${accountId}
    RETURNING event_id, organization_id, account_id, bytes`;
}

/**
 * Removes the organization's oldest frames until the newest ones left
 * total at most `keepBytes`; what was removed.
 */
export async function deleteOldestFramesBeyond(
  sql: Queryable,
  organizationId: string,
  keepBytes: number,
): Promise<RemovedFrame[]> {
  return sql<RemovedFrame[]>`
    DELETE FROM kept_frames WHERE event_id IN (
      SELECT event_id FROM (
        SELECT event_id, sum(bytes) OVER (ORDER BY kept_at DESC, event_id DESC) AS newer
          FROM kept_frames WHERE organization_id = ${organizationId}) AS ranked
       WHERE newer > ${keepBytes})
      AND organization_id = ${organizationId}
    RETURNING event_id, organization_id, account_id, bytes`;
}
