// Models and their versions (/v2/models, /v2/model-versions): a model is a
// named series of versions; a version is uploaded (streamed to DATA_DIR,
// stored in PostgreSQL for the other replicas), deployed on every replica,
// and answered with this server's live status and how many live replicas
// serve it. Deleting unloads it everywhere.
import { rm } from 'node:fs/promises';
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/model-versions.js';
import type { ModelRow, ModelVersionRow, VersionStatus } from '../db/model-versions.js';
import type { ReplicaCounts } from '../db/replicas.js';
import { found, invalid, notFound } from '../errors.js';
import { storedModelConfig, type ModelConfig, type Stage } from '../inference/versions/model-config.js';
import { stageNodes, stagesProblem } from '../inference/versions/stage-tree.js';
import { DEFAULT_THRESHOLD } from '../inference/predict-options.js';
import type { ModelFiles } from '../inference/versions/model-store.js';
import type { InferenceService } from '../inference/inference-service.js';
import { insertStoredVersion } from './model-registration.js';
import { placeModelUpload, receiveModelUpload, type UploadBody } from './model-upload.js';
import { replicaCounts } from './replicas.js';

export function presentModel(m: ModelRow & { versionCount?: number }) {
  return {
    id: m.id,
    organizationId: m.organizationId,
    name: m.name,
    description: m.description,
    ...(m.versionCount !== undefined && { versionCount: m.versionCount }),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** This server's own state of a deployed version, read once for an answer. */
interface LiveState {
  status: VersionStatus;
  reason: string | null;
  provider: string | null;
  preparation: string[] | null;
}

/** The threshold predict applies when the request sets none: model.json's, else the server's (0 for `ssd` models, whose own threshold ran in the graph). */
function defaultThreshold(config: ModelConfig): number {
  return config.defaults.threshold ?? (config.output.format === 'ssd' ? 0 : DEFAULT_THRESHOLD);
}

/** A version with its live status when this server has it deployed, and how many live replicas serve it. */
export function presentVersion(v: ModelVersionRow, live: LiveState | undefined, replicas: ReplicaCounts) {
  const config = storedModelConfig(v.config);
  return {
    id: v.id,
    modelId: v.modelId,
    organizationId: v.organizationId,
    version: v.version,
    name: config.name,
    // A disabled version (npm run model -- disable) is served by no server, whatever it was before.
    status: v.disabled ? ('Disabled' as const) : (live?.status ?? v.status),
    statusReason: v.disabled ? null : live ? live.reason : v.statusReason,
    executionProvider: live?.provider ?? null,
    preparation: live?.preparation ?? null,
    public: v.public,
    labels: config.labels,
    input: { width: config.input.width, height: config.input.height },
    outputFormat: config.output.format ?? ('auto' as const),
    defaults: { threshold: defaultThreshold(config) },
    replicas,
    // a row written before stages existed has none
    stages: config.stages ?? [],
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

export type PresentedVersion = ReturnType<typeof presentVersion>;

export interface ModelInput {
  name: string;
  description: string;
}

export interface UploadSettings {
  dataDir: string;
  maxModelBytes: number;
}

export class ModelService {
  constructor(
    private readonly sql: Sql,
    private readonly inference: InferenceService,
    private readonly modelFiles: ModelFiles,
    private readonly upload: UploadSettings,
    /** the names in memory (model-names.ts), reloaded when a model is renamed here */
    private readonly names?: { reload(): Promise<void> },
  ) {}

  list(organizationId: string) {
    return db.listModels(this.sql, organizationId);
  }

  create(organizationId: string, input: ModelInput) {
    return db.insertModel(this.sql, { id: newId(), organizationId, ...input });
  }

  async get(organizationId: string, id: string): Promise<ModelRow> {
    return found(await db.findModel(this.sql, organizationId, id), 'model');
  }

  async change(organizationId: string, id: string, changes: Partial<ModelInput>): Promise<ModelRow> {
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(given).length === 0) return this.get(organizationId, id);
    const changed = found(await db.updateModel(this.sql, organizationId, id, given), 'model');
    if (given.name !== undefined) await this.names?.reload();
    return changed;
  }

  /** Deletes a model with all its versions, each unloaded everywhere. */
  async remove(organizationId: string, id: string): Promise<void> {
    const model = await this.get(organizationId, id);
    const versions = await db.listVersionsOfModel(this.sql, organizationId, model.id);
    await db.deleteModel(this.sql, organizationId, model.id);
    for (const version of versions) await this.inference.undeploy(version.id);
  }

  /** The versions of a model of the organization, presented. */
  async versions(organizationId: string, modelId: string): Promise<PresentedVersion[]> {
    await this.get(organizationId, modelId);
    return this.present(await db.listVersionsOfModel(this.sql, organizationId, modelId));
  }

  /**
   * Receives an upload (multipart model.onnx + model.json, never whole in
   * memory), stores it with the version's row in one transaction, and starts
   * deploying it: the answer is the version, Initializing, or, when
   * `waitMs` is given, as it stands once it has loaded or failed to on this
   * server (or when waitMs has passed).
   */
  async uploadVersion(
    organizationId: string,
    modelId: string,
    body: UploadBody,
    contentType: string,
    waitMs = 0,
  ): Promise<PresentedVersion> {
    const model = await this.get(organizationId, modelId);
    const received = await receiveModelUpload(body, contentType, this.upload.dataDir, this.upload.maxModelBytes);
    const id = newId();
    try {
      await this.checkStages(organizationId, id, received.config.labels, received.config.stages);
    } catch (error) {
      await rm(received.stagingDir, { recursive: true, force: true });
      throw error;
    }
    const directory = this.modelFiles.directoryOf(id);
    await placeModelUpload(received, directory);
    const version = await insertStoredVersion(this.sql, this.modelFiles.store, {
      id,
      modelId: model.id,
      organizationId,
      directory,
      config: received.config,
      public: false,
    });
    const deployed = this.inference.deploy(version);
    if (waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([deployed.ready, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    return (await this.present([version]))[0]!;
  }

  /**
   * Sets the child stages of one of the organization's versions of the
   * model, once they make a tree it can run (stage-tree.ts); every server
   * follows (the CONFIG notification), without reloading the model.
   */
  async setStages(
    organizationId: string,
    modelId: string,
    versionId: string,
    stages: Stage[],
  ): Promise<PresentedVersion> {
    const model = await this.get(organizationId, modelId);
    const row = await db.findVisibleVersion(this.sql, organizationId, versionId);
    if (!row || row.organizationId !== organizationId || row.modelId !== model.id)
      throw notFound('model version not found');
    await this.checkStages(organizationId, row.id, storedModelConfig(row.config).labels, stages);
    const updated = found(await db.updateVersionStages(this.sql, organizationId, row.id, stages), 'model version');
    return (await this.present([updated]))[0]!;
  }

  /** Throws `invalid` with the reason when `stages` cannot be the stages of version `id` (labels: its). */
  private async checkStages(organizationId: string, id: string, labels: readonly string[], stages: readonly Stage[]) {
    if (stages.length === 0) return;
    const visible = await db.listVisibleVersions(this.sql, organizationId);
    const problem = stagesProblem({ id, organizationId, labels }, stages, stageNodes(visible));
    if (problem) throw invalid('invalid stages', problem);
  }

  /** A version the organization may see: its own, or a public one. */
  async version(organizationId: string, id: string): Promise<PresentedVersion> {
    const version = found(await db.findVisibleVersion(this.sql, organizationId, id), 'model version');
    return (await this.present([version]))[0]!;
  }

  /** Deletes one of the organization's versions (a public one of another organization is not found); unloaded everywhere. */
  async removeVersion(organizationId: string, id: string): Promise<void> {
    const version = await db.findVisibleVersion(this.sql, organizationId, id);
    if (!version || version.organizationId !== organizationId) throw notFound('model version not found');
    await db.deleteModelVersion(this.sql, organizationId, version.id);
    await this.inference.undeploy(version.id);
  }

  private async present(versions: ModelVersionRow[]): Promise<PresentedVersion[]> {
    // One reading of this server's states for both the status and the count:
    // a version turning Active while the count is queried must not be
    // answered Active with this replica counted as still loading it.
    const live = versions.map((v): LiveState | undefined => {
      const deployed = this.inference.get(v.id);
      return (
        deployed && {
          status: deployed.status,
          reason: deployed.reason,
          provider: deployed.provider,
          preparation: deployed.preparation,
        }
      );
    });
    const counts = await replicaCounts(
      this.sql,
      versions.map((v) => v.id),
      { id: this.inference.replicaId, statuses: live.map((l) => l?.status ?? null) },
    );
    return versions.map((v, i) => presentVersion(v, live[i], counts.get(v.id)!));
  }
}
