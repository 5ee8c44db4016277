// A model version can be disabled (npm run model -- disable) and enabled
// again: the row and its stored files stay, but no server serves it. The
// trigger that tells every server of inserts and deletes now also says
// DISABLE:<id> and ENABLE:<id> when the flag changes, so that each one
// unloads the version, or loads it again.
import type { Migration } from '../migrations.js';

export const migration019: Migration = {
  version: 19,
  name: 'model versions disabled',
  sql: `
    ALTER TABLE model_versions ADD COLUMN disabled boolean NOT NULL DEFAULT false;
    CREATE OR REPLACE FUNCTION notify_model_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('model_versions', (CASE WHEN NEW.disabled THEN 'DISABLE' ELSE 'ENABLE' END) || ':' || NEW.id);
      ELSE
        PERFORM pg_notify('model_versions', TG_OP || ':' || coalesce(NEW.id, OLD.id));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER model_versions_disabled
      AFTER UPDATE OF disabled ON model_versions
      FOR EACH ROW WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled)
      EXECUTE FUNCTION notify_model_versions();
  `,
};
