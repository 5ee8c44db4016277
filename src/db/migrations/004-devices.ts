// Schema changes for devices and landmarks, beyond migration 2.
import type { Migration } from '../migrations.js';

export const migration004: Migration = {
  version: 4,
  name: 'devices and landmarks',
  sql: `
    -- Searches sort by creation time within an organization by default.
    CREATE INDEX landmarks_org_created ON landmarks (organization_id, created_at DESC);

    -- Servers keep landmarks in memory (platform/landmark-index.ts) for the
    -- rules engine; this tells every server sharing the database which
    -- organization's landmarks changed. The payload is the organization id,
    -- so a statement touching many rows of one organization (a cascade)
    -- sends one notification per transaction.
    CREATE FUNCTION notify_landmarks() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('landmarks', coalesce(NEW.organization_id, OLD.organization_id));
      RETURN NULL;
    END $$;
    CREATE TRIGGER landmarks_changed
      AFTER INSERT OR UPDATE OR DELETE ON landmarks
      FOR EACH ROW EXECUTE FUNCTION notify_landmarks();
  `,
};
