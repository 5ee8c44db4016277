// Queries of rules. Every query is scoped to one organization.
//
// The jsonb columns are read as text and parsed here: the connection's
// camelCase transform would otherwise rename keys inside them (webhook
// header names, properties, condition values), and it throws on a key that
// ends in "_".
import type { Queryable } from './database.js';

export interface RuleRow {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  description: string;
  /** the API writes no other (the column's default is 'cloud') */
  type: 'cloud' | 'edge';
  enabled: boolean;
  generator: string;
  /** the Gen B JSON form: [root] or [] */
  conditionsObject: unknown[];
  conditions: string;
  /**
   * the parsed condition tree, as the rules module wrote it (null: no
   * conditions, or a row written without it); its type is the rules
   * module's, which db/ does not import
   */
  conditionTree: unknown;
  /** stored actions, secrets included */
  actions: Array<Record<string, unknown>>;
  properties: Record<string, unknown>;
  throttleInSeconds: number;
  channelIds: string[];
  gatewayIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type RuleFields = Omit<RuleRow, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;

interface RawRuleRow extends Omit<RuleRow, 'conditionsObject' | 'conditionTree' | 'actions' | 'properties'> {
  conditionsObject: string | null;
  conditionTree: string | null;
  actions: string;
  properties: string;
}

const columns = (sql: Queryable) => sql`
  id, organization_id, project_id, name, description, type, enabled, generator,
  conditions_object::text AS conditions_object, conditions, condition_tree::text AS condition_tree,
  actions::text AS actions, properties::text AS properties, throttle_in_seconds, channel_ids, gateway_ids,
  created_at, updated_at`;

const toRule = (row: RawRuleRow): RuleRow => ({
  ...row,
  conditionsObject: row.conditionsObject === null ? [] : (JSON.parse(row.conditionsObject) as unknown[]),
  conditionTree: row.conditionTree === null ? null : (JSON.parse(row.conditionTree) as unknown),
  actions: JSON.parse(row.actions) as Array<Record<string, unknown>>,
  properties: JSON.parse(row.properties) as Record<string, unknown>,
});

/** The column values of the fields, jsonb ones wrapped so that arrays are not sent as PostgreSQL arrays. */
function values(sql: Queryable, fields: Partial<RuleFields>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] =
      key === 'conditionsObject' || key === 'conditionTree' || key === 'actions' || key === 'properties'
        ? sql.json(value as never)
        : value;
  }
  return out;
}

export async function insertRule(
  sql: Queryable,
  rule: RuleFields & { id: string; organizationId: string },
): Promise<RuleRow> {
  const [row] = await sql<RawRuleRow[]>`INSERT INTO rules ${sql(values(sql, rule))} RETURNING ${columns(sql)}`;
  return toRule(row!);
}

export async function findRule(
  sql: Queryable,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<RuleRow | undefined> {
  const [row] = options.forUpdate
    ? await sql<
        RawRuleRow[]
      >`SELECT ${columns(sql)} FROM rules WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`
    : await sql<
        RawRuleRow[]
      >`SELECT ${columns(sql)} FROM rules WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row && toRule(row);
}

/** Rules of the organization, oldest first; of one project when projectId is given. */
export async function listRules(sql: Queryable, organizationId: string, projectId?: string): Promise<RuleRow[]> {
  const rows = projectId
    ? await sql<RawRuleRow[]>`
        SELECT ${columns(sql)} FROM rules WHERE organization_id = ${organizationId} AND project_id = ${projectId} ORDER BY created_at, id`
    : await sql<
        RawRuleRow[]
      >`SELECT ${columns(sql)} FROM rules WHERE organization_id = ${organizationId} ORDER BY created_at, id`;
  return rows.map(toRule);
}

export async function updateRule(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: Partial<RuleFields>,
): Promise<RuleRow | undefined> {
  const set = values(sql, changes);
  const [row] = Object.keys(set).length
    ? await sql<RawRuleRow[]>`
        UPDATE rules SET ${sql(set)}, updated_at = now() WHERE organization_id = ${organizationId} AND id = ${id} RETURNING ${columns(sql)}`
    : await sql<RawRuleRow[]>`
        UPDATE rules SET updated_at = now() WHERE organization_id = ${organizationId} AND id = ${id} RETURNING ${columns(sql)}`;
  return row && toRule(row);
}

export async function deleteRule(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM rules WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

export interface EnabledRuleRow extends RuleRow {
  /** the channels attached to the rule's project */
  projectChannelIds: string[];
}

/** The enabled rules of an organization, with the channels of their projects. */
export async function listEnabledRules(sql: Queryable, organizationId: string): Promise<EnabledRuleRow[]> {
  const rows = await sql<Array<RawRuleRow & { projectChannelIds: string[] }>>`
    SELECT ${columns(sql)},
      ARRAY(SELECT pc.channel_id FROM project_channels pc WHERE pc.project_id = rules.project_id ORDER BY pc.channel_id) AS project_channel_ids
    FROM rules WHERE organization_id = ${organizationId} AND enabled ORDER BY created_at, id`;
  return rows.map((row) => ({ ...toRule(row), projectChannelIds: row.projectChannelIds }));
}

/**
 * Serialises the organization's rule writes until the transaction ends, so
 * that two at once cannot both pass the organization's caps on rules and
 * condition nodes (ruleTotals).
 */
export async function lockOrganizationRules(tx: Queryable, organizationId: string): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`rules:${organizationId}`}, 0))`;
}

/**
 * How many rules the organization has and how many nodes their condition
 * trees hold in all (every object of a tree: and/or/not/for/becomes and the
 * leaves, as the rules module's `measure` counts them), leaving out
 * `exceptRuleId` (a rule being changed). Rows written without a tree count
 * none.
 */
export async function ruleTotals(
  sql: Queryable,
  organizationId: string,
  exceptRuleId?: string,
): Promise<{ rules: number; nodes: number }> {
  const except = exceptRuleId ?? '';
  const [row] = await sql<{ rules: number; nodes: number }[]>`
    WITH RECURSIVE nodes(node) AS (
      SELECT condition_tree FROM rules
      WHERE organization_id = ${organizationId} AND id <> ${except} AND jsonb_typeof(condition_tree) = 'object'
      UNION ALL
      SELECT child.node FROM nodes, LATERAL (
        SELECT jsonb_array_elements(nodes.node->'items') WHERE jsonb_typeof(nodes.node->'items') = 'array'
        UNION ALL
        SELECT nodes.node->'item' WHERE jsonb_typeof(nodes.node->'item') = 'object'
      ) AS child(node)
    )
    SELECT (SELECT count(*) FROM rules WHERE organization_id = ${organizationId} AND id <> ${except})::int AS rules,
           (SELECT count(*) FROM nodes)::int AS nodes`;
  return row!;
}

// Small reads of other areas' tables, to check references stay inside the organization.

export async function projectExists(sql: Queryable, organizationId: string, projectId: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM projects WHERE organization_id = ${organizationId} AND id = ${projectId}`).length > 0;
}

const TABLES = {
  channels: (sql: Queryable) => sql`channels`,
  gateways: (sql: Queryable) => sql`gateways`,
  devices: (sql: Queryable) => sql`devices`,
  landmarks: (sql: Queryable) => sql`landmarks`,
} as const;

/** Of `ids`, those that exist in `table` for the organization (landmarks: of the project, when given). */
export async function existingIds(
  sql: Queryable,
  table: keyof typeof TABLES,
  organizationId: string,
  ids: readonly string[],
  projectId?: string,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows =
    table === 'landmarks' && projectId
      ? await sql<{ id: string }[]>`
          SELECT id FROM landmarks WHERE organization_id = ${organizationId} AND project_id = ${projectId} AND id = ANY(${ids as string[]})`
      : await sql<{ id: string }[]>`
          SELECT id FROM ${TABLES[table](sql)} WHERE organization_id = ${organizationId} AND id = ANY(${ids as string[]})`;
  return new Set(rows.map((r) => r.id));
}

/** A rule as devices read it (the edge rules they run), before it is put in the SDK's shape. */
export interface DeviceRuleRow {
  id: string;
  name: string;
  type: string;
  enabled: boolean;
  conditions: string;
  conditionsObject: unknown;
  actions: unknown;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  generator: string;
  projectId: string;
  channelIds: string[];
  throttleInSeconds: number;
}

/** Enabled rules of a type of the projects that include the channel, oldest first. */
export async function listChannelRules(
  sql: Queryable,
  organizationId: string,
  channelId: string,
  type: string,
): Promise<DeviceRuleRow[]> {
  return sql<DeviceRuleRow[]>`
      SELECT r.* FROM rules r JOIN project_channels pc ON pc.project_id = r.project_id
      WHERE pc.channel_id = ${channelId} AND r.organization_id = ${organizationId}
        AND r.enabled AND r.type = ${type}
      ORDER BY r.created_at`;
}
