// Commands down to devices (device_commands, migration 022): inserted by the
// rules' `mqtt` action in its job's transaction, claimed under a lease by
// the connection that sends them, marked delivered on the device's PUBACK
// (or at write, QoS 0), released when the connection drops first, and
// abandoned past their time (or when larger than the device takes). Each step that the delivery log shows writes its
// action_deliveries row in the same statement; those rows are keyed
// `<command id>-<step>`, so a step logged twice is one row.
import type { Queryable } from './database.js';

export interface NewDeviceCommand {
  id: string;
  organizationId: string;
  deviceId: string;
  ruleId: string | null;
  actionId: string;
  jobId: string;
  topic: string;
  payload: Buffer;
  contentType: string;
  qos: 0 | 1;
  expiresInSeconds: number;
}

/** A command as its connection sends it. */
export interface DeviceCommandRow {
  id: string;
  topic: string;
  payload: Buffer;
  contentType: string;
  qos: 0 | 1;
  /** sends so far, this one included: over 1 is a retransmission (DUP) */
  attempts: number;
}

/** What the delivery log shows of a command's steps (action_deliveries.request). */
const LOGGED_REQUEST = `jsonb_build_object('commandId', id, 'topic', topic, 'qos', qos)`;

/**
 * The command, if its device is the organization's (else nothing is
 * written), with its 'queued' row in the delivery log; true when written.
 */
export async function insertDeviceCommand(sql: Queryable, c: NewDeviceCommand): Promise<boolean> {
  const rows = await sql`
    WITH inserted AS (
      INSERT INTO device_commands (id, organization_id, device_id, rule_id, action_id, job_id, topic, payload, content_type, qos, expires_at)
      SELECT ${c.id}, ${c.organizationId}, id, ${c.ruleId}, ${c.actionId}, ${c.jobId}, ${c.topic}, ${c.payload},
             ${c.contentType}, ${c.qos}, now() + make_interval(secs => ${c.expiresInSeconds})
      FROM devices WHERE id = ${c.deviceId} AND organization_id = ${c.organizationId}
      RETURNING id, job_id, organization_id, topic, qos, created_at
    )
    INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
    SELECT id || '-queued', job_id, organization_id, 0, created_at, 0, 'queued', NULL, NULL, ${sql.unsafe(LOGGED_REQUEST)}
    FROM inserted RETURNING id`;
  return rows.length > 0;
}

/** The wake-up of the replica holding the device's connection (NOTIFY device_commands, the device id). */
export async function notifyDeviceCommands(sql: Queryable, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await sql`SELECT pg_notify('device_commands', d) FROM unnest(${deviceIds as string[]}::text[]) AS d`;
}

/**
 * Claims the device's pending, unexpired commands that no live lease holds,
 * oldest first: at most `limit`, and past the first, no more than `byteBudget`
 * bytes of payload and topic. Each is leased to `holder` for `leaseSeconds`
 * and counted as sent; one sent as QoS 0 is delivered at once (at most
 * once: it is never sent again) and logged 'success'.
 */
export async function claimDeviceCommands(
  sql: Queryable,
  c: {
    organizationId: string;
    deviceId: string;
    holder: string;
    limit: number;
    byteBudget: number;
    leaseSeconds: number;
    /** the subscription's QoS: a QoS 1 command to a QoS 0 subscription is sent, and delivered, as QoS 0 */
    maxQos: 0 | 1;
  },
): Promise<DeviceCommandRow[]> {
  return sql<DeviceCommandRow[]>`
    WITH locked AS (
      SELECT id, octet_length(payload) + octet_length(topic) AS bytes FROM device_commands
      WHERE organization_id = ${c.organizationId} AND device_id = ${c.deviceId}
        AND delivered_at IS NULL AND abandoned_at IS NULL AND expires_at > now()
        AND (leased_until IS NULL OR leased_until < now())
      ORDER BY id LIMIT ${c.limit} FOR UPDATE SKIP LOCKED
    ), picked AS (
      SELECT id FROM (SELECT id, sum(bytes) OVER (ORDER BY id) - bytes AS before FROM locked) w
      WHERE before < ${c.byteBudget}
    ), claimed AS (
      UPDATE device_commands d SET attempts = attempts + 1, sent_at = now(),
        leased_by = ${c.holder}, leased_until = now() + make_interval(secs => ${c.leaseSeconds}),
        delivered_at = CASE WHEN least(qos, ${c.maxQos}) = 0 THEN now() END
      FROM picked WHERE d.id = picked.id
      RETURNING d.id, d.job_id, d.organization_id, d.topic, d.payload, d.content_type, least(d.qos, ${c.maxQos}) AS qos, d.attempts
    ), logged AS (
      INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
      SELECT id || '-delivered', job_id, organization_id, attempts, now(), 0, 'success', NULL, NULL, ${sql.unsafe(LOGGED_REQUEST)}
      FROM claimed WHERE qos = 0
      ON CONFLICT (id) DO NOTHING
    )
    SELECT id, topic, payload, content_type, qos, attempts FROM claimed ORDER BY id`;
}

/** The device's PUBACK: the command delivered and logged 'success' (once); false when it already was. */
export async function acknowledgeDeviceCommand(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await sql`
    WITH done AS (
      UPDATE device_commands SET delivered_at = now(), leased_by = NULL, leased_until = NULL
      WHERE id = ${id} AND organization_id = ${organizationId} AND delivered_at IS NULL
      RETURNING id, job_id, organization_id, topic, qos, attempts, sent_at
    )
    INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
    SELECT id || '-delivered', job_id, organization_id, attempts, sent_at,
           greatest(0, (extract(epoch FROM now() - sent_at) * 1000)::int), 'success', NULL, NULL, ${sql.unsafe(LOGGED_REQUEST)}
    FROM done ON CONFLICT (id) DO NOTHING RETURNING id`;
  return rows.length > 0;
}

/**
 * The commands `holder` sent and the device never acknowledged (its
 * connection closed): leased no more, so the device's next subscription
 * gets them again, each attempt logged 'retry'. Answers their devices.
 */
export async function releaseDeviceCommands(sql: Queryable, holder: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<Array<{ deviceId: string }>>`
    WITH released AS (
      UPDATE device_commands SET leased_by = NULL, leased_until = NULL
      WHERE id = ANY(${ids as string[]}::text[]) AND leased_by = ${holder} AND delivered_at IS NULL
      RETURNING id, job_id, organization_id, device_id, topic, qos, attempts, sent_at
    ), logged AS (
      INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
      SELECT id || '-retry-' || attempts, job_id, organization_id, attempts, sent_at,
             greatest(0, (extract(epoch FROM now() - sent_at) * 1000)::int), 'retry', NULL,
             'the connection closed before the PUBACK: sent again when the device subscribes', ${sql.unsafe(LOGGED_REQUEST)}
      FROM released ON CONFLICT (id) DO NOTHING
    )
    SELECT DISTINCT device_id FROM released`;
  return rows.map((r) => r.deviceId);
}

/**
 * Marks up to `limit` undelivered commands past their time expired (of one
 * device, or of every device), each logged 'failure': they are never sent.
 * A command out on a live lease waits for its PUBACK or the lease's end.
 * Answers how many.
 */
export async function expireDeviceCommands(
  sql: Queryable,
  deviceId: string | undefined,
  limit: number,
): Promise<number> {
  const rows = await sql`
    WITH expired AS (
      UPDATE device_commands SET abandoned_at = now()
      WHERE id IN (
        SELECT id FROM device_commands
        WHERE delivered_at IS NULL AND abandoned_at IS NULL AND expires_at <= now()
          AND (leased_until IS NULL OR leased_until < now())
          ${deviceId === undefined ? sql`` : sql`AND device_id = ${deviceId}`}
        ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      RETURNING id, job_id, organization_id, topic, qos, attempts, expires_at
    )
    INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
    SELECT id || '-expired', job_id, organization_id, attempts, expires_at, 0, 'failure', NULL,
           'expired before the device acknowledged it: never sent again', ${sql.unsafe(LOGGED_REQUEST)}
    FROM expired ON CONFLICT (id) DO NOTHING RETURNING id`;
  return rows.length;
}

/**
 * A command the device cannot take (MQTT 5: larger than the maximum packet
 * size its CONNECT gave), abandoned as MQTT 5 has it (discarded as if sent)
 * and logged 'failure' with `reason`; never sent again.
 */
export async function abandonDeviceCommand(
  sql: Queryable,
  organizationId: string,
  id: string,
  reason: string,
): Promise<void> {
  await sql`
    WITH abandoned AS (
      UPDATE device_commands SET abandoned_at = now(), leased_by = NULL, leased_until = NULL
      WHERE id = ${id} AND organization_id = ${organizationId} AND delivered_at IS NULL AND abandoned_at IS NULL
      RETURNING id, job_id, organization_id, topic, qos, attempts
    )
    INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request)
    SELECT id || '-abandoned', job_id, organization_id, attempts, now(), 0, 'failure', NULL, ${reason}, ${sql.unsafe(LOGGED_REQUEST)}
    FROM abandoned ON CONFLICT (id) DO NOTHING`;
}

/**
 * Which of these devices (those with a subscribed connection here) have a
 * command that could be claimed now: the safety net for a NOTIFY missed
 * and for a lease that ran out on a replica that died. Device ids are the
 * authenticated connections' own, unique across organizations.
 */
export async function devicesWithClaimableCommands(sql: Queryable, deviceIds: readonly string[]): Promise<string[]> {
  if (deviceIds.length === 0) return [];
  const rows = await sql<Array<{ deviceId: string }>>`
    SELECT DISTINCT device_id FROM device_commands
    WHERE device_id = ANY(${deviceIds as string[]}::text[])
      AND delivered_at IS NULL AND abandoned_at IS NULL AND expires_at > now()
      AND (leased_until IS NULL OR leased_until < now())`;
  return rows.map((r) => r.deviceId);
}
