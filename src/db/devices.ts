// Queries of devices and their aliases. Every query is scoped to one
// organization.
//
// jsonb columns (properties, attributes) are read as text and parsed here:
// the connection's camelCase transform would otherwise rename the keys of
// user data (`os_version` → `osVersion`).
import { newId } from '../ids.js';
import type { Queryable } from './database.js';

export interface DeviceRow {
  id: string;
  organizationId: string;
  channelId: string;
  name: string | null;
  model: string | null;
  type: string | null;
  tags: string[];
  sensors: string[];
  properties: Record<string, unknown>;
  attributes: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
  /** when its last event arrived; null before any */
  lastSeenAt: Date | null;
  /** what ingestion keeps of it (db/device-state.ts): state.lastLocation, the newest location its events carried */
  lastLocation: unknown;
  /** state.inside: the landmarks that location is inside */
  inside: unknown;
  /** whether it has a vision profile (db/device-vision.ts): a camera */
  camera: boolean;
}

type RawDeviceRow = Omit<DeviceRow, 'properties' | 'attributes' | 'lastLocation' | 'inside'> & {
  properties: string;
  attributes: string;
  lastLocation: string | null;
  inside: string | null;
};

// JSON as text: the connection's camelCase transform would rename the keys inside
const columns = (sql: Queryable) =>
  sql`id, organization_id, channel_id, name, model, type, tags, sensors,
      properties::text AS properties, attributes::text AS attributes, created_at, updated_at,
      last_seen_at, (state->'lastLocation')::text AS last_location, (state->'inside')::text AS inside,
      EXISTS (SELECT 1 FROM device_vision WHERE device_vision.device_id = devices.id) AS camera`;

const toDevice = (row: RawDeviceRow): DeviceRow => ({
  ...row,
  properties: JSON.parse(row.properties) as Record<string, unknown>,
  attributes: JSON.parse(row.attributes) as Record<string, unknown>,
  lastLocation: row.lastLocation === null ? null : (JSON.parse(row.lastLocation) as unknown),
  inside: row.inside === null ? null : (JSON.parse(row.inside) as unknown),
});

/** Whether the channel exists in the organization. */
export async function channelInOrganization(
  sql: Queryable,
  organizationId: string,
  channelId: string,
): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM channels WHERE id = ${channelId} AND organization_id = ${organizationId}`;
  return rows.length > 0;
}

export interface NewDevice {
  id: string;
  organizationId: string;
  channelId: string;
  name?: string | null;
  model?: string | null;
  type?: string | null;
  tags?: string[];
  sensors?: string[];
  properties?: Record<string, unknown>;
  attributes?: Record<string, unknown>;
}

export async function insertDevice(sql: Queryable, device: NewDevice): Promise<DeviceRow> {
  const [row] = await sql<RawDeviceRow[]>`
    INSERT INTO devices (id, organization_id, channel_id, name, model, type, tags, sensors, properties, attributes)
    VALUES (${device.id}, ${device.organizationId}, ${device.channelId}, ${device.name ?? null}, ${device.model ?? null},
            ${device.type ?? null}, ${sql.array(device.tags ?? [], 25)}, ${sql.array(device.sensors ?? [], 25)},
            ${sql.json((device.properties ?? {}) as never)}, ${sql.json((device.attributes ?? {}) as never)})
    RETURNING ${columns(sql)}`;
  return toDevice(row!);
}

export async function findDevice(sql: Queryable, organizationId: string, id: string): Promise<DeviceRow | undefined> {
  const [row] = await sql<RawDeviceRow[]>`
    SELECT ${columns(sql)} FROM devices WHERE id = ${id} AND organization_id = ${organizationId}`;
  return row && toDevice(row);
}

/**
 * Whether a device token still holds: its device exists, its channel is
 * enabled, and the channel key that registered it is enabled (tokens from
 * before keys were recorded in them, `keyId` undefined: some key of the
 * channel still is).
 */
export async function deviceCredentialsValid(
  sql: Queryable,
  claims: { organizationId: string; deviceId: string; channelId: string; keyId?: string | undefined },
): Promise<boolean> {
  const { organizationId, deviceId, channelId, keyId } = claims;
  const [row] = await sql<[{ valid: boolean }?]>`
    SELECT EXISTS (SELECT 1 FROM devices WHERE id = ${deviceId} AND organization_id = ${organizationId})
       AND EXISTS (SELECT 1 FROM channels WHERE id = ${channelId} AND organization_id = ${organizationId} AND enabled)
       AND EXISTS (SELECT 1 FROM channel_api_keys
                   WHERE channel_id = ${channelId} AND organization_id = ${organizationId} AND enabled
                     AND (${keyId ?? null}::text IS NULL OR id = ${keyId ?? null})) AS valid`;
  return row?.valid === true;
}

export type DeviceChanges = Partial<
  Pick<DeviceRow, 'name' | 'model' | 'type' | 'tags' | 'sensors' | 'properties' | 'attributes'>
>;

/** Applies the given changes (undefined fields are left alone); undefined if the device is not in the organization. */
export async function updateDevice(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: DeviceChanges,
): Promise<DeviceRow | undefined> {
  const set: Record<string, unknown> = {};
  for (const key of ['name', 'model', 'type'] as const) if (changes[key] !== undefined) set[key] = changes[key];
  for (const key of ['tags', 'sensors'] as const)
    if (changes[key] !== undefined) set[key] = sql.array(changes[key]!, 25);
  for (const key of ['properties', 'attributes'] as const)
    if (changes[key] !== undefined) set[key] = sql.json(changes[key] as never);
  if (Object.keys(set).length === 0) return findDevice(sql, organizationId, id);
  const [row] = await sql<RawDeviceRow[]>`
    UPDATE devices SET ${sql(set)}, updated_at = now()
    WHERE id = ${id} AND organization_id = ${organizationId}
    RETURNING ${columns(sql)}`;
  return row && toDevice(row);
}

export async function deleteDevice(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM devices WHERE id = ${id} AND organization_id = ${organizationId}`).count > 0;
}

/**
 * Search filter (POST /v2/devices/search `filter`), every key optional, all given keys must match:
 *   name   substring of the name, case-insensitive
 *   tags   the device has at least one of these tags
 *   type   the type, exactly
 *   model  the model, exactly
 *   ids    one of these device ids
 */
interface DeviceFilter {
  name?: string;
  tags?: string[];
  type?: string;
  model?: string;
  ids?: string[];
}

export const DEVICE_SORT_FIELDS = ['createdAt', 'updatedAt', 'name'] as const;
type DeviceSortField = (typeof DEVICE_SORT_FIELDS)[number];

export interface DeviceSearch {
  /** scope: devices of this channel */
  channelId?: string;
  /** scope: devices of the channels attached to this project */
  projectId?: string;
  filter: DeviceFilter;
  limit: number;
  offset: number;
  sort: { field: DeviceSortField; order: 'asc' | 'desc' };
}

const SORT_COLUMNS: Record<DeviceSortField, string> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
};

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
export const likeSubstring = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of the organization's devices. `total` counts the devices in the
 * scope (organization, channelId, projectId); `filteredTotal` those that
 * also match the filter.
 */
export async function searchDevices(
  sql: Queryable,
  organizationId: string,
  search: DeviceSearch,
): Promise<{ rows: DeviceRow[]; total: number; filteredTotal: number }> {
  const f = search.filter;
  const scope = sql`
    organization_id = ${organizationId}
    ${search.channelId ? sql`AND channel_id = ${search.channelId}` : sql``}
    ${search.projectId ? sql`AND channel_id IN (SELECT channel_id FROM project_channels WHERE project_id = ${search.projectId})` : sql``}`;
  const filter = sql`TRUE
    ${f.name !== undefined ? sql`AND name ILIKE ${likeSubstring(f.name)}` : sql``}
    ${f.tags?.length ? sql`AND tags && ${sql.array(f.tags, 25)}` : sql``}
    ${f.type !== undefined ? sql`AND type = ${f.type}` : sql``}
    ${f.model !== undefined ? sql`AND model = ${f.model}` : sql``}
    ${f.ids ? sql`AND id = ANY(${sql.array(f.ids, 25)})` : sql``}`;
  const order = search.sort.order === 'asc' ? sql`ASC` : sql`DESC`;
  const [counts] = await sql<[{ total: number; filteredTotal: number }]>`
    SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${filter}))::int AS filtered_total
    FROM devices WHERE ${scope}`;
  const rows = await sql<RawDeviceRow[]>`
    SELECT ${columns(sql)} FROM devices WHERE ${scope} AND ${filter}
    ORDER BY ${sql(SORT_COLUMNS[search.sort.field])} ${order} NULLS LAST, id ${order}
    LIMIT ${search.limit} OFFSET ${search.offset}`;
  return { rows: rows.map(toDevice), total: counts.total, filteredTotal: counts.filteredTotal };
}

// ---------------------------------------------------------------------------
// Aliases and registration

/**
 * Alias types and values as stored and looked up. Phone-number aliases
 * arrive under several keys (`phone_number` from the iOS SDK, `tel` in the
 * lookup API): they are all stored as `tel`, the value without spaces,
 * dashes, dots or parentheses. Other types are kept as given (trimmed).
 */
function normaliseAlias(type: string, value: string): { type: string; value: string } {
  const t = type.trim();
  if (/^(tel|phone|phone_?number|phoneNumber|telephone(_?number)?|msisdn)$/i.test(t)) {
    return { type: 'tel', value: value.trim().replace(/[\s\-.()]/g, '') };
  }
  return { type: t, value: value.trim() };
}

export async function findDeviceIdByAlias(
  sql: Queryable,
  organizationId: string,
  type: string,
  value: string,
): Promise<string | undefined> {
  const alias = normaliseAlias(type, value);
  const [row] = await sql<[{ deviceId: string }?]>`
    SELECT device_id FROM device_aliases
    WHERE organization_id = ${organizationId} AND type = ${alias.type} AND value = ${alias.value}`;
  return row?.deviceId;
}

export async function listDeviceAliases(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
): Promise<Array<{ type: string; value: string }>> {
  return sql<Array<{ type: string; value: string }>>`
    SELECT type, value FROM device_aliases
    WHERE organization_id = ${organizationId} AND device_id = ${deviceId} ORDER BY type, value`;
}

export interface DeviceRegistration {
  organizationId: string;
  channelId: string;
  /** RegistrationRequest.properties: manufacturer, model, os, osVersion, softwareVersion, type, name?, … */
  properties: Record<string, unknown>;
  sensors: string[];
  /** RegistrationRequest.aliases, e.g. {"phone_number": "+1 555 0100"}; or a list of {type, value} */
  aliases?: Record<string, string> | ReadonlyArray<{ type: string; value: string }>;
}

/**
 * Creates a device at registration (ingestion API), with its properties,
 * sensors and aliases, in one transaction (a savepoint when `sql` is already
 * a transaction). The device's name, model and type come from the properties
 * of the same names when they are strings.
 *
 * Aliases are unique per organization + type + value. A registration that
 * brings an alias another device holds takes it over: the alias moves to the
 * new device (a re-installed app registers as a new device, and lookups must
 * find the one in use). The old device is kept, with its other aliases.
 * Empty alias values are ignored. The caller checks that the channel belongs
 * to the organization.
 */
export async function registerDevice(sql: Queryable, registration: DeviceRegistration): Promise<DeviceRow> {
  const work = async (tx: Queryable): Promise<DeviceRow> => {
    const p = registration.properties;
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 256) : null);
    const device = await insertDevice(tx, {
      id: newId(),
      organizationId: registration.organizationId,
      channelId: registration.channelId,
      name: text(p.name),
      model: text(p.model),
      type: text(p.type),
      sensors: [...new Set(registration.sensors.filter((s) => typeof s === 'string' && s.length > 0))],
      properties: p,
    });
    const given = Array.isArray(registration.aliases)
      ? registration.aliases
      : Object.entries((registration.aliases ?? {}) as Record<string, string>).map(([type, value]) => ({
          type,
          value,
        }));
    const aliases = new Map<string, { type: string; value: string }>();
    for (const { type, value } of given) {
      if (typeof type !== 'string' || typeof value !== 'string') continue;
      const alias = normaliseAlias(type, value);
      if (alias.type && alias.value) aliases.set(`${alias.type}\u0000${alias.value}`, alias);
    }
    for (const alias of aliases.values()) {
      await tx`
        INSERT INTO device_aliases (organization_id, device_id, type, value)
        VALUES (${registration.organizationId}, ${device.id}, ${alias.type}, ${alias.value})
        ON CONFLICT (organization_id, type, value) DO UPDATE SET device_id = EXCLUDED.device_id`;
    }
    return device;
  };
  return 'savepoint' in sql ? sql.savepoint(work) : (sql as import('postgres').Sql).begin(work);
}

/** A telephone number of the device (its first `tel` alias), for SMS actions that reflect to the device. */
export async function findDeviceTelephone(sql: Queryable, deviceId: string): Promise<string | undefined> {
  const [alias] = await sql<{ value: string }[]>`
            SELECT value FROM device_aliases WHERE device_id = ${deviceId} AND type = 'tel' LIMIT 1`;
  return alias?.value;
}

/** Adds the tags to (or removes them from) the organization's devices; returns the ids of the devices changed. */
export async function changeDeviceTags(
  sql: Queryable,
  organizationId: string,
  ids: string[],
  tags: string[],
  add: boolean,
): Promise<string[]> {
  const changed = await sql<{ id: string }[]>`
          UPDATE devices SET tags = ${add ? sql`ARRAY(SELECT DISTINCT unnest(tags || ${tags}::text[]))` : sql`ARRAY(SELECT unnest(tags) EXCEPT SELECT unnest(${tags}::text[]))`},
            updated_at = now()
          WHERE organization_id = ${organizationId} AND id = ANY(${ids}) RETURNING id`;
  return changed.map((d) => d.id);
}
