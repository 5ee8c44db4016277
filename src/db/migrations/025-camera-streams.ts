// Cameras that stream: a vision profile's stream (its URL sealed, as a
// webhook's secrets are: it may hold the camera's password), and a row per
// stream that one replica leases to read it, where it writes the stream's
// state for every replica's GET to read. A lease not renewed ends: another
// replica takes the stream over.
import type { Migration } from '../migrations.js';

export const migration025: Migration = {
  version: 25,
  name: "cameras' streams and their leases",
  sql: `
    ALTER TABLE device_vision ADD COLUMN stream jsonb;
    CREATE TABLE camera_streams (
      device_id        text PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      replica_id       text NOT NULL,
      lease_until      timestamptz NOT NULL,
      -- connecting, running, retrying, stopped; with the reason of the last two
      state            text NOT NULL,
      reason           text,
      stats            jsonb NOT NULL DEFAULT '{}'::jsonb,
      updated_at       timestamptz NOT NULL DEFAULT now()
    );
  `,
};
