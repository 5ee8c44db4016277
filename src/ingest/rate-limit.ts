// Per-device token buckets: a device may send `rate` events a second, with
// bursts up to `burst`. Over it, the answer is 429 with Retry-After.

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  /** Takes `cost` tokens; returns 0 when allowed, else the seconds to wait. */
  take(key: string, cost: number, now = Date.now()): number {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size > 200_000) this.buckets.clear(); // bounded memory; forgetting only forgives
      bucket = { tokens: this.burst, updatedAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * this.rate);
    bucket.updatedAt = now;
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    return Math.max(1, Math.ceil((cost - bucket.tokens) / this.rate));
  }
}
