// /v2 schemas: the payload schemas of IoT channels (api-notes.md §1.5).
import { newId } from '../../../ids.js';
import { z } from 'zod';
import { channelIdsUsingSchema, deleteSchema, findSchema, insertSchema, listSchemas, updateSchema, type SchemaRow } from '../../../db/schemas.js';
import { ApiError } from '../../errors.js';
import { schemaFields } from '../../../platform/schema-validation.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { list, one, payloadSchemaSchema } from './response-schemas.js';
import type { PlatformDeps } from './index.js';

const name = z.string().trim().min(1).max(128);
/** Only JSON payloads are validated ("querystring" schemas of the original are not supported). */
const format = z.literal('json');

const readOnly = {
  id: z.string().optional(),
  organizationId: z.string().optional(),
  type: z.literal('default').optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
};

const schemaParams = z.object({ schema: id });

const schemaResponse = { description: 'the schema', schema: one(payloadSchemaSchema) };

/** The public view of a schema, as the API returns it. */
export function presentSchema(row: SchemaRow) {
  return {
    id: row.id,
    type: row.type,
    organizationId: row.organizationId,
    name: row.name,
    format: row.format,
    fields: row.fields,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function schemasEndpoints(deps: PlatformDeps): Endpoint[] {
  const { sql } = deps;
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/schemas',
      tag: 'schemas',
      summary: 'list the payload schemas of the organization',
      auth: 'organization',
      action: 'schemas:read',
      responses: { 200: { description: 'the schemas', schema: list(payloadSchemaSchema) } },
      async handler({ caller }) {
        const schemas = await listSchemas(sql, caller.organizationId);
        return respond.list(schemas.map(presentSchema), { count: schemas.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/schemas',
      tag: 'schemas',
      summary: 'create a payload schema: fields [{id, type, fields?, isArray?}] describe the JSON payload from its root',
      auth: 'organization',
      action: 'schemas:write',
      body: z.object({ name, format: format.default('json'), fields: schemaFields, type: readOnly.type }).strict(),
      responses: { 200: schemaResponse },
      async handler({ caller, body }) {
        const row = await insertSchema(sql, { id: newId(), organizationId: caller.organizationId, name: body.name, format: body.format, fields: body.fields });
        return respond.data(presentSchema(row));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary: 'get a payload schema',
      auth: 'organization',
      action: 'schemas:read',
      params: schemaParams,
      responses: { 200: schemaResponse },
      async handler({ caller, params }) {
        const row = await findSchema(sql, caller.organizationId, params.schema);
        if (!row) throw new ApiError(404, 'schema not found');
        return respond.data(presentSchema(row));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary: 'update a payload schema (`fields` replaces the whole field tree); channels using it validate against the new fields',
      auth: 'organization',
      action: 'schemas:write',
      params: schemaParams,
      body: z.object({ name: name.optional(), format: format.optional(), fields: schemaFields.optional(), ...readOnly }).strict(),
      responses: { 200: schemaResponse },
      async handler({ caller, params, body }) {
        const changes = Object.fromEntries(
          Object.entries({ name: body.name, format: body.format, fields: body.fields }).filter(([, v]) => v !== undefined),
        );
        const row = await updateSchema(sql, caller.organizationId, params.schema, changes);
        if (!row) throw new ApiError(404, 'schema not found');
        return respond.data(presentSchema(row));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary: 'delete a payload schema that no channel uses',
      auth: 'organization',
      action: 'schemas:write',
      params: schemaParams,
      responses: { 204: { description: 'deleted' }, 409: { description: 'channels use the schema (they are named in `error`)' } },
      async handler({ caller, params }) {
        const organizationId = caller.organizationId;
        if (!(await findSchema(sql, organizationId, params.schema))) throw new ApiError(404, 'schema not found');
        const inUse = (channels: string[]) =>
          new ApiError(409, 'schema is in use by channels', `used by channel ${channels.join(', ')}: give them another schema or delete them first`);
        const channels = await channelIdsUsingSchema(sql, organizationId, params.schema);
        if (channels.length) throw inUse(channels);
        try {
          if (!(await deleteSchema(sql, organizationId, params.schema))) throw new ApiError(404, 'schema not found');
        } catch (error) {
          // a channel took the schema between the check and the delete (the foreign key refuses)
          if ((error as { code?: string }).code === '23503') throw inUse(await channelIdsUsingSchema(sql, organizationId, params.schema));
          throw error;
        }
        return respond.noContent();
      },
    }),
  ];
}
