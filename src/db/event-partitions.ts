// The events table's partitions (migration 014): listing them with their
// bounds, creating a day's partition ahead of time, dropping old ones, and
// the retention of what lives outside the day partitions (the DEFAULT
// partition's rows, the idempotency keys). The policy (which days, how long
// to keep) is ingest/event-partitions.ts.
import type { Sql } from 'postgres';

export interface EventPartition {
  name: string;
  /** inclusive; null: no lower bound (MINVALUE) */
  from: Date | null;
  /** exclusive */
  to: Date;
}

/** The range partitions of events, oldest first (the DEFAULT partition is not one). */
export async function eventPartitions(sql: Sql): Promise<EventPartition[]> {
  // A range bound reads back as FOR VALUES FROM ('…') TO ('…'), with
  // MINVALUE in place of the first literal when it has no lower bound.
  const rows = await sql<Array<{ name: string; from: Date | null; to: Date }>>`
    SELECT c.relname AS name,
           (regexp_match(b.bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS from,
           (regexp_match(b.bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS to
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
    WHERE i.inhparent = 'events'::regclass AND b.bound <> 'DEFAULT'
    ORDER BY 3`;
  return rows;
}

/**
 * DDL on events waits for every search and ingestion statement in flight,
 * and while it waits every new one waits behind it: past this it gives up,
 * and the maintenance tries again on its next run.
 */
const LOCK_TIMEOUT = '2s';

/**
 * Creates the partition [from, to) named `name`. Events the DEFAULT
 * partition took for that range (before the partition existed) move into
 * it, in the same transaction: PostgreSQL refuses a partition whose rows
 * the DEFAULT partition holds.
 */
export async function createEventPartition(sql: Sql, name: string, from: Date, to: Date): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    // First, so no event enters the DEFAULT partition between the move and the CREATE.
    await tx`LOCK TABLE events IN ACCESS EXCLUSIVE MODE`;
    await tx`
      CREATE TEMPORARY TABLE moved_events ON COMMIT DROP AS
      WITH moved AS (DELETE FROM events_default WHERE server_received_at >= ${from} AND server_received_at < ${to} RETURNING *)
      SELECT * FROM moved`;
    await tx`CREATE TABLE IF NOT EXISTS ${tx(name)} PARTITION OF events FOR VALUES FROM (${tx.unsafe(literal(from))}) TO (${tx.unsafe(literal(to))})`;
    // Statistics targets are per table, not inherited: the parent's (migrations 009, 014) again.
    const targets = await tx<Array<{ column: string; target: number }>>`
      SELECT attname AS column, attstattarget::int AS target FROM pg_attribute
      WHERE attrelid = 'events'::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0`;
    for (const { column, target } of targets)
      await tx`ALTER TABLE ${tx(name)} ALTER COLUMN ${tx(column)} SET STATISTICS ${tx.unsafe(String(target))}`;
    await tx`INSERT INTO events SELECT * FROM moved_events`;
  });
}

/** A timestamptz literal: partition bounds take no parameters. */
const literal = (date: Date) => `'${date.toISOString()}'::timestamptz`;

export async function dropEventPartition(sql: Sql, name: string): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`SELECT set_config('lock_timeout', ${LOCK_TIMEOUT}, true)`;
    await tx`DROP TABLE IF EXISTS ${tx(name)}`;
  });
}

/** Deletes the DEFAULT partition's events received before `before`; returns how many. */
export async function deleteDefaultPartitionEvents(sql: Sql, before: Date): Promise<number> {
  return (await sql`DELETE FROM events_default WHERE server_received_at < ${before}`).count;
}

/**
 * Deletes idempotency keys received before `before`, a chunk per statement
 * so that none holds locks or builds WAL for long; returns how many.
 */
export async function deleteEventKeys(sql: Sql, before: Date, chunk = 10_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { count } = await sql`
      DELETE FROM event_keys WHERE ctid = ANY (ARRAY(SELECT ctid FROM event_keys WHERE received_at < ${before} LIMIT ${chunk}))`;
    deleted += count;
    if (count < chunk) return deleted;
  }
}
