// Device tokens stop working when what they were issued on stops: the
// channel API key that registered the device (disabled or deleted) or its
// channel (disabled or deleted). Servers cache which device tokens they have
// checked; this tells every server to check again at once.
import type { Migration } from '../migrations.js';

export const migration011: Migration = {
  version: 11,
  name: 'device credentials follow their channel key and channel',
  sql: `
    CREATE FUNCTION notify_device_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR NEW.enabled IS DISTINCT FROM OLD.enabled THEN
        PERFORM pg_notify('device_credentials', coalesce(OLD.id, NEW.id));
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER channel_api_keys_credentials AFTER UPDATE OR DELETE ON channel_api_keys
      FOR EACH ROW EXECUTE FUNCTION notify_device_credentials();
    CREATE TRIGGER channels_credentials AFTER UPDATE OR DELETE ON channels
      FOR EACH ROW EXECUTE FUNCTION notify_device_credentials();
  `,
};
