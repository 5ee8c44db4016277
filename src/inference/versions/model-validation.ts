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
import type { Config, InstanceKind } from '../../config.js';
import { CodedError, deserializeError, revivable } from '../../errors.js';
import { logSettings, type LogSettings } from '../../log.js';
import type { WarmUpEvent } from '../instances/backend.js';
import type { RunShare } from '../scheduling/batcher.js';
import { LIMIT_NOT_SET, OUT_OF_MEMORY, OutOfMemoryError, spawnLimited } from '../instances/limited-process.js';
import { maxBatchSizeOf, precisionOf, type ModelConfig, type Precision } from './model-config.js';
import type { ValidationReport, ValidationRequest, WarmUpLine } from './validate-child.js';
import { ValidationTurns } from './validation-turns.js';

const CHILD_FILE = new URL(`./validate-child${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
const WARM_UP_LINE_START = '{"warmUp":';

/**
 * A warm-up run after the first (the batch probe) may take this many times
 * its images times the first run's time. The first run, of one image, bears
 * the first-run costs (arenas allocated, kernels chosen), so a later run
 * usually takes less than its images times that; the margin is for a run
 * the CPU slows: the validation runs at niceness 10, and when the serving
 * threads take its core between the two runs it gets about a tenth of it
 * (scheduler weights 110 to 1024), and a new batch shape has first-run
 * costs of its own (about twice more).
 */
const WARM_UP_RUN_FACTOR = 20;
/**
 * The least a later warm-up run gets, however fast the first: on a run of
 * a few milliseconds, a scheduler slice, a page fault storm or the arena's
 * growth for the new shape outweigh any factor. Small beside
 * INFERENCE_TIMEOUT_MS (30 s by default): a model that loops on a batch
 * holds a low-priority core this long, not the whole run limit.
 */
const WARM_UP_RUN_FLOOR_MS = 2000;

/** What a warm-up run of `images` after a first run of `firstRunMs` may take: never more than INFERENCE_TIMEOUT_MS. */
function laterWarmUpRunMs(firstRunMs: number, images: number, runTimeoutMs: number): number {
  return Math.min(runTimeoutMs, Math.max(WARM_UP_RUN_FLOOR_MS, Math.ceil(WARM_UP_RUN_FACTOR * images * firstRunMs)));
}

/** a duration in ms as the reasons write it: tenths below 10 ms */
const formatMs = (ms: number) => (ms < 10 ? ms.toFixed(1) : String(Math.round(ms)));

export interface ModelValidationSettings {
  /** RLIMIT_DATA of the validation process (MODEL_VALIDATION_MEMORY_MB) */
  memoryBytes: number;
  /** the validation process is killed past this (MODEL_VALIDATION_TIMEOUT_MS) */
  timeoutMs: number;
  /**
   * INFERENCE_TIMEOUT_MS, the limit of one served batch: once the model is
   * loaded, the first run of its warm-up (one image) gets no longer, and
   * each later one (a batch of two images) gets laterWarmUpRunMs of the
   * first's time, within it. A model whose runs cannot end in that time
   * cannot serve, and one that loops is stopped after it, not after the
   * whole MODEL_VALIDATION_TIMEOUT_MS.
   */
  runTimeoutMs: number;
  /** MAX_BATCH_SIZE: the batch the warm-up probes is the one the version will run (maxBatchSizeOf) */
  maxBatchSize: number;
  /** GRAPH_REWRITE, the instances' kind and GPU_PRECISION: the model is validated as it will run */
  graphRewrite: boolean;
  instanceKind: InstanceKind;
  gpuPrecision: Precision;
  /** LOG_LEVEL and LOG_FORMAT, which the validation process logs with */
  log: LogSettings;
}

export function modelValidationSettings(config: Config): ModelValidationSettings {
  return {
    ...config.modelValidation,
    runTimeoutMs: config.batching.runTimeoutMs,
    maxBatchSize: config.batching.maxBatchSize,
    graphRewrite: config.graphRewrite,
    instanceKind: config.instances.kind,
    gpuPrecision: config.gpuPrecision,
    log: logSettings(config),
  };
}

/** Why a model cannot serve, worded for its owner. */
export class ModelValidationError extends CodedError {
  readonly code = 'MODEL_VALIDATION_FAILED';
  static {
    revivable('MODEL_VALIDATION_FAILED', ({ message }) => new ModelValidationError(message));
  }
}

export interface ValidationResult {
  /** the validation process's peak resident memory (ru_maxrss) */
  maxRssBytes: number;
  ms: number;
}

/** Model validations' tuning, named once here (docs/ARCHITECTURE.md, "Tuning constants", lists it). */
const VALIDATION_TUNING = {
  /** validation processes at once, all organizations together: each may use MODEL_VALIDATION_MEMORY_MB and a core */
  concurrent: 2,
  /** the validation process's niceness: below the server's own threads (0) */
  niceness: 10,
} as const;

const turns = new ValidationTurns(VALIDATION_TUNING.concurrent);

/**
 * A validation is background work: a model that loops until it is killed
 * gets what the serving threads leave of the cores, not a core of its own
 * while a busy organization's runs wait for it.
 */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return; // it could not start: reported through 'error'
  try {
    setPriority(pid, VALIDATION_TUNING.niceness);
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
export function validateModel(
  directory: string,
  config: ModelConfig,
  settings: ModelValidationSettings,
  options: ValidationOptions = {},
): Promise<ValidationResult> {
  const { cacheDirectory, signal, share } = options;
  const maxBatchSize = maxBatchSizeOf(config, settings.maxBatchSize);
  const precision = precisionOf(config, config.instances.kind ?? settings.instanceKind, settings.gpuPrecision);
  const preparation = { cacheDirectory, rewrite: settings.graphRewrite, precision };
  const run = () => runChild({ directory, config, maxBatchSize, preparation, log: settings.log }, settings, signal);
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
export class ValidationAbortedError extends CodedError {
  readonly code = 'MODEL_VALIDATION_ABORTED';
  constructor() {
    super('model validation stopped: the server is stopping');
  }
  static {
    revivable('MODEL_VALIDATION_ABORTED', () => new ValidationAbortedError());
  }
}

function runChild(
  request: ValidationRequest,
  settings: ModelValidationSettings,
  signal: AbortSignal | undefined,
): Promise<ValidationResult> {
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
  const timer = setTimeout(
    stop(`model load and warm-up took longer than ${settings.timeoutMs / 1000} s (MODEL_VALIDATION_TIMEOUT_MS)`),
    settings.timeoutMs,
  );
  // Each warm-up run has a limit of its own: the first (one image) what a
  // served batch gets, every later one a limit derived from the first's time.
  let warmUpTimer: NodeJS.Timeout | undefined;
  let firstRunMs: number | undefined;
  const onWarmUp = (event: WarmUpEvent) => {
    clearTimeout(warmUpTimer);
    if ('ran' in event) {
      firstRunMs ??= event.ran.ms;
      return;
    }
    const { images } = event.run;
    if (firstRunMs === undefined) {
      const reason = `model warm-up took longer than ${settings.runTimeoutMs / 1000} s on one image (INFERENCE_TIMEOUT_MS): its runs could not end in time to serve`;
      warmUpTimer = setTimeout(stop(reason), settings.runTimeoutMs);
      return;
    }
    const limitMs = laterWarmUpRunMs(firstRunMs, images, settings.runTimeoutMs);
    const what = images === 1 ? 'one image again' : `a batch of ${images} images`;
    const reason =
      `model warm-up with ${what} took longer than ${limitMs / 1000} s, where one image took ${formatMs(firstRunMs)} ms ` +
      `(its limit: ${WARM_UP_RUN_FACTOR} x the batch x that, at least ${WARM_UP_RUN_FLOOR_MS / 1000} s, at most INFERENCE_TIMEOUT_MS): its runs could not end in time to serve`;
    warmUpTimer = setTimeout(stop(reason), limitMs);
  };
  let stdout = '';
  let stderr = '';
  /** the last line, not yet ended */
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout = (stdout + d).slice(-65536);
    const lines = (partial + d).split('\n');
    partial = lines.pop()!.slice(-65536);
    for (const line of lines) {
      if (!line.startsWith(WARM_UP_LINE_START)) continue;
      try {
        onWarmUp((JSON.parse(line) as WarmUpLine).warmUp);
      } catch {
        // Not a whole line of ours: the final report says what happened.
      }
    }
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
        const error = deserializeError(report.error);
        return reject(
          new ModelValidationError(
            error instanceof OutOfMemoryError ? memoryReason(settings, error.message) : error.message,
          ),
        );
      }
      if (code === LIMIT_NOT_SET) {
        return reject(
          new ModelValidationError(`the model validation process could not set its memory limit: ${stderr.trim()}`),
        );
      }
      // No report: the process died. Under the memory limit that is most
      // often an allocation the runtime could not survive.
      if (OUT_OF_MEMORY.test(stderr)) return reject(new ModelValidationError(memoryReason(settings, stderr)));
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      const lines = stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('Node.js v'));
      const last = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.pop();
      const mb = Math.round(settings.memoryBytes / (1024 * 1024));
      const hint = killedBy ? `; it may need more than ${mb} MB (MODEL_VALIDATION_MEMORY_MB)` : '';
      reject(
        new ModelValidationError(
          `the model validation process ${how} while loading and running the model${last ? `: ${last}` : ''}${hint}`,
        ),
      );
    });
  });
}
