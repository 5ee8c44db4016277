// Commands down to devices (the rules' `mqtt` action): each one a row,
// written in the same transaction as its action job's completion, so a
// crash can neither lose nor repeat it; sent by the replica that holds a
// connection of the device subscribed to its commands topic, under a lease
// (leased_by, leased_until) so that two replicas never send it at once, and
// kept until the device acknowledges it or it expires. The delivery log
// (action_deliveries) gains 'queued': a command stored for its device.
import type { Migration } from '../migrations.js';

export const migration022: Migration = {
  version: 22,
  name: 'device commands',
  sql: `
    CREATE TABLE device_commands (
      id               text PRIMARY KEY,
      organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      device_id        text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
      rule_id          text REFERENCES rules(id) ON DELETE SET NULL,
      action_id        text NOT NULL,
      job_id           text NOT NULL REFERENCES action_jobs(id) ON DELETE CASCADE,
      topic            text NOT NULL,
      payload          bytea NOT NULL,
      -- the MQTT 5 content type: application/json or text/plain
      content_type     text NOT NULL,
      qos              smallint NOT NULL CHECK (qos IN (0, 1)),
      created_at       timestamptz NOT NULL DEFAULT now(),
      expires_at       timestamptz NOT NULL,
      delivered_at     timestamptz,
      -- set once the command is given up (expired, or larger than the device
      -- takes) and its failure logged: it is never sent again
      abandoned_at     timestamptz,
      -- how many times it was written to a connection
      attempts         integer NOT NULL DEFAULT 0,
      -- when it was last written to a connection
      sent_at          timestamptz,
      -- the connection sending it, until leased_until
      leased_by        text,
      leased_until     timestamptz
    );
    -- a device's pending commands, oldest first; and the expiry sweep's
    CREATE INDEX device_commands_pending ON device_commands (device_id, id)
      WHERE delivered_at IS NULL AND abandoned_at IS NULL;
    CREATE INDEX device_commands_expiry ON device_commands (expires_at)
      WHERE delivered_at IS NULL AND abandoned_at IS NULL;
    CREATE INDEX device_commands_job ON device_commands (job_id);

    ALTER TABLE action_deliveries DROP CONSTRAINT action_deliveries_outcome_check;
    ALTER TABLE action_deliveries ADD CONSTRAINT action_deliveries_outcome_check
      CHECK (outcome IN ('success', 'retry', 'failure', 'queued'));
  `,
};
