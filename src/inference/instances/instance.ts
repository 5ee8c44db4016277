// The scheduler's handle on one instance: starts it (it loads its session
// and warms up), sends it batches and keeps its busy time. An instance is a
// thread of the server, or, for a version not trusted
// with the server's memory (MODEL_ISOLATION), a child process under a memory
// limit (limited-process.ts), both from instance-entry.ts: its inputs are copied to
// it and its outputs back, and a model that exhausts the limit fails there,
// not in the server. An instance thread that dies fails its batch and is
// marked dead, so the batcher stops using it. An isolated one that ran out
// of memory says why (`fatal`), and its version goes Failed; one whose
// process died otherwise answers its batch as retryable and starts again,
// as long as instance-restarts.ts allows (a model that keeps crashing fails
// its version too).
import { type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CodedError, deserializeError, revivable, type ErrorDetails } from '../../errors.js';
import type { BackendInfo, BatchResult } from './backend.js';
import type { InstanceReply, InstanceRequest, InstanceWorkerData } from './instance-host.js';
import type { InstanceRestarts, ProcessEnd } from './instance-restarts.js';
import { residentBytes } from '../../lib/resident-memory.js';
import { OUT_OF_MEMORY, OutOfMemoryError, spawnLimited } from './limited-process.js';

/** A batch's per-image outputs and run time, as the instance sends them back. */
type InstanceResult = Pick<BatchResult, 'outputs' | 'runMs'>;

const extension = extname(fileURLToPath(import.meta.url));
/** The entry of an instance, in a thread and in a child process alike. */
const ENTRY_FILE = new URL(`./instance-entry${extension}`, import.meta.url);

export class InstanceLoadError extends CodedError {
  readonly code = 'INSTANCE_LOAD_FAILED';
  constructor(
    message: string,
    /** how its process or thread ended while loading; undefined: it refused the model */
    readonly end?: ProcessEnd,
  ) {
    super(message);
  }

  override details(): ErrorDetails | undefined {
    return this.end && { code: this.end.code, signal: this.end.signal };
  }

  static {
    revivable(
      'INSTANCE_LOAD_FAILED',
      ({ message, details }) =>
        new InstanceLoadError(
          message,
          details && { code: details.code as number | null, signal: details.signal as NodeJS.Signals | null },
        ),
    );
  }
}

/**
 * A batch's isolated instance process died under it and is starting again:
 * the batch may be sent again (a 503, not the model's failure).
 */
export class InstanceRestartingError extends CodedError {
  readonly code = 'INSTANCE_RESTARTING';
  constructor(
    /** how the process ended ("was killed by SIGKILL") */
    readonly how: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`its instance ${how}; it is restarting`);
  }

  override details(): ErrorDetails {
    return { how: this.how, retryAfterSeconds: this.retryAfterSeconds };
  }

  static {
    revivable(
      'INSTANCE_RESTARTING',
      ({ details = {} }) => new InstanceRestartingError(String(details.how), Number(details.retryAfterSeconds)),
    );
  }
}

/** how long closing waits for the batch in flight to end */
const CLOSE_WAIT_MS = 10_000;

/** What an isolated instance runs under: its memory limit (MODEL_INSTANCE_MEMORY_MB) and its load's restarts. */
export interface Isolation {
  memoryBytes: number;
  /** the deaths of the load's instance processes: whether one starts again */
  restarts: InstanceRestarts;
  /** told once, when an instance can no longer go on: its version must fail */
  onFatal(reason: string): void;
}

/** Where an instance runs: what the handle needs of a thread or a process. */
interface Host {
  /** a process's id (its memory is measured); undefined for a thread */
  pid: number | undefined;
  post(request: InstanceRequest): void;
  /** ends it now */
  kill(): Promise<unknown>;
  /** the last lines it wrote on stderr (a process), for the reason it died */
  stderr(): string;
}

function threadHost(data: InstanceWorkerData): { host: Host; events: Worker } {
  // Development runs TypeScript: tsx's loader is registered in the thread
  // before the entry is imported. A build runs plain JS.
  const typescript = ENTRY_FILE.pathname.endsWith('.ts');
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(ENTRY_FILE.href)}); })`;
  const worker = new Worker(typescript ? bootstrap : ENTRY_FILE, {
    eval: typescript,
    workerData: data,
    // ONNX Runtime allocates outside the JS heap; keep V8's small.
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return {
    host: {
      pid: undefined,
      post: (request) => worker.postMessage(request),
      kill: () => worker.terminate(),
      stderr: () => '',
    },
    events: worker,
  };
}

function processHost(data: InstanceWorkerData, isolation: Isolation): { host: Host; events: ChildProcess } {
  const child = spawnLimited(ENTRY_FILE, isolation.memoryBytes, {
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString('utf8')).slice(-8192);
  });
  child.on('error', () => {}); // reported through 'exit'
  child.send(data);
  return {
    host: {
      pid: child.pid,
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

/** A thread or process whose instance has loaded its session and warmed up. */
interface Launched {
  host: Host;
  events: Worker | ChildProcess;
  info: BackendInfo;
}

/** Starts an instance and resolves once its session is loaded and warmed up. */
function launch(data: InstanceWorkerData, isolation: Isolation | undefined): Promise<Launched> {
  const { host, events } = isolation ? processHost(data, isolation) : threadHost(data);
  const where = isolation ? 'instance process' : 'instance thread';
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal?: NodeJS.Signals | null) => {
      const detail = host
        .stderr()
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '' && !l.startsWith('Node.js v'))
        .pop();
      const end = { code, signal: signal ?? null };
      reject(
        new InstanceLoadError(
          `${where} ${signal ? `was killed by ${signal}` : `exited with code ${code}`} while loading${detail ? `: ${detail}` : ''}`,
          end,
        ),
      );
    };
    const onError = (error: Error) => reject(new InstanceLoadError(`${where} failed while loading: ${error.message}`));
    events.once('exit', onExit);
    events.once('error', onError);
    events.once('message', (reply: InstanceReply) => {
      events.off('exit', onExit);
      events.off('error', onError);
      if (reply.op === 'ready') {
        resolve({ host, events, info: reply.info });
      } else {
        void host.kill();
        reject(
          new InstanceLoadError(reply.op === 'failed' ? reply.error.message : `unexpected ${reply.op} while loading`),
        );
      }
    });
  });
}

export class ModelInstance {
  /** milliseconds spent running batches, for the busy-time metric */
  busyMs = 0;
  /**
   * What its process holds resident (VmRSS), measured once it has loaded and
   * after each batch (what a run allocates, ONNX Runtime's arena keeps); 0
   * for a thread, whose memory is the server's.
   */
  residentBytes = 0;
  alive = true;
  /** why an isolated instance cannot go on (out of memory, crashing, killed too often): its version fails */
  fatal: string | undefined;
  readonly info: BackendInfo;
  private host: Host;
  private exited = false;
  /** stopped for INFERENCE_TIMEOUT_MS: replaced like any slow instance, not a fault of its version */
  private timedOut = false;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: InstanceResult) => void; reject: (e: Error) => void }>();
  private closed: (() => void) | undefined;
  private closing: Promise<void> | undefined;
  /** an isolated instance's process starting again after it died: runs wait for it */
  private restarting: Promise<void> | undefined;
  /** ends a restart's backoff early (closing) */
  private wake: (() => void) | undefined;

  private constructor(
    /** e.g. "cpu:0" or "gpu0:1" (kind, device and ordinal) */
    readonly name: string,
    launched: Launched,
    private readonly data: InstanceWorkerData,
    private readonly runTimeoutMs: number,
    /** set for an instance in a limited process */
    private readonly isolation: Isolation | undefined,
    /** how long its first start took: a restart's Retry-After */
    private readonly startMs: number,
  ) {
    this.info = launched.info;
    this.host = launched.host;
    this.attach(launched.events);
    this.measure();
  }

  private measure(): void {
    this.residentBytes = this.host.pid === undefined || this.exited ? 0 : residentBytes(this.host.pid);
  }

  private attach(events: Worker | ChildProcess): void {
    events.on('message', (reply: InstanceReply) => this.onReply(reply));
    // A process's errors (a send to one that died) are reported through 'exit'.
    if (!this.isolation) events.on('error', (error: Error) => this.fail(error));
    events.on('exit', (code: number | null, signal?: NodeJS.Signals | null) =>
      this.onExit({ code, signal: signal ?? null }),
    );
  }

  /**
   * Starts an instance and resolves once its session is loaded and warmed
   * up: a thread, or with `isolation` a process under its memory limit.
   */
  static async start(
    name: string,
    data: InstanceWorkerData,
    runTimeoutMs: number,
    isolation?: Isolation,
  ): Promise<ModelInstance> {
    const started = performance.now();
    const launched = await launch(data, isolation);
    return new ModelInstance(name, launched, data, runTimeoutMs, isolation, performance.now() - started);
  }

  private onExit(end: ProcessEnd): void {
    this.exited = true;
    this.residentBytes = 0;
    if (this.isolation && !this.closing && !this.timedOut && !this.fatal) {
      if (OUT_OF_MEMORY.test(this.host.stderr())) {
        this.setFatal(this.memoryReason());
      } else {
        const decision = this.isolation.restarts.died(end);
        if (decision.restart) {
          const retryAfterSeconds = Math.max(1, Math.ceil((decision.delayMs + this.startMs) / 1000));
          this.rejectPending(new InstanceRestartingError(decision.how, retryAfterSeconds));
          this.restart(decision.delayMs);
          return;
        }
        this.setFatal(decision.reason);
      }
    }
    this.fail(
      new Error(
        this.fatal ?? `instance ${end.signal ? `was killed by ${end.signal}` : `exited with code ${end.code}`}`,
      ),
    );
    this.closed?.();
  }

  /** Starts the process again after `delayMs`, and again while its starts die and restarts allows. */
  private restart(delayMs: number): void {
    const isolation = this.isolation!;
    const again = async (delay: number): Promise<void> => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.closing) return;
      let launched: Launched;
      try {
        launched = await launch(this.data, isolation);
      } catch (error) {
        const failure = error as InstanceLoadError;
        // A start that failed is the model's doing unless a signal from outside ended it.
        const decision = isolation.restarts.died(failure.end ?? { code: 1, signal: null });
        if (this.closing) return;
        if (decision.restart) return again(decision.delayMs);
        this.setFatal(`${decision.reason}; its last start: ${failure.message}`);
        this.fail(new Error(this.fatal));
        return;
      }
      if (this.closing) {
        await launched.host.kill();
        return;
      }
      this.host = launched.host;
      this.exited = false;
      this.attach(launched.events);
      this.measure();
    };
    this.restarting = again(delayMs).finally(() => {
      this.restarting = undefined;
      this.wake = undefined;
    });
  }

  private setFatal(reason: string): void {
    if (this.fatal !== undefined) return;
    this.fatal = reason;
    this.isolation?.onFatal(reason);
  }

  /** Runs one batch: `slots` hold the images' input tensors, `thresholds` their score thresholds. */
  async run(slots: SharedArrayBuffer[], thresholds: number[]): Promise<InstanceResult> {
    if (this.restarting) await this.restarting;
    if (!this.alive) throw new Error(this.fatal ?? `instance ${this.name} is not running`);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // ONNX Runtime cannot interrupt a run, and ending a thread under one
      // aborts the process: past the limit the requests are answered, the
      // instance is retired (its load replaced), and its thread ends once the
      // run does. A process is killed at once.
      const timer = setTimeout(() => {
        this.timedOut = true;
        this.fail(
          new Error(
            `the run took longer than ${this.runTimeoutMs} ms (INFERENCE_TIMEOUT_MS); its instance was stopped`,
          ),
        );
        void (this.isolation ? this.host.kill() : this.close());
      }, this.runTimeoutMs);
      const done =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
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
    this.measure();
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.op === 'done') {
      this.busyMs += reply.runMs;
      waiter?.resolve({ outputs: reply.outputs, runMs: reply.runMs });
      return;
    }
    const error = deserializeError(reply.error);
    // An isolated model that ran out of its memory does not get to try again.
    if (this.isolation && error instanceof OutOfMemoryError) {
      this.setFatal(this.memoryReason());
      waiter?.reject(new Error(this.fatal));
      this.fail(new Error(this.fatal));
      void this.host.kill();
      return;
    }
    waiter?.reject(error);
  }

  private memoryReason(): string {
    const mb = Math.round(this.isolation!.memoryBytes / (1024 * 1024));
    return `model needed more than ${mb} MB while running (MODEL_INSTANCE_MEMORY_MB)`;
  }

  private fail(error: Error): void {
    this.alive = false;
    this.rejectPending(error);
  }

  private rejectPending(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  /** Releases the session and ends the thread or process, after the batch it is running. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.wake?.();
    await this.restarting; // a restart under way sees the close and ends what it started
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
