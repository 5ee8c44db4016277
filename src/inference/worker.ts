// Entry point of an inference worker thread (run by piscina). A worker holds
// one ModelRunner per loaded model version and runs one task at a time:
// load/unload (broadcast to every worker, see pool.ts) or predict.
import { workerData } from 'piscina';
import { ApiError, type SerializedApiError } from '../errors.js';
import { log } from '../log.js';
import { readModelConfig } from './model-config.js';
import { ModelRunner, type PredictOptions, type SessionSettings, type StageTimings } from './model-runner.js';
import { predictErrors } from './predict-errors.js';
import { extractImage } from './request-body.js';

export interface WorkerSettings extends SessionSettings {
  maxImageBytes: number;
  maxImagePixels: number;
}

export interface VersionRef {
  versionId: string;
  directory: string;
}

export interface BroadcastTask extends VersionRef {
  /** Int32Array[1] over shared memory: how many workers reached the barrier */
  barrier: SharedArrayBuffer;
  workers: number;
  timeoutMs: number;
}

export interface PredictTask extends VersionRef {
  /** the request body, transferred (not copied) from the main thread */
  body: ArrayBuffer;
  contentType: string;
  options: PredictOptions;
}

export type PredictOutcome =
  | { ok: true; json: string; timings: StageTimings }
  | { ok: false; error: SerializedApiError };

const settings = workerData as WorkerSettings;
const runners = new Map<string, Promise<ModelRunner>>();

/** The runner of a version, loading it on first use (e.g. in a replacement worker). */
function runnerFor(ref: VersionRef): Promise<ModelRunner> {
  let runner = runners.get(ref.versionId);
  if (!runner) {
    runner = readModelConfig(ref.directory).then((config) => ModelRunner.load(ref.directory, config, settings));
    runners.set(ref.versionId, runner);
    runner.catch(() => runners.delete(ref.versionId));
  }
  return runner;
}

/**
 * Holds this worker until all `workers` have arrived. A worker waiting here
 * cannot take another task, so N broadcast tasks land on N distinct workers.
 */
function arriveAndWait(task: BroadcastTask): void {
  const arrived = new Int32Array(task.barrier);
  Atomics.add(arrived, 0, 1);
  Atomics.notify(arrived, 0);
  const deadline = Date.now() + task.timeoutMs;
  for (let seen = Atomics.load(arrived, 0); seen < task.workers; seen = Atomics.load(arrived, 0)) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`only ${seen} of ${task.workers} workers reached the barrier`);
    Atomics.wait(arrived, 0, seen, Math.min(left, 1000));
  }
}

export interface LoadResult {
  provider: string;
  providerFailures: readonly string[];
}

async function load(task: BroadcastTask): Promise<LoadResult> {
  let outcome: LoadResult | Error;
  try {
    const runner = await runnerFor(task);
    outcome = { provider: runner.provider, providerFailures: runner.providerFailures };
  } catch (error) {
    outcome = error as Error;
  }
  arriveAndWait(task);
  if (outcome instanceof Error) throw outcome;
  return outcome;
}

async function unload(task: BroadcastTask): Promise<void> {
  const runner = runners.get(task.versionId);
  runners.delete(task.versionId);
  try {
    await (await runner?.catch(() => undefined))?.release();
  } finally {
    arriveAndWait(task);
  }
}

async function predict(task: PredictTask): Promise<PredictOutcome> {
  try {
    const image = extractImage(task.contentType, new Uint8Array(task.body), settings.maxImageBytes);
    let runner: ModelRunner;
    try {
      runner = await runnerFor(task);
    } catch (error) {
      throw predictErrors.loadFailed(task.versionId, (error as Error).message);
    }
    const result = await runner.predict(image, task.options, settings.maxImagePixels);
    return { ok: true, json: result.json, timings: result.timings };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.toJSON() };
    log.error('inference failed', { versionId: task.versionId, error });
    return { ok: false, error: predictErrors.inferenceFailed(task.versionId, (error as Error).message).toJSON() };
  }
}

export type WorkerTask =
  | ({ op: 'load' } & BroadcastTask)
  | ({ op: 'unload' } & BroadcastTask)
  | ({ op: 'predict' } & PredictTask);

/**
 * piscina's single entry point. (Named task functions would be neater, but
 * piscina imports them before tsx's loader is active in development.)
 */
export default function run(task: WorkerTask): Promise<LoadResult | PredictOutcome | void> {
  switch (task.op) {
    case 'load':
      return load(task);
    case 'unload':
      return unload(task);
    case 'predict':
      return predict(task);
  }
}
