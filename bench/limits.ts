// The two in-process ceilings the server is compared with:
// - model limit: ONNX Runtime run() on prepared tensors, W threads;
// - pipeline limit: the server's own worker pipeline (decode, preprocess,
//   inference, output decoding, NMS) through its worker pool, no HTTP.
import { Piscina } from 'piscina';
import { performance } from 'node:perf_hooks';
import type { ExecutionProvider } from '../src/config.js';
import { InferencePool } from '../src/inference/pool.js';
import { readModelConfig } from '../src/inference/model-config.js';
import type { ModelLimitTask } from './model-limit-worker.js';

export interface LimitOptions {
  modelDir: string;
  workers: number;
  intraOpThreads: number;
  provider: ExecutionProvider;
  warmupMs: number;
  durationMs: number;
}

export async function measureModelLimit(options: LimitOptions): Promise<number> {
  const pool = new Piscina({
    filename: new URL('./model-limit-worker.ts', import.meta.url).href,
    minThreads: options.workers,
    maxThreads: options.workers,
    execArgv: ['--import', 'tsx'],
  });
  try {
    // Sessions are created inside the first seconds, outside the measured window.
    const measureFrom = Date.now() + 3000 + options.warmupMs;
    const task: ModelLimitTask = { ...options, measureFrom, end: measureFrom + options.durationMs };
    const counts = await Promise.all(Array.from({ length: options.workers }, () => pool.run(task) as Promise<number>));
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

export async function measurePipelineLimit(options: LimitOptions & { image: Buffer }): Promise<number> {
  const pool = new InferencePool(options.workers, {
    providers: [options.provider],
    intraOpThreads: options.intraOpThreads,
    maxImageBytes: 10 * 1024 * 1024,
    maxImagePixels: 40_000_000,
  });
  try {
    const ref = { versionId: 'bench', directory: options.modelDir };
    await pool.load(ref);
    const config = await readModelConfig(options.modelDir);
    const { body, contentType } = multipartBody(options.image);
    const start = performance.now();
    const measureFrom = start + options.warmupMs;
    const end = measureFrom + options.durationMs;
    let count = 0;
    // Two tasks per worker in flight keep every worker busy, as a loaded server's queue does.
    const loop = async () => {
      while (performance.now() < end) {
        const copy = new Uint8Array(new ArrayBuffer(body.length));
        copy.set(body);
        const outcome = await pool.predict({
          ...ref,
          body: copy.buffer,
          contentType,
          options: { ...config.defaults },
        });
        if (!outcome.ok) throw new Error(`pipeline failed: ${outcome.error.message} ${outcome.error.detail ?? ''}`);
        const done = performance.now();
        if (done >= measureFrom && done <= end) count++;
      }
    };
    await Promise.all(Array.from({ length: options.workers * 2 }, loop));
    return count / (options.durationMs / 1000);
  } finally {
    await pool.close();
  }
}
