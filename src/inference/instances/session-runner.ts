// What runs a session: onnxruntime-node's JavaScript API, or the addon's
// native runner (native/src/ort_runner.cc), which drives the same ONNX
// Runtime library through its C API with what the JavaScript API cannot
// set: CUDA provider options (cuDNN algorithm search, CUDA graphs, TF32, a
// memory limit), page-locked host buffers and I/O binding. Both take plain
// tensors in and give plain tensors out, so the backend does not care.
//
// Which one an instance uses (INSTANCE_RUNNER): `auto` tries the native
// runner for a CUDA instance, and onnxruntime-node should its load or
// warm-up fail (backend.ts); onnxruntime-node for the CPU (the same kernels
// either way) and for TensorRT and WebGPU, which the native runner does not
// drive.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { ExecutionProvider } from '../../config.js';
import { native, type NativeSession } from '../native.js';
import type { TensorLike } from '../outputs/index.js';

export type RunnerKind = 'onnxruntime-node' | 'native';
export type RunnerChoice = RunnerKind | 'auto';

/** A tensor fed to a run: element type as ONNX Runtime names it, dims, data. */
export interface Feed {
  type: string;
  dims: readonly number[];
  data: Float32Array | Uint16Array | Uint8Array | BigInt64Array | Int32Array;
}

/** A graph input or output as the session reports it: dims may be symbolic (strings) or -1. */
export interface ValueMetadata {
  name: string;
  type: string;
  shape: ReadonlyArray<number | string>;
}

export interface SessionRunner {
  readonly kind: RunnerKind;
  readonly inputs: readonly ValueMetadata[];
  readonly outputs: readonly ValueMetadata[];
  run(feeds: Readonly<Record<string, Feed>>): Promise<Record<string, TensorLike>>;
  release(): Promise<void>;
}

export interface RunnerOptions {
  provider: ExecutionProvider;
  deviceId: number;
  intraOpThreads: number;
  /** native runner, CUDA: ONNX Runtime's CUDA provider options by name (CUDA_PROVIDER_OPTIONS) */
  cudaOptions?: Readonly<Record<string, string>>;
  /** native runner, CUDA: inputs and outputs through page-locked host buffers (PINNED_MEMORY) */
  pinned?: boolean;
  /** false: no graph optimisation (a session only read for its metadata) */
  optimize?: boolean;
}

// --- onnxruntime-node ---

function providerOption(provider: ExecutionProvider, deviceId: number): ort.InferenceSession.ExecutionProviderConfig {
  // The WebGPU provider (bundled with onnxruntime-node, Dawn over Vulkan on
  // Linux) picks its adapter itself and takes no device id.
  if (provider === 'cpu' || provider === 'webgpu') return provider;
  return { name: provider, deviceId };
}

class NodeRunner implements SessionRunner {
  readonly kind = 'onnxruntime-node';
  readonly inputs: ValueMetadata[];
  readonly outputs: ValueMetadata[];

  constructor(private readonly session: ort.InferenceSession) {
    const describe = (m: ort.InferenceSession.ValueMetadata): ValueMetadata => ({
      name: m.name,
      type: m.isTensor ? m.type : 'non-tensor',
      shape: m.isTensor ? m.shape : [],
    });
    this.inputs = session.inputMetadata.map(describe);
    this.outputs = session.outputMetadata.map(describe);
  }

  static async create(source: string | Uint8Array, options: RunnerOptions): Promise<NodeRunner> {
    const sessionOptions: ort.InferenceSession.SessionOptions = {
      // CPU stays listed after an accelerator so unsupported nodes still run.
      executionProviders:
        options.provider === 'cpu' ? ['cpu'] : [providerOption(options.provider, options.deviceId), 'cpu'],
      intraOpNumThreads: options.intraOpThreads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: options.optimize === false ? 'disabled' : 'all',
    };
    const session =
      typeof source === 'string'
        ? await ort.InferenceSession.create(source, sessionOptions)
        : await ort.InferenceSession.create(source, sessionOptions);
    return new NodeRunner(session);
  }

  async run(feeds: Readonly<Record<string, Feed>>): Promise<Record<string, TensorLike>> {
    const tensors: Record<string, ort.Tensor> = {};
    for (const [name, feed] of Object.entries(feeds)) {
      const tensor = new ort.Tensor(feed.type as 'float32', feed.data as Float32Array, feed.dims);
      // Where Float16Array exists (Node 24), onnxruntime-common re-views a
      // float16 Uint16Array as a Float16Array, which Node-API does not know:
      // onnxruntime-node 1.30 then reads 0 bytes ("not enough space"). Keep
      // the Uint16Array, which the binding accepts for float16.
      if (feed.type === 'float16' && !(tensor.data instanceof Uint16Array))
        (tensor as unknown as { cpuData: Uint16Array }).cpuData = feed.data as Uint16Array;
      tensors[name] = tensor;
    }
    return (await this.session.run(tensors)) as Record<string, TensorLike>;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}

// --- the native runner ---

/** The libonnxruntime.so.1 onnxruntime-node ships (and has loaded): the native runner drives the same one. */
function onnxruntimeLibrary(): string {
  const root = dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
  return join(
    root,
    'bin',
    'napi-v6',
    process.platform,
    process.arch,
    process.platform === 'darwin' ? 'libonnxruntime.1.dylib' : 'libonnxruntime.so.1',
  );
}

let opened: string | undefined | null = null;

/** undefined when the native runner can run here, else why not. */
export function nativeRunnerAvailable(): string | undefined {
  if (opened !== null) return opened;
  const library = onnxruntimeLibrary();
  if (!existsSync(library)) return (opened = `no ONNX Runtime library at ${library}`);
  try {
    native.ortOpen(library);
    return (opened = undefined);
  } catch (error) {
    return (opened = (error as Error).message);
  }
}

const ARRAYS: Record<string, (buffer: ArrayBuffer) => TensorLike['data']> = {
  float32: (b) => new Float32Array(b),
  float16: (b) => new Uint16Array(b),
  float64: (b) => new Float64Array(b),
  uint8: (b) => new Uint8Array(b),
  bool: (b) => new Uint8Array(b),
  int8: (b) => new Int8Array(b),
  int32: (b) => new Int32Array(b),
  int64: (b) => new BigInt64Array(b),
  uint64: (b) => new BigUint64Array(b),
};

class NativeRunner implements SessionRunner {
  readonly kind = 'native';

  private constructor(private readonly session: NativeSession) {}

  get inputs(): readonly ValueMetadata[] {
    return this.session.inputs;
  }

  get outputs(): readonly ValueMetadata[] {
    return this.session.outputs;
  }

  static create(source: string | Uint8Array, options: RunnerOptions): NativeRunner {
    const unavailable = nativeRunnerAvailable();
    if (unavailable) throw new Error(`native runner: ${unavailable}`);
    const OrtSession = native.OrtSession;
    return new NativeRunner(
      new OrtSession(source, {
        provider: options.provider,
        deviceId: options.deviceId,
        intraOpThreads: options.intraOpThreads,
        cuda: options.cudaOptions ?? {},
        pinned: options.pinned ?? true,
      }),
    );
  }

  run(feeds: Readonly<Record<string, Feed>>): Promise<Record<string, TensorLike>> {
    try {
      const outputs = this.session.run(Object.entries(feeds).map(([name, feed]) => ({ name, ...feed })));
      const result: Record<string, TensorLike> = {};
      for (const o of outputs) {
        const view = ARRAYS[o.type];
        if (!view) throw new Error(`output "${o.name}" is ${o.type}, which the server does not read`);
        result[o.name] = { dims: o.dims, type: o.type, data: view(o.data) };
      }
      return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  release(): Promise<void> {
    this.session.release();
    return Promise.resolve();
  }
}

/** A session of the model at `source` (a file, or the model's bytes) run by `kind`. */
export async function createRunner(
  kind: RunnerKind,
  source: string | Uint8Array,
  options: RunnerOptions,
): Promise<SessionRunner> {
  return kind === 'native' ? NativeRunner.create(source, options) : NodeRunner.create(source, options);
}
