// Queries of channels, their project memberships and their API keys. Every
// query is scoped to one organization; only digests of API keys are stored.
import type { JSONValue } from 'postgres';
import type { Queryable } from './database.js';

export const CHANNEL_TYPES = ['android', 'ios', 'gateway', 'iot'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export interface ChannelRow {
  id: string;
  organizationId: string;
  name: string;
  type: ChannelType;
  schemaId: string | null;
  method: string | null;
  /** push-notification settings: a string or a JSON object, as the API takes them */
  credentials: string | Record<string, unknown> | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** the projects the channel belongs to */
  projectIds: string[];
}

export type NewChannel = Omit<ChannelRow, 'enabled' | 'createdAt' | 'updatedAt' | 'projectIds'> & { enabled?: boolean };
export type ChannelChanges = Partial<
  Pick<ChannelRow, 'name' | 'type' | 'schemaId' | 'method' | 'credentials' | 'enabled'>
>;

/** A channel's columns plus the ids of its projects. */
const withProjects = (sql: Queryable) =>
  sql`c.*, ARRAY(SELECT pc.project_id FROM project_channels pc WHERE pc.channel_id = c.id ORDER BY pc.project_id) AS project_ids`;

/** jsonb values go through sql.json: a bare string or array would not be sent as JSON. */
function columns(sql: Queryable, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  if (out.credentials !== undefined && out.credentials !== null)
    out.credentials = sql.json(out.credentials as JSONValue);
  return out;
}

export async function listChannels(sql: Queryable, organizationId: string): Promise<ChannelRow[]> {
  return sql<ChannelRow[]>`
    SELECT ${withProjects(sql)} FROM channels c WHERE c.organization_id = ${organizationId} ORDER BY c.created_at, c.id`;
}

export async function findChannel(sql: Queryable, organizationId: string, id: string): Promise<ChannelRow | undefined> {
  const [row] = await sql<ChannelRow[]>`
    SELECT ${withProjects(sql)} FROM channels c WHERE c.organization_id = ${organizationId} AND c.id = ${id}`;
  return row;
}

export async function insertChannel(sql: Queryable, channel: NewChannel): Promise<void> {
  await sql`INSERT INTO channels ${sql(columns(sql, channel))}`;
}

export async function updateChannel(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: ChannelChanges,
): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findChannel(sql, organizationId, id)) !== undefined;
  const result = await sql`
    UPDATE channels SET ${sql(columns(sql, changes))}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id}`;
  return result.count > 0;
}

export async function deleteChannel(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM channels WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

/** Of `ids`, those that are channels of the organization. */
export async function existingChannelIds(
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM channels WHERE organization_id = ${organizationId} AND id IN ${sql(ids as string[])}`;
  return rows.map((r) => r.id);
}

/** Replaces the projects a channel belongs to (the caller checked they are of the channel's organization). */
export async function setChannelProjects(
  sql: Queryable,
  channelId: string,
  projectIds: readonly string[],
): Promise<void> {
  await sql`DELETE FROM project_channels WHERE channel_id = ${channelId}`;
  if (projectIds.length === 0) return;
  await sql`
    INSERT INTO project_channels ${sql(projectIds.map((projectId) => ({ projectId, channelId })))}
    ON CONFLICT DO NOTHING`;
}

// ---- channel API keys ----

export interface ChannelKeyRow {
  id: string;
  organizationId: string;
  channelId: string;
  keyHash: string;
  keyPrefix: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export async function insertChannelKey(
  sql: Queryable,
  key: Pick<ChannelKeyRow, 'id' | 'organizationId' | 'channelId' | 'keyHash' | 'keyPrefix'>,
): Promise<ChannelKeyRow> {
  const [row] = await sql<ChannelKeyRow[]>`INSERT INTO channel_api_keys ${sql(key)} RETURNING *`;
  return row!;
}

export async function listChannelKeys(
  sql: Queryable,
  organizationId: string,
  channelId: string,
): Promise<ChannelKeyRow[]> {
  return sql<ChannelKeyRow[]>`
    SELECT * FROM channel_api_keys WHERE organization_id = ${organizationId} AND channel_id = ${channelId}
    ORDER BY created_at, id`;
}

export async function setChannelKeyEnabled(
  sql: Queryable,
  organizationId: string,
  channelId: string,
  id: string,
  enabled: boolean,
): Promise<ChannelKeyRow | undefined> {
  const [row] = await sql<ChannelKeyRow[]>`
    UPDATE channel_api_keys SET enabled = ${enabled}, updated_at = now()
    WHERE organization_id = ${organizationId} AND channel_id = ${channelId} AND id = ${id} RETURNING *`;
  return row;
}

export async function deleteChannelKey(
  sql: Queryable,
  organizationId: string,
  channelId: string,
  id: string,
): Promise<boolean> {
  const result = await sql`
    DELETE FROM channel_api_keys WHERE organization_id = ${organizationId} AND channel_id = ${channelId} AND id = ${id}`;
  return result.count > 0;
}

export interface ChannelKeyIdentity {
  apiKeyId: string;
  channelId: string;
  organizationId: string;
  channelType: ChannelType;
  schemaId: string | null;
}

/** The channel of an enabled key of an enabled channel, by the key's digest. */
export async function findEnabledChannelKey(sql: Queryable, keyHash: string): Promise<ChannelKeyIdentity | undefined> {
  const [row] = await sql<ChannelKeyIdentity[]>`
    SELECT k.id AS api_key_id, c.id AS channel_id, c.organization_id, c.type AS channel_type, c.schema_id
    FROM channel_api_keys k JOIN channels c ON c.id = k.channel_id AND c.organization_id = k.organization_id
    WHERE k.key_hash = ${keyHash} AND k.enabled AND c.enabled`;
  return row;
}

/** Bumps updated_at of a channel whose project memberships changed. */
export async function touchChannel(sql: Queryable, id: string): Promise<void> {
  await sql`UPDATE channels SET updated_at = now() WHERE id = ${id}`;
}

/** The schema the channel's IoT payloads are validated against: null when none; undefined when no such channel. */
export async function findChannelSchemaId(
  sql: Queryable,
  organizationId: string,
  channelId: string,
): Promise<{ schemaId: string | null } | undefined> {
  const [channel] = await sql<{ schemaId: string | null }[]>`
      SELECT schema_id FROM channels WHERE id = ${channelId} AND organization_id = ${organizationId}`;
  return channel;
}
