// Device ingestion: idempotent events, device state, rule throttling, the
// durable action queue with its delivery log, push notifications and SMS.
import type { Migration } from '../migrations.js';

export const migration006: Migration = {
  version: 6,
  name: 'ingestion: event idempotency, device state, action queue, notifications, sms outbox',
  sql: `
    -- A retry of an event is stored once: the key is the client's
    -- Idempotency-Key, or a digest of device, client timestamp and payload.
    ALTER TABLE events ADD COLUMN dedup_key text NOT NULL DEFAULT '';
    -- The foreign key to organizations cost ~11 µs per inserted event (a
    -- lookup per row) on the ingestion hot path; deleting an organization
    -- deletes its events explicitly instead (db/accounts.ts).
    ALTER TABLE events DROP CONSTRAINT events_organization_id_fkey;
    ALTER TABLE events ALTER COLUMN dedup_key DROP DEFAULT;
    CREATE UNIQUE INDEX events_device_dedup ON events (device_id, dedup_key);

    -- What the rules engine compares a new event with.
    ALTER TABLE devices
      ADD COLUMN last_seen_at  timestamptz,
      ADD COLUMN state         jsonb NOT NULL DEFAULT '{}'::jsonb;

    -- Servers cache which devices exist (to authenticate device tokens
    -- without a query per event); a deleted device must stop at once.
    CREATE FUNCTION notify_device_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('devices_deleted', OLD.id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER devices_deleted AFTER DELETE ON devices FOR EACH ROW EXECUTE FUNCTION notify_device_deleted();

    -- The rules engine keeps each organization's rules in memory; this tells
    -- every server which organization's rules (or project channels) changed.
    CREATE FUNCTION notify_rules() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('rules', coalesce(NEW.organization_id, OLD.organization_id));
      RETURN NULL;
    END $$;
    CREATE TRIGGER rules_changed AFTER INSERT OR UPDATE OR DELETE ON rules
      FOR EACH ROW EXECUTE FUNCTION notify_rules();
    CREATE FUNCTION notify_project_channels() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('rules', p.organization_id) FROM projects p WHERE p.id = coalesce(NEW.project_id, OLD.project_id);
      RETURN NULL;
    END $$;
    CREATE TRIGGER project_channels_changed AFTER INSERT OR DELETE ON project_channels
      FOR EACH ROW EXECUTE FUNCTION notify_project_channels();

    CREATE TABLE rule_throttle (
      rule_id        text NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
      device_id      text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
      last_fired_at  timestamptz NOT NULL,
      PRIMARY KEY (rule_id, device_id)
    );

    -- Fired actions, written in the same commit as the event that fired
    -- them and executed after the acknowledgement: a crash loses none.
    CREATE TABLE action_jobs (
      id               text PRIMARY KEY,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      rule_id          text REFERENCES rules(id) ON DELETE SET NULL,
      action_id        text NOT NULL,
      device_id        text,
      event_id         text,
      type             text NOT NULL,
      action           jsonb NOT NULL,
      context          jsonb NOT NULL,
      status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts         integer NOT NULL DEFAULT 0,
      next_attempt_at  timestamptz NOT NULL DEFAULT now(),
      last_error       text,
      created_at       timestamptz NOT NULL DEFAULT now(),
      finished_at      timestamptz
    );
    CREATE INDEX action_jobs_due ON action_jobs (next_attempt_at) WHERE status = 'pending';
    CREATE INDEX action_jobs_org_rule ON action_jobs (organization_id, rule_id, created_at DESC);

    CREATE TABLE action_deliveries (
      id               text PRIMARY KEY,
      job_id           text NOT NULL REFERENCES action_jobs(id) ON DELETE CASCADE,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      attempt          integer NOT NULL,
      started_at       timestamptz NOT NULL,
      duration_ms      integer NOT NULL,
      outcome          text NOT NULL CHECK (outcome IN ('success', 'retry', 'failure')),
      status_code      integer,
      error            text,
      request          jsonb NOT NULL DEFAULT '{}'::jsonb,
      response         text
    );
    CREATE INDEX action_deliveries_job ON action_deliveries (job_id, attempt);

    CREATE TABLE notifications (
      id               text PRIMARY KEY,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      device_id        text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
      rule_id          text,
      action_id        text,
      payload          jsonb NOT NULL,
      created_at       timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_device ON notifications (device_id, created_at);

    CREATE TABLE outbox_sms (
      id               text PRIMARY KEY,
      organization_id  text REFERENCES organizations(id) ON DELETE CASCADE,
      to_number        text NOT NULL,
      body             text NOT NULL,
      sent_at          timestamptz,
      created_at       timestamptz NOT NULL DEFAULT now()
    );
  `,
};
