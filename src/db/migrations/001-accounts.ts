// The first schema: organizations, users and their memberships, inference API
// keys, models and their versions.
import type { Migration } from '../migrations.js';

export const migration001: Migration = {
  version: 1,
  name: 'accounts, inference keys, models',
  sql: `
      CREATE TABLE organizations (
        id          text PRIMARY KEY,
        name        text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE users (
        id              text PRIMARY KEY,
        email           text NOT NULL UNIQUE,
        name            text NOT NULL,
        password_hash   text,
        verified_email  boolean NOT NULL DEFAULT false,
        locale          jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE memberships (
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role             text NOT NULL CHECK (role IN ('admin', 'project_manager', 'member')),
        created_at       timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE INDEX memberships_user ON memberships (user_id);

      -- Inference API keys: only a SHA-256 digest is stored. Keys are 256-bit
      -- random strings, so a fast digest is safe (no dictionary to attack) and
      -- lets every predict request authenticate in microseconds.
      CREATE TABLE inference_api_keys (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL DEFAULT '',
        key_hash         text NOT NULL UNIQUE,
        key_prefix       text NOT NULL,
        enabled          boolean NOT NULL DEFAULT true,
        created_by       text REFERENCES users(id) ON DELETE SET NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX inference_api_keys_org ON inference_api_keys (organization_id);

      -- Servers keep the keys in memory to authenticate predict without a
      -- query; this tells every server sharing the database to reload them.
      CREATE FUNCTION notify_inference_api_keys() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('inference_api_keys', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER inference_api_keys_changed
        AFTER INSERT OR UPDATE OR DELETE ON inference_api_keys
        FOR EACH STATEMENT EXECUTE FUNCTION notify_inference_api_keys();

      CREATE TABLE models (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL,
        description      text NOT NULL DEFAULT '',
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX models_org ON models (organization_id);

      -- A version is a directory with model.onnx + model.json. Public versions
      -- (the bundled demo) answer any organization's inference key.
      CREATE TABLE model_versions (
        id               text PRIMARY KEY,
        model_id         text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        version          integer NOT NULL,
        directory        text NOT NULL,
        config           jsonb NOT NULL,
        public           boolean NOT NULL DEFAULT false,
        status           text NOT NULL DEFAULT 'Initializing' CHECK (status IN ('Initializing', 'Active', 'Failed')),
        status_reason    text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        UNIQUE (model_id, version)
      );
      CREATE INDEX model_versions_org ON model_versions (organization_id);

      -- Every server sharing the database deploys a version when it is
      -- inserted (upload, CLI) and unloads it when it is deleted.
      CREATE FUNCTION notify_model_versions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('model_versions', TG_OP || ':' || coalesce(NEW.id, OLD.id));
        RETURN NULL;
      END $$;
      CREATE TRIGGER model_versions_changed
        AFTER INSERT OR DELETE ON model_versions
        FOR EACH ROW EXECUTE FUNCTION notify_model_versions();
    `,
};
