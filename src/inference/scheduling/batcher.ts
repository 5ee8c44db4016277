// The dynamic batcher of one loaded version (Triton's dynamic_batching):
// requests whose input tensors are ready wait here, and whenever an instance
// is idle it gets the next batch. Under load, batches form by themselves
// while every instance is busy. When an instance is idle, a request is held
// back only while others are still being preprocessed and only up to
// maxQueueDelayMs, so a lone request never waits for company that is not
// coming.
import { CodedError, revivable } from '../../errors.js';
import { performance } from 'node:perf_hooks';
import type { FairShare } from './fair-share.js';
import type { ModelInstance } from '../instances/instance.js';
import type { ImageOutputs } from '../pipeline/postprocess.js';

export interface BatchPolicy {
  /** the most requests in one run (1: every request runs alone) */
  maxBatchSize: number;
  maxQueueDelayMs: number;
  /** when more wait than one of these, the largest such size is taken */
  preferredBatchSizes: readonly number[];
}

export interface BatchedOutputs {
  /** this request's outputs, split from its batch */
  outputs: ImageOutputs;
  /** from queued to sent to an instance */
  queueMs: number;
  /** the batch's run time on its instance */
  runMs: number;
  batchSize: number;
}

export interface BatchObserver {
  batch(size: number): void;
}

interface Waiting {
  slot: SharedArrayBuffer;
  /** who asked (the calling organization): callers are served in turn */
  caller: string;
  /** the request's score threshold: the floor of its candidates in a reduced head */
  threshold: number;
  since: number;
  resolve: (result: BatchedOutputs) => void;
  reject: (error: Error) => void;
}

export class NoInstanceError extends CodedError {
  readonly code = 'NO_INSTANCE';
  static {
    revivable('NO_INSTANCE', ({ message }) => new NoInstanceError(message));
  }
}

/** The CPU fair share a batcher's runs take permits from, and whose turn they count as. */
export interface RunShare {
  gate: FairShare;
  organizationId: string;
}

export class DynamicBatcher {
  private readonly queue: Waiting[] = [];
  /** fair-share permits held and not yet used by a run */
  private permits = 0;
  private permitRequested = false;
  private readonly idle: ModelInstance[];
  private timer: NodeJS.Timeout | undefined;
  /** requests being preprocessed: they will join the queue soon */
  private incoming = 0;
  /** when each caller was last served (a sequence number), for takeInTurn */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  constructor(
    private readonly instances: readonly ModelInstance[],
    readonly policy: BatchPolicy,
    private readonly observer: BatchObserver,
    private readonly share?: RunShare,
  ) {
    this.idle = [...instances];
  }

  /** A request started preprocessing; the batcher may wait for it. */
  expect(): void {
    this.incoming++;
  }

  /** A request expected by expect() will not be submitted (its preprocessing failed). */
  abandon(): void {
    this.incoming--;
    this.dispatch();
  }

  /** Queues a request whose input tensor is in `slot` (a request announced by expect()). */
  submit(slot: SharedArrayBuffer, threshold: number, caller: string): Promise<BatchedOutputs> {
    this.incoming--;
    return new Promise((resolve, reject) => {
      this.queue.push({ slot, threshold, caller, since: performance.now(), resolve, reject });
      this.dispatch();
    });
  }

  get healthy(): boolean {
    return this.instances.some((i) => i.alive);
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const { maxBatchSize, maxQueueDelayMs } = this.policy;
      let size = Math.min(this.queue.length, maxBatchSize);
      if (size < maxBatchSize && this.incoming > 0) {
        const waited = performance.now() - this.queue[0]!.since;
        if (waited < maxQueueDelayMs) {
          this.schedule(maxQueueDelayMs - waited);
          return;
        }
      }
      if (!this.hasPermit()) return; // dispatch() runs again when one is granted
      size = this.preferred(size);
      const instance = this.idle.shift()!;
      if (!instance.alive) continue;
      if (this.share) this.permits--;
      this.run(instance, this.takeInTurn(size));
    }
    // A permit granted after its batch went elsewhere (or failed) is someone else's turn.
    while (this.permits > 0) {
      this.permits--;
      this.share!.gate.release(this.share!.organizationId, 0);
    }
    if (!this.healthy) this.failAll(new NoInstanceError('no instance of this model version is running'));
  }

  /** Whether a run may start now: no fair share, or a permit held or free; else one is asked for. */
  private hasPermit(): boolean {
    if (!this.share || this.permits > 0) return true;
    if (this.share.gate.tryAcquire(this.share.organizationId)) {
      this.permits++;
      return true;
    }
    if (!this.permitRequested) {
      this.permitRequested = true;
      void this.share.gate.acquire(this.share.organizationId).then(() => {
        this.permitRequested = false;
        this.permits++;
        this.dispatch();
      });
    }
    return false;
  }

  /**
   * `size` queued requests, callers in turn: each next one is the oldest
   * request of the caller served longest ago, so a caller with many queued
   * (one organization flooding a public version) does not keep another's
   * behind all of its own. With one caller queued, simply the oldest.
   */
  private takeInTurn(size: number): Waiting[] {
    const first = this.queue[0]!.caller;
    if (this.queue.every((w) => w.caller === first)) return this.queue.splice(0, size);
    const batch: Waiting[] = [];
    while (batch.length < size && this.queue.length > 0) {
      let pick = 0;
      for (let i = 1; i < this.queue.length; i++) {
        if ((this.lastServed.get(this.queue[i]!.caller) ?? -1) < (this.lastServed.get(this.queue[pick]!.caller) ?? -1))
          pick = i;
      }
      const [item] = this.queue.splice(pick, 1);
      if (this.lastServed.size > 10_000) this.lastServed.clear(); // all level again: fair too
      this.lastServed.set(item!.caller, ++this.served);
      batch.push(item!);
    }
    return batch;
  }

  /** The largest preferred size that fits, else everything that fits. */
  private preferred(size: number): number {
    let best = 0;
    for (const p of this.policy.preferredBatchSizes) if (p <= size && p > best) best = p;
    return best || size;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.dispatch();
      },
      Math.max(0, Math.ceil(ms)),
    );
  }

  private run(instance: ModelInstance, batch: Waiting[]): void {
    const sent = performance.now();
    this.observer.batch(batch.length);
    // The run's wall time is what it cost the organization's share (a failed run too).
    instance
      .run(
        batch.map((item) => item.slot),
        batch.map((item) => item.threshold),
      )
      .then(
        ({ outputs, runMs }) => {
          batch.forEach((item, i) =>
            item.resolve({ outputs: outputs[i]!, queueMs: sent - item.since, runMs, batchSize: batch.length }),
          );
        },
        (error: Error) => {
          for (const item of batch) item.reject(error);
        },
      )
      .finally(() => {
        this.share?.gate.release(this.share.organizationId, performance.now() - sent);
        if (instance.alive) this.idle.push(instance);
        this.dispatch();
      });
  }

  private failAll(error: Error): void {
    for (const item of this.queue.splice(0)) item.reject(error);
  }
}
