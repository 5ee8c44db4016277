// Events partitioned by day of server_received_at, so that retention
// (EVENT_RETENTION_DAYS) drops whole partitions instead of deleting rows.
//
// The key is server_received_at, not the device's own client_sent_at: it is
// the server's clock, so every new event falls in today's partition whatever
// time a device claims, and it is the order of every search and page
// (db/events.ts). Day partitions are created ahead by the maintenance task
// (db/event-partitions.ts); the DEFAULT partition takes any event no
// partition covers (a server clock far off), so no insert ever fails.
//
// Idempotency: a unique index of a partitioned table must contain the
// partition key, so (device_id, dedup_key) can no longer be unique across
// events: a retry arrives later, with another server_received_at, often in
// another day's partition. The keys move to event_keys, a plain table whose
// primary key is the old unique index: the ingestion statements insert an
// event's key with the event (db/events.ts), and a concurrent retry waits
// on the same index entry as before and is then left out.
//
// The table as it was becomes the partition of everything before tomorrow
// (UTC; or the day after its newest event), without copying the events:
// ATTACH checks its rows against the bound and builds the primary key
// (id, server_received_at) in this migration's transaction, blocking
// ingestion while it runs, once, at start-up (like migration 008).
// Retention drops it whole once its bound is past. An empty table is
// dropped instead.
import type { Migration } from '../migrations.js';

/** migration 009's statistics targets, for the new parent and the DEFAULT partition */
const statistics = (table: string) =>
  `ALTER TABLE ${table} ${[
    'id',
    'organization_id',
    'channel_id',
    'device_id',
    'source',
    'server_received_at',
    'client_sent_at',
    'dedup_key',
  ]
    .map((column) => `ALTER COLUMN ${column} SET STATISTICS 30`)
    .join(', ')}, ALTER COLUMN payload SET STATISTICS 0;`;

export const migration014: Migration = {
  version: 14,
  name: 'events: partitioned by day, idempotency keys in their own table',
  sql: `
    -- Retention deletes keys by age: keys are inserted in time order, so a
    -- BRIN index finds them at almost no cost per insert.
    CREATE TABLE event_keys (
      device_id    text NOT NULL,
      dedup_key    text NOT NULL,
      received_at  timestamptz NOT NULL,
      PRIMARY KEY (device_id, dedup_key)
    );
    CREATE INDEX event_keys_received ON event_keys USING brin (received_at);
    INSERT INTO event_keys (device_id, dedup_key, received_at)
      SELECT device_id, dedup_key, server_received_at FROM events ORDER BY server_received_at;

    ALTER TABLE events RENAME TO events_before;
    ALTER TABLE events_before DROP CONSTRAINT events_pkey;
    DROP INDEX events_device_dedup;
    ALTER INDEX events_org_received RENAME TO events_before_org_received;
    ALTER INDEX events_device_received RENAME TO events_before_device_received;
    ALTER INDEX events_channel_received RENAME TO events_before_channel_received;

    CREATE TABLE events (
      id                  text NOT NULL,
      organization_id     text NOT NULL,
      channel_id          text NOT NULL,
      device_id           text NOT NULL,
      -- named as the converted table's, which ATTACH requires
      source              text NOT NULL CONSTRAINT events_source_check CHECK (source IN ('mobile', 'iot')),
      server_received_at  timestamptz NOT NULL,
      client_sent_at      timestamptz,
      payload             jsonb NOT NULL,
      dedup_key           text NOT NULL,
      PRIMARY KEY (id, server_received_at)
    ) PARTITION BY RANGE (server_received_at);
    CREATE INDEX events_org_received ON events (organization_id, server_received_at);
    CREATE INDEX events_device_received ON events (device_id, server_received_at);
    CREATE INDEX events_channel_received ON events (channel_id, server_received_at);
    ${statistics('events')}

    DO $$
    DECLARE
      -- past the newest event too, should a server clock have run ahead
      bound timestamptz := date_trunc('day', greatest(now(), (SELECT max(server_received_at) FROM events_before)), 'UTC') + interval '1 day';
    BEGIN
      IF EXISTS (SELECT 1 FROM events_before) THEN
        EXECUTE format('ALTER TABLE events ATTACH PARTITION events_before FOR VALUES FROM (MINVALUE) TO (%L)', bound);
      ELSE
        DROP TABLE events_before;
      END IF;
    END $$;

    CREATE TABLE events_default PARTITION OF events DEFAULT;
    ${statistics('events_default')}
  `,
};
