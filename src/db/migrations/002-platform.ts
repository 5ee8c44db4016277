// The device-data platform's first schema: account tokens, the email outbox,
// login throttling, schemas, channels and their keys, projects, devices,
// landmarks, rules, gateways and events.
import type { Migration } from '../migrations.js';

export const migration002: Migration = {
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
};
