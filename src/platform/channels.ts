// Channels (docs/CONTRACT.md#v2-resources): creation with a first API key, updates that
// keep schema and project references inside the organization.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import {
  deleteChannel as deleteChannelRow,
  findChannel,
  listChannels as listChannelRows,
  insertChannel,
  setChannelProjects,
  touchChannel,
  updateChannel,
  type ChannelChanges,
  type ChannelRow,
  type ChannelType,
} from '../db/channels.js';
import type { Queryable } from '../db/database.js';
import { existingProjectIds } from '../db/projects.js';
import { findSchema } from '../db/schemas.js';
import { found, invalid, notFound } from '../errors.js';

export { CHANNEL_TYPES, type ChannelType } from '../db/channels.js';
import { insertNewChannelKey, presentNewChannelKey } from './channel-keys.js';

export interface ChannelInput {
  name: string;
  type: ChannelType;
  schemaId?: string | null | undefined;
  method?: string | null | undefined;
  /** stored as given */
  credentials?: ChannelRow['credentials'] | undefined;
  enabled?: boolean | undefined;
  projectIds?: string[] | undefined;
}

export type ChannelUpdate = Partial<ChannelInput>;

/** The public view of a channel, as the API returns it. */
export function presentChannel(row: ChannelRow) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    schemaId: row.schemaId,
    name: row.name,
    type: row.type,
    method: row.method,
    credentials: row.credentials,
    projectIds: row.projectIds,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const unique = (ids: readonly string[]) => [...new Set(ids)];

async function checkSchema(sql: Queryable, organizationId: string, schemaId: string | null | undefined): Promise<void> {
  if (schemaId && !(await findSchema(sql, organizationId, schemaId))) {
    throw invalid('bad schemaId', `no schema ${schemaId} in this organization`);
  }
}

async function checkProjects(sql: Queryable, organizationId: string, projectIds: readonly string[]): Promise<void> {
  const found = new Set(await existingProjectIds(sql, organizationId, projectIds));
  const missing = projectIds.filter((id) => !found.has(id));
  if (missing.length) throw invalid('bad projectIds', `no project ${missing.join(', ')} in this organization`);
}

/** Channels of an organization: every operation is scoped to it. */
export class ChannelService {
  constructor(private readonly sql: Sql) {}

  list(organizationId: string): Promise<ChannelRow[]> {
    return listChannelRows(this.sql, organizationId);
  }

  async get(organizationId: string, id: string): Promise<ChannelRow> {
    return found(await findChannel(this.sql, organizationId, id), 'channel');
  }

  /** Deletes a channel with its keys; its devices' tokens stop working. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await deleteChannelRow(this.sql, organizationId, id))) throw notFound('channel not found');
  }

  /** Creates a channel, attaches it to its projects and makes its first API key (shown once, in `apiKeys`). */
  async create(organizationId: string, input: ChannelInput) {
    return this.sql.begin(async (tx) => {
      const projectIds = unique(input.projectIds ?? []);
      await checkSchema(tx, organizationId, input.schemaId);
      await checkProjects(tx, organizationId, projectIds);
      const id = newId();
      await insertChannel(tx, {
        id,
        organizationId,
        name: input.name,
        type: input.type,
        schemaId: input.schemaId ?? null,
        method: input.method ?? null,
        credentials: input.credentials ?? null,
        enabled: input.enabled ?? true,
      });
      await setChannelProjects(tx, id, projectIds);
      const key = await insertNewChannelKey(tx, organizationId, id);
      const channel = (await findChannel(tx, organizationId, id))!;
      return { ...presentChannel(channel), apiKeys: [presentNewChannelKey(key.row, key.apiKey)] };
    });
  }

  /** Applies a partial update; `projectIds`, when given, replaces the channel's projects. */
  async change(organizationId: string, id: string, update: ChannelUpdate): Promise<ChannelRow> {
    return this.sql.begin(async (tx) => {
      if (!(await findChannel(tx, organizationId, id))) throw notFound('channel not found');
      const { projectIds, ...rest } = update;
      const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as ChannelChanges;
      await checkSchema(tx, organizationId, changes.schemaId);
      await updateChannel(tx, organizationId, id, changes);
      if (projectIds) {
        const ids = unique(projectIds);
        await checkProjects(tx, organizationId, ids);
        await setChannelProjects(tx, id, ids);
        if (Object.keys(changes).length === 0) await touchChannel(tx, id);
      }
      return (await findChannel(tx, organizationId, id))!;
    });
  }
}
