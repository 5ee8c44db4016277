// Devices (Gen B; docs/CONTRACT.md#v2-resources) as the management API sees them: made
// in a channel of the organization, read, changed, searched and deleted
// there. Devices that register themselves through the ingestion API are made
// by ingest/ (registerDevice in db/devices.ts).
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/devices.js';
import type { DeviceRow, DeviceSearch } from '../db/devices.js';
import { found, invalid, notFound } from '../errors.js';
import { deviceConnections, type DeviceConnection } from './presence.js';

export { DEVICE_SORT_FIELDS } from '../db/devices.js';

/** A device with its live connection (presence.ts): null when it has none open on a live replica. */
export type Device = DeviceRow & { connection: DeviceConnection | null };

/** The last location as the API shows it: numbers only, whatever an older state holds. */
function presentLocation(
  raw: unknown,
): { latitude: number; longitude: number; accuracy?: number; timestamp?: number } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const l = raw as Record<string, unknown>;
  if (typeof l.latitude !== 'number' || typeof l.longitude !== 'number') return null;
  return {
    latitude: l.latitude,
    longitude: l.longitude,
    ...(typeof l.accuracy === 'number' && { accuracy: l.accuracy }),
    ...(typeof l.timestamp === 'number' && { timestamp: l.timestamp }),
  };
}

/** The public view of a device. */
export function presentDevice(d: Device) {
  return {
    id: d.id,
    name: d.name,
    model: d.model,
    type: d.type,
    sensors: d.sensors,
    channelId: d.channelId,
    organizationId: d.organizationId,
    tags: d.tags,
    properties: d.properties,
    attributes: d.attributes,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    lastSeenAt: d.lastSeenAt,
    lastLocation: presentLocation(d.lastLocation),
    insideLandmarkIds: Array.isArray(d.inside) ? d.inside.filter((id): id is string => typeof id === 'string') : [],
    camera: d.camera,
    connection: d.connection && {
      protocol: d.connection.protocol,
      connectedAt: d.connection.connectedAt,
      protocolVersion: d.connection.protocolVersion,
    },
  };
}

export interface DeviceInput {
  channelId: string;
  name?: string | undefined;
  model?: string | undefined;
  type?: string | undefined;
  tags?: string[] | undefined;
}

/** What PATCH may change: null clears name, model and type; tags are replaced. */
export interface DeviceUpdate {
  name?: string | null | undefined;
  model?: string | null | undefined;
  type?: string | null | undefined;
  tags?: string[] | undefined;
}

const distinct = (tags: readonly string[] | undefined) => tags && [...new Set(tags)];

/** Devices of an organization, as the management API sees them. */
export class DeviceService {
  constructor(private readonly sql: Sql) {}

  async create(organizationId: string, input: DeviceInput): Promise<Device> {
    if (!(await db.channelInOrganization(this.sql, organizationId, input.channelId))) {
      throw invalid('invalid request body', 'channelId: no such channel in this organization');
    }
    const row = await db.insertDevice(this.sql, {
      id: newId(),
      organizationId,
      channelId: input.channelId,
      name: input.name,
      model: input.model,
      type: input.type,
      tags: distinct(input.tags) ?? [],
    });
    return { ...row, connection: null }; // no token has been issued for it yet: it cannot be connected
  }

  async get(organizationId: string, id: string): Promise<Device> {
    const [device] = await this.withConnections(organizationId, [
      found(await db.findDevice(this.sql, organizationId, id), 'device'),
    ]);
    return device!;
  }

  async change(organizationId: string, id: string, update: DeviceUpdate): Promise<Device> {
    const changes = { name: update.name, model: update.model, type: update.type, tags: distinct(update.tags) };
    const [device] = await this.withConnections(organizationId, [
      found(await db.updateDevice(this.sql, organizationId, id, changes), 'device'),
    ]);
    return device!;
  }

  /** Deletes a device with its aliases. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await db.deleteDevice(this.sql, organizationId, id))) throw notFound('device not found');
  }

  async search(organizationId: string, search: DeviceSearch) {
    const page = await db.searchDevices(this.sql, organizationId, search);
    return { ...page, rows: await this.withConnections(organizationId, page.rows) };
  }

  /** The devices with their connections, read for all of them in one query (a page adds one, not one per device). */
  private async withConnections(organizationId: string, rows: DeviceRow[]): Promise<Device[]> {
    const connections = await deviceConnections(
      this.sql,
      organizationId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, connection: connections.get(row.id) ?? null }));
  }

  /** The id of the device of the organization holding an alias (a phone number, say). */
  async idByAlias(organizationId: string, type: string, value: string): Promise<string> {
    return found(await db.findDeviceIdByAlias(this.sql, organizationId, type, value), 'device');
  }
}
