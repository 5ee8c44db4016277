// What rule conditions may name (GET /v2/projects/:project/rule-vocabulary,
// and the warnings of a rule naming something else): the zones of a
// project's cameras, their lines, and the labels of the model versions an organization
// can run. Values only, read as text: no jsonb key goes through the
// connection's camelCase transform.
import type { Queryable } from './database.js';

/**
 * The zone (or line) names of the vision profiles of the devices of a
 * project's channels (and of `channelIds`, a rule's own), distinct, in no order.
 */
export async function listCameraPlaceNames(
  sql: Queryable,
  kind: 'zones' | 'lines',
  organizationId: string,
  projectId: string,
  channelIds: readonly string[] = [],
): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    SELECT DISTINCT zone->>'name' AS name
      FROM device_vision v
      JOIN devices d ON d.id = v.device_id AND d.organization_id = v.organization_id
      CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN ${kind} = 'lines' THEN v.lines ELSE v.zones END) AS zone
     WHERE v.organization_id = ${organizationId}
       AND (d.channel_id IN (SELECT channel_id FROM project_channels WHERE project_id = ${projectId})
            OR d.channel_id = ANY(${sql.array([...channelIds], 25)}))
       AND zone->>'name' IS NOT NULL`;
  return rows.map((r) => r.name);
}

/** The labels of every model version the organization can run (its own and the public ones), distinct, in no order. */
export async function listRunnableLabels(sql: Queryable, organizationId: string): Promise<string[]> {
  const rows = await sql<{ label: string }[]>`
    SELECT DISTINCT label
      FROM model_versions, jsonb_array_elements_text(CASE WHEN jsonb_typeof(config->'labels') = 'array' THEN config->'labels' ELSE '[]'::jsonb END) AS label
     WHERE organization_id = ${organizationId} OR public`;
  return rows.map((r) => r.label);
}
