// Per-device token buckets: a device may send `rate` events a second, with
// bursts up to `burst`, whichever servers of the database its requests
// reach. Over it, the answer is 429 with Retry-After.
//
// The bucket is a PostgreSQL row (db/rate-buckets.ts), and each server
// leases tokens from it in chunks of a tenth of a second's rate, spending
// them from memory: a device at its full rate costs its server about ten
// round trips a second, one sending slower one per chunk, not one per
// event. Leased tokens have left the shared bucket, so the servers together
// never admit more than one bucket allows; what a server leased and its
// device then sends elsewhere waits unused (a tenth of a second's worth per
// server at most): the devices lose a little, never gain. The alternative,
// one UPDATE ... RETURNING per request, would add a round trip to every
// single-event request; counting per process (as before) let N servers
// admit N times the rate.
import type { Sql } from 'postgres';
import { deleteIdleBuckets, takeBucketTokens } from '../db/rate-buckets.js';
import type { Logger } from '../log.js';

/** chunks a device at its full rate leases per second */
const LEASES_PER_SECOND = 10;

/** How often idle buckets are swept from the table. */
const SWEEP_MS = 3_600_000;

interface Lease {
  /** tokens leased and not spent yet */
  tokens: number;
  /**
   * after the bucket could not cover a request: until when this server
   * refuses the device without asking again, so that a device far over
   * its rate costs at most LEASES_PER_SECOND round trips a second too
   */
  emptyUntil: number;
  /** tokens the device's requests waiting for a lease need, together */
  waiting: number;
  /** the round trip to the bucket in flight, which every waiting request awaits */
  leasing: Promise<void> | undefined;
}

export class RateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly chunk: number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly rate: number,
    private readonly burst: number,
    private readonly log: Logger,
  ) {
    this.chunk = Math.min(burst, Math.max(1, Math.ceil(rate / LEASES_PER_SECOND)));
  }

  /**
   * Takes `cost` tokens: 0 when allowed, else the seconds to wait. Answered
   * at once (no promise) when the lease covers it or the device was just
   * refused, as most calls are; a promise when the bucket must be asked.
   */
  take(key: string, cost: number): number | Promise<number> {
    let lease = this.leases.get(key);
    if (!lease) {
      if (this.leases.size > 200_000) this.leases.clear(); // bounded memory; forgetting only loses leased tokens
      lease = { tokens: 0, emptyUntil: 0, waiting: 0, leasing: undefined };
      this.leases.set(key, lease);
    }
    if (lease.tokens < cost && Date.now() >= lease.emptyUntil) return this.lease(key, lease, cost);
    return this.spend(lease, cost);
  }

  /**
   * Waits for tokens from the bucket. One round trip per device at a time:
   * requests that come while one is in flight wait for it and spend what it
   * brought, and the next asks for all of them at once. A round trip each
   * let a request that found its lease empty be refused while the tokens
   * its neighbours had leased were still on their way, and those tokens,
   * gone from the shared bucket, were then left unspent.
   */
  private async lease(key: string, lease: Lease, cost: number): Promise<number> {
    lease.waiting += cost;
    try {
      while (lease.tokens < cost && Date.now() >= lease.emptyUntil) {
        lease.leasing ??= this.refill(key, lease);
        await lease.leasing;
      }
    } finally {
      lease.waiting -= cost;
    }
    return this.spend(lease, cost);
  }

  /** One round trip to the bucket: what the waiting requests lack, a chunk at least. */
  private async refill(key: string, lease: Lease): Promise<void> {
    try {
      const want = Math.max(lease.waiting - lease.tokens, this.chunk);
      const granted = await takeBucketTokens(this.sql, key, want, this.rate, this.burst);
      lease.tokens += granted;
      // the bucket ran dry before the waiting requests were covered: they are refused, and the next for a while
      if (granted < want && lease.tokens < lease.waiting) lease.emptyUntil = Date.now() + 1000 / LEASES_PER_SECOND;
    } finally {
      lease.leasing = undefined;
    }
  }

  private spend(lease: Lease, cost: number): number {
    if (lease.tokens >= cost) {
      lease.tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil((cost - lease.tokens) / this.rate));
  }

  /** Sweeps buckets idle long enough to be full again (the same as no row) every hour. */
  start(): void {
    this.sweeper = setInterval(() => {
      deleteIdleBuckets(this.sql, new Date(Date.now() - (this.burst / this.rate) * 1000 - SWEEP_MS)).catch(
        (error: unknown) => this.log.warn('sweeping idle rate buckets failed', { error: error as Error }),
      );
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
