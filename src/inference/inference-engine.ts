// The inference core without HTTP or a database, shaped like Triton: a
// request's body goes to a pipeline worker (decode, letterbox, normalise)
// that writes its input tensor into a shared-memory slot; the version's
// dynamic batcher hands ready tensors to an idle instance (one ONNX Runtime
// session per thread) in batches; each image's outputs come back split from
// its batch and a pipeline worker decodes them into the response JSON.
// The service (inference-service.ts) adds versions, states and admission on top; the
// bench drives this class directly for the in-process pipeline limit.
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import { deserializeError, serializeError, type DomainError } from '../errors.js';
import type { Logger } from '../log.js';
import type { BatchedOutputs, BatchObserver } from './scheduling/batcher.js';
import { FairShare } from './scheduling/fair-share.js';
import { ChildStages, type StageRun, type StagesOutcome } from './child-stages.js';
import type { Answer } from './pipeline/detections.js';
import { InstanceRestartingError } from './instances/instance.js';
import { LoadedModel, type ServingDefaults } from './versions/loaded-model.js';
import { MODEL_CACHE_TUNING, ModelCache, type CacheLimits } from './versions/model-cache.js';
import type { ModelConfig } from './versions/model-config.js';
import { jpegDecoder } from './pipeline/decode-image.js';
import { BodyBudget } from '../lib/body-budget.js';
import { KeptImagePool } from './pipeline/kept-images.js';
import type { KeptImage } from './pipeline/preprocess.js';
import { PipelinePool } from './pipeline/pipeline-pool.js';
import type { PipelineSettings } from './pipeline/pipeline-worker.js';
import { predictErrors } from './predict-errors.js';
import { resolvePredictOptions, type PredictOptions } from './predict-options.js';

export interface EngineSettings extends ServingDefaults, PipelineSettings {
  cache: CacheLimits;
  /** the decoded images kept for child stages at once: in all, and one organization's (KEPT_IMAGES_MEMORY_MB) */
  keptImages: { bytes: number; organizationBytes: number };
}

/** The engine's settings out of the server's configuration. */
export function engineSettings(config: Config): EngineSettings {
  return {
    instances: config.instances,
    graphRewrite: config.graphRewrite,
    gpuPrecision: config.gpuPrecision,
    batching: config.batching,
    executionProviders: config.executionProviders,
    workers: config.workers,
    instanceMemoryBytes: config.instanceMemoryBytes,
    maxImageBytes: config.maxImageBytes,
    maxImagePixels: config.maxImagePixels,
    jpegDecoder: jpegDecoder(config.jpegDecoder).decoder,
    keptImages: { bytes: config.keptImagesBytes, organizationBytes: config.organizationKeptImagesBytes },
    cache: {
      maxLoaded: config.maxLoadedVersions,
      memoryBudgetBytes: config.modelMemoryBudgetBytes,
      resident: { serverBytes: config.isolatedMemoryBytes, organizationBytes: config.organizationIsolatedMemoryBytes },
      concurrentLoads: MODEL_CACHE_TUNING.concurrentLoads,
    },
  };
}

/** A version as the engine sees it: where its files are and what model.json says. */
export interface ModelRef {
  id: string;
  /** whose turn its CPU runs count as (fair-share.ts) */
  organizationId: string;
  directory: string;
  /** where the prepared (rewritten) model is kept between loads; undefined: prepared anew at each load */
  cacheDirectory?: string | undefined;
  /** its instances run in child processes under MODEL_INSTANCE_MEMORY_MB (a version not trusted with the server's memory) */
  isolated?: boolean;
  /** told when an isolated instance can no longer go on (its memory, crashes, kills): the version must fail */
  onFatal?: (reason: string) => void;
  config: ModelConfig;
}

interface StageTimings {
  decodeMs: number;
  preprocessMs: number;
  queueMs: number;
  inferenceMs: number;
  postprocessMs: number;
  batchSize: number;
}

export interface Prediction {
  /** the response body, serialised in a worker so the main thread only writes it (here, with child stages) */
  json: string;
  timings: StageTimings;
  /** what its child stages did, when it has some */
  stages?: StagesOutcome;
}

/**
 * What a kept image counts in the kept images' budget: its pixels. A reused
 * buffer may be longer (kept-images.ts); that slack is the pool's, bounded
 * by what it keeps.
 */
const pixelBytes = (kept: KeptImage) => kept.width * kept.height * kept.channels;

/** Why a request's stages did not run when its image did not fit the kept images' memory. */
const KEPT_IMAGES_FULL =
  'not run: the memory for decoded images kept for child stages is in use (KEPT_IMAGES_MEMORY_MB, ORGANIZATION_KEPT_IMAGES_MEMORY_MB)';

export class InferenceEngine {
  readonly pipeline: PipelinePool;
  readonly models: ModelCache;
  /** CPU run permits, one per core, shared fairly between organizations */
  readonly fairShare = new FairShare(availableParallelism());
  private readonly childStages: ChildStages;
  /** the decoded images versions with stages keep, reused between requests */
  private readonly keptImages = new KeptImagePool();
  /** the bytes of the kept images requests hold, in all and per organization */
  private readonly keptBudget: BodyBudget;
  private loads = 0;

  constructor(
    private readonly settings: EngineSettings,
    /** the engine's own lines; its threads and processes log with its settings */
    private readonly log: Logger,
    private readonly observer: (versionId: string) => BatchObserver = () => ({ batch() {} }),
  ) {
    this.pipeline = new PipelinePool(settings.workers, settings, log);
    this.childStages = new ChildStages(this.pipeline);
    this.keptBudget = new BodyBudget(settings.keptImages.bytes, settings.keptImages.organizationBytes);
    this.models = new ModelCache(settings.cache, log);
  }

  /** The version loaded (loading it if needed) and pinned: pass it to predict(), then release(). */
  acquire(ref: ModelRef): Promise<LoadedModel> {
    return this.models.acquire(ref.id, () =>
      LoadedModel.load(
        ref.id,
        `${ref.id}#${++this.loads}`,
        { directory: ref.directory, cacheDirectory: ref.cacheDirectory },
        ref.isolated ?? false,
        ref.config,
        this.settings,
        this.log.settings,
        this.observer(ref.id),
        {
          gate: this.fairShare,
          organizationId: ref.organizationId,
        },
        (reason) => ref.onFatal?.(reason),
      ),
    );
  }

  release(model: LoadedModel): void {
    this.models.release(model.versionId, model);
  }

  /**
   * One prediction on a pinned load, for `caller` (the organization calling:
   * a public version's batcher serves its callers in turn). `body` is
   * transferred to a worker and unusable afterwards. With `stages` (their
   * children's loads pinned by the caller), the decoded image is kept and
   * each stage runs on the parent's detections (child-stages.ts). Throws
   * DomainError for the client's mistakes and for failed runs.
   */
  async predict(
    model: LoadedModel,
    body: ArrayBuffer,
    contentType: string,
    options: PredictOptions,
    caller = model.versionId,
    stages: readonly StageRun[] = [],
  ): Promise<Prediction> {
    const slot = await model.slots.acquire();
    let released = false;
    const releaseSlot = () => {
      if (!released) model.slots.release(slot);
      released = true;
    };
    // Lent to the worker that decodes the image; a worker that died may have been writing it, so it is then dropped.
    const offered = stages.length > 0 ? this.keptImages.lend() : undefined;
    let kept: KeptImage | undefined;
    try {
      model.batcher.expect();
      const pre = await this.pipeline
        .preprocess({
          versionId: model.versionId,
          body,
          contentType,
          input: model.config.input,
          dtype: model.info.inputDtype,
          slot,
          keep: stages.length > 0 ? { into: offered } : undefined,
        })
        .catch((error: Error) => ({
          ok: false as const,
          error: serializeError(this.failed(model, error)),
          died: true,
        }));
      if (offered && !(pre.ok && pre.keptInOffered) && !('died' in pre)) this.keptImages.give(offered);
      if (!pre.ok) {
        model.batcher.abandon();
        throw deserializeError(pre.error);
      }
      kept = pre.kept && this.counted(pre.kept, caller);
      let batched;
      try {
        // A dense head reduced in the model keeps the anchors at or above the threshold the decoder will apply.
        batched = await model.batcher.submit(slot, resolvePredictOptions(options, false).threshold, caller);
      } catch (error) {
        throw this.failed(model, error as Error);
      }
      releaseSlot();
      const post = await this.pipeline.postprocess({
        versionId: model.versionId,
        loadKey: model.loadKey,
        config: model.config,
        outputInfo: model.info.outputs,
        outputs: batched.outputs,
        placement: pre.placement,
        options,
      });
      if (!post.ok) throw deserializeError(post.error);
      let json = post.json;
      let outcome: StagesOutcome | undefined;
      if (kept) {
        const answer = JSON.parse(json) as Record<string, Answer[]>;
        outcome = await this.childStages.run(answer, kept, stages, caller);
        // Every crop of it is cut (run settles its stages): the buffer is free for the next request.
        this.keptImages.give(kept.data);
        json = JSON.stringify(answer);
      } else if (pre.kept) {
        const skipped = stages.map((run) => `${run.stage.modelVersionId}: ${KEPT_IMAGES_FULL}`);
        outcome = { crops: 0, cropMs: 0, childMs: 0, skipped };
      }
      return {
        json,
        stages: outcome,
        timings: {
          decodeMs: pre.decodeMs,
          preprocessMs: pre.preprocessMs,
          queueMs: batched.queueMs,
          inferenceMs: batched.runMs,
          postprocessMs: post.postprocessMs,
          batchSize: batched.batchSize,
        },
      };
    } finally {
      releaseSlot();
      if (kept) this.keptBudget.release(pixelBytes(kept), caller);
    }
  }

  /**
   * `kept` counted in the kept images' budget, from the parent's queue until
   * its crops are cut; none when it does not fit (the organization's part, or
   * the whole), its buffer then given back at once and the stages not run.
   */
  private counted(kept: KeptImage, caller: string): KeptImage | undefined {
    if (this.keptBudget.tryReserve(pixelBytes(kept), caller)) return kept;
    this.keptImages.give(kept.data);
    return undefined;
  }

  /**
   * One image's input tensor, as the model takes it (`input`: its bytes,
   * exactly a slot's), run through the version's slots, batcher and
   * instances without pre- or postprocessing: its raw outputs.
   */
  async runTensor(model: LoadedModel, input: Uint8Array, caller = model.versionId): Promise<BatchedOutputs> {
    const slot = await model.slots.acquire();
    try {
      if (input.byteLength !== slot.byteLength)
        throw predictErrors.inferenceFailed(
          model.versionId,
          `an input of ${input.byteLength} bytes, the model's takes ${slot.byteLength}`,
        );
      new Uint8Array(slot).set(input);
      model.batcher.expect();
      try {
        return await model.batcher.submit(slot, 0, caller);
      } catch (error) {
        throw this.failed(model, error as Error);
      }
    } finally {
      model.slots.release(slot);
    }
  }

  private failed(model: LoadedModel, error: Error): DomainError {
    if (error instanceof InstanceRestartingError)
      return predictErrors.instanceRestarting(model.versionId, error.how, error.retryAfterSeconds);
    return predictErrors.inferenceFailed(model.versionId, error.message);
  }

  async close(): Promise<void> {
    await this.models.close();
    await this.pipeline.close();
  }
}
