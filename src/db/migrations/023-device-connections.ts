// Devices' live connections (presence): one row per MQTT connection open on
// a replica, written when its CONNACK is sent and removed when it closes. A
// row goes with its replica (ON DELETE CASCADE): the replicas' own sweep of
// the rows whose heartbeat stopped (db/replicas.ts) takes a dead server's
// connections with it, and until then a read counts only rows of replicas
// whose heartbeat is fresh.
//
// Logged, not UNLOGGED like the rate buckets: a crash of PostgreSQL (or a
// failover to a standby) empties an unlogged table while the servers, and
// the devices' TCP connections to them, live on; every device would then
// read as not connected until it reconnected. A row is written twice per
// connection, not per message: its WAL is worth that.
import type { Migration } from '../migrations.js';

export const migration023: Migration = {
  version: 23,
  name: "devices' live connections (presence)",
  sql: `
    CREATE TABLE device_connections (
      -- the connection's own id: a client id taken over on the same replica
      -- leaves two rows for a moment, and each connection removes its own
      id                text PRIMARY KEY,
      device_id         text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
      organization_id   text NOT NULL,
      replica_id        text NOT NULL REFERENCES replicas(id) ON DELETE CASCADE,
      client_id         text NOT NULL,
      protocol          text NOT NULL CHECK (protocol IN ('mqtt')),
      protocol_version  smallint NOT NULL,
      connected_at      timestamptz NOT NULL DEFAULT now()
    );
    -- a page of devices reads its connections by device; a replica's rows go with it
    CREATE INDEX device_connections_device ON device_connections (device_id, connected_at);
    CREATE INDEX device_connections_replica ON device_connections (replica_id);
  `,
};
