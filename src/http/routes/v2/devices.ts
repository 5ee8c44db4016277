// /v2 devices (api-notes.md §1.6, Gen B): create, read, update, delete,
// search, and look-up by alias. Devices registered through the ingestion API
// are created by registerDevice (db/devices.ts).
import { z } from 'zod';
import { newId } from '../../../ids.js';
import {
  channelInOrganization,
  deleteDevice,
  DEVICE_SORT_FIELDS,
  findDevice,
  findDeviceIdByAlias,
  insertDevice,
  searchDevices,
  updateDevice,
  type DeviceRow,
} from '../../../db/devices.js';
import { notFound } from '../../../errors.js';
import { ApiError } from '../../errors.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id, idParam, searchBody, tags } from './common.js';
import type { PlatformDeps } from './index.js';
import { deviceSchema, one, totalsMeta, list } from './response-schemas.js';

const text = z.string().trim().min(1).max(128);

/** The public view of a device. */
export function presentDevice(d: DeviceRow) {
  return {
    id: d.id,
    name: d.name,
    model: d.model,
    type: d.type,
    sensors: d.sensors,
    channelId: d.channelId,
    organizationId: d.organizationId,
    tags: d.tags,
    properties: d.properties,
    attributes: d.attributes,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

const deviceFilter = z
  .object({
    name: z.string().max(128).optional().describe('substring of the name, case-insensitive'),
    tags: tags.optional().describe('the device has at least one of these tags'),
    type: z.string().max(128).optional().describe('the type, exactly'),
    model: z.string().max(128).optional().describe('the model, exactly'),
    ids: z.array(id).max(1000).optional().describe('one of these device ids'),
  })
  .strict()
  .describe('every key optional; all given keys must match');

const notFoundDoc = { 404: { description: 'device not found (in the organization of the token)' } };

export function devicesEndpoints({ sql }: PlatformDeps): Endpoint[] {
  return [
    defineEndpoint({
      method: 'post',
      path: '/v2/devices',
      tag: 'devices',
      summary: 'create a device in a channel of the organization',
      auth: 'organization',
      action: 'devices:write',
      body: z.object({ channelId: id, name: text.optional(), model: text.optional(), type: text.optional(), tags: tags.optional() }).strict(),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) } },
      async handler({ body, caller }) {
        if (!(await channelInOrganization(sql, caller.organizationId, body.channelId))) {
          throw new ApiError(400, 'invalid request body', 'channelId: no such channel in this organization');
        }
        const device = await insertDevice(sql, {
          id: newId(),
          organizationId: caller.organizationId,
          channelId: body.channelId,
          name: body.name,
          model: body.model,
          type: body.type,
          tags: body.tags ? [...new Set(body.tags)] : [],
        });
        return respond.data(presentDevice(device));
      },
    }),
    defineEndpoint({
      method: 'get',
      // the reference calls this parameter :id; one name per path keeps the OpenAPI document valid
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'a device',
      auth: 'organization',
      action: 'devices:read',
      params: idParam('device'),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) }, ...notFoundDoc },
      async handler({ params, caller }) {
        const device = await findDevice(sql, caller.organizationId, params.device as string);
        if (!device) throw notFound('device not found');
        return respond.data(presentDevice(device));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'update a device: name, model, type (null clears them), tags (replaced)',
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      body: z.object({ name: text.nullable().optional(), model: text.nullable().optional(), type: text.nullable().optional(), tags: tags.optional() }).strict(),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) }, ...notFoundDoc },
      async handler({ params, body, caller }) {
        const device = await updateDevice(sql, caller.organizationId, params.device as string, {
          name: body.name,
          model: body.model,
          type: body.type,
          tags: body.tags && [...new Set(body.tags)],
        });
        if (!device) throw notFound('device not found');
        return respond.data(presentDevice(device));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'delete a device (and its aliases)',
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      responses: { 204: { description: 'deleted' }, ...notFoundDoc },
      async handler({ params, caller }) {
        if (!(await deleteDevice(sql, caller.organizationId, params.device as string))) throw notFound('device not found');
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/devices/search',
      tag: 'devices',
      summary:
        'search the devices of the organization; channelId / projectId narrow the scope (meta.total), filter narrows further (meta.filteredTotal)',
      auth: 'organization',
      action: 'devices:read',
      body: searchBody(DEVICE_SORT_FIELDS, {
        channelId: id.optional().describe('devices of this channel'),
        projectId: id.optional().describe('devices of the channels attached to this project'),
        filter: deviceFilter.default({}),
      }),
      responses: {
        200: {
          description: 'a page of devices',
          schema: list(deviceSchema, totalsMeta),
        },
      },
      async handler({ body, caller }) {
        const b = body as typeof body & { channelId?: string; projectId?: string; filter: z.infer<typeof deviceFilter> };
        const result = await searchDevices(sql, caller.organizationId, {
          channelId: b.channelId,
          projectId: b.projectId,
          filter: b.filter,
          limit: b.limit,
          offset: b.offset,
          sort: b.sort,
        });
        return respond.list(result.rows.map(presentDevice), { filteredTotal: result.filteredTotal, total: result.total });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/devices/alias-lookup',
      tag: 'devices',
      summary: 'the id of the device holding an alias, e.g. {"type": "tel", "value": "+15550100"} (phone aliases: see registration)',
      auth: 'organization',
      action: 'devices:read',
      body: z.object({ type: z.string().trim().min(1).max(64), value: z.string().trim().min(1).max(256) }).strict(),
      responses: { 200: { description: 'the device id', schema: one(z.string().describe('the device id')) }, 404: { description: 'no device holds this alias' } },
      async handler({ body, caller }) {
        const deviceId = await findDeviceIdByAlias(sql, caller.organizationId, body.type, body.value);
        if (!deviceId) throw notFound('device not found');
        return respond.data(deviceId);
      },
    }),
  ];
}
