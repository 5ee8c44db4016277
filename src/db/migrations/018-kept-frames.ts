// Cameras may keep their frames (a vision profile's keep_frames): one row
// per kept frame, named by its event. Where the image's bytes are depends
// on MODEL_STORE: in `data` (postgres), or in the bucket (s3, `data` null).
// No foreign key to the event (events are partitioned by day and dropped
// whole) or to the device (a frame is kept as long as its event, which
// outlives its device): the retention sweep and the organization's quota
// remove rows (platform/kept-frames.ts). Gone with its organization.
import type { Migration } from '../migrations.js';

export const migration018: Migration = {
  version: 18,
  name: "cameras' kept frames",
  sql: `
    ALTER TABLE device_vision ADD COLUMN keep_frames boolean NOT NULL DEFAULT false;
    CREATE TABLE kept_frames (
      event_id         text PRIMARY KEY,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      device_id        text NOT NULL,
      content_type     text NOT NULL,
      bytes            integer NOT NULL,
      sha256           text NOT NULL,
      kept_at          timestamptz NOT NULL DEFAULT now(),
      -- null when the image is in the bucket (MODEL_STORE=s3)
      data             bytea
    );
    -- Frames are compressed images: trying to compress them again (pglz)
    -- cost more than half of each frame's insert, for nothing.
    ALTER TABLE kept_frames ALTER COLUMN data SET STORAGE EXTERNAL;
    -- the retention sweep, oldest first
    CREATE INDEX kept_frames_kept_at ON kept_frames (kept_at);
    -- an organization's usage, and its oldest frames when over its quota
    CREATE INDEX kept_frames_org ON kept_frames (organization_id, kept_at) INCLUDE (bytes);
  `,
};
