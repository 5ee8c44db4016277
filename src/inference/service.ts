// The scheduler between the HTTP front end and the worker pool: which model
// versions exist and in which state, admission (404 / not ready / queue
// full), and the hand-off of a request body to a worker. Kept free of HTTP
// and of SQL details so front ends and backends stay apart (as in Triton).
import { performance } from 'node:perf_hooks';
import type { Sql } from 'postgres';
import {
  findModelVersion,
  listAllModelVersions,
  setModelVersionStatus,
  type ModelVersionRow,
  type VersionStatus,
} from '../db/model-versions.js';
import { ApiError } from '../errors.js';
import { log } from '../log.js';
import { Gauge, type ServerMetrics } from '../observability/metrics.js';
import type { ModelConfig } from './model-config.js';
import type { PredictOptions } from './model-runner.js';
import type { InferencePool } from './pool.js';
import { predictErrors } from './predict-errors.js';

export interface DeployedVersion {
  readonly id: string;
  readonly modelId: string;
  readonly organizationId: string;
  readonly public: boolean;
  readonly directory: string;
  readonly config: ModelConfig;
  status: VersionStatus;
  reason: string | null;
  provider: string | null;
  /** requests handed to the pool and not finished */
  inFlight: number;
  /** resolves when the version leaves Initializing */
  ready: Promise<void>;
}

export interface InferenceServiceOptions {
  queueSize: number;
}

export class InferenceService {
  private readonly versions = new Map<string, DeployedVersion>();

  constructor(
    private readonly sql: Sql,
    private readonly pool: InferencePool,
    private readonly options: InferenceServiceOptions,
    private readonly metrics: ServerMetrics,
  ) {
    metrics.registry.register(
      new Gauge('inference_queue_depth', 'predict requests in flight per model version (queued or running)', ['model_version'], () =>
        [...this.versions.values()].map((v) => ({ labels: { model_version: v.id }, value: v.inFlight })),
      ),
    );
    metrics.registry.register(
      new Gauge('inference_pool_queue', 'tasks waiting for a free worker thread', [], () => [{ value: pool.queued }]),
    );
    metrics.registry.register(
      new Gauge('model_versions', 'model versions by deployment status', ['status'], () =>
        (['Initializing', 'Active', 'Failed'] as const).map((status) => ({
          labels: { status },
          value: [...this.versions.values()].filter((v) => v.status === status).length,
        })),
      ),
    );
  }

  private unlisten: (() => Promise<void>) | undefined;

  /**
   * Deploys every version in the database (loading continues in the
   * background) and follows later inserts and deletes, whichever server or
   * tool made them.
   */
  async start(): Promise<void> {
    const { unlisten } = await this.sql.listen('model_versions', (payload) => void this.onChange(payload));
    this.unlisten = unlisten;
    for (const row of await listAllModelVersions(this.sql)) if (!this.versions.has(row.id)) this.deploy(row);
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => {});
  }

  private async onChange(payload: string): Promise<void> {
    const [op, id] = payload.split(':');
    if (!id) return;
    try {
      if (op === 'DELETE') {
        await this.undeploy(id);
      } else if (!this.versions.has(id)) {
        const row = await findModelVersion(this.sql, id);
        if (row) this.deploy(row);
      }
    } catch (error) {
      log.error('could not follow a model version change', { op, id, error: error as Error });
    }
  }

  /** Registers a version as Initializing and loads it on every worker in the background (once). */
  deploy(row: ModelVersionRow): DeployedVersion {
    const existing = this.versions.get(row.id);
    if (existing) return existing;
    const version: DeployedVersion = {
      id: row.id,
      modelId: row.modelId,
      organizationId: row.organizationId,
      public: row.public,
      directory: row.directory,
      config: row.config,
      status: 'Initializing',
      reason: null,
      provider: null,
      inFlight: 0,
      ready: Promise.resolve(),
    };
    this.versions.set(version.id, version);
    version.ready = this.load(version);
    return version;
  }

  private async load(version: DeployedVersion): Promise<void> {
    const started = performance.now();
    await this.persistStatus(version);
    try {
      const { provider, providerFailures } = await this.pool.load({ versionId: version.id, directory: version.directory });
      if (this.versions.get(version.id) !== version) return; // undeployed meanwhile
      for (const failure of providerFailures) log.warn('execution provider unavailable, falling back', { id: version.id, reason: failure });
      version.status = 'Active';
      version.provider = provider;
      log.info('model version active', {
        id: version.id,
        name: version.config.name,
        provider,
        workers: this.pool.workers,
        loadMs: Math.round(performance.now() - started),
      });
    } catch (error) {
      version.status = 'Failed';
      version.reason = (error as Error).message;
      log.error('model version failed to load', { id: version.id, reason: version.reason });
    }
    await this.persistStatus(version);
  }

  private async persistStatus(version: DeployedVersion): Promise<void> {
    try {
      await setModelVersionStatus(this.sql, version.id, version.status, version.reason);
    } catch (error) {
      log.warn('could not record model version status', { id: version.id, error: error as Error });
    }
  }

  /** Removes a version from the scheduler and unloads it from every worker. */
  async undeploy(id: string): Promise<void> {
    const version = this.versions.get(id);
    if (!version) return;
    this.versions.delete(id);
    await version.ready;
    await this.pool.unload({ versionId: id, directory: version.directory });
  }

  get(id: string): DeployedVersion | undefined {
    return this.versions.get(id);
  }

  /** A version the organization may call: its own, or a public one. */
  visible(id: string, organizationId: string): DeployedVersion | undefined {
    const version = this.versions.get(id);
    return version && (version.public || version.organizationId === organizationId) ? version : undefined;
  }

  hasActiveVersion(): boolean {
    for (const v of this.versions.values()) if (v.status === 'Active') return true;
    return false;
  }

  /**
   * Everything that can be decided before the body is read: the version
   * exists for this organization, is Active, and its queue has room.
   */
  admit(id: string, organizationId: string): DeployedVersion {
    const version = this.visible(id, organizationId);
    if (!version) throw predictErrors.versionNotFound();
    if (version.status === 'Initializing') throw predictErrors.initializing(id);
    if (version.status === 'Failed') throw predictErrors.loadFailed(id, version.reason ?? 'unknown reason');
    if (version.inFlight >= this.options.queueSize) throw predictErrors.overloaded(id, 1);
    return version;
  }

  /** Runs one prediction; `body` is transferred to the worker and unusable afterwards. */
  async predict(version: DeployedVersion, body: Uint8Array, contentType: string, options: PredictOptions): Promise<string> {
    if (version.inFlight >= this.options.queueSize) throw predictErrors.overloaded(version.id, 1);
    // Transfer needs the whole ArrayBuffer; readBody hands out exactly-sized ones.
    const buffer =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
        ? (body.buffer as ArrayBuffer)
        : body.slice().buffer;
    version.inFlight++;
    try {
      const outcome = await this.pool.predict({
        versionId: version.id,
        directory: version.directory,
        body: buffer,
        contentType,
        options,
      });
      if (!outcome.ok) throw ApiError.fromJSON(outcome.error);
      const labels = { model_version: version.id };
      const t = outcome.timings;
      this.metrics.inferenceDuration.observe({ ...labels, stage: 'decode' }, t.decodeMs / 1000);
      this.metrics.inferenceDuration.observe({ ...labels, stage: 'preprocess' }, t.preprocessMs / 1000);
      this.metrics.inferenceDuration.observe({ ...labels, stage: 'inference' }, t.inferenceMs / 1000);
      this.metrics.inferenceDuration.observe({ ...labels, stage: 'postprocess' }, t.postprocessMs / 1000);
      return outcome.json;
    } finally {
      version.inFlight--;
    }
  }
}
