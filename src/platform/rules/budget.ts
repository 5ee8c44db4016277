// Each organization's time for evaluating its rules on the event loop.
//
// Rule evaluation runs synchronously inside the event writer's batch: while
// it runs, nothing else on the server does (predicts of other tenants,
// health checks). Moving it to a worker thread would need the compiled rule
// sets, the devices' remembered state and their memory of `for`/`becomes`
// copied or shared with that thread on every change, and would still leave
// one tenant able to fill the worker for the others. A production server
// bounds what a tenant may take instead: each organization has a bucket of
// milliseconds, refilled at `msPerSecond` and holding at most half a
// second's worth, that its evaluation spends. An event evaluated while the
// bucket holds nothing has its rules left out (the event is stored, its
// device's position kept); an evaluation that runs past what the bucket
// held is stopped mid-way (EvaluationOverrun, see batch.ts). Both are
// counted and reported by the engine (rules-engine.ts), so the tenant pays for
// its rules' cost, never the others.
import { CodedError, revivable } from '../../errors.js';

/** How much of a second's allowance the bucket holds at most: the longest one organization's evaluation can hold the loop at once. */
const BURST_SECONDS = 0.5;

/**
 * Organizations whose buckets are kept before full ones are dropped (a full
 * bucket is what an organization without one gets): buckets are kept
 * between events, not made and dropped on each, which the evaluation of
 * every event would pay for.
 */
const KEPT_BUCKETS = 10_000;

/** An organization's milliseconds of evaluation: spend by taking from `left`. */
export interface Bucket {
  /** milliseconds left to spend (negative: an evaluation ran past its deadline, repaid before the next) */
  left: number;
  /** when it was last refilled (performance.now() milliseconds) */
  at: number;
}

export class EvaluationBudget {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;

  /** `msPerSecond`: the milliseconds of evaluation per second each organization may use (RULE_EVALUATION_MS_PER_SECOND). */
  constructor(private readonly msPerSecond: number) {
    this.capacity = msPerSecond * BURST_SECONDS;
  }

  /** The organization's bucket, refilled up to `now` (performance.now()); the caller takes what it spends from `left`. */
  refill(organizationId: string, now: number): Bucket {
    let bucket = this.buckets.get(organizationId);
    if (!bucket) {
      if (this.buckets.size >= KEPT_BUCKETS) this.dropFull(now);
      this.buckets.set(organizationId, (bucket = { left: this.capacity, at: now }));
      return bucket;
    }
    bucket.left = Math.min(this.capacity, bucket.left + ((now - bucket.at) * this.msPerSecond) / 1000);
    bucket.at = now;
    return bucket;
  }

  private dropFull(now: number): void {
    for (const [organizationId, bucket] of this.buckets) {
      if (bucket.left + ((now - bucket.at) * this.msPerSecond) / 1000 >= this.capacity)
        this.buckets.delete(organizationId);
    }
  }
}

/** Thrown inside an event's evaluation once its organization's allowance is spent (batch.ts catches it). */
export class EvaluationOverrun extends CodedError {
  readonly code = 'EVALUATION_OVERRUN';
  constructor() {
    super('rule evaluation ran past its time budget');
  }
  static {
    revivable('EVALUATION_OVERRUN', () => new EvaluationOverrun());
  }
}
