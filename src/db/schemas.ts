// Queries of IoT payload schemas. Every query is scoped to one organization.
import type { JSONValue } from 'postgres';
import type { Queryable } from './database.js';

export const FIELD_TYPES = ['object', 'string', 'float', 'integer', 'timestamp', 'datetime'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A field of a payload schema (validated by platform/payload-validation.ts). */
export interface SchemaField {
  id: string;
  type: FieldType;
  fields?: SchemaField[];
  isArray?: boolean;
  /** the payload must have it, and not null */
  required?: boolean;
  /** false (an object field): keys its `fields` do not declare are refused */
  additionalProperties?: boolean;
}

export interface SchemaRow {
  id: string;
  organizationId: string;
  name: string;
  /** the only kind and format there are (the columns' defaults, migration 002) */
  type: 'default';
  format: 'json';
  fields: SchemaField[];
  /** false: keys the root fields do not declare are refused (migration 020) */
  additionalProperties: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type SchemaChanges = Partial<Pick<SchemaRow, 'name' | 'format' | 'fields' | 'additionalProperties'>>;

export async function listSchemas(sql: Queryable, organizationId: string): Promise<SchemaRow[]> {
  return sql<SchemaRow[]>`SELECT * FROM schemas WHERE organization_id = ${organizationId} ORDER BY created_at, id`;
}

export async function findSchema(sql: Queryable, organizationId: string, id: string): Promise<SchemaRow | undefined> {
  const [row] = await sql<SchemaRow[]>`SELECT * FROM schemas WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row;
}

export async function insertSchema(
  sql: Queryable,
  schema: Pick<SchemaRow, 'id' | 'organizationId' | 'name' | 'format' | 'fields' | 'additionalProperties'>,
): Promise<SchemaRow> {
  const [row] = await sql<SchemaRow[]>`
    INSERT INTO schemas ${sql({ ...schema, fields: sql.json(schema.fields as unknown as JSONValue) })} RETURNING *`;
  return row!;
}

export async function updateSchema(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: SchemaChanges,
): Promise<SchemaRow | undefined> {
  const values: Record<string, unknown> = { ...changes };
  if (Object.keys(values).length === 0) return findSchema(sql, organizationId, id);
  if (changes.fields) values.fields = sql.json(changes.fields as unknown as JSONValue);
  const [row] = await sql<SchemaRow[]>`
    UPDATE schemas SET ${sql(values)}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id} RETURNING *`;
  return row;
}

export async function deleteSchema(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`DELETE FROM schemas WHERE organization_id = ${organizationId} AND id = ${id}`).count > 0;
}

/** The channels that use a schema (a schema in use cannot be deleted). */
export async function channelIdsUsingSchema(
  sql: Queryable,
  organizationId: string,
  schemaId: string,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT id FROM channels WHERE organization_id = ${organizationId} AND schema_id = ${schemaId} ORDER BY id`;
  return rows.map((r) => r.id);
}
