// The worker-thread pool (piscina) that runs every CPU-heavy step of a
// prediction. The main thread only submits tasks: the request body moves to
// a worker by transfer, never by copy.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { log } from '../log.js';
import type { LoadResult, WorkerTask, PredictOutcome, PredictTask, VersionRef, WorkerSettings } from './worker.js';

const WORKER_FILE = new URL(`./worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

export class InferencePool {
  private readonly piscina: Piscina;
  /** broadcasts run one at a time: two interleaved barriers could deadlock */
  private broadcasts: Promise<unknown> = Promise.resolve();

  constructor(
    readonly workers: number,
    settings: WorkerSettings,
  ) {
    this.piscina = new Piscina({
      filename: WORKER_FILE.href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: 1,
      workerData: settings,
      // Development runs TypeScript through tsx; a build runs plain JS.
      execArgv: WORKER_FILE.pathname.endsWith('.ts') ? ['--import', 'tsx'] : [],
      // ONNX Runtime and libvips allocate outside the JS heap; keep V8's small.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    // A worker that dies is replaced by piscina; its tasks fail and are answered 500.
    this.piscina.on('error', (error) => log.error('inference worker error', { error: error as Error }));
  }

  /** Runs `op` once on every worker; resolves with each worker's result. */
  private broadcast<T>(op: 'load' | 'unload', ref: VersionRef, timeoutMs: number): Promise<T[]> {
    const run = async () => {
      const barrier = new SharedArrayBuffer(4);
      const task: WorkerTask = { op, ...ref, barrier, workers: this.workers, timeoutMs };
      const results = await Promise.allSettled(
        Array.from({ length: this.workers }, () => this.piscina.run(task) as Promise<T>),
      );
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason instanceof Error ? failure.reason : new Error(String(failure.reason));
      return results.map((r) => (r as PromiseFulfilledResult<T>).value);
    };
    const next = this.broadcasts.then(run, run);
    this.broadcasts = next.catch(() => {});
    return next;
  }

  /** Every worker creates its session and makes one warm-up run. */
  async load(ref: VersionRef, timeoutMs = 300_000): Promise<LoadResult> {
    const results = await this.broadcast<LoadResult>('load', ref, timeoutMs);
    return results[0]!;
  }

  async unload(ref: VersionRef): Promise<void> {
    await this.broadcast<void>('unload', ref, 60_000);
  }

  predict(task: PredictTask): Promise<PredictOutcome> {
    const message: WorkerTask = { op: 'predict', ...task };
    return this.piscina.run(message, { transferList: [task.body] }) as Promise<PredictOutcome>;
  }

  /** tasks waiting for a free worker */
  get queued(): number {
    return this.piscina.queueSize;
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: false });
  }
}
