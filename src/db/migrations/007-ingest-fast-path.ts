// The ingestion writer's one-round-trip transactions (src/ingest/event-writer.ts):
// they are sent whole, COMMIT included, before any result is back, so what
// they assume must be checked by PostgreSQL itself.
import type { Migration } from '../migrations.js';

export const migration007: Migration = {
  version: 7,
  name: 'ingestion: assertion for one-round-trip group commits',
  sql: `
    -- Raises serialization_failure (SQLSTATE 40001, "retry the transaction")
    -- unless ok. The transaction is aborted, its COMMIT becomes a rollback,
    -- and the writer retries the batch the locked way.
    CREATE FUNCTION ingest_expect(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT ok THEN
        RAISE EXCEPTION '%', message USING ERRCODE = 'serialization_failure';
      END IF;
      RETURN true;
    END $$;
  `,
};
