// Queries of devices' live connections (migration 023): one row per
// connection open on a replica, counted only while that replica's heartbeat
// is fresh. Every query is scoped to one organization.
import type { Queryable } from './database.js';

export interface DeviceConnectionRow {
  /** the connection's own id */
  id: string;
  deviceId: string;
  organizationId: string;
  replicaId: string;
  clientId: string;
  protocol: 'mqtt';
  /** 3 (3.1), 4 (3.1.1) or 5 */
  protocolVersion: number;
  connectedAt: Date;
}

/** A device's connection as the API shows it. */
export type DeviceConnection = Pick<DeviceConnectionRow, 'protocol' | 'protocolVersion' | 'connectedAt'>;

/**
 * Records a connection (again, after its replica's row was swept and
 * re-registered: the same id is left as it is). Nothing is written when the
 * device is no longer in its organization, or the replica's row is gone: the
 * connection is closing, or will be recorded again when the replica rejoins.
 */
export async function insertDeviceConnection(sql: Queryable, row: DeviceConnectionRow): Promise<void> {
  await sql`
    INSERT INTO device_connections (id, device_id, organization_id, replica_id, client_id, protocol, protocol_version, connected_at)
    SELECT ${row.id}, d.id, d.organization_id, ${row.replicaId}, ${row.clientId}, ${row.protocol}, ${row.protocolVersion}, ${row.connectedAt}
    FROM devices d
    WHERE d.id = ${row.deviceId} AND d.organization_id = ${row.organizationId}
      AND EXISTS (SELECT 1 FROM replicas WHERE id = ${row.replicaId})
    ON CONFLICT (id) DO NOTHING`;
}

export async function deleteDeviceConnection(sql: Queryable, organizationId: string, id: string): Promise<void> {
  await sql`DELETE FROM device_connections WHERE id = ${id} AND organization_id = ${organizationId}`;
}

/**
 * The live connection of each of the organization's `deviceIds` that has
 * one, in one query: a row counts while its replica's heartbeat is within
 * `staleSeconds` (a dead replica's rows wait for the sweep, never read as
 * connected). A device with several (two replicas, or a client id being
 * taken over) answers its earliest: connected since then.
 */
export async function liveDeviceConnections(
  sql: Queryable,
  organizationId: string,
  deviceIds: readonly string[],
  staleSeconds: number,
): Promise<Map<string, DeviceConnection>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await sql<Array<DeviceConnection & { deviceId: string }>>`
    SELECT DISTINCT ON (c.device_id) c.device_id, c.protocol, c.protocol_version, c.connected_at
    FROM device_connections c
    JOIN replicas r ON r.id = c.replica_id AND r.heartbeat_at >= now() - make_interval(secs => ${staleSeconds})
    WHERE c.organization_id = ${organizationId} AND c.device_id = ANY(${sql.array(deviceIds as string[], 25)})
    ORDER BY c.device_id, c.connected_at, c.id`;
  return new Map(rows.map(({ deviceId, ...connection }) => [deviceId, connection]));
}
