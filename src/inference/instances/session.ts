// Creating one ONNX Runtime session (session-runner.ts: onnxruntime-node or the
// native runner) and checking that model.json describes the model it
// loaded. Runs inside an instance thread (instance-entry.ts).
import { setTimeout as delay } from 'node:timers/promises';
import { CodedError, revivable } from '../../errors.js';
import type { ExecutionProvider } from '../../config.js';
import type { Logger } from '../../log.js';
import { MODEL_FILE, type ModelConfig } from '../versions/model-config.js';
import type { OutputInfo } from '../outputs/index.js';
import {
  createRunner,
  type RunnerChoice,
  type RunnerKind,
  type SessionRunner,
  type ValueMetadata,
} from './session-runner.js';

export class ModelLoadError extends CodedError {
  readonly code = 'MODEL_LOAD_FAILED';
  static {
    revivable('MODEL_LOAD_FAILED', ({ message }) => new ModelLoadError(message));
  }
}

export interface SessionOptions {
  /** ordered; the first that loads is used (CPU instances pass ['cpu']) */
  providers: readonly ExecutionProvider[];
  /** GPU device of the accelerator providers */
  deviceId: number;
  intraOpThreads: number;
  /** INSTANCE_RUNNER: which runner drives the session (auto: backend.ts chooses; onnxruntime-node here) */
  runner?: RunnerChoice;
  /** CUDA_PROVIDER_OPTIONS, for the native runner */
  cudaOptions?: Readonly<Record<string, string>>;
  /** PINNED_MEMORY, for the native runner on CUDA */
  pinned?: boolean;
}

export interface LoadedSession {
  runner: SessionRunner;
  provider: ExecutionProvider;
  /** why preferred execution providers were skipped, e.g. "cuda: ..." */
  failures: string[];
}

/**
 * Waits before each further attempt at a GPU provider's session. On an H200,
 * creating a CUDA session in one thread failed now and then ("CUDA failure
 * 900: operation not permitted when stream is capturing", from the provider's
 * cudaDeviceSynchronize) while another thread's session on the same device was
 * running: a collision, not a fault of the model, gone a moment later. The
 * model was already validated on the CPU, so a GPU provider that still fails
 * after these is reported as before, about 2 s later.
 */
const GPU_SESSION_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1000];

/**
 * The failures worth another attempt: CUDA's errors 900-908, each a clash with
 * a stream capture in progress (cudaErrorStreamCapture*), which ONNX Runtime
 * reports only in its message, as "CUDA failure <code>". Anything else (the
 * provider's library missing, a graph the provider refuses) fails the same way
 * each time, and retrying would only delay the next provider by 2 s.
 */
const STREAM_CAPTURE_CLASH = /CUDA failure 90\d\b/;

/** A session of the model at `source` (a file, or the model's bytes). */
export async function createSession(
  source: string | Uint8Array,
  options: SessionOptions,
  log: Logger,
  create: typeof createRunner = createRunner,
  retryDelaysMs: readonly number[] = GPU_SESSION_RETRY_DELAYS_MS,
): Promise<LoadedSession> {
  const failures: string[] = [];
  const kind: RunnerKind = options.runner === 'native' ? 'native' : 'onnxruntime-node';
  for (const provider of options.providers) {
    const delays = provider === 'cpu' ? [] : retryDelaysMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const runner = await create(kind, source, { ...options, provider });
        return { runner, provider, failures };
      } catch (error) {
        const failure = `${provider} (${kind}): ${(error as Error).message}`;
        if (attempt >= delays.length || !STREAM_CAPTURE_CLASH.test(failure)) {
          failures.push(failure);
          break;
        }
        log.warn('session creation failed, trying again', { provider, attempt: attempt + 1, error: failure });
        await delay(delays[attempt]!);
      }
    }
  }
  throw new ModelLoadError(`no execution provider could load ${MODEL_FILE}: ${failures.join('; ')}`);
}

/**
 * What the model's first axis allows: a dynamic axis takes any batch size, a
 * fixed one exactly that many images (a smaller batch is padded); none, an
 * input of one image without a batch axis ([3, H, W], as torchvision's
 * detectors export), runs like a fixed batch of one.
 */
export type BatchAxis = { kind: 'dynamic' } | { kind: 'fixed'; size: number } | { kind: 'none' };

/** Rows a run of this axis always holds (undefined: as many as the batch). */
export function fixedRows(axis: BatchAxis): number | undefined {
  return axis.kind === 'fixed' ? axis.size : axis.kind === 'none' ? 1 : undefined;
}

/**
 * Checks the image input against model.json and reads its batch axis. The
 * graph says whether there is one (a rank-3 input has none); model.json's
 * `batchAxis`, when given, must agree.
 */
export function checkInput(config: ModelConfig, meta: ValueMetadata | undefined, name: string): BatchAxis {
  if (!meta) throw new ModelLoadError(`the model has no input named "${name}"`);
  if (meta.type === 'non-tensor') throw new ModelLoadError(`input "${name}" is not a tensor`);
  const { width, height, layout, dtype } = config.input;
  if (meta.type !== dtype) {
    throw new ModelLoadError(`model.json says input.dtype ${dtype} but input "${name}" is ${meta.type}`);
  }
  const expected = layout === 'NCHW' ? [3, height, width] : [height, width, 3];
  const shape = meta.shape;
  const batchAxis = config.input.batchAxis ?? shape.length !== expected.length;
  const fits = (d: number | string, want: number) => typeof d !== 'number' || d < 0 || d === want;
  const image = batchAxis ? shape.slice(1) : shape;
  const matches =
    shape.length === expected.length + (batchAxis ? 1 : 0) && image.every((d, i) => fits(d, expected[i]!));
  if (!matches) {
    const described = batchAxis
      ? `${layout} [1, ${expected.join(', ')}]`
      : `${layout} without a batch axis [${expected.join(', ')}]`;
    const hint =
      config.input.batchAxis === true && shape.length === expected.length
        ? ' (this input has no batch axis: remove "batchAxis": true from model.json\'s input)'
        : '';
    throw new ModelLoadError(
      `model.json describes input "${name}" as ${described} but the model's input has shape [${shape.join(', ')}]${hint}`,
    );
  }
  if (!batchAxis) return { kind: 'none' };
  const batch = shape[0]!;
  return typeof batch === 'number' && batch > 0 ? { kind: 'fixed', size: batch } : { kind: 'dynamic' };
}

export function outputInfos(runner: SessionRunner): OutputInfo[] {
  return runner.outputs.map((m) => ({ name: m.name, shape: m.shape, type: m.type }));
}
