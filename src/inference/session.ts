// Creating one ONNX Runtime session and checking that model.json describes
// the model it loaded. Runs inside an instance thread (instance-worker.ts).
import * as ort from 'onnxruntime-node';
import type { ExecutionProvider } from '../config.js';
import { MODEL_FILE, type ModelConfig } from './model-config.js';
import type { OutputInfo } from './outputs/index.js';

export class ModelLoadError extends Error {}

export interface SessionOptions {
  /** ordered; the first that loads is used (CPU instances pass ['cpu']) */
  providers: readonly ExecutionProvider[];
  /** GPU device of the accelerator providers */
  deviceId: number;
  intraOpThreads: number;
}

export interface LoadedSession {
  session: ort.InferenceSession;
  provider: ExecutionProvider;
  /** why preferred execution providers were skipped, e.g. "cuda: ..." */
  failures: string[];
}

function providerOption(provider: ExecutionProvider, deviceId: number): ort.InferenceSession.ExecutionProviderConfig {
  // The WebGPU provider (bundled with onnxruntime-node, Dawn over Vulkan on
  // Linux) picks its adapter itself and takes no device id.
  if (provider === 'cpu' || provider === 'webgpu') return provider;
  return { name: provider, deviceId };
}

/** A session of the model at `source` (a file, or the model's bytes). */
export async function createSession(source: string | Uint8Array, options: SessionOptions): Promise<LoadedSession> {
  const failures: string[] = [];
  for (const provider of options.providers) {
    try {
      const create = (sessionOptions: ort.InferenceSession.SessionOptions) =>
        typeof source === 'string' ? ort.InferenceSession.create(source, sessionOptions) : ort.InferenceSession.create(source, sessionOptions);
      const session = await create({
        // CPU stays listed after an accelerator so unsupported nodes still run.
        executionProviders: provider === 'cpu' ? ['cpu'] : [providerOption(provider, options.deviceId), 'cpu'],
        intraOpNumThreads: options.intraOpThreads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return { session, provider, failures };
    } catch (error) {
      failures.push(`${provider}: ${(error as Error).message}`);
    }
  }
  throw new ModelLoadError(`no execution provider could load ${MODEL_FILE}: ${failures.join('; ')}`);
}

/**
 * What the model's first axis allows: a dynamic axis takes any batch size, a
 * fixed one exactly that many images (a smaller batch is padded).
 */
export type BatchAxis = { kind: 'dynamic' } | { kind: 'fixed'; size: number };

/** Checks the image input against model.json and reads its batch axis. */
export function checkInput(config: ModelConfig, meta: ort.InferenceSession.ValueMetadata | undefined, name: string): BatchAxis {
  if (!meta) throw new ModelLoadError(`the model has no input named "${name}"`);
  if (!meta.isTensor) throw new ModelLoadError(`input "${name}" is not a tensor`);
  const { width, height, layout, dtype, batchAxis } = config.input;
  if (meta.type !== dtype) {
    throw new ModelLoadError(`model.json says input.dtype ${dtype} but input "${name}" is ${meta.type}`);
  }
  const expected = layout === 'NCHW' ? [3, height, width] : [height, width, 3];
  const shape = meta.shape;
  const fits = (d: number | string, want: number) => typeof d !== 'number' || d < 0 || d === want;
  const image = batchAxis ? shape.slice(1) : shape;
  const matches = shape.length === expected.length + (batchAxis ? 1 : 0) && image.every((d, i) => fits(d, expected[i]!));
  if (!matches) {
    const described = batchAxis ? `${layout} [1, ${expected.join(', ')}]` : `${layout} without a batch axis [${expected.join(', ')}]`;
    const hint = batchAxis && shape.length === expected.length ? ' (an input without a batch axis needs "batchAxis": false in model.json\'s input)' : '';
    throw new ModelLoadError(`model.json describes input "${name}" as ${described} but the model's input has shape [${shape.join(', ')}]${hint}`);
  }
  // No batch axis runs like a fixed batch of one; only the tensor's shape differs.
  if (!batchAxis) return { kind: 'fixed', size: 1 };
  const batch = shape[0]!;
  return typeof batch === 'number' && batch > 0 ? { kind: 'fixed', size: batch } : { kind: 'dynamic' };
}

export function outputInfos(session: ort.InferenceSession): OutputInfo[] {
  return session.outputMetadata.map((m) => ({
    name: m.name,
    shape: m.isTensor ? m.shape : [],
    type: m.isTensor ? m.type : 'non-tensor',
  }));
}
