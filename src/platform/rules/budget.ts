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
// counted and reported by the engine (engine.ts), so the tenant pays for
// its rules' cost, never the others.

/** How much of a second's allowance the bucket holds at most: the longest one organization's evaluation can hold the loop at once. */
const BURST_SECONDS = 0.5;

interface Bucket {
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

  /** Milliseconds the organization may spend from `now` (0 or less: none). */
  allowance(organizationId: string, now: number): number {
    const bucket = this.buckets.get(organizationId);
    if (!bucket) return this.capacity;
    bucket.left = Math.min(this.capacity, bucket.left + ((now - bucket.at) * this.msPerSecond) / 1000);
    bucket.at = now;
    // A full bucket is the default: forgetting it keeps the map to the organizations spending now.
    if (bucket.left >= this.capacity) this.buckets.delete(organizationId);
    return bucket.left;
  }

  /** Charges `ms` of evaluation to the organization (after an allowance read at `now`). */
  spend(organizationId: string, ms: number, now: number): void {
    const bucket = this.buckets.get(organizationId);
    if (bucket) bucket.left -= ms;
    else this.buckets.set(organizationId, { left: this.capacity - ms, at: now });
  }
}

/** Thrown inside an event's evaluation once its organization's allowance is spent (batch.ts catches it). */
export class EvaluationOverrun extends Error {
  constructor() {
    super('rule evaluation ran past its time budget');
  }
}
