// Queries of projects and the channels attached to them. Every query is
// scoped to one organization.
import type { Queryable } from './database.js';

export interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** the channels attached to the project */
  channelIds: string[];
}

export type ProjectChanges = Partial<Pick<ProjectRow, 'name' | 'enabled'>>;

const withChannels = (sql: Queryable) =>
  sql`p.*, ARRAY(SELECT pc.channel_id FROM project_channels pc WHERE pc.project_id = p.id ORDER BY pc.channel_id) AS channel_ids`;

export async function listProjects(sql: Queryable, organizationId: string): Promise<ProjectRow[]> {
  return sql<ProjectRow[]>`
    SELECT ${withChannels(sql)} FROM projects p WHERE p.organization_id = ${organizationId} ORDER BY p.created_at, p.id`;
}

export async function findProject(sql: Queryable, organizationId: string, id: string): Promise<ProjectRow | undefined> {
  const [row] = await sql<ProjectRow[]>`
    SELECT ${withChannels(sql)} FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${id}`;
  return row;
}

export async function insertProject(
  sql: Queryable,
  project: Pick<ProjectRow, 'id' | 'organizationId' | 'name'> & { enabled?: boolean },
): Promise<void> {
  await sql`INSERT INTO projects ${sql(project)}`;
}

export async function updateProject(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: ProjectChanges,
): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findProject(sql, organizationId, id)) !== undefined;
  const result = await sql`
    UPDATE projects SET ${sql(changes)}, updated_at = now() WHERE organization_id = ${organizationId} AND id = ${id}`;
  return result.count > 0;
}

/** Deletes a project; its channel attachments go with it (the channels stay). */
export async function deleteProject(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM projects WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

/** Of `ids`, those that are projects of the organization. */
export async function existingProjectIds(
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM projects WHERE organization_id = ${organizationId} AND id IN ${sql(ids as string[])}`;
  return rows.map((r) => r.id);
}

/** Replaces the channels of a project (the caller checked they are of the project's organization). */
export async function setProjectChannels(
  sql: Queryable,
  projectId: string,
  channelIds: readonly string[],
): Promise<void> {
  await sql`DELETE FROM project_channels WHERE project_id = ${projectId}`;
  if (channelIds.length === 0) return;
  await sql`
    INSERT INTO project_channels ${sql(channelIds.map((channelId) => ({ projectId, channelId })))}
    ON CONFLICT DO NOTHING`;
}

export async function attachChannel(sql: Queryable, projectId: string, channelId: string): Promise<void> {
  await sql`INSERT INTO project_channels (project_id, channel_id) VALUES (${projectId}, ${channelId}) ON CONFLICT DO NOTHING`;
}

export async function detachChannel(sql: Queryable, projectId: string, channelId: string): Promise<boolean> {
  return (
    (await sql`DELETE FROM project_channels WHERE project_id = ${projectId} AND channel_id = ${channelId}`).count > 0
  );
}

/** Bumps updated_at of a resource whose membership changed. */
export async function touchProject(sql: Queryable, id: string): Promise<void> {
  await sql`UPDATE projects SET updated_at = now() WHERE id = ${id}`;
}
