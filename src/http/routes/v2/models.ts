// /v2/models and model versions: create a model, upload versions (multipart
// model.onnx + model.json, streamed to disk, then stored in PostgreSQL for
// the other replicas), watch them go from Initializing to Active (or Failed
// with the reason) here and on every replica, delete them (which unloads
// them from every worker of every replica).
import { newId } from '../../../ids.js';
import { z } from 'zod';
import {
  deleteModel,
  deleteModelVersion,
  findModel,
  findVisibleVersion,
  insertModel,
  listModels,
  listVersionsOfModel,
  updateModel,
  type ModelRow,
  type ModelVersionRow,
} from '../../../db/model-versions.js';
import { ApiError } from '../../errors.js';
import type { InferenceService } from '../../../inference/service.js';
import type { ReplicaCounts } from '../../../db/replicas.js';
import { insertStoredVersion } from '../../../platform/model-registration.js';
import { placeModelUpload, receiveModelUpload } from '../../../platform/model-upload.js';
import { replicaCounts } from '../../../platform/replicas.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { idParam } from './common.js';
import type { PlatformDeps } from './index.js';
import { list, modelSchema, modelVersionSchema, modelWithVersionsSchema, one } from './response-schemas.js';

const modelBody = z.object({ name: z.string().trim().min(1).max(128), description: z.string().max(2000).default('') }).strict();

function presentModel(m: ModelRow & { versionCount?: number }) {
  return { id: m.id, organizationId: m.organizationId, name: m.name, description: m.description, versionCount: m.versionCount, createdAt: m.createdAt, updatedAt: m.updatedAt };
}

/**
 * A version with its live deployment status when this server has it
 * deployed, and how many of the live replicas serve it.
 */
function presentVersion(v: ModelVersionRow, inference: InferenceService, replicas: ReplicaCounts) {
  const live = inference.get(v.id);
  return {
    id: v.id,
    modelId: v.modelId,
    organizationId: v.organizationId,
    version: v.version,
    name: v.config.name,
    status: live?.status ?? v.status,
    statusReason: live ? live.reason : v.statusReason,
    executionProvider: live?.provider ?? null,
    public: v.public,
    labels: v.config.labels,
    input: { width: v.config.input.width, height: v.config.input.height },
    outputFormat: v.config.output.format ?? 'auto',
    replicas,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

export function modelsEndpoints({ sql, config, inference, modelFiles }: PlatformDeps): Endpoint[] {
  const presentVersions = async (versions: ModelVersionRow[]) => {
    const counts = await replicaCounts(sql, versions.map((v) => v.id));
    return versions.map((v) => presentVersion(v, inference, counts.get(v.id)!));
  };
  const requireModel = async (organizationId: string, id: string) => {
    const model = await findModel(sql, organizationId, id);
    if (!model) throw new ApiError(404, 'model not found');
    return model;
  };

  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/models',
      tag: 'models',
      summary: 'list the models of the organization',
      auth: 'organization',
      action: 'models:read',
      responses: { 200: { description: 'the models, with their number of versions', schema: list(modelSchema) } },
      async handler({ caller }) {
        const models = await listModels(sql, caller.organizationId);
        return respond.list(models.map(presentModel), { count: models.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/models',
      tag: 'models',
      summary: 'create a model (a named series of versions)',
      auth: 'organization',
      action: 'models:write',
      body: modelBody,
      responses: { 200: { description: 'the model', schema: one(modelSchema) } },
      async handler({ caller, body }) {
        return respond.data(presentModel(await insertModel(sql, { id: newId(), organizationId: caller.organizationId, ...body })));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'a model with its versions',
      auth: 'organization',
      action: 'models:read',
      params: idParam('model'),
      responses: { 200: { description: 'the model and its versions', schema: one(modelWithVersionsSchema) } },
      async handler({ caller, params }) {
        const model = await requireModel(caller.organizationId, params.model);
        const versions = await listVersionsOfModel(sql, caller.organizationId, model.id);
        return respond.data({ ...presentModel(model), versions: await presentVersions(versions) });
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'rename or describe a model',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
      body: modelBody.partial().strict(),
      responses: { 200: { description: 'the model', schema: one(modelSchema) } },
      async handler({ caller, params, body }) {
        await requireModel(caller.organizationId, params.model);
        const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
        const model = Object.keys(changes).length ? await updateModel(sql, caller.organizationId, params.model, changes) : await requireModel(caller.organizationId, params.model);
        return respond.data(presentModel(model!));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/models/:model',
      tag: 'models',
      summary: 'delete a model and all its versions',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        const model = await requireModel(caller.organizationId, params.model);
        const versions = await listVersionsOfModel(sql, caller.organizationId, model.id);
        await deleteModel(sql, caller.organizationId, model.id);
        for (const version of versions) await inference.undeploy(version.id);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/models/:model/versions',
      tag: 'models',
      summary: 'the versions of a model with their deployment status',
      auth: 'organization',
      action: 'models:read',
      params: idParam('model'),
      responses: { 200: { description: 'the versions', schema: list(modelVersionSchema) } },
      async handler({ caller, params }) {
        await requireModel(caller.organizationId, params.model);
        const versions = await listVersionsOfModel(sql, caller.organizationId, params.model);
        return respond.list(await presentVersions(versions), { count: versions.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/models/:model/versions',
      tag: 'models',
      summary:
        'upload a version: multipart with parts "model" (model.onnx) and "config" (model.json). Answers at once with status Initializing; the version loads on every worker in the background',
      auth: 'organization',
      action: 'models:write',
      params: idParam('model'),
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
              properties: { model: { type: 'string', format: 'binary' }, config: { type: 'string', format: 'binary', description: 'model.json' } },
            },
          },
        },
      },
      async handler({ caller, params, request, upload }) {
        const model = await requireModel(caller.organizationId, params.model);
        const received = await receiveModelUpload(upload!, request.headers['content-type'] ?? '', config.dataDir, config.maxModelBytes);
        const id = newId();
        const directory = modelFiles.directoryOf(id);
        await placeModelUpload(received, directory);
        const version = await insertStoredVersion(sql, modelFiles.store, {
          id,
          modelId: model.id,
          organizationId: caller.organizationId,
          directory,
          config: received.config,
          public: false,
        });
        inference.deploy(version);
        const [presented] = await presentVersions([version]);
        return respond.data(presented!);
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/model-versions/:modelVersion',
      tag: 'models',
      summary: 'a model version and its deployment status: Initializing, Active or Failed (with statusReason)',
      auth: 'organization',
      action: 'models:read',
      params: idParam('modelVersion'),
      responses: { 200: { description: 'the version', schema: one(modelVersionSchema) } },
      async handler({ caller, params }) {
        const version = await findVisibleVersion(sql, caller.organizationId, params.modelVersion);
        if (!version) throw new ApiError(404, 'model version not found');
        const [presented] = await presentVersions([version]);
        return respond.data(presented!);
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/model-versions/:modelVersion',
      tag: 'models',
      summary: 'delete a model version: it is unloaded from every worker and its files removed',
      auth: 'organization',
      action: 'models:write',
      params: idParam('modelVersion'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        const version = await findVisibleVersion(sql, caller.organizationId, params.modelVersion);
        if (!version || version.organizationId !== caller.organizationId) throw new ApiError(404, 'model version not found');
        await deleteModelVersion(sql, caller.organizationId, version.id);
        await inference.undeploy(version.id);
        return respond.noContent();
      },
    }),
  ];
}
