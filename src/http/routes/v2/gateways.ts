// /v2 gateways (api-notes.md §1.10): on-premises edge servers of an
// organization. The original API listed, renamed and deleted them; POST is an
// addition so that they can be created through the API.
import { newId } from '../../../ids.js';
import { z } from 'zod';
import { deleteGateway, findGateway, insertGateway, listGateways, renameGateway, type GatewayRow } from '../../../db/gateways.js';
import { ApiError } from '../../errors.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { gatewaySchema, list, one } from './response-schemas.js';
import type { PlatformDeps } from './index.js';

const name = z.string().trim().min(1).max(128);
const gatewayParams = z.object({ gateway: id });
const gatewayResponse = { description: 'the gateway', schema: one(gatewaySchema) };

/** The public view of a gateway, as the API returns it. */
export function presentGateway(row: GatewayRow) {
  return { id: row.id, organizationId: row.organizationId, name: row.name, createdAt: row.createdAt, updatedAt: row.updatedAt, syncedAt: row.syncedAt };
}

export function gatewaysEndpoints(deps: PlatformDeps): Endpoint[] {
  const { sql } = deps;
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/gateways',
      tag: 'gateways',
      summary: 'list the gateways of the organization',
      auth: 'organization',
      action: 'gateways:read',
      responses: { 200: { description: 'the gateways', schema: list(gatewaySchema) } },
      async handler({ caller }) {
        const gateways = await listGateways(sql, caller.organizationId);
        return respond.list(gateways.map(presentGateway), { count: gateways.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/gateways',
      tag: 'gateways',
      summary: 'create a gateway (an addition to the original API, which had no documented way to create one)',
      auth: 'organization',
      action: 'gateways:write',
      body: z.object({ name }).strict(),
      responses: { 200: gatewayResponse },
      async handler({ caller, body }) {
        return respond.data(presentGateway(await insertGateway(sql, { id: newId(), organizationId: caller.organizationId, name: body.name })));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'get a gateway',
      auth: 'organization',
      action: 'gateways:read',
      params: gatewayParams,
      responses: { 200: gatewayResponse },
      async handler({ caller, params }) {
        const row = await findGateway(sql, caller.organizationId, params.gateway);
        if (!row) throw new ApiError(404, 'gateway not found');
        return respond.data(presentGateway(row));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'rename a gateway (the other fields of a gateway sent back are accepted and ignored)',
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
        const row =
          body.name === undefined
            ? await findGateway(sql, caller.organizationId, params.gateway)
            : await renameGateway(sql, caller.organizationId, params.gateway, body.name);
        if (!row) throw new ApiError(404, 'gateway not found');
        return respond.data(presentGateway(row));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/gateways/:gateway',
      tag: 'gateways',
      summary: 'delete a gateway',
      auth: 'organization',
      action: 'gateways:write',
      params: gatewayParams,
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        if (!(await deleteGateway(sql, caller.organizationId, params.gateway))) throw new ApiError(404, 'gateway not found');
        return respond.noContent();
      },
    }),
  ];
}
