// Device rate limits shared by every server of a database: one token bucket
// per device in PostgreSQL, from which each server leases tokens in chunks
// (ingest/rate-limit.ts). UNLOGGED: a bucket is worth no WAL, and the only
// loss a crash brings (the table emptied) lets devices send one more burst.
import type { Migration } from '../migrations.js';

export const migration016: Migration = {
  version: 16,
  name: 'device rate limits: token buckets shared by the servers',
  sql: `
    CREATE UNLOGGED TABLE rate_buckets (
      key         text PRIMARY KEY,
      tokens      double precision NOT NULL,
      -- the last lease's tokens: RETURNING sees only the new row
      granted     double precision NOT NULL,
      -- not indexed: an index on it would make every lease a non-HOT update;
      -- the hourly sweep of idle buckets reads the table instead
      updated_at  timestamptz NOT NULL
    );
  `,
};
