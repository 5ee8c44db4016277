// /v2/inference/api-keys: the keys predict accepts. Admins and project
// managers only; the key is shown once, at creation, and stored as a digest.
import { z } from 'zod';
import { presentInferenceKey } from '../../../platform/inference-keys.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { idParam } from './common.js';
import { inferenceKeySchema, list, newInferenceKeySchema, one } from './response-schemas.js';

export function inferenceKeysEndpoints({ inferenceKeys }: PlatformServices): Endpoint[] {
  const toggle = (enabled: boolean) =>
    defineEndpoint({
      method: 'post',
      path: `/v2/inference/api-keys/:apiKey/${enabled ? 'enable' : 'disable'}`,
      tag: 'inference',
      summary: `${enabled ? 'enable' : 'disable'} an inference API key`,
      description: enabled
        ? 'Enables an inference API key again: predict requests with it are accepted.'
        : 'Disables an inference API key: predict requests with it are refused with 401 until it is enabled again.',
      auth: 'organization',
      action: 'inferenceKeys:write',
      params: idParam('apiKey'),
      responses: { 200: { description: 'the key (never the key itself)', schema: one(inferenceKeySchema) } },
      async handler({ caller, params }) {
        return respond.data(
          presentInferenceKey(await inferenceKeys.setEnabled(caller.organizationId, params.apiKey, enabled)),
        );
      },
    });
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/inference/api-keys',
      tag: 'inference',
      summary: 'list the inference API keys of the organization (prefixes only)',
      description:
        'Lists the inference API keys of the organization: their ids, prefixes and states, never the keys themselves.',
      auth: 'organization',
      action: 'inferenceKeys:read',
      responses: { 200: { description: 'the keys (prefixes only)', schema: list(inferenceKeySchema) } },
      async handler({ caller }) {
        const keys = await inferenceKeys.list(caller.organizationId);
        return respond.list(keys.map(presentInferenceKey), { count: keys.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/inference/api-keys',
      tag: 'inference',
      summary: 'create an inference API key; `apiKey` is shown in this answer only',
      description:
        'Creates an inference API key, which authorizes POST /v1/models/{modelVersionId}/predict for the organization. The key (`apiKey`) appears in this answer only.',
      auth: 'organization',
      action: 'inferenceKeys:write',
      body: z.object({ name: z.string().trim().max(128).default('') }).strict(),
      responses: {
        200: { description: 'the key, with the key itself (`apiKey`)', schema: one(newInferenceKeySchema) },
      },
      async handler({ caller, body }) {
        const { row, apiKey } = await inferenceKeys.create(caller.organizationId, {
          name: body.name,
          createdBy: caller.userId,
        });
        return respond.data({ ...presentInferenceKey(row), apiKey });
      },
    }),
    toggle(true),
    toggle(false),
    defineEndpoint({
      method: 'del',
      path: '/v2/inference/api-keys/:apiKey',
      tag: 'inference',
      summary: 'delete an inference API key',
      description: 'Deletes an inference API key for good; predict requests with it are refused with 401.',
      auth: 'organization',
      action: 'inferenceKeys:write',
      params: idParam('apiKey'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await inferenceKeys.delete(caller.organizationId, params.apiKey);
        return respond.noContent();
      },
    }),
  ];
}
