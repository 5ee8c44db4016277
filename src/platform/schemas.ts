// Payload schemas of IoT channels (docs/CONTRACT.md#v2-schemas): stored definitions
// that channels validate ingested payloads against (payload-validation.ts).
// A schema in use by a channel cannot be deleted.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/schemas.js';
import type { SchemaChanges, SchemaRow } from '../db/schemas.js';
import { DomainError, found, notFound } from '../errors.js';

/** The public view of a schema, as the API returns it. */
export function presentSchema(row: SchemaRow) {
  return {
    id: row.id,
    type: row.type,
    organizationId: row.organizationId,
    name: row.name,
    format: row.format,
    fields: row.fields,
    additionalProperties: row.additionalProperties,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const inUse = (channels: readonly string[]) =>
  new DomainError(
    'conflict',
    'schema is in use by channels',
    `used by channel ${channels.join(', ')}: give them another schema or delete them first`,
  );

/** Payload schemas of an organization. */
export class SchemaService {
  constructor(private readonly sql: Sql) {}

  list(organizationId: string): Promise<SchemaRow[]> {
    return db.listSchemas(this.sql, organizationId);
  }

  create(organizationId: string, schema: Required<SchemaChanges>): Promise<SchemaRow> {
    return db.insertSchema(this.sql, { id: newId(), organizationId, ...schema });
  }

  async get(organizationId: string, id: string): Promise<SchemaRow> {
    return found(await db.findSchema(this.sql, organizationId, id), 'schema');
  }

  /** Applies the fields given; `fields` replaces the whole field tree. */
  async change(organizationId: string, id: string, changes: SchemaChanges): Promise<SchemaRow> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return found(await db.updateSchema(this.sql, organizationId, id, given), 'schema');
  }

  /** Deletes a schema that no channel uses; the conflict names the channels that do. */
  async delete(organizationId: string, id: string): Promise<void> {
    await this.get(organizationId, id);
    const channels = await db.channelIdsUsingSchema(this.sql, organizationId, id);
    if (channels.length) throw inUse(channels);
    try {
      if (!(await db.deleteSchema(this.sql, organizationId, id))) throw notFound('schema not found');
    } catch (error) {
      // a channel took the schema between the check and the delete (the foreign key refuses)
      if ((error as { code?: string }).code === '23503')
        throw inUse(await db.channelIdsUsingSchema(this.sql, organizationId, id));
      throw error;
    }
  }
}
