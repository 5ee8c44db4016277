// A camera is a device with a vision profile: the model version its frames
// are run through, the predict options, and zones drawn in image
// coordinates (platform/vision.ts). One row per device, gone with it. The
// model version is not a foreign key: deleting a version must not take the
// cameras' settings with it; a frame sent while the version is gone is
// refused, naming it.
import type { Migration } from '../migrations.js';

export const migration017: Migration = {
  version: 17,
  name: 'vision profiles of camera devices',
  sql: `
    CREATE TABLE device_vision (
      device_id         text PRIMARY KEY REFERENCES devices(id) ON DELETE CASCADE,
      organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      model_version_id  text NOT NULL,
      -- predict options (threshold, iou, maxDetections, ...) and zones, as the API takes them
      options           jsonb NOT NULL DEFAULT '{}'::jsonb,
      zones             jsonb NOT NULL DEFAULT '[]'::jsonb,
      updated_at        timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX device_vision_org ON device_vision (organization_id);
  `,
};
