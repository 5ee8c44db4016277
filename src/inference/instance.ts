// The scheduler's handle on one instance thread: starts it (the thread loads
// its session and warms up), sends it batches and keeps its busy time. A
// thread that dies fails its batch and marks the instance dead, so the
// batcher stops using it.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BackendInfo, BatchResult } from './backend.js';
import type { InstanceReply, InstanceRequest, InstanceWorkerData } from './instance-worker.js';

/** A batch's per-image outputs and run time, as the instance thread sends them back. */
type InstanceResult = Pick<BatchResult, 'outputs' | 'runMs'>;

const WORKER_FILE = new URL(`./instance-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

export class InstanceLoadError extends Error {}

/** how long closing waits for the batch in flight to end */
const CLOSE_WAIT_MS = 10_000;

export class ModelInstance {
  /** milliseconds spent running batches, for the busy-time metric */
  busyMs = 0;
  alive = true;
  private exited = false;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: InstanceResult) => void; reject: (e: Error) => void }>();
  private closed: (() => void) | undefined;

  private constructor(
    /** e.g. "cpu:0" or "gpu0:1" (kind, device and ordinal) */
    readonly name: string,
    readonly info: BackendInfo,
    private readonly worker: Worker,
    private readonly runTimeoutMs: number,
  ) {
    worker.on('message', (reply: InstanceReply) => this.onReply(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      this.exited = true;
      this.fail(new Error(`instance thread exited with code ${code}`));
      this.closed?.();
    });
  }

  /** Starts a thread and resolves once its session is loaded and warmed up. */
  static start(name: string, data: InstanceWorkerData, runTimeoutMs: number): Promise<ModelInstance> {
    // Development runs TypeScript: tsx's loader is registered in the thread
    // before the entry is imported. A build runs plain JS.
    const typescript = WORKER_FILE.pathname.endsWith('.ts');
    const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_FILE.href)}); })`;
    const worker = new Worker(typescript ? bootstrap : WORKER_FILE, {
      eval: typescript,
      workerData: data,
      // ONNX Runtime allocates outside the JS heap; keep V8's small.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    return new Promise((resolve, reject) => {
      const onExit = (code: number) => reject(new InstanceLoadError(`instance thread exited with code ${code} while loading`));
      const onError = (error: Error) => reject(new InstanceLoadError(`instance thread failed while loading: ${error.message}`));
      worker.once('exit', onExit);
      worker.once('error', onError);
      worker.once('message', (reply: InstanceReply) => {
        worker.off('exit', onExit);
        worker.off('error', onError);
        if (reply.op === 'ready') {
          resolve(new ModelInstance(name, reply.info, worker, runTimeoutMs));
        } else {
          void worker.terminate();
          reject(new InstanceLoadError(reply.op === 'failed' ? reply.reason : `unexpected ${reply.op} while loading`));
        }
      });
    });
  }

  /** Runs one batch: `slots` hold the images' input tensors, `thresholds` their score thresholds. */
  run(slots: SharedArrayBuffer[], thresholds: number[]): Promise<InstanceResult> {
    if (!this.alive) return Promise.reject(new Error(`instance ${this.name} is not running`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // ONNX Runtime cannot interrupt a run, and ending the thread under one
      // aborts the process: past the limit the requests are answered, the
      // instance is retired (its load replaced), and its thread ends once the
      // run does.
      const timer = setTimeout(() => {
        this.fail(new Error(`the run took longer than ${this.runTimeoutMs} ms (INFERENCE_TIMEOUT_MS); its instance was stopped`));
        void this.close();
      }, this.runTimeoutMs);
      const done = <T>(settle: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        settle(value);
      };
      this.pending.set(id, { resolve: done(resolve), reject: done(reject) });
      this.worker.postMessage({ op: 'run', id, slots, thresholds } satisfies InstanceRequest);
    });
  }

  private onReply(reply: InstanceReply): void {
    if (reply.op === 'closed') {
      this.closed?.();
      return;
    }
    if (reply.op !== 'done' && reply.op !== 'error') return;
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.op === 'done') {
      this.busyMs += reply.runMs;
      waiter?.resolve({ outputs: reply.outputs, runMs: reply.runMs });
    } else {
      waiter?.reject(new Error(reply.message));
    }
  }

  private fail(error: Error): void {
    this.alive = false;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  private closing: Promise<void> | undefined;

  /** Releases the session and ends the thread, after the batch it is running. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.exited) return;
    this.alive = false;
    const released = await new Promise<boolean>((resolve) => {
      this.closed = () => resolve(true);
      this.worker.postMessage({ op: 'close' } satisfies InstanceRequest);
      // A run that never ends keeps its thread; shutting down does not wait for it.
      setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref();
    });
    if (released && !this.exited) await this.worker.terminate();
  }
}
