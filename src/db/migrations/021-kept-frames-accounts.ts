// Kept frames count against their organization's account as well
// (KEPT_FRAMES_ACCOUNT_MAX_MB: organizations are free to create, so a
// quota per organization alone bounds nothing). A row names its account,
// the user who created the organization (its first member; memberships
// are never removed), or the organization itself when it has no member,
// so that an account's usage and its oldest frames are one index range.
import type { Migration } from '../migrations.js';

export const migration021: Migration = {
  version: 21,
  name: "kept frames' accounts",
  sql: `
    ALTER TABLE kept_frames ADD COLUMN account_id text;
    UPDATE kept_frames f SET account_id = coalesce(
      (SELECT m.user_id FROM memberships m WHERE m.organization_id = f.organization_id ORDER BY m.created_at, m.user_id LIMIT 1),
      f.organization_id);
    ALTER TABLE kept_frames ALTER COLUMN account_id SET NOT NULL;
    -- an account's usage, and its oldest frames when over its quota or the store's
    CREATE INDEX kept_frames_account ON kept_frames (account_id, kept_at) INCLUDE (bytes);
  `,
};
