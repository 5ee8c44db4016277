// A version's config can change after it is registered: its child stages
// (PUT /v2/models/{model}/versions/{version}/stages). The trigger that tells
// every server of a version's changes now also says CONFIG:<id> when its
// config changes, so that each one reads the version's stages again
// without reloading its model.
import type { Migration } from '../migrations.js';

export const migration026: Migration = {
  version: 26,
  name: 'model version config changes notified',
  sql: `
    CREATE OR REPLACE FUNCTION notify_model_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.disabled IS DISTINCT FROM NEW.disabled THEN
        PERFORM pg_notify('model_versions', (CASE WHEN NEW.disabled THEN 'DISABLE' ELSE 'ENABLE' END) || ':' || NEW.id);
      ELSIF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('model_versions', 'CONFIG:' || NEW.id);
      ELSE
        PERFORM pg_notify('model_versions', TG_OP || ':' || coalesce(NEW.id, OLD.id));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER model_versions_config
      AFTER UPDATE OF config ON model_versions
      FOR EACH ROW WHEN (OLD.config IS DISTINCT FROM NEW.config AND OLD.disabled IS NOT DISTINCT FROM NEW.disabled)
      EXECUTE FUNCTION notify_model_versions();
  `,
};
