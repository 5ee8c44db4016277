// Projects (docs/CONTRACT.md#v2-resources): named groups of channels that rules and
// landmarks belong to. Channel references stay inside the organization.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import { existingChannelIds, findChannel, listChannels } from '../db/channels.js';
import type { Queryable } from '../db/database.js';
import {
  attachChannel,
  deleteProject as deleteProjectRow,
  detachChannel,
  findProject,
  listProjects as listProjectRows,
  insertProject,
  setProjectChannels,
  touchProject,
  updateProject,
  type ProjectRow,
} from '../db/projects.js';
import { found, invalid, notFound } from '../errors.js';
import { unique } from './channels.js';

export interface ProjectInput {
  name: string;
  enabled?: boolean | undefined;
  channelIds?: string[] | undefined;
}

/** The public view of a project, as the API returns it. */
export function presentProject(row: ProjectRow) {
  return {
    id: row.id,
    name: row.name,
    organizationId: row.organizationId,
    channelIds: row.channelIds,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function checkChannels(sql: Queryable, organizationId: string, channelIds: readonly string[]): Promise<void> {
  const found = new Set(await existingChannelIds(sql, organizationId, channelIds));
  const missing = channelIds.filter((id) => !found.has(id));
  if (missing.length) throw invalid('bad channelIds', `no channel ${missing.join(', ')} in this organization`);
}

/** Projects of an organization. */
export class ProjectService {
  constructor(private readonly sql: Sql) {}

  list(organizationId: string): Promise<ProjectRow[]> {
    return listProjectRows(this.sql, organizationId);
  }

  async get(organizationId: string, id: string): Promise<ProjectRow> {
    return found(await findProject(this.sql, organizationId, id), 'project');
  }

  /** Deletes a project with its rules and landmarks; its channels are detached, not deleted. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await deleteProjectRow(this.sql, organizationId, id))) throw notFound('project not found');
  }

  /** The channels attached to a project. */
  async channels(organizationId: string, id: string) {
    const attached = new Set((await this.get(organizationId, id)).channelIds);
    return (await listChannels(this.sql, organizationId)).filter((channel) => attached.has(channel.id));
  }

  async create(organizationId: string, input: ProjectInput): Promise<ProjectRow> {
    return this.sql.begin(async (tx) => {
      const channelIds = unique(input.channelIds ?? []);
      await checkChannels(tx, organizationId, channelIds);
      const id = newId();
      await insertProject(tx, { id, organizationId, name: input.name, enabled: input.enabled ?? true });
      await setProjectChannels(tx, id, channelIds);
      return (await findProject(tx, organizationId, id))!;
    });
  }

  /** Applies a partial update; `channelIds`, when given, replaces the project's channels. */
  async change(organizationId: string, id: string, update: Partial<ProjectInput>): Promise<ProjectRow> {
    return this.sql.begin(async (tx) => {
      if (!(await findProject(tx, organizationId, id))) throw notFound('project not found');
      const { channelIds, ...rest } = update;
      const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      await updateProject(tx, organizationId, id, changes);
      if (channelIds) {
        const ids = unique(channelIds);
        await checkChannels(tx, organizationId, ids);
        await setProjectChannels(tx, id, ids);
        if (Object.keys(changes).length === 0) await touchProject(tx, id);
      }
      return (await findProject(tx, organizationId, id))!;
    });
  }

  /** Attaches a channel of the organization to one of its projects (idempotent); returns the project. */
  async attachChannel(organizationId: string, projectId: string, channelId: string): Promise<ProjectRow> {
    return this.sql.begin(async (tx) => {
      if (!(await findProject(tx, organizationId, projectId))) throw notFound('project not found');
      if (!(await findChannel(tx, organizationId, channelId))) throw notFound('channel not found');
      await attachChannel(tx, projectId, channelId);
      await touchProject(tx, projectId);
      return (await findProject(tx, organizationId, projectId))!;
    });
  }

  /** Detaches a channel from a project of the organization. */
  async detachChannel(organizationId: string, projectId: string, channelId: string): Promise<void> {
    await this.sql.begin(async (tx) => {
      if (!(await findProject(tx, organizationId, projectId))) throw notFound('project not found');
      if (!(await detachChannel(tx, projectId, channelId))) throw notFound('channel not attached to this project');
      await touchProject(tx, projectId);
    });
  }
}
