// /v2 gateways (docs/CONTRACT.md#v2-resources): on-premises edge servers of an
// organization. The platform's API listed, renamed and deleted them; POST is an
// addition so that they can be created through the API (docs/CONTRACT.md#diff-gateway-create).
import { z } from 'zod';
import { presentGateway } from '../../../platform/gateways.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { gatewaySchema, list, one } from './response-schemas.js';

const name = z.string().trim().min(1).max(128);
const gatewayParams = z.object({ gateway: id });
const gatewayResponse = { description: 'the gateway', schema: one(gatewaySchema) };

export function gatewaysEndpoints({ gateways }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/gateways',
      tag: 'gateways',
      summary: 'list the gateways of the organization',
      description: 'Lists the gateways (on-premises edge servers) of the organization.',
      auth: 'organization',
      action: 'gateways:read',
      responses: { 200: { description: 'the gateways', schema: list(gatewaySchema) } },
      async handler({ caller }) {
        const rows = await gateways.list(caller.organizationId);
        return respond.list(rows.map(presentGateway), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/gateways',
      tag: 'gateways',
      summary: 'create a gateway (an addition to the original API, which had no documented way to create one)',
      description:
        'Creates a gateway with a name. The original API had no documented way to create one; this route is an addition.',
      auth: 'organization',
      action: 'gateways:write',
      body: z.object({ name }).strict(),
      responses: { 200: gatewayResponse },
      async handler({ caller, body }) {
        return respond.data(presentGateway(await gateways.create(caller.organizationId, body.name)));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'get a gateway',
      description: 'Answers one gateway of the organization.',
      auth: 'organization',
      action: 'gateways:read',
      params: gatewayParams,
      responses: { 200: gatewayResponse },
      async handler({ caller, params }) {
        return respond.data(presentGateway(await gateways.get(caller.organizationId, params.gateway)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'rename a gateway (the other fields of a gateway sent back are accepted and ignored)',
      description:
        'Renames a gateway. The other fields of a gateway as GET answers it may be sent back; they are accepted and ignored.',
      auth: 'organization',
      action: 'gateways:write',
      params: gatewayParams,
      body: z
        .object({
          name: name.optional(),
          id: z.string().optional(),
          organizationId: z.string().optional(),
          createdAt: z.string().optional(),
          updatedAt: z.string().optional(),
          syncedAt: z.string().nullable().optional(),
        })
        .strict(),
      responses: { 200: gatewayResponse },
      async handler({ caller, params, body }) {
        return respond.data(presentGateway(await gateways.rename(caller.organizationId, params.gateway, body.name)));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'delete a gateway',
      description: 'Deletes a gateway of the organization.',
      auth: 'organization',
      action: 'gateways:write',
      params: gatewayParams,
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await gateways.delete(caller.organizationId, params.gateway);
        return respond.noContent();
      },
    }),
  ];
}
