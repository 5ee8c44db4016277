// /v2 channels and their API keys (docs/CONTRACT.md#v2-resources). Gen B flat routes,
// with the Gen A spellings (`apiKeys`, PUT {enabled}) as aliases.
import { z } from 'zod';
import { presentChannelKey, presentNewChannelKey } from '../../../platform/channel-keys.js';
import { presentChannel, type ChannelType } from '../../../platform/channels.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import {
  channelKeySchema,
  channelSchema,
  list,
  newChannelKeySchema,
  newChannelSchema,
  one,
} from './response-schemas.js';

/** Gen B spells types in lower case; Gen A wrote "Android" and "iOS". Stored in lower case. */
const channelType = z
  .enum(['android', 'ios', 'gateway', 'iot', 'Android', 'iOS', 'IoT', 'Gateway'])
  .transform((t) => t.toLowerCase() as ChannelType);
const name = z.string().trim().min(1).max(128);
/** Push-notification settings set up for the channel: stored and returned as given. */
const credentials = z.union([z.string().max(16_384), z.record(z.string(), z.unknown())]).nullable();
const method = z.string().max(64).nullable();

const channelFields = {
  name,
  type: channelType,
  schemaId: id.nullable().optional(),
  projectIds: z.array(id).max(1000).optional(),
  credentials: credentials.optional(),
  method: method.optional(),
  enabled: z.boolean().optional(),
};

/** Gen B PATCH bodies may carry the whole object back: its read-only fields are accepted and ignored. */
const readOnly = {
  id: z.string().optional(),
  organizationId: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
};

const channelParams = z.object({ channel: id });
const keyParams = z.object({ channel: id, apiKey: id });

const channelResponse = { description: 'the channel', schema: one(channelSchema) };
const keyResponse = { 200: { description: 'the key (never the key itself)', schema: one(channelKeySchema) } };

export function channelsEndpoints({ channels, channelKeys }: PlatformServices): Endpoint[] {
  const setKeyEnabled = async (organizationId: string, channelId: string, keyId: string, enabled: boolean) =>
    respond.data(presentChannelKey(await channelKeys.setEnabled(organizationId, channelId, keyId, enabled)));

  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/channels',
      tag: 'channels',
      summary: 'list the channels of the organization',
      description:
        'Lists the channels of the organization: the ways devices send events in, each with its payload schema and projects.',
      auth: 'organization',
      action: 'channels:read',
      responses: { 200: { description: 'the channels', schema: list(channelSchema) } },
      async handler({ caller }) {
        const rows = await channels.list(caller.organizationId);
        return respond.list(rows.map(presentChannel), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/channels',
      tag: 'channels',
      summary: 'create a channel; the response carries its first API key (`apiKeys[0].apiKey`, shown only this once)',
      description:
        'Creates a channel, with its first API key for devices to register with. The key itself (`apiKeys[0].apiKey`) appears in this answer only.',
      auth: 'organization',
      action: 'channels:write',
      body: z.object(channelFields).strict(),
      responses: {
        200: { description: 'the channel, with its first API key in apiKeys', schema: one(newChannelSchema) },
        400: {
          description:
            'invalid body; "bad schemaId" or "bad projectIds" when they name no schema or project of the organization',
        },
      },
      async handler({ caller, body }) {
        return respond.data(await channels.create(caller.organizationId, body));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/channels/:channel',
      tag: 'channels',
      summary: 'get a channel',
      description:
        'Answers one channel of the organization with its payload schema, projects and whether it is enabled.',
      auth: 'organization',
      action: 'channels:read',
      params: channelParams,
      responses: { 200: channelResponse },
      async handler({ caller, params }) {
        return respond.data(presentChannel(await channels.get(caller.organizationId, params.channel)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/channels/:channel',
      tag: 'channels',
      summary:
        'update a channel; `projectIds` replaces its projects; `enabled: false` stops its keys from authenticating',
      description:
        'Updates a channel; fields not given keep their value. `projectIds` replaces the projects it belongs to, and `enabled: false` stops its API keys from authenticating.',
      auth: 'organization',
      action: 'channels:write',
      params: channelParams,
      body: z.object({ ...channelFields, name: name.optional(), type: channelType.optional(), ...readOnly }).strict(),
      responses: { 200: channelResponse, 400: { description: 'invalid body, "bad schemaId" or "bad projectIds"' } },
      async handler({ caller, params, body }) {
        const { id: _id, organizationId: _org, createdAt: _created, updatedAt: _updated, ...update } = body;
        const channel = await channels.change(caller.organizationId, params.channel, update);
        return respond.data(presentChannel(channel));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/channels/:channel',
      tag: 'channels',
      summary: 'delete a channel, its API keys and its devices',
      description: 'Deletes a channel together with its API keys and the devices registered through it.',
      auth: 'organization',
      action: 'channels:write',
      params: channelParams,
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await channels.delete(caller.organizationId, params.channel);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/channels/:channel/api-keys',
      tag: 'channels',
      summary:
        'list the API keys of a channel (never the keys themselves: {id, prefix, enabled, createdAt, updatedAt})',
      description:
        'Lists the API keys of a channel. The keys themselves are never shown again after their creation: only their id, prefix and state.',
      auth: 'organization',
      action: 'channelKeys:read',
      params: channelParams,
      aliases: [{ method: 'get', path: '/v2/channels/:channel/apiKeys' }],
      responses: { 200: { description: 'the keys of the channel', schema: list(channelKeySchema) } },
      async handler({ caller, params }) {
        const keys = await channelKeys.list(caller.organizationId, params.channel);
        return respond.list(keys.map(presentChannelKey), { count: keys.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/channels/:channel/api-keys',
      tag: 'channels',
      summary: 'create an API key for a channel; the response is the only place the key (`apiKey`) appears',
      description:
        'Creates another API key for a channel, e.g. to rotate keys. The answer is the only place the key (`apiKey`) appears.',
      auth: 'organization',
      action: 'channelKeys:write',
      params: channelParams,
      aliases: [{ method: 'post', path: '/v2/channels/:channel/apiKeys' }],
      responses: { 200: { description: 'the key, with the key itself (`apiKey`)', schema: one(newChannelKeySchema) } },
      async handler({ caller, params }) {
        const { row, apiKey } = await channelKeys.create(caller.organizationId, params.channel);
        return respond.data(presentNewChannelKey(row, apiKey));
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/channels/:channel/api-keys/:apiKey/enable',
      tag: 'channels',
      summary: 'enable an API key',
      description: 'Enables an API key of a channel again: devices can register with it.',
      auth: 'organization',
      action: 'channelKeys:write',
      params: keyParams,
      responses: keyResponse,
      async handler({ caller, params }) {
        return setKeyEnabled(caller.organizationId, params.channel, params.apiKey, true);
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/channels/:channel/api-keys/:apiKey/disable',
      tag: 'channels',
      summary: 'disable an API key: devices can no longer register with it',
      description:
        'Disables an API key of a channel: devices can no longer register with it until it is enabled again.',
      auth: 'organization',
      action: 'channelKeys:write',
      params: keyParams,
      responses: keyResponse,
      async handler({ caller, params }) {
        return setKeyEnabled(caller.organizationId, params.channel, params.apiKey, false);
      },
    }),
    defineEndpoint({
      method: 'put',
      path: '/v2/channels/:channel/apiKeys/:apiKey',
      tag: 'channels',
      summary: 'enable or disable an API key (Gen A spelling of the enable/disable routes)',
      description:
        'Enables or disables an API key of a channel, as the enable and disable routes do; kept for clients of the original (Gen A) API.',
      auth: 'organization',
      action: 'channelKeys:write',
      params: keyParams,
      body: z.object({ enabled: z.boolean() }).strict(),
      responses: keyResponse,
      async handler({ caller, params, body }) {
        return setKeyEnabled(caller.organizationId, params.channel, params.apiKey, body.enabled);
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/channels/:channel/api-keys/:apiKey',
      tag: 'channels',
      summary: 'delete an API key',
      description: 'Deletes an API key of a channel for good; devices can no longer register with it.',
      auth: 'organization',
      action: 'channelKeys:write',
      params: keyParams,
      aliases: [{ method: 'del', path: '/v2/channels/:channel/apiKeys/:apiKey' }],
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await channelKeys.delete(caller.organizationId, params.channel, params.apiKey);
        return respond.noContent();
      },
    }),
  ];
}
