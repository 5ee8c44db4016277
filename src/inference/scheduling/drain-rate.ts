// How fast a version's queue drains, from the times of its last completions:
// Retry-After is the time the requests ahead of a refused one take to drain
// at that rate, instead of a constant.
export class DrainRate {
  private readonly times: Float64Array;
  private next = 0;
  private count = 0;

  constructor(window = 64) {
    this.times = new Float64Array(window);
  }

  completed(now = performance.now()): void {
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.times.length;
    this.count = Math.min(this.count + 1, this.times.length);
  }

  /** completions per second over the window; undefined until two are known */
  perSecond(now = performance.now()): number | undefined {
    if (this.count < 2) return undefined;
    const oldest = this.times[(this.next - this.count + this.times.length) % this.times.length]!;
    // A window that ended long ago says nothing about the queue now.
    const span = Math.max(now, this.times[(this.next - 1 + this.times.length) % this.times.length]!) - oldest;
    return span > 0 ? ((this.count - 1) * 1000) / span : undefined;
  }

  /** whole seconds until `queued` requests drain, 1 to `max` */
  retryAfterSeconds(queued: number, max = 60): number {
    const rate = this.perSecond();
    if (!rate) return 1;
    return Math.min(max, Math.max(1, Math.ceil(queued / rate)));
  }
}
