// Validating a model version that is not yet known to load, before any of
// it runs in the server: a child process (validate-child.ts) loads it and
// runs the warm-up under a memory limit (limited-process.ts) and a time
// limit, one ONNX Runtime thread. A few-KB model can ask for gigabytes at its
// first run (an Expand or ConstantOfShape to billions of elements); inside
// the server that would take every tenant down, in the child it fails the
// version with a reason. A validation waits for its organization's turn
// (validation-turns.ts: one at a time per organization, organizations in
// turn) and then, like any run, for a CPU run permit of the fair share
// (fair-share.ts), charging its time to its organization: an upload that
// loops until it is killed costs its own organization's share, not the
// others'.
import { setPriority } from 'node:os';
import { extname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Config, InstanceKind } from '../config.js';
import type { RunShare } from './batcher.js';
import { LIMIT_NOT_SET, OUT_OF_MEMORY, spawnLimited } from './limited-process.js';
import { maxBatchSizeOf, precisionOf, type ModelConfig, type Precision } from './model-config.js';
import type { ValidationReport, ValidationRequest, WarmUpLine } from './validate-child.js';
import { ValidationTurns } from './validation-turns.js';

const CHILD_FILE = new URL(`./validate-child${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const WARM_UP_LINE = JSON.stringify({ warmUp: true } satisfies WarmUpLine);

export interface ModelValidationSettings {
  /** RLIMIT_DATA of the validation process (MODEL_VALIDATION_MEMORY_MB) */
  memoryBytes: number;
  /** the validation process is killed past this (MODEL_VALIDATION_TIMEOUT_MS) */
  timeoutMs: number;
  /**
   * INFERENCE_TIMEOUT_MS, the limit of one served batch: once the model is
   * loaded, each run of its warm-up (a batch of two images, then one) gets no longer.
   * A model whose runs cannot end in that time cannot serve, and one that
   * loops is stopped after it, not after the whole MODEL_VALIDATION_TIMEOUT_MS.
   */
  runTimeoutMs: number;
  /** MAX_BATCH_SIZE: the batch the warm-up probes is the one the version will run (maxBatchSizeOf) */
  maxBatchSize: number;
  /** GRAPH_REWRITE, the instances' kind and GPU_PRECISION: the model is validated as it will run */
  graphRewrite: boolean;
  instanceKind: InstanceKind;
  gpuPrecision: Precision;
}

export function modelValidationSettings(config: Config): ModelValidationSettings {
  return {
    ...config.modelValidation,
    runTimeoutMs: config.batching.runTimeoutMs,
    maxBatchSize: config.batching.maxBatchSize,
    graphRewrite: config.graphRewrite,
    instanceKind: config.instances.kind,
    gpuPrecision: config.gpuPrecision,
  };
}

/** Why a model cannot serve, worded for its owner. */
class ModelValidationError extends Error {}

export interface ValidationResult {
  /** the validation process's peak resident memory (ru_maxrss) */
  maxRssBytes: number;
  ms: number;
}

/** validation processes at once, all organizations together: each may use MODEL_VALIDATION_MEMORY_MB and a core */
const turns = new ValidationTurns(2);

/** the validation process's niceness: below the server's own threads (0) */
const VALIDATION_NICENESS = 10;

/**
 * A validation is background work: a model that loops until it is killed
 * gets what the serving threads leave of the cores, not a core of its own
 * while a busy organization's runs wait for it.
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return; // it could not start: reported through 'error'
  try {
    setPriority(pid, VALIDATION_NICENESS);
  } catch {
    // It ended already: nothing left to lower.
  }
}

function memoryReason(settings: ModelValidationSettings, detail: string): string {
  const size = /requested buffer of size (\d+)/.exec(detail)?.[1];
  const mb = Math.round(settings.memoryBytes / (1024 * 1024));
  const what = size ? ` (one of its tensors alone is ${(Number(size) / (1024 * 1024)).toFixed(0)} MB)` : '';
  return `model needs more than ${mb} MB to load and run${what} (MODEL_VALIDATION_MEMORY_MB)`;
}

/**
 * Loads the model and runs its warm-up in a limited child process. Resolves
 * with the child's peak memory; throws ModelValidationError with the reason
 * the version cannot serve.
 */
export function validateModel(directory: string, config: ModelConfig, settings: ModelValidationSettings, options: ValidationOptions = {}): Promise<ValidationResult> {
  const { cacheDirectory, signal, share } = options;
  const maxBatchSize = maxBatchSizeOf(config, settings.maxBatchSize);
  const precision = precisionOf(config, config.instances.kind ?? settings.instanceKind, settings.gpuPrecision);
  const preparation = { cacheDirectory, rewrite: settings.graphRewrite, precision };
  const run = () => runChild({ directory, config, maxBatchSize, preparation }, settings, signal);
  return turns.run(share?.organizationId ?? '', share ? () => withPermit(share, run) : run);
}

export interface ValidationOptions {
  /** where the prepared model is cached for the version's instances; undefined: not kept */
  cacheDirectory?: string;
  /**
   * Aborted when the server stops: the process is killed and the promise
   * rejects with ValidationAbortedError once it has exited, so nothing it
   * started (the prepared model's cache files) outlives the server.
   */
  signal?: AbortSignal;
  /** the fair share of the CPU the validation runs in, as its organization's (none: the command line's own process) */
  share?: RunShare;
}

/** Runs `task` holding a run permit of `share`, charging its time to the organization. */
async function withPermit<T>({ gate, organizationId }: RunShare, task: () => Promise<T>): Promise<T> {
  await gate.acquire(organizationId);
  const started = performance.now();
  try {
    return await task();
  } finally {
    gate.release(organizationId, performance.now() - started);
  }
}

/** The validation was stopped with the server: no verdict on the model. */
export class ValidationAbortedError extends Error {
  constructor() {
    super('model validation stopped: the server is stopping');
  }
}

function runChild(request: ValidationRequest, settings: ModelValidationSettings, signal: AbortSignal | undefined): Promise<ValidationResult> {
  if (signal?.aborted) return Promise.reject(new ValidationAbortedError());
  const started = performance.now();
  const child = spawnLimited(CHILD_FILE, settings.memoryBytes, { stdio: ['pipe', 'pipe', 'pipe'] });
  lowerPriority(child.pid);
  const abort = () => child.kill('SIGKILL');
  signal?.addEventListener('abort', abort, { once: true });
  /** why the process was killed for its time, if it was */
  let timedOut: string | undefined;
  const stop = (reason: string) => () => {
    timedOut = reason;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(stop(`model load and warm-up took longer than ${settings.timeoutMs / 1000} s (MODEL_VALIDATION_TIMEOUT_MS)`), settings.timeoutMs);
  let warmUpTimer: NodeJS.Timeout | undefined;
  // One run when it does not batch, else two (a batch of two images, then one): each gets what a served batch gets.
  const warmUpMs = settings.runTimeoutMs * (request.maxBatchSize > 1 ? 2 : 1);
  const warmUpReason = `model warm-up took longer than ${warmUpMs / 1000} s (INFERENCE_TIMEOUT_MS for each of its runs): its runs could not end in time to serve`;
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout = (stdout + d).slice(-65536);
    if (!warmUpTimer && stdout.includes(WARM_UP_LINE)) warmUpTimer = setTimeout(stop(warmUpReason), warmUpMs);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8192)));
  child.stdin!.on('error', () => {}); // the child may end before reading it all
  child.stdin!.end(JSON.stringify(request));
  const ended = () => {
    clearTimeout(timer);
    clearTimeout(warmUpTimer);
    signal?.removeEventListener('abort', abort);
  };

  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      ended();
      reject(new ModelValidationError(`the model validation process could not start: ${error.message}`));
    });
    child.on('close', (code, killedBy) => {
      ended();
      const ms = performance.now() - started;
      if (signal?.aborted) return reject(new ValidationAbortedError());
      if (timedOut) return reject(new ModelValidationError(timedOut));
      let report: ValidationReport | undefined;
      try {
        report = JSON.parse(stdout.trim().split('\n').pop() ?? '') as ValidationReport;
      } catch {
        report = undefined;
      }
      if (report?.ok) return resolve({ maxRssBytes: report.maxRssBytes, ms });
      if (report) {
        return reject(new ModelValidationError(OUT_OF_MEMORY.test(report.reason) ? memoryReason(settings, report.reason) : report.reason));
      }
      if (code === LIMIT_NOT_SET) {
        return reject(new ModelValidationError(`the model validation process could not set its memory limit: ${stderr.trim()}`));
      }
      // No report: the process died. Under the memory limit that is most
      // often an allocation the runtime could not survive.
      if (OUT_OF_MEMORY.test(stderr)) return reject(new ModelValidationError(memoryReason(settings, stderr)));
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('Node.js v'));
      const last = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.pop();
      const mb = Math.round(settings.memoryBytes / (1024 * 1024));
      const hint = killedBy ? `; it may need more than ${mb} MB (MODEL_VALIDATION_MEMORY_MB)` : '';
      reject(new ModelValidationError(`the model validation process ${how} while loading and running the model${last ? `: ${last}` : ''}${hint}`));
    });
  });
}
