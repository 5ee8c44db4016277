// Versioned schema migrations, applied in order, each exactly once (see
// migrate.ts). Never edit a migration that has shipped: add a new one.
import { migration003 } from './migrations/003-channels.js';
import { migration004 } from './migrations/004-devices.js';
import { migration005 } from './migrations/005-rules.js';
import { migration006 } from './migrations/006-ingest.js';
import { migration007 } from './migrations/007-ingest-fast-path.js';
import { migration008 } from './migrations/008-events-time-indexes.js';
import { migration009 } from './migrations/009-events-statistics.js';
import { migration010 } from './migrations/010-login-attempts.js';
import { migration011 } from './migrations/011-device-credentials.js';
import { migration012 } from './migrations/012-session-version.js';
import { migration013 } from './migrations/013-webhook-log-scrub.js';
import { migration014 } from './migrations/014-events-partitioned.js';
import { migration015 } from './migrations/015-replicas.js';
import { migration016 } from './migrations/016-rate-buckets.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'platform: invitations, tokens, outbox, channels, schemas, projects, devices, landmarks, rules, events, gateways',
    sql: `
      -- One-time tokens for email verification, password reset and invitations;
      -- only their SHA-256 digests are stored.
      CREATE TABLE account_tokens (
        id               text PRIMARY KEY,
        kind             text NOT NULL CHECK (kind IN ('verify', 'reset', 'invite')),
        token_hash       text NOT NULL UNIQUE,
        user_id          text REFERENCES users(id) ON DELETE CASCADE,
        organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
        email            text NOT NULL,
        role             text CHECK (role IN ('admin', 'project_manager', 'member')),
        created_by       text REFERENCES users(id) ON DELETE SET NULL,
        expires_at       timestamptz NOT NULL,
        used_at          timestamptz,
        revoked_at       timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX account_tokens_org ON account_tokens (organization_id);

      -- Outgoing email: written in the same transaction as what caused it,
      -- sent later (SMTP) or read by an operator (CLI).
      CREATE TABLE outbox_emails (
        id               text PRIMARY KEY,
        organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
        kind             text NOT NULL,
        to_address       text NOT NULL,
        subject          text NOT NULL,
        body             text NOT NULL,
        attempts         integer NOT NULL DEFAULT 0,
        last_error       text,
        next_attempt_at  timestamptz NOT NULL DEFAULT now(),
        sent_at          timestamptz,
        created_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX outbox_emails_pending ON outbox_emails (next_attempt_at) WHERE sent_at IS NULL;

      CREATE TABLE login_throttle (
        email          text PRIMARY KEY,
        failures       integer NOT NULL DEFAULT 0,
        last_failure   timestamptz NOT NULL DEFAULT now(),
        locked_until   timestamptz
      );

      CREATE TABLE schemas (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL,
        type             text NOT NULL DEFAULT 'default',
        format           text NOT NULL DEFAULT 'json',
        fields           jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX schemas_org ON schemas (organization_id);

      CREATE TABLE channels (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL,
        type             text NOT NULL CHECK (type IN ('android', 'ios', 'gateway', 'iot')),
        schema_id        text REFERENCES schemas(id) ON DELETE RESTRICT,
        method           text,
        credentials      jsonb,
        enabled          boolean NOT NULL DEFAULT true,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX channels_org ON channels (organization_id);

      CREATE TABLE channel_api_keys (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id       text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        key_hash         text NOT NULL UNIQUE,
        key_prefix       text NOT NULL,
        enabled          boolean NOT NULL DEFAULT true,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX channel_api_keys_channel ON channel_api_keys (channel_id);

      CREATE TABLE projects (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL,
        enabled          boolean NOT NULL DEFAULT true,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX projects_org ON projects (organization_id);

      CREATE TABLE project_channels (
        project_id       text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        channel_id       text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        PRIMARY KEY (project_id, channel_id)
      );
      CREATE INDEX project_channels_channel ON project_channels (channel_id);

      CREATE TABLE devices (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id       text NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        name             text,
        model            text,
        type             text,
        tags             text[] NOT NULL DEFAULT '{}',
        properties       jsonb NOT NULL DEFAULT '{}'::jsonb,
        sensors          text[] NOT NULL DEFAULT '{}',
        attributes       jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX devices_org_created ON devices (organization_id, created_at DESC);
      CREATE INDEX devices_channel ON devices (channel_id);

      CREATE TABLE device_aliases (
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        device_id        text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        type             text NOT NULL,
        value            text NOT NULL,
        PRIMARY KEY (organization_id, type, value)
      );
      CREATE INDEX device_aliases_device ON device_aliases (device_id);

      -- Landmarks keep their shape in one normalised form (kind + geometry
      -- in the "model" spelling) and its bounding box for spatial lookups.
      CREATE TABLE landmarks (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id       text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name             text NOT NULL,
        address          text,
        tags             text[] NOT NULL DEFAULT '{}',
        attributes       jsonb NOT NULL DEFAULT '{}'::jsonb,
        kind             text NOT NULL CHECK (kind IN ('circle', 'rectangle', 'polygon')),
        geometry         jsonb NOT NULL,
        min_lat          double precision NOT NULL,
        min_lon          double precision NOT NULL,
        max_lat          double precision NOT NULL,
        max_lon          double precision NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX landmarks_org_project ON landmarks (organization_id, project_id);

      CREATE TABLE rules (
        id                   text PRIMARY KEY,
        organization_id      text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        project_id           text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name                 text NOT NULL,
        description          text NOT NULL DEFAULT '',
        type                 text NOT NULL DEFAULT 'cloud',
        enabled              boolean NOT NULL DEFAULT true,
        generator            text NOT NULL DEFAULT 'custom',
        conditions_object    jsonb,
        conditions           text NOT NULL DEFAULT '',
        actions              jsonb NOT NULL DEFAULT '[]'::jsonb,
        properties           jsonb NOT NULL DEFAULT '{}'::jsonb,
        throttle_in_seconds  integer NOT NULL DEFAULT 0,
        channel_ids          text[] NOT NULL DEFAULT '{}',
        gateway_ids          text[] NOT NULL DEFAULT '{}',
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX rules_org_project ON rules (organization_id, project_id);

      CREATE TABLE gateways (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name             text NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        synced_at        timestamptz
      );
      CREATE INDEX gateways_org ON gateways (organization_id);

      -- Device events as ingested: the payload as received (JSON), plus the
      -- columns searches filter on.
      CREATE TABLE events (
        id                  text PRIMARY KEY,
        organization_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel_id          text NOT NULL,
        device_id           text NOT NULL,
        source              text NOT NULL CHECK (source IN ('mobile', 'iot')),
        server_received_at  timestamptz NOT NULL,
        client_sent_at      timestamptz,
        payload             jsonb NOT NULL
      );
      CREATE INDEX events_org_received ON events (organization_id, server_received_at DESC);
      CREATE INDEX events_device_received ON events (device_id, server_received_at DESC);
      CREATE INDEX events_channel_received ON events (channel_id, server_received_at DESC);
    `,
  },
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
];
