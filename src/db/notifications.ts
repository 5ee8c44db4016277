// Push notifications of devices: written by push actions, read by the
// devices (GET /v1/mobile/notifications).
import type { Queryable } from './database.js';

/** A notification for the device, if the device is the organization's (else nothing is written). */
export async function insertDeviceNotification(
  sql: Queryable,
  n: {
    id: string;
    organizationId: string;
    deviceId: string;
    ruleId: string | null;
    actionId: string;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  await sql`
            INSERT INTO notifications (id, organization_id, device_id, rule_id, action_id, payload)
            SELECT ${n.id}, ${n.organizationId}, id, ${n.ruleId}, ${n.actionId}, ${sql.json(n.payload as Parameters<Queryable['json']>[0])}
            FROM devices WHERE id = ${n.deviceId} AND organization_id = ${n.organizationId}`;
}

export interface NotificationRow {
  id: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  ruleId: string | null;
  actionId: string | null;
}

/** The device's notifications created in [from, to], oldest first, at most `limit`. */
export async function listDeviceNotifications(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<NotificationRow[]> {
  return sql<NotificationRow[]>`
      SELECT id, payload, created_at, rule_id, action_id FROM notifications
      WHERE device_id = ${deviceId} AND organization_id = ${organizationId}
        AND created_at >= ${from} AND created_at <= ${to}
      ORDER BY created_at, id LIMIT ${limit}`;
}
