// /v2/models and model versions: create a model, upload versions (multipart
// model.onnx + model.json, streamed to disk, then stored in PostgreSQL for
// the other replicas), watch them go from Initializing to Active (or Failed
// with the reason) here and on every replica, delete them (which unloads
// them from every worker of every replica).
import { z } from 'zod';
import type { Config } from '../../../config.js';
import { stagesSchema } from '../../../inference/versions/model-config.js';
import { presentModel } from '../../../platform/models.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id, idParam } from './common.js';
import { list, modelSchema, modelVersionSchema, modelWithVersionsSchema, one } from './response-schemas.js';

/** How long `?wait=true` holds an upload's answer for the version to load: long enough for large models on a GPU, bounded so that no client hangs on one. */
const UPLOAD_WAIT_MS = 120_000;

const modelBody = z
  .object({ name: z.string().trim().min(1).max(128), description: z.string().max(2000).default('') })
  .strict();

export function modelsEndpoints({ models }: PlatformServices, config: Config): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/models',
      tag: 'models',
      summary: 'list the models of the organization',
      description: 'Lists the models of the organization, each a named series of model versions.',
      auth: 'organization',
      action: 'models:read',
      responses: { 200: { description: 'the models, with their number of versions', schema: list(modelSchema) } },
      async handler({ caller }) {
        const rows = await models.list(caller.organizationId);
        return respond.list(rows.map(presentModel), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/models',
      tag: 'models',
      summary: 'create a model (a named series of versions)',
      description: 'Creates a model: a name (and description) under which versions are uploaded.',
      auth: 'organization',
      action: 'models:write',
      body: modelBody,
      responses: { 200: { description: 'the model', schema: one(modelSchema) } },
      async handler({ caller, body }) {
        return respond.data(presentModel(await models.create(caller.organizationId, body)));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'a model with its versions',
      description: 'Answers one model of the organization with its versions.',
      auth: 'organization',
      action: 'models:read',
      params: idParam('model'),
      responses: { 200: { description: 'the model and its versions', schema: one(modelWithVersionsSchema) } },
      async handler({ caller, params }) {
        const model = await models.get(caller.organizationId, params.model);
        return respond.data({
          ...presentModel(model),
          versions: await models.versions(caller.organizationId, model.id),
        });
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'rename or describe a model',
      description: 'Renames a model or changes its description; fields not given keep their value.',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
      body: modelBody.partial().strict(),
      responses: { 200: { description: 'the model', schema: one(modelSchema) } },
      async handler({ caller, params, body }) {
        return respond.data(presentModel(await models.change(caller.organizationId, params.model, body)));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'delete a model and all its versions',
      description:
        'Deletes a model with all its versions, which are unloaded from every worker and whose files are removed.',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await models.remove(caller.organizationId, params.model);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/models/:model/versions',
      tag: 'models',
      summary: 'the versions of a model with their deployment status',
      description: 'Lists the versions of a model with their deployment status (Initializing, Active or Failed).',
      auth: 'organization',
      action: 'models:read',
      params: idParam('model'),
      responses: { 200: { description: 'the versions', schema: list(modelVersionSchema) } },
      async handler({ caller, params }) {
        const versions = await models.versions(caller.organizationId, params.model);
        return respond.list(versions, { count: versions.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/models/:model/versions',
      tag: 'models',
      summary:
        'upload a version: multipart with parts "model" (model.onnx) and "config" (model.json). Answers at once with status Initializing, the version loading on every worker in the background; with ?wait=true, once it is Active or Failed on this server (at most 120 s, then Initializing)',
      description:
        'Uploads a model version as multipart, with the parts `model` (model.onnx) and `config` (model.json). It answers at once with status Initializing while the version loads on every worker; with `?wait=true` it answers once the version is Active or Failed on this server (at most 120 s).',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
      query: z
        .object({
          wait: z
            .enum(['true', 'false'])
            .default('false')
            .describe('true: answer once the version has loaded (Active) or failed to (Failed), at most 120 s'),
        })
        .strict(),
      bodyPolicy: 'streamed',
      responses: { 200: { description: 'the version, Initializing', schema: one(modelVersionSchema) } },
      bodyLimit: config.maxModelBytes + 2 * 1024 * 1024,
      requestDoc: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['model', 'config'],
              properties: {
                model: { type: 'string', format: 'binary' },
                config: { type: 'string', format: 'binary', description: 'model.json' },
              },
            },
          },
        },
      },
      async handler({ caller, params, query, request, upload }) {
        const wait = query.wait === 'true' ? UPLOAD_WAIT_MS : 0;
        return respond.data(
          await models.uploadVersion(
            caller.organizationId,
            params.model,
            upload!,
            request.headers['content-type'] ?? '',
            wait,
          ),
        );
      },
    }),
    defineEndpoint({
      method: 'put',
      path: '/v2/models/:model/versions/:version/stages',
      tag: 'models',
      summary:
        "set a version's child stages: each detection with one of a stage's labels is cropped and run through the stage's version, its answer nested in the detection's children",
      description:
        "Sets the child stages of a version of the model (`:version` is the version's id): each of its detections with one of a stage's `labels` (best first, `maxPerImage` at most) is cropped from the decoded image (`crop`: `padding` a fraction of the box on each side, `square`, `minSize` in pixels) and run through `modelVersionId` with `options` over its defaults; the answer is nested in the detection's `children`. Refused with the reason when a label is not the version's, the version is not one the organization can run, a stage leads back to this version, or stages would nest more than 2 deep. Every server follows without reloading the model. `[]` removes them.",
      auth: 'organization',
      action: 'models:write',
      params: z.object({ model: id, version: id }),
      body: z.object({ stages: stagesSchema }).strict(),
      responses: { 200: { description: 'the version with its stages', schema: one(modelVersionSchema) } },
      async handler({ caller, params, body }) {
        return respond.data(await models.setStages(caller.organizationId, params.model, params.version, body.stages));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/model-versions/:modelVersion',
      tag: 'models',
      summary: 'a model version and its deployment status: Initializing, Active or Failed (with statusReason)',
      description:
        'Answers a model version with its deployment status: Initializing, Active or Failed (with statusReason). Poll it after an upload until it is Active.',
      auth: 'organization',
      action: 'models:read',
      params: idParam('modelVersion'),
      responses: { 200: { description: 'the version', schema: one(modelVersionSchema) } },
      async handler({ caller, params }) {
        return respond.data(await models.version(caller.organizationId, params.modelVersion));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/model-versions/:modelVersion',
      tag: 'models',
      summary: 'delete a model version: it is unloaded from every worker and its files removed',
      description: 'Deletes a model version: it is unloaded from every worker and its files are removed.',
      auth: 'organization',
      action: 'models:write',
      params: idParam('modelVersion'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await models.removeVersion(caller.organizationId, params.modelVersion);
        return respond.noContent();
      },
    }),
  ];
}
