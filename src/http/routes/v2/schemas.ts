// /v2 schemas: the payload schemas of IoT channels (docs/CONTRACT.md#v2-schemas).
import { z } from 'zod';
import { schemaFields } from '../../../platform/payload-validation.js';
import { presentSchema } from '../../../platform/schemas.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { list, one, payloadSchemaSchema } from './response-schemas.js';

const name = z.string().trim().min(1).max(128);
/** Only JSON payloads are validated (the platform's "querystring" schemas are not: docs/CONTRACT.md#diff-schemas-json). */
const format = z.literal('json');
const additionalProperties = z
  .boolean()
  .describe(
    'false: an event with a key at its root that `fields` do not declare is refused (400 naming the key); true by default',
  );

const readOnly = {
  id: z.string().optional(),
  organizationId: z.string().optional(),
  type: z.literal('default').optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
};

const schemaParams = z.object({ schema: id });

const schemaResponse = { description: 'the schema', schema: one(payloadSchemaSchema) };

export function schemasEndpoints({ schemas }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/schemas',
      tag: 'schemas',
      summary: 'list the payload schemas of the organization',
      description:
        "Lists the payload schemas of the organization: the field trees that channels validate their events' JSON against.",
      auth: 'organization',
      action: 'schemas:read',
      responses: { 200: { description: 'the schemas', schema: list(payloadSchemaSchema) } },
      async handler({ caller }) {
        const rows = await schemas.list(caller.organizationId);
        return respond.list(rows.map(presentSchema), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/schemas',
      tag: 'schemas',
      summary:
        'create a payload schema: fields [{id, type, fields?, isArray?, required?, additionalProperties?}] describe the JSON payload from its root',
      description:
        'Creates a payload schema. Its fields ({id, type, fields?, isArray?, required?, additionalProperties?}) describe the JSON payload of an event from its root; `required: true` refuses an event without the field (or with null), `additionalProperties: false` on an object field refuses keys its fields do not declare.',
      auth: 'organization',
      action: 'schemas:write',
      body: z
        .object({
          name,
          format: format.default('json'),
          fields: schemaFields,
          additionalProperties: additionalProperties.optional(),
          type: readOnly.type,
        })
        .strict(),
      responses: { 200: schemaResponse },
      async handler({ caller, body }) {
        const row = await schemas.create(caller.organizationId, {
          name: body.name,
          format: body.format,
          fields: body.fields,
          additionalProperties: body.additionalProperties ?? true,
        });
        return respond.data(presentSchema(row));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary: 'get a payload schema',
      description: 'Answers one payload schema of the organization with its fields.',
      auth: 'organization',
      action: 'schemas:read',
      params: schemaParams,
      responses: { 200: schemaResponse },
      async handler({ caller, params }) {
        return respond.data(presentSchema(await schemas.get(caller.organizationId, params.schema)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary:
        'update a payload schema (`fields` replaces the whole field tree); channels using it validate against the new fields',
      description:
        'Updates a payload schema; `fields` replaces the whole field tree. Channels using the schema validate new events against the new fields.',
      auth: 'organization',
      action: 'schemas:write',
      params: schemaParams,
      body: z
        .object({
          name: name.optional(),
          format: format.optional(),
          fields: schemaFields.optional(),
          additionalProperties: additionalProperties.optional(),
          ...readOnly,
        })
        .strict(),
      responses: { 200: schemaResponse },
      async handler({ caller, params, body }) {
        const row = await schemas.change(caller.organizationId, params.schema, {
          name: body.name,
          format: body.format,
          fields: body.fields,
          additionalProperties: body.additionalProperties,
        });
        return respond.data(presentSchema(row));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/schemas/:schema',
      tag: 'schemas',
      summary: 'delete a payload schema that no channel uses',
      description: 'Deletes a payload schema. A schema that a channel still uses is refused with 409.',
      auth: 'organization',
      action: 'schemas:write',
      params: schemaParams,
      responses: {
        204: { description: 'deleted' },
        409: { description: 'channels use the schema (they are named in `error`)' },
      },
      async handler({ caller, params }) {
        await schemas.delete(caller.organizationId, params.schema);
        return respond.noContent();
      },
    }),
  ];
}
