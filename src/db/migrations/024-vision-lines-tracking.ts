// A camera's counting lines and its tracker's settings, beside its zones in
// its vision profile: both user data read and written whole, as jsonb (a
// line's name is the user's, kept as written).
import type { Migration } from '../migrations.js';

export const migration024: Migration = {
  version: 24,
  name: "cameras' counting lines and tracker settings",
  sql: `
    ALTER TABLE device_vision
      ADD COLUMN lines    jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN tracking jsonb NOT NULL DEFAULT '{}';
  `,
};
