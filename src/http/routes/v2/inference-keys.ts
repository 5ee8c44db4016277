// /v2/inference/api-keys: the keys predict accepts. Admins and project
// managers only; the key is shown once, at creation, and stored as a digest.
import { z } from 'zod';
import { newId } from '../../../ids.js';
import {
  deleteInferenceKey,
  insertInferenceKey,
  listInferenceKeys,
  setInferenceKeyEnabled,
  type InferenceKeyRow,
} from '../../../db/inference-keys.js';
import { ApiError } from '../../errors.js';
import { digestApiKey, displayPrefix, generateApiKey } from '../../../platform/inference-keys.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { idParam } from './common.js';
import type { PlatformDeps } from './index.js';
import { inferenceKeySchema, list, newInferenceKeySchema, one } from './response-schemas.js';

const present = (k: InferenceKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.keyPrefix,
  enabled: k.enabled,
  createdBy: k.createdBy,
  createdAt: k.createdAt,
  updatedAt: k.updatedAt,
});

export function inferenceKeysEndpoints({ sql, inferenceKeys }: PlatformDeps): Endpoint[] {
  const toggle = (enabled: boolean) =>
    defineEndpoint({
      method: 'post',
      path: `/v2/inference/api-keys/:apiKey/${enabled ? 'enable' : 'disable'}`,
      tag: 'inference',
      summary: `${enabled ? 'enable' : 'disable'} an inference API key`,
      auth: 'organization',
      action: 'inferenceKeys:write',
      params: idParam('apiKey'),
      responses: { 200: { description: 'the key (never the key itself)', schema: one(inferenceKeySchema) } },
      async handler({ caller, params }) {
        const key = await setInferenceKeyEnabled(sql, caller.organizationId, params.apiKey, enabled);
        if (!key) throw new ApiError(404, 'api key not found');
        await inferenceKeys.reload(); // effective on this server before the answer
        return respond.data(present(key));
      },
    });
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/inference/api-keys',
      tag: 'inference',
      summary: 'list the inference API keys of the organization (prefixes only)',
      auth: 'organization',
      action: 'inferenceKeys:read',
      responses: { 200: { description: 'the keys (prefixes only)', schema: list(inferenceKeySchema) } },
      async handler({ caller }) {
        const keys = await listInferenceKeys(sql, caller.organizationId);
        return respond.list(keys.map(present), { count: keys.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/inference/api-keys',
      tag: 'inference',
      summary: 'create an inference API key; `apiKey` is shown in this answer only',
      auth: 'organization',
      action: 'inferenceKeys:write',
      body: z.object({ name: z.string().trim().max(128).default('') }).strict(),
      responses: { 200: { description: 'the key, with the key itself (`apiKey`)', schema: one(newInferenceKeySchema) } },
      async handler({ caller, body }) {
        const apiKey = generateApiKey();
        const key = await insertInferenceKey(sql, {
          id: newId(),
          organizationId: caller.organizationId,
          name: body.name,
          keyHash: digestApiKey(apiKey),
          keyPrefix: displayPrefix(apiKey),
          createdBy: caller.userId,
        });
        await inferenceKeys.reload();
        return respond.data({ ...present(key), apiKey });
      },
    }),
    toggle(true),
    toggle(false),
    defineEndpoint({
      method: 'del',
      path: '/v2/inference/api-keys/:apiKey',
      tag: 'inference',
      summary: 'delete an inference API key',
      auth: 'organization',
      action: 'inferenceKeys:write',
      params: idParam('apiKey'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        if (!(await deleteInferenceKey(sql, caller.organizationId, params.apiKey))) throw new ApiError(404, 'api key not found');
        await inferenceKeys.reload();
        return respond.noContent();
      },
    }),
  ];
}
