// The scheduler's handle on one instance: starts it (it loads its session
// and warms up), sends it batches and keeps its busy time. An instance is a
// thread of the server (instance-worker.ts), or, for a version not trusted
// with the server's memory (MODEL_ISOLATION), a child process under a memory
// limit (instance-process.ts, limited-process.ts): its inputs are copied to
// it and its outputs back, and a model that exhausts the limit fails there,
// not in the server. An instance that dies fails its batch and is marked
// dead, so the batcher stops using it; an isolated one that ran out of
// memory or died says why (`fatal`), and its version goes Failed.
import { type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BackendInfo, BatchResult } from './backend.js';
import type { InstanceReply, InstanceRequest, InstanceWorkerData } from './instance-host.js';
import { OUT_OF_MEMORY, spawnLimited } from './limited-process.js';

/** A batch's per-image outputs and run time, as the instance sends them back. */
type InstanceResult = Pick<BatchResult, 'outputs' | 'runMs'>;

const extension = extname(fileURLToPath(import.meta.url));
const WORKER_FILE = new URL(`./instance-worker${extension}`, import.meta.url);
const PROCESS_FILE = new URL(`./instance-process${extension}`, import.meta.url);

export class InstanceLoadError extends Error {}

/** how long closing waits for the batch in flight to end */
const CLOSE_WAIT_MS = 10_000;

/** An isolated instance's memory limit (MODEL_INSTANCE_MEMORY_MB). */
export interface Isolation {
  memoryBytes: number;
}

/** Where an instance runs: what the handle needs of a thread or a process. */
interface Host {
  post(request: InstanceRequest): void;
  /** ends it now */
  kill(): Promise<unknown>;
  /** the last lines it wrote on stderr (a process), for the reason it died */
  stderr(): string;
}

function threadHost(data: InstanceWorkerData): { host: Host; events: Worker } {
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
  return { host: { post: (request) => worker.postMessage(request), kill: () => worker.terminate(), stderr: () => '' }, events: worker };
}

function processHost(data: InstanceWorkerData, isolation: Isolation): { host: Host; events: ChildProcess } {
  const child = spawnLimited(PROCESS_FILE, isolation.memoryBytes, { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], serialization: 'advanced' });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString('utf8')).slice(-8192);
  });
  child.on('error', () => {}); // reported through 'exit'
  child.send(data);
  return {
    host: {
      post: (request) => {
        if (child.connected) child.send(request);
      },
      // Resolves once the process is gone: one still writing its prepared
      // model into DATA_DIR must not outlive a server that has stopped.
      kill: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      },
      stderr: () => stderr,
    },
    events: child,
  };
}

export class ModelInstance {
  /** milliseconds spent running batches, for the busy-time metric */
  busyMs = 0;
  alive = true;
  /** why an isolated instance cannot go on (out of memory, died): its version fails */
  fatal: string | undefined;
  private exited = false;
  /** stopped for INFERENCE_TIMEOUT_MS: replaced like any slow instance, not a fault of its version */
  private timedOut = false;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: InstanceResult) => void; reject: (e: Error) => void }>();
  private closed: (() => void) | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    /** e.g. "cpu:0" or "gpu0:1" (kind, device and ordinal) */
    readonly name: string,
    readonly info: BackendInfo,
    private readonly host: Host,
    events: Worker | ChildProcess,
    private readonly runTimeoutMs: number,
    /** set for an instance in a limited process */
    private readonly isolation: Isolation | undefined,
  ) {
    events.on('message', (reply: InstanceReply) => this.onReply(reply));
    events.on('error', (error: Error) => this.fail(error));
    events.on('exit', (code: number | null, signal?: NodeJS.Signals | null) => {
      this.exited = true;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      if (this.isolation && !this.closing && !this.timedOut) this.fatal ??= this.deathReason(how);
      this.fail(new Error(this.fatal ?? `instance ${how}`));
      this.closed?.();
    });
  }

  /**
   * Starts an instance and resolves once its session is loaded and warmed
   * up: a thread, or with `isolation` a process under its memory limit.
   */
  static start(name: string, data: InstanceWorkerData, runTimeoutMs: number, isolation?: Isolation): Promise<ModelInstance> {
    const { host, events } = isolation ? processHost(data, isolation) : threadHost(data);
    const where = isolation ? 'instance process' : 'instance thread';
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null, signal?: NodeJS.Signals | null) => {
        const detail = host.stderr().split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('Node.js v')).pop();
        reject(new InstanceLoadError(`${where} ${signal ? `was killed by ${signal}` : `exited with code ${code}`} while loading${detail ? `: ${detail}` : ''}`));
      };
      const onError = (error: Error) => reject(new InstanceLoadError(`${where} failed while loading: ${error.message}`));
      events.once('exit', onExit);
      events.once('error', onError);
      events.once('message', (reply: InstanceReply) => {
        events.off('exit', onExit);
        events.off('error', onError);
        if (reply.op === 'ready') {
          resolve(new ModelInstance(name, reply.info, host, events, runTimeoutMs, isolation));
        } else {
          void host.kill();
          reject(new InstanceLoadError(reply.op === 'failed' ? reply.reason : `unexpected ${reply.op} while loading`));
        }
      });
    });
  }

  /** Runs one batch: `slots` hold the images' input tensors, `thresholds` their score thresholds. */
  run(slots: SharedArrayBuffer[], thresholds: number[]): Promise<InstanceResult> {
    if (!this.alive) return Promise.reject(new Error(this.fatal ?? `instance ${this.name} is not running`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // ONNX Runtime cannot interrupt a run, and ending a thread under one
      // aborts the process: past the limit the requests are answered, the
      // instance is retired (its load replaced), and its thread ends once the
      // run does. A process is killed at once.
      const timer = setTimeout(() => {
        this.timedOut = true;
        this.fail(new Error(`the run took longer than ${this.runTimeoutMs} ms (INFERENCE_TIMEOUT_MS); its instance was stopped`));
        void (this.isolation ? this.host.kill() : this.close());
      }, this.runTimeoutMs);
      const done = <T>(settle: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        settle(value);
      };
      this.pending.set(id, { resolve: done(resolve), reject: done(reject) });
      // A process cannot see the server's shared memory: it gets copies.
      const sent = this.isolation ? slots.map((slot) => new Uint8Array(slot).slice().buffer) : slots;
      this.host.post({ op: 'run', id, slots: sent, thresholds });
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
      return;
    }
    // An isolated model that ran out of its memory does not get to try again.
    if (this.isolation && OUT_OF_MEMORY.test(reply.message)) {
      this.fatal ??= this.memoryReason();
      waiter?.reject(new Error(this.fatal));
      this.fail(new Error(this.fatal));
      void this.host.kill();
      return;
    }
    waiter?.reject(new Error(reply.message));
  }

  private memoryReason(): string {
    const mb = Math.round(this.isolation!.memoryBytes / (1024 * 1024));
    return `model needed more than ${mb} MB while running (MODEL_INSTANCE_MEMORY_MB)`;
  }

  private deathReason(how: string): string {
    if (OUT_OF_MEMORY.test(this.host.stderr())) return this.memoryReason();
    return `its instance process ${how} while running the model`;
  }

  private fail(error: Error): void {
    this.alive = false;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  /** Releases the session and ends the thread or process, after the batch it is running. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.exited) return;
    this.alive = false;
    const released = await new Promise<boolean>((resolve) => {
      this.closed = () => resolve(true);
      this.host.post({ op: 'close' });
      // A run that never ends keeps its thread; shutting down does not wait for it.
      setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref();
    });
    // A process can always be ended; a thread only once its session is released.
    if ((released || this.isolation) && !this.exited) await this.host.kill();
  }
}
