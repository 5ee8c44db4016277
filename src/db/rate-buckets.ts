// Token buckets in PostgreSQL, shared by every server of a database
// (migration 016; the leasing policy is ingest/rate-limit.ts). The
// database's clock refills them, so servers with skewed clocks agree.
import type { Sql } from 'postgres';

/**
 * Takes up to `want` tokens from `key`'s bucket (`burst` at most, refilled
 * at `rate` a second; a new bucket starts full); resolves to how many it
 * took, 0 when empty. One statement: the row lock orders servers taking at
 * once.
 */
export async function takeBucketTokens(
  sql: Sql,
  key: string,
  want: number,
  rate: number,
  burst: number,
): Promise<number> {
  const refilled = sql`least(${burst}::float8, b.tokens + extract(epoch FROM now() - b.updated_at)::float8 * ${rate}::float8)`;
  const [row] = await sql<[{ granted: number }]>`
    INSERT INTO rate_buckets AS b (key, tokens, granted, updated_at)
    VALUES (${key}, greatest(${burst}::float8 - ${want}::float8, 0), least(${burst}::float8, ${want}::float8), now())
    ON CONFLICT (key) DO UPDATE SET
      granted = least(${refilled}, ${want}::float8),
      tokens = ${refilled} - least(${refilled}, ${want}::float8),
      updated_at = now()
    RETURNING granted`;
  return row.granted;
}

/** Deletes buckets untouched since `before` (full again by then: the same as no row); returns how many. */
export async function deleteIdleBuckets(sql: Sql, before: Date): Promise<number> {
  return (await sql`DELETE FROM rate_buckets WHERE updated_at < ${before}`).count;
}
