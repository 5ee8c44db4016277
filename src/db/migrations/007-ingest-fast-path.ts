// The ingestion writer's one-statement batches (src/ingest/event-writer.ts):
// a batch evaluated from memory is written by one statement, its own
// transaction, built before any of its results are known, so what the
// evaluation assumed must be checked by PostgreSQL itself.
import type { Migration } from '../migrations.js';

export const migration007: Migration = {
  version: 7,
  name: 'ingestion: assertion for one-round-trip group commits',
  sql: `
    -- Raises serialization_failure (SQLSTATE 40001, "retry the transaction")
    -- unless ok. The statement and all it wrote are rolled back, and the
    -- writer retries the batch the locked way.
    CREATE FUNCTION ingest_expect(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT ok THEN
        RAISE EXCEPTION '%', message USING ERRCODE = 'serialization_failure';
      END IF;
      RETURN true;
    END $$;
  `,
};
