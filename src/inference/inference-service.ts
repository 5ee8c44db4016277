// The scheduler's front: which model versions exist and in which state,
// whether a request may call one (404 / not ready), and the hand-off of a
// request to the engine. The gates a predict request passes in turn, each
// version's queue among them, are admission.ts's, this service its backend. Kept
// free of HTTP and of SQL details so front ends and backends stay apart (as
// in Triton). Loading, batching and instances are the engine's. Which
// versions exist, and where their statuses go, is a VersionRegistry's
// (version-registry.ts): the platform's over the database, or one in memory.
import { performance } from 'node:perf_hooks';
import { withoutServerPaths } from '../lib/server-paths.js';
import type { Logger } from '../log.js';
import { Gauge, type ServerMetrics } from '../observability/metrics.js';
import type { AdmissionBackend, PredictAnswer } from './scheduling/admission.js';
import type { InferenceEngine, ModelRef } from './inference-engine.js';
import {
  MAX_STAGE_DEPTH,
  parseModelConfig,
  storedModelConfig,
  type ModelConfig,
  type Stage,
} from './versions/model-config.js';
import type { ModelFiles } from './versions/model-store.js';
import type { ImageOutputs } from './pipeline/postprocess.js';
import type { LoadedModel } from './versions/loaded-model.js';
import { predictErrors } from './predict-errors.js';
import { predictOptions, type PredictOptions } from './predict-options.js';
import type { StageRun } from './child-stages.js';
import {
  ValidationAbortedError,
  validateModel,
  type ModelValidationSettings,
  type ValidationResult,
} from './versions/model-validation.js';
import { keepVerdict, keptVerdict, verdictKey } from './versions/verdicts.js';
import type { RegisteredVersion, VersionChange, VersionRegistry, VersionStatus } from './versions/version-registry.js';

export interface DeployedVersion extends ModelRef {
  readonly modelId: string;
  readonly organizationId: string;
  readonly public: boolean;
  /** model.json as registered; its child stages may change later (rereadStages) */
  config: ModelConfig;
  status: VersionStatus;
  reason: string | null;
  provider: string | null;
  /** what preparing the model did on this server (prepared-model.ts), once loaded */
  preparation: string[] | null;
  /** resolves when the version leaves Initializing */
  ready: Promise<void>;
  /**
   * Active in the registry: it loaded before, in a limited validation
   * process or here. Any other version is validated in such a process
   * before it loads here.
   */
  readonly knownToLoad: boolean;
  /** the version's files made local (see localFiles), once */
  local: Promise<void> | undefined;
}

export interface InferenceServiceOptions {
  /** lazy: versions already Active in the registry load on their first request */
  loading: 'eager' | 'lazy';
  /** which versions' instances run in memory-limited child processes (MODEL_ISOLATION) */
  isolation: 'stored' | 'all' | 'none';
  /** limits of the process a version not yet known to load is validated in first */
  validation: ModelValidationSettings;
  /** this server's id among the replicas, under which it reports each version's status to the registry */
  replicaId: string;
}

export class InferenceService implements AdmissionBackend<DeployedVersion> {
  private readonly versions = new Map<string, DeployedVersion>();
  /** every version found at start has left Initializing (see ready) */
  private startupLoadsSettled = false;

  constructor(
    private readonly versionRegistry: VersionRegistry,
    private readonly engine: InferenceEngine,
    private readonly files: ModelFiles,
    private readonly options: InferenceServiceOptions,
    private readonly metrics: ServerMetrics,
    private readonly log: Logger,
  ) {
    const registry = metrics.registry;
    registry.register(
      new Gauge('inference_pool_queue', 'tasks waiting for a free pipeline worker', [], () => [
        { value: engine.pipeline.queued },
      ]),
    );
    registry.register(
      new Gauge('model_versions', 'model versions by deployment status', ['status'], () =>
        (['Initializing', 'Active', 'Failed'] as const).map((status) => ({
          labels: { status },
          value: [...this.versions.values()].filter((v) => v.status === status).length,
        })),
      ),
    );
    registry.register(
      new Gauge('model_versions_loaded', 'model versions with sessions loaded now', [], () => [
        { value: engine.models.loadedCount },
      ]),
    );
    registry.register(
      new Gauge(
        'model_version_evictions_total',
        'loaded versions unloaded as least recently used',
        [],
        () => [{ value: engine.models.evictions }],
        'counter',
      ),
    );
    registry.register(
      new Gauge(
        'inference_instance_busy_seconds_total',
        'time each loaded instance spent running batches (resets when its version is unloaded)',
        ['model_version', 'instance'],
        () =>
          engine.models.loaded().flatMap((m) =>
            m.instances.map((i) => ({
              labels: { model_version: m.versionId, instance: i.name },
              value: i.busyMs / 1000,
            })),
          ),
        'counter',
      ),
    );
  }

  private unlisten: (() => Promise<void>) | undefined;
  /** aborted by stop(): validation processes are killed, not left writing into DATA_DIR after the server exits */
  private readonly stopping = new AbortController();
  private readonly validations = new Set<Promise<unknown>>();

  /**
   * Deploys every registered version (loading continues in the
   * background) and follows later inserts and deletes, whichever server or
   * tool made them. First stores the files of versions only this server
   * holds (uploaded before they were stored in the database), for the
   * other replicas to fetch.
   */
  async start(): Promise<void> {
    this.unlisten = await this.versionRegistry.subscribe((change) => void this.onChange(change));
    const loads: Promise<void>[] = [];
    for (const row of await this.versionRegistry.list()) {
      // Not fatal: this server still serves the version from its own copy.
      await this.files
        .storeIfOnlyHere(row.id)
        .catch((error: Error) => this.log.warn('could not store the files of a model version', { id: row.id, error }));
      loads.push(this.deploy(row, { validated: this.options.loading === 'lazy' && row.status === 'Active' }).ready);
    }
    void Promise.all(loads).then(() => {
      this.startupLoadsSettled = true;
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => {});
    this.stopping.abort();
    await Promise.allSettled(this.validations);
  }

  private async onChange({ id, deleted, disabled, config }: VersionChange): Promise<void> {
    try {
      if (deleted) {
        await this.undeploy(id);
      } else if (disabled) {
        await this.unload(id);
      } else if (config) {
        await this.rereadStages(id);
      } else if (!this.versions.has(id)) {
        const row = await this.versionRegistry.find(id);
        if (row) this.deploy(row);
      }
    } catch (error) {
      this.log.error('could not follow a model version change', { id, deleted, error: error as Error });
    }
  }

  /**
   * A deployed version's child stages read again from the registry (the
   * only part of a config that changes after registration); the load and
   * its sessions stay as they are.
   */
  private async rereadStages(id: string): Promise<void> {
    const version = this.versions.get(id);
    const row = version && (await this.versionRegistry.find(id));
    if (!version || !row) return;
    version.config = { ...version.config, stages: parseModelConfig(row.config).stages };
  }

  /**
   * Registers a version. Unless it is known to load (`validated`: Active in
   * the registry, in lazy mode), it is Initializing while a first load and
   * warm-up prove it can serve, then Active or Failed with the reason. A
   * version never Active before is first loaded and warmed up in a limited
   * child process (model-validation.ts), so a model that would allocate gigabytes
   * or run for minutes fails there, not in the server. The load here then
   * stays in the engine's cache like any other.
   */
  deploy(row: RegisteredVersion, { validated = false } = {}): DeployedVersion {
    const existing = this.versions.get(row.id);
    if (existing) return existing;
    let config = storedModelConfig(row.config);
    let reason: string | null = null;
    try {
      config = parseModelConfig(row.config); // fills defaults added since the row was written
    } catch (error) {
      reason = (error as Error).message;
    }
    const version: DeployedVersion = {
      id: row.id,
      modelId: row.modelId,
      organizationId: row.organizationId,
      public: row.public,
      directory: row.directory,
      cacheDirectory: this.files.directoryOf(row.id),
      isolated: this.isolates(row.id, row.directory),
      // An isolated instance that exhausted its memory, or crashed or was
      // killed too often: the version fails (it would do the same again),
      // the server and the others go on.
      onFatal: (reason) => this.failAtRunTime(version, reason),
      config,
      status: reason ? 'Failed' : validated ? 'Active' : 'Initializing',
      reason,
      provider: null,
      preparation: null,
      ready: Promise.resolve(),
      knownToLoad: row.status === 'Active',
      local: undefined,
    };
    this.versions.set(version.id, version);
    if (version.status === 'Initializing') version.ready = this.validate(version);
    else void this.persistStatus(version); // Failed, or Active (lazy): this replica reports it either way
    return version;
  }

  private async validate(version: DeployedVersion): Promise<void> {
    const started = performance.now();
    /** the verdict's key, for a version validated here (not one known to load) */
    let key: string | undefined;
    await this.persistStatus(version);
    try {
      await this.localFiles(version);
      if (this.versions.get(version.id) !== version) return; // undeployed meanwhile
      let checked: ValidationResult | undefined;
      if (!version.knownToLoad) {
        // A version that failed here before, with these very files, fails again: keep that verdict.
        key = await verdictKey(version.directory, version.config, this.options.validation);
        const kept = await keptVerdict(this.files.directoryOf(version.id), key);
        if (this.versions.get(version.id) !== version) return; // undeployed meanwhile
        if (kept) {
          version.status = 'Failed';
          version.reason = kept.reason;
          this.log.info('model version failed its validation before, with the same files: not validated again', {
            id: version.id,
            reason: kept.reason,
          });
          await this.persistStatus(version);
          return;
        }
        const validation = validateModel(version.directory, version.config, this.options.validation, {
          cacheDirectory: version.cacheDirectory,
          signal: this.stopping.signal,
          share: { gate: this.engine.fairShare, organizationId: version.organizationId },
        });
        this.validations.add(validation);
        checked = await validation.finally(() => this.validations.delete(validation));
        key = undefined; // validated: a failure from here on is this server's load, not the files' verdict
        if (this.versions.get(version.id) !== version) return; // undeployed meanwhile
      }
      const model = await this.engine.acquire(version);
      this.engine.release(model);
      if (this.versions.get(version.id) !== version) return; // undeployed meanwhile
      if (model.info.batchingNote) this.log.warn(model.info.batchingNote, { id: version.id });
      for (const failure of model.info.providerFailures)
        this.log.warn('execution provider unavailable, falling back', { id: version.id, reason: failure });
      version.status = 'Active';
      version.provider = model.info.provider;
      version.preparation = model.info.preparation;
      this.log.info('model version active', {
        id: version.id,
        name: version.config.name,
        provider: model.info.provider,
        runner: model.info.runner,
        isolated: version.isolated ?? false,
        instances: model.instances.map((i) => i.name).join(','),
        maxBatchSize: model.batcher.policy.maxBatchSize,
        graph: model.info.preparation.join('; '),
        loadMs: Math.round(performance.now() - started),
        ...(checked && {
          validationMs: Math.round(checked.ms),
          validationPeakMb: Math.round(checked.maxRssBytes / (1024 * 1024)),
        }),
      });
    } catch (error) {
      if (error instanceof ValidationAbortedError) return; // no verdict: the next start validates it
      version.status = 'Failed';
      version.reason = withoutServerPaths((error as Error).message);
      this.log.error('model version failed to load', { id: version.id, reason: (error as Error).message });
      if (key !== undefined) {
        await keepVerdict(this.files.directoryOf(version.id), key, { reason: version.reason }).catch((failure: Error) =>
          this.log.warn('could not keep the verdict of a failed model version', { id: version.id, error: failure }),
        );
      }
    }
    await this.persistStatus(version);
  }

  /**
   * Whether a version's instances run in memory-limited processes: with
   * MODEL_ISOLATION=stored, a version whose files the server stores (a
   * tenant's upload, an admin's `model add`: in the model store, placed in
   * DATA_DIR/models), not one of MODELS_DIR's, which ship with the server.
   */
  private isolates(id: string, directory: string): boolean {
    return (
      this.options.isolation === 'all' ||
      (this.options.isolation === 'stored' && directory === this.files.directoryOf(id))
    );
  }

  private failAtRunTime(version: DeployedVersion, reason: string): void {
    if (version.status === 'Failed' || this.versions.get(version.id) !== version) return;
    version.status = 'Failed';
    version.reason = reason;
    this.log.error('model version failed while running', { id: version.id, reason });
    void this.persistStatus(version);
    void this.engine.models.remove(version.id);
  }

  /**
   * Before any load: the version's files on this server's disk, fetched
   * from the model store into the local cache when this server lacks them
   * (another replica received the upload). A failed fetch is tried again by
   * the next load.
   */
  private localFiles(version: DeployedVersion): Promise<void> {
    version.local ??= this.files.local(version.id, version.directory).then(
      (directory) => {
        version.directory = directory;
        version.isolated = this.isolates(version.id, directory);
      },
      (error: unknown) => {
        version.local = undefined;
        throw error;
      },
    );
    return version.local;
  }

  private async persistStatus(version: DeployedVersion): Promise<void> {
    try {
      await this.versionRegistry.recordStatus(this.options.replicaId, version.id, version.status, version.reason);
    } catch (error) {
      this.log.warn('could not record model version status', { id: version.id, error: error as Error });
    }
  }

  /** Reports every version's status again: this replica's earlier reports were removed with its row. */
  republishStatuses(): void {
    for (const version of this.versions.values()) void this.persistStatus(version);
  }

  /**
   * A deleted version: removed from the scheduler, unloaded once its
   * requests finish, and its files removed from the local cache.
   */
  async undeploy(id: string): Promise<void> {
    await this.unload(id);
    await this.files.remove(id);
  }

  /**
   * A disabled version: removed from the scheduler (its predicts answer 404
   * from now on) and unloaded once its requests finish; its files stay, for
   * when it is enabled again.
   */
  async unload(id: string): Promise<void> {
    const version = this.versions.get(id);
    if (version) {
      this.versions.delete(id);
      await version.ready;
      await this.engine.models.remove(id);
    }
  }

  /** This server's id among the replicas sharing the registry. */
  get replicaId(): string {
    return this.options.replicaId;
  }

  get(id: string): DeployedVersion | undefined {
    return this.versions.get(id);
  }

  /** The versions deployed now, whatever their state. */
  deployed(): IterableIterator<DeployedVersion> {
    return this.versions.values();
  }

  /** A version the organization may call: its own, or a public one. */
  visible(id: string, organizationId: string): DeployedVersion | undefined {
    const version = this.versions.get(id);
    return version && (version.public || version.organizationId === organizationId) ? version : undefined;
  }

  /**
   * What readiness needs of the models: every version found at start has
   * left Initializing (a load balancer must not send a version's requests
   * to a replica still loading it), and one of them is Active. Versions
   * uploaded later load while the replica keeps serving the others.
   */
  modelReadiness(): 'ok' | 'loading' | 'none-active' {
    if (!this.startupLoadsSettled) return 'loading';
    for (const v of this.versions.values()) if (v.status === 'Active') return 'ok';
    return 'none-active';
  }

  /**
   * What can be decided about the version before the body is read: it
   * exists for this organization and is Active.
   */
  admit(id: string, organizationId: string): DeployedVersion {
    const version = this.visible(id, organizationId);
    if (!version) throw predictErrors.versionNotFound();
    if (version.status === 'Initializing') throw predictErrors.initializing(id);
    if (version.status === 'Failed') throw predictErrors.loadFailed(id, version.reason ?? 'unknown reason');
    return version;
  }

  /**
   * Runs one image's input tensor as the model takes it, for a request
   * holding a queue place (the Open Inference Protocol's tensors in), and
   * answers its raw outputs. Only a version whose sessions run the model as
   * exported takes one: neither a uint8 input nor a candidates output
   * rewritten in (prepared-model.ts), as with GRAPH_REWRITE=off.
   */
  async runTensor(version: DeployedVersion, organizationId: string, input: Uint8Array): Promise<ImageOutputs> {
    const model = await this.acquireFor(version);
    try {
      if (model.info.inputDtype !== version.config.input.dtype)
        throw predictErrors.tensorsNotServed(version.id, `a ${model.info.inputDtype} input`);
      if (model.info.candidates) throw predictErrors.tensorsNotServed(version.id, 'its dense head cut to candidates');
      const batched = await this.engine.runTensor(model, input, organizationId);
      const labels = { model_version: version.id };
      this.metrics.inferenceDuration.observe(
        { ...labels, stage: 'inference' },
        batched.runMs / batched.batchSize / 1000,
      );
      this.metrics.inferenceQueueDelay.observe(labels, batched.queueMs / 1000);
      return batched.outputs;
    } finally {
      this.engine.release(model);
    }
  }

  /**
   * The version's load pinned for one request (release it with engine.release):
   * loaded first if it was unloaded. An organization's isolated instances past
   * their memory budget, with their memory held by requests in flight: this
   * one is refused to wait and retry.
   */
  private async acquireFor(version: DeployedVersion): Promise<LoadedModel> {
    const refusal = version.isolated ? this.engine.models.residentRefusal(version.organizationId) : undefined;
    if (refusal) throw predictErrors.isolatedMemoryBusy(refusal);
    try {
      await this.localFiles(version);
      return await this.engine.acquire(version);
    } catch (error) {
      this.log.error('model version failed to load for a request', {
        id: version.id,
        reason: (error as Error).message,
      });
      throw predictErrors.loadFailed(version.id, withoutServerPaths((error as Error).message));
    }
  }

  /**
   * Runs one prediction for a request holding a queue place; `body` is
   * transferred to a worker and unusable afterwards.
   */
  async predict(
    version: DeployedVersion,
    organizationId: string,
    body: Uint8Array,
    contentType: string,
    options: PredictOptions,
  ): Promise<PredictAnswer> {
    // Transfer needs the whole ArrayBuffer; readBody hands out exactly-sized ones.
    const buffer =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
        ? (body.buffer as ArrayBuffer)
        : (new Uint8Array(body).buffer as ArrayBuffer); // a copy: a Buffer's slice() is a view into its pool
    const model = await this.acquireFor(version);
    const pinned: LoadedModel[] = [];
    const skipped: string[] = [];
    try {
      const stages = await this.stageRuns(version.config.stages, organizationId, 1, pinned, skipped);
      const prediction = await this.engine.predict(model, buffer, contentType, options, organizationId, stages);
      const t = prediction.timings;
      const labels = { model_version: version.id };
      const stage = this.metrics.inferenceDuration;
      stage.observe({ ...labels, stage: 'decode' }, t.decodeMs / 1000);
      stage.observe({ ...labels, stage: 'preprocess' }, t.preprocessMs / 1000);
      // This image's share of its batch's run: the cost per image, comparable batched or not.
      stage.observe({ ...labels, stage: 'inference' }, t.inferenceMs / t.batchSize / 1000);
      stage.observe({ ...labels, stage: 'postprocess' }, t.postprocessMs / 1000);
      if (prediction.stages) {
        if (prediction.stages.crops > 0) {
          stage.observe({ ...labels, stage: 'crop' }, prediction.stages.cropMs / 1000);
          stage.observe({ ...labels, stage: 'children' }, prediction.stages.childMs / 1000);
        }
        skipped.push(...prediction.stages.skipped);
      }
      this.metrics.inferenceQueueDelay.observe(labels, t.queueMs / 1000);
      return { json: prediction.json, skipped };
    } finally {
      this.engine.release(model);
      for (const child of pinned) this.engine.release(child);
    }
  }

  /**
   * A version's child stages ready to run (their children's loads pinned
   * into `pinned`), `depth` levels below the version predicted: a child
   * that is not Active, not the organization's to run, or does not load is
   * left without a load, and `skipped` says why; a stage deeper than
   * MAX_STAGE_DEPTH is not run (stage validation refuses one).
   */
  private async stageRuns(
    stages: readonly Stage[],
    organizationId: string,
    depth: number,
    pinned: LoadedModel[],
    skipped: string[],
  ): Promise<StageRun[]> {
    if (depth > MAX_STAGE_DEPTH) return [];
    return Promise.all(
      stages.map(async (stage): Promise<StageRun> => {
        const id = stage.modelVersionId;
        const child = this.visible(id, organizationId);
        let run: StageRun['child'];
        if (!child) skipped.push(`${id}: the version does not exist`);
        else if (child.status !== 'Active')
          skipped.push(`${id}: the version is ${child.status}${child.reason ? ` (${child.reason})` : ''}`);
        else {
          try {
            const model = await this.acquireFor(child);
            pinned.push(model);
            run = { model, options: predictOptions(stage.options, child.config.defaults) };
          } catch (error) {
            skipped.push(`${id}: ${(error as Error).message}`);
          }
        }
        return {
          stage,
          child: run,
          stages: run ? await this.stageRuns(child!.config.stages, organizationId, depth + 1, pinned, skipped) : [],
        };
      }),
    );
  }
}
