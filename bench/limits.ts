// The two in-process ceilings the server is compared with:
// - model limit: ONNX Runtime run() on prepared tensors, W threads;
// - pipeline limit: the server's own worker pipeline (decode, preprocess,
//   inference, output decoding, NMS) through its engine (pipeline workers,
//   batcher, instances), no HTTP.
import { Piscina } from 'piscina';
import { performance } from 'node:perf_hooks';
import { EXECUTION_PROVIDERS, type ExecutionProvider } from '../src/config.js';
import { jpegDecoder } from '../src/inference/pipeline/decode-image.js';
import { InferenceEngine } from '../src/inference/inference-engine.js';
import { Logger } from '../src/log.js';
import { GPU_INSTANCES_PER_DEVICE } from '../src/inference/versions/loaded-model.js';
import { readModelConfig } from '../src/inference/versions/model-config.js';
import { predictOptions } from '../src/inference/predict-options.js';
import type { ModelLimitTask } from './model-limit-worker.js';

export interface LimitOptions {
  modelDir: string;
  workers: number;
  intraOpThreads: number;
  provider: ExecutionProvider;
  /** instances of the version in the engine (undefined: the server's default) */
  instances?: number;
  maxBatchSize: number;
  warmupMs: number;
  durationMs: number;
  /** run the model rewritten, as the server does by default (GRAPH_REWRITE) */
  graphRewrite?: boolean;
  /** GPU instances' precision (GPU_PRECISION; model.json's own wins) */
  precision?: 'fp32' | 'fp16';
}

/** A benchmark's `--ep` value, checked against the server's execution providers. */
export function executionProviderOption(value: string): ExecutionProvider {
  const ep = value as ExecutionProvider;
  if (!EXECUTION_PROVIDERS.includes(ep)) throw new Error(`--ep must be one of ${EXECUTION_PROVIDERS.join(', ')}`);
  return ep;
}

/**
 * Images per second of ONNX Runtime run() alone, batches of maxBatchSize.
 * CPU: one single-threaded session per worker thread, every core busy. GPU:
 * the sessions the server would run on the device, one thread each.
 */
export async function measureModelLimit(options: LimitOptions): Promise<number> {
  const threads = options.provider === 'cpu' ? options.workers : (options.instances ?? GPU_INSTANCES_PER_DEVICE);
  const pool = new Piscina({
    filename: new URL('./model-limit-worker.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    execArgv: ['--import', 'tsx'],
  });
  try {
    // Sessions are created (and, on a GPU, their kernels chosen) inside the
    // first seconds, outside the measured window.
    const setupMs = options.provider === 'cpu' ? 3000 : 8000;
    const measureFrom = Date.now() + setupMs + options.warmupMs;
    const task: ModelLimitTask = {
      ...options,
      batchSize: options.maxBatchSize,
      measureFrom,
      end: measureFrom + options.durationMs,
    };
    const counts = await Promise.all(Array.from({ length: threads }, () => pool.run(task) as Promise<number>));
    return counts.reduce((a, b) => a + b, 0) / (options.durationMs / 1000);
  } finally {
    await pool.close();
  }
}

/** A multipart body with the image in the `file` field, as clients send it. */
export function multipartBody(image: Buffer, boundary = 'bench-boundary-7d2f'): { body: Buffer; contentType: string } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, image, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The server's engine in process, as the server would configure it. */
function benchEngine(options: LimitOptions): InferenceEngine {
  return new InferenceEngine(
    {
      instances: {
        kind: options.provider === 'cpu' ? 'cpu' : 'gpu',
        count: options.instances,
        gpuDevices: [0],
        intraOpThreads: undefined,
        runner: 'auto',
        cudaOptions: {},
        pinnedMemory: true,
      },
      batching: { maxBatchSize: options.maxBatchSize, maxQueueDelayMs: 2, runTimeoutMs: 60_000 },
      graphRewrite: options.graphRewrite ?? true,
      gpuPrecision: options.precision ?? 'fp32',
      executionProviders: [options.provider],
      workers: options.workers,
      instanceMemoryBytes: 2048 * 1024 * 1024,
      maxImageBytes: 10 * 1024 * 1024,
      maxImagePixels: 40_000_000,
      jpegDecoder: jpegDecoder().decoder,
      cache: { maxLoaded: 1, memoryBudgetBytes: Number.MAX_SAFE_INTEGER, concurrentLoads: 1 },
      keptImages: { bytes: 1024 * 1024 * 1024, organizationBytes: 512 * 1024 * 1024 },
    },
    new Logger({ level: 'info', format: 'text' }),
  );
}

export interface PipelineLimit {
  imagesPerSecond: number;
  meanBatchSize: number;
  /** mean milliseconds per image of each pipeline stage (inference: per run, whatever its batch) */
  stages: { decodeMs: number; preprocessMs: number; inferenceMs: number; postprocessMs: number };
}

/**
 * The engine's throughput with `inFlight` requests kept in flight (by
 * default enough to keep every worker and instance busy, as a loaded
 * server's queue does), and what each stage took on average. With one in
 * flight, the stage times are each stage's cost alone, no other thread
 * competing for the cores.
 */
export async function measurePipelineLimit(
  options: LimitOptions & { image: Buffer; inFlight?: number },
): Promise<PipelineLimit> {
  const engine = benchEngine(options);
  try {
    const config = await readModelConfig(options.modelDir);
    const model = await engine.acquire({ id: 'bench', organizationId: 'bench', directory: options.modelDir, config });
    const { body, contentType } = multipartBody(options.image);
    const start = performance.now();
    const measureFrom = start + options.warmupMs;
    const end = measureFrom + options.durationMs;
    let count = 0;
    let batched = 0;
    const stages = { decodeMs: 0, preprocessMs: 0, inferenceMs: 0, postprocessMs: 0 };
    const loop = async () => {
      while (performance.now() < end) {
        const copy = new Uint8Array(new ArrayBuffer(body.length));
        copy.set(body);
        const { timings } = await engine.predict(model, copy.buffer, contentType, predictOptions({}, config.defaults));
        const done = performance.now();
        if (done >= measureFrom && done <= end) {
          count++;
          batched += timings.batchSize;
          for (const stage of Object.keys(stages) as Array<keyof typeof stages>) stages[stage] += timings[stage];
        }
      }
    };
    await Promise.all(Array.from({ length: options.inFlight ?? options.workers * 2 + 2 * options.maxBatchSize }, loop));
    engine.release(model);
    for (const stage of Object.keys(stages) as Array<keyof typeof stages>)
      stages[stage] = count ? stages[stage] / count : NaN;
    return {
      imagesPerSecond: count / (options.durationMs / 1000),
      meanBatchSize: count ? batched / count : NaN,
      stages,
    };
  } finally {
    await engine.close();
  }
}
