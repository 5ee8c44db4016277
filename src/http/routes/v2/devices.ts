// /v2 devices (Gen B; docs/CONTRACT.md#v2-resources): create, read, update, delete,
// search, and look-up by alias. Devices registered through the ingestion API
// are created by ingest/.
import { z } from 'zod';
import { DEVICE_SORT_FIELDS, presentDevice } from '../../../platform/devices.js';
import { presentVision } from '../../../platform/vision.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id, idParam, searchBody, tags } from './common.js';
import {
  deviceSchema,
  imageZoneSchema,
  one,
  totalsMeta,
  list,
  imageLineSchema,
  objectCountsSchema,
  streamInputSchema,
  trackingSchema,
  visionOptionsSchema,
  visionSchema,
} from './response-schemas.js';

const text = z.string().trim().min(1).max(128);

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

export function devicesEndpoints({ devices, vision, keptFrames }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'post',
      path: '/v2/devices',
      tag: 'devices',
      summary: 'create a device in a channel of the organization',
      description:
        'Creates a device in a channel of the organization, without it registering itself through /v1/registration.',
      auth: 'organization',
      action: 'devices:write',
      body: z
        .object({
          channelId: id,
          name: text.optional(),
          model: text.optional(),
          type: text.optional(),
          tags: tags.optional(),
        })
        .strict(),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) } },
      async handler({ body, caller }) {
        return respond.data(presentDevice(await devices.create(caller.organizationId, body)));
      },
    }),
    defineEndpoint({
      method: 'get',
      // the reference calls this parameter :id; one name per path keeps the OpenAPI document valid
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'a device',
      description:
        'Answers one device of the organization, with when it was last seen, its last location and the landmarks it is inside.',
      auth: 'organization',
      action: 'devices:read',
      params: idParam('device'),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) }, ...notFoundDoc },
      async handler({ params, caller }) {
        return respond.data(presentDevice(await devices.get(caller.organizationId, params.device as string)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'update a device: name, model, type (null clears them), tags (replaced)',
      description:
        'Updates a device: name, model and type (null clears each), and tags, which are replaced as a whole.',
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      body: z
        .object({
          name: text.nullable().optional(),
          model: text.nullable().optional(),
          type: text.nullable().optional(),
          tags: tags.optional(),
        })
        .strict(),
      responses: { 200: { description: 'the device', schema: one(deviceSchema) }, ...notFoundDoc },
      async handler({ params, body, caller }) {
        return respond.data(presentDevice(await devices.change(caller.organizationId, params.device as string, body)));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/devices/:device',
      tag: 'devices',
      summary: 'delete a device (and its aliases)',
      description: 'Deletes a device together with its aliases.',
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      responses: { 204: { description: 'deleted' }, ...notFoundDoc },
      async handler({ params, caller }) {
        await devices.delete(caller.organizationId, params.device as string);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/devices/:device/vision',
      tag: 'devices',
      summary: "a camera's vision profile",
      description:
        "Answers the vision profile of a device: the model version its frames (POST /v1/iot/frames) run through, the predict options that override the version's defaults, and its zones. 404 when the device is no camera.",
      auth: 'organization',
      action: 'devices:read',
      params: idParam('device'),
      responses: {
        200: { description: 'the profile', schema: one(visionSchema) },
        404: { description: 'no such device, or it has no vision profile' },
      },
      async handler({ params, caller }) {
        const profile = await vision.get(caller.organizationId, params.device as string);
        return respond.data(presentVision(profile, await vision.streamStatus(caller.organizationId, profile)));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/devices/:device/counts',
      tag: 'devices',
      summary: "a camera's counts per hour or day: lines crossed by direction, zones entered by label",
      description:
        "Counts the object events of a camera (object.start, object.update, object.end, written while it streams) per hour or per day (UTC) of their frames' times, in [from, to): each crossing of a counting line once, per line and direction, and each entry into a zone once, per zone and label. Only hours or days with something counted are answered, in time order. A range is at most 31 days by the hour and 366 days by the day; a device that is no camera has no buckets.",
      auth: 'organization',
      action: 'devices:read',
      params: idParam('device'),
      query: z
        .object({
          from: z
            .string()
            .max(40)
            .optional()
            .describe('ISO 8601 time, inclusive (default: `to` less 24 hours), e.g. 2026-01-01T00:00:00Z'),
          to: z.string().max(40).optional().describe('ISO 8601 time, exclusive (default: now)'),
          interval: z.enum(['hour', 'day']).default('hour').describe('the size of a bucket (default hour)'),
        })
        .strict(),
      responses: {
        200: { description: 'the counts', schema: one(objectCountsSchema) },
        400: { description: 'from or to not an ISO 8601 time, from not before to, or a range too long' },
        ...notFoundDoc,
      },
      async handler({ params, query, caller }) {
        return respond.data(await vision.counts(caller.organizationId, params.device as string, query));
      },
    }),
    defineEndpoint({
      method: 'put',
      path: '/v2/devices/:device/vision',
      tag: 'devices',
      summary: 'make a device a camera: set (replace) its vision profile',
      description:
        "Sets the vision profile of a device, replacing any: the model version (one the organization can run) its frames run through, predict options, zones (named polygons in the predict answer's image coordinates), counting lines, the settings of its object tracker, and the video stream the server reads from it, if it streams (then each tracked object becomes object.start, object.update and object.end events instead of an event per frame). A frame's event says which zones each detection lies in (by the zone's anchor) and which tracked object each box continues.",
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      body: z
        .object({
          modelVersionId: z.string().min(1).max(128),
          options: visionOptionsSchema.optional(),
          zones: z.array(imageZoneSchema).max(32).optional(),
          lines: z.array(imageLineSchema).max(32).optional(),
          tracking: trackingSchema.optional(),
          stream: streamInputSchema.optional(),
          keepFrames: z
            .boolean()
            .optional()
            .describe(
              "keep the frames' images (default false): each as long as its event, within the organization's KEPT_FRAMES_MAX_MB, its oldest removed first",
            ),
        })
        .strict(),
      responses: { 200: { description: 'the profile', schema: one(visionSchema) }, ...notFoundDoc },
      async handler({ params, body, caller }) {
        const profile = await vision.put(caller.organizationId, params.device as string, body);
        return respond.data(presentVision(profile, await vision.streamStatus(caller.organizationId, profile)));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/devices/:device/vision',
      tag: 'devices',
      summary: 'the device is a camera no more: remove its vision profile',
      description: 'Removes the vision profile of a device: its frames are refused from then on. Its events stay.',
      auth: 'organization',
      action: 'devices:write',
      params: idParam('device'),
      responses: {
        204: { description: 'removed' },
        404: { description: 'no such device, or it has no vision profile' },
      },
      async handler({ params, caller }) {
        await vision.remove(caller.organizationId, params.device as string);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/devices/:device/frames/:event',
      tag: 'devices',
      summary: "a camera's kept frame: the image of a frame event",
      description:
        "Answers the image a camera sent for the frame event `event`, as it was sent (JPEG, PNG, ...), when its vision profile keeps frames (the event's payload then says `frameKept: true`). A frame is kept as long as its event, and while its organization is within KEPT_FRAMES_MAX_MB (oldest removed first); 404 once it is gone.",
      auth: 'organization',
      action: 'devices:read',
      params: z.object({ device: id, event: id }),
      responses: {
        200: {
          description: 'the image, with its own media type',
          binary: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/bmp', 'image/tiff'],
        },
        404: { description: 'no such frame of this device: not kept, or kept no more' },
      },
      async handler({ params, caller }) {
        const frame = await keptFrames.image(caller.organizationId, params.device, params.event);
        return respond.encoded({ body: frame.body, contentType: frame.contentType });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/devices/search',
      tag: 'devices',
      summary:
        'search the devices of the organization; channelId / projectId narrow the scope (meta.total), filter narrows further (meta.filteredTotal)',
      description:
        'Searches the devices of the organization, paged. `channelId` or `projectId` narrow the scope (counted in meta.total), and the filter narrows it further (meta.filteredTotal).',
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
        const b = body as typeof body & {
          channelId?: string;
          projectId?: string;
          filter: z.infer<typeof deviceFilter>;
        };
        const result = await devices.search(caller.organizationId, {
          channelId: b.channelId,
          projectId: b.projectId,
          filter: b.filter,
          limit: b.limit,
          offset: b.offset,
          sort: b.sort,
        });
        return respond.list(result.rows.map(presentDevice), {
          filteredTotal: result.filteredTotal,
          total: result.total,
        });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/devices/alias-lookup',
      tag: 'devices',
      summary:
        'the id of the device holding an alias, e.g. {"type": "tel", "value": "+15550100"} (phone aliases: see registration)',
      description:
        'Finds the device that holds an alias, e.g. {"type": "tel", "value": "+15550100"}, and answers its id; 404 when no device of the organization holds it.',
      auth: 'organization',
      action: 'devices:read',
      body: z.object({ type: z.string().trim().min(1).max(64), value: z.string().trim().min(1).max(256) }).strict(),
      responses: {
        200: { description: 'the device id', schema: one(z.string().describe('the device id')) },
        404: { description: 'no device holds this alias' },
      },
      async handler({ body, caller }) {
        return respond.data(await devices.idByAlias(caller.organizationId, body.type, body.value));
      },
    }),
  ];
}
