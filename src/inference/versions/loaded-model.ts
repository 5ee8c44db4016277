// One model version loaded for serving: its instances (each an ONNX Runtime
// session in its own thread), the dynamic batcher in front of them and the
// shared-memory slots its requests' input tensors are written into. How many
// instances of which kind, and how batches form, come from model.json with
// the server's defaults underneath.
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { BatchingDefaults, ExecutionProvider, InstanceDefaults, InstanceKind } from '../../config.js';
import type { LogSettings } from '../../log.js';
import type { BackendInfo } from '../instances/backend.js';
import { DynamicBatcher, type BatchObserver, type BatchPolicy, type RunShare } from '../scheduling/batcher.js';
import { ModelInstance, type Isolation } from '../instances/instance.js';
import { InstanceRestarts } from '../instances/instance-restarts.js';
import type { InstanceWorkerData } from '../instances/instance-host.js';
import {
  maxBatchSizeOf,
  MODEL_FILE,
  padsToMaxBatchSize,
  precisionOf,
  type ModelConfig,
  type Precision,
} from './model-config.js';
import { bytesPerElement, inputElements } from '../pipeline/preprocess.js';
import { SlotPool } from '../pipeline/tensor-slots.js';

export interface ServingDefaults {
  instances: InstanceDefaults;
  /** versions run rewritten (GRAPH_REWRITE: prepared-model.ts) */
  graphRewrite: boolean;
  /** GPU instances' precision where model.json sets none (GPU_PRECISION) */
  gpuPrecision: Precision;
  batching: BatchingDefaults;
  /** ordered execution providers of GPU instances */
  executionProviders: readonly ExecutionProvider[];
  /** WORKERS: pipeline worker threads, the requests that can be preprocessing at once */
  workers: number;
  /** an isolated version's instances each run in a process under this memory limit (MODEL_INSTANCE_MEMORY_MB) */
  instanceMemoryBytes: number;
}

/** GPU instances per device unless told (see planInstances) */
export const GPU_INSTANCES_PER_DEVICE = 2;

export interface InstancePlan {
  kind: InstanceKind;
  /** one entry per instance: its GPU device (0 for CPU instances) */
  devices: number[];
  providers: ExecutionProvider[];
  intraOpThreads: number;
  /** the largest batch the instances are set up for */
  maxBatchSize: number;
  /** every run at maxBatchSize rows (padsToMaxBatchSize) */
  padToMaxBatchSize: boolean;
  precision: Precision;
}

/** model.json's `instances` over the server-wide defaults. */
export function planInstances(config: ModelConfig, defaults: ServingDefaults): InstancePlan {
  const wanted = config.instances ?? {};
  const kind = wanted.kind ?? defaults.instances.kind;
  const gpus = wanted.devices ?? defaults.instances.gpuDevices;
  // GPU: two instances per device. One session's run leaves the device idle
  // while its thread copies tensors in and out and launches kernels; two
  // overlap that: on an H200, single images at 16 clients, 448 req/s
  // against 285 for one, measured on two starts (bench/results/gpu-h200.md). CPU: single-threaded sessions, one per core
  // up to 4, measured faster here than one session using every core, which
  // leaves its thread pool fighting the pipeline workers' decodes
  // (bench/results/batching.md).
  const cores = availableParallelism();
  const count =
    wanted.count ??
    defaults.instances.count ??
    (kind === 'gpu' ? GPU_INSTANCES_PER_DEVICE * gpus.length : Math.min(cores, 4));
  const devices = Array.from({ length: count }, (_, i) => (kind === 'gpu' ? gpus[i % gpus.length]! : 0));
  const providers: ExecutionProvider[] = kind === 'cpu' ? ['cpu'] : [...defaults.executionProviders];
  if (!providers.includes('cpu')) providers.push('cpu');
  const cpuInstances = kind === 'cpu' ? count : 1;
  const intraOpThreads = defaults.instances.intraOpThreads ?? Math.max(1, Math.floor(cores / cpuInstances));
  return {
    kind,
    devices,
    providers,
    intraOpThreads,
    maxBatchSize: maxBatchSizeOf(config, defaults.batching.maxBatchSize),
    padToMaxBatchSize: padsToMaxBatchSize(config, kind),
    precision: precisionOf(config, kind, defaults.gpuPrecision),
  };
}

function batchPolicy(config: ModelConfig, defaults: ServingDefaults, info: BackendInfo): BatchPolicy {
  const wanted = config.batching ?? {};
  return {
    maxBatchSize: info.maxBatchSize,
    maxQueueDelayMs: wanted.maxQueueDelayMs ?? defaults.batching.maxQueueDelayMs,
    preferredBatchSizes: (wanted.preferredBatchSizes ?? []).filter((size) => size <= info.maxBatchSize),
  };
}

export class LoadedModel {
  private constructor(
    readonly versionId: string,
    /** distinguishes this load from a later reload of the same version */
    readonly loadKey: string,
    readonly config: ModelConfig,
    readonly info: BackendInfo,
    readonly instances: readonly ModelInstance[],
    readonly batcher: DynamicBatcher,
    readonly slots: SlotPool,
    /** what this load counts against the memory budget: model file x instances, plus its slots */
    readonly memoryBytes: number,
    /** whose version it is: its isolated instances' memory counts against this organization's budget */
    readonly organizationId: string,
  ) {}

  static async load(
    versionId: string,
    loadKey: string,
    files: { directory: string; cacheDirectory: string | undefined },
    /** run each instance in a child process under a memory limit (a version not trusted with the server's memory) */
    isolated: boolean,
    config: ModelConfig,
    defaults: ServingDefaults,
    /** the server's log settings, which its instances log with */
    log: LogSettings,
    observer: BatchObserver,
    share: RunShare,
    /** told once, when an isolated instance can no longer go on (its memory, crashes, kills): the version must fail */
    onFatal: (reason: string) => void = () => {},
  ): Promise<LoadedModel> {
    const { directory } = files;
    const plan = planInstances(config, defaults);
    const isolation: Isolation | undefined = isolated
      ? { memoryBytes: defaults.instanceMemoryBytes, restarts: new InstanceRestarts(), onFatal }
      : undefined;
    const start = (deviceId: number, i: number) => {
      const data: InstanceWorkerData = {
        directory,
        config,
        options: {
          providers: plan.providers,
          deviceId,
          intraOpThreads: plan.intraOpThreads,
          maxBatchSize: plan.maxBatchSize,
          padToMaxBatchSize: plan.padToMaxBatchSize,
          preparation: {
            cacheDirectory: files.cacheDirectory,
            rewrite: defaults.graphRewrite,
            precision: plan.precision,
          },
          runner: defaults.instances.runner,
          cudaOptions: defaults.instances.cudaOptions,
          pinned: defaults.instances.pinnedMemory,
        },
        log,
      };
      return ModelInstance.start(
        plan.kind === 'gpu' ? `gpu${deviceId}:${i}` : `cpu:${i}`,
        data,
        defaults.batching.runTimeoutMs,
        isolation,
      );
    };
    // The first instance prepares the model (prepared-model.ts) and caches
    // it; the others start once it has, and read it back.
    const [first, ...rest] = plan.devices;
    const started = [
      await start(first!, 0).then(
        (value) => ({ status: 'fulfilled' as const, value }),
        (reason: unknown) => ({ status: 'rejected' as const, reason }),
      ),
    ];
    if (started[0]!.status === 'fulfilled')
      started.push(...(await Promise.allSettled(rest.map((deviceId, i) => start(deviceId, i + 1)))));
    const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure) {
      await Promise.all(instances.map((i) => i.close()));
      throw failure.reason as Error;
    }
    const info = instances[0]!.info;
    const policy = batchPolicy(config, defaults, info);
    const slotBytes = inputElements(config.input) * bytesPerElement(info.inputDtype);
    // Enough slots for every pipeline worker to be writing one while each
    // instance runs a batch and the next batch waits.
    const slotCount = defaults.workers + 2 * policy.maxBatchSize * instances.length;
    const modelBytes = (await stat(join(directory, MODEL_FILE))).size;
    return new LoadedModel(
      versionId,
      loadKey,
      config,
      info,
      instances,
      // GPU instances take no CPU permits (fair-share.ts).
      new DynamicBatcher(instances, policy, observer, plan.kind === 'cpu' ? share : undefined),
      new SlotPool(slotBytes, slotCount),
      modelBytes * instances.length + slotBytes * slotCount,
      share.organizationId,
    );
  }

  /** false once an instance has died (crashed, or stopped past INFERENCE_TIMEOUT_MS): the load is replaced */
  get healthy(): boolean {
    return this.instances.every((i) => i.alive);
  }

  /** what its instance processes hold resident, as last measured (0 for threads) */
  get residentBytes(): number {
    return this.instances.reduce((sum, i) => sum + i.residentBytes, 0);
  }

  async close(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.close()));
  }
}
