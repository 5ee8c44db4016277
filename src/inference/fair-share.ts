// Fair shares of the CPU between organizations. Every version has its own
// instances (threads), but on a CPU host they all run on the same cores: an
// organization with a model that takes seconds per run, or with many
// versions busy at once, would otherwise hold every core while the others'
// batches wait in the operating system's run queue behind it. Each batch
// on a CPU instance first takes one of `capacity` run permits (one per
// core); when permits are short, the next goes to the waiting organization
// served longest ago, so a busy organization gets its turn like any other
// but cannot take the others'. A long run still holds its permit until it ends
// (INFERENCE_TIMEOUT_MS bounds that): an organization waits at most for one
// run of each permit. GPU instances do not take permits: their device runs
// one kernel stream per instance and they barely use the CPU.

export class FairShare {
  private free: number;
  /** organizations with batches waiting for a permit, each with its waiters in arrival order */
  private readonly waiting = new Map<string, Array<() => void>>();
  /** when each organization was last given a permit (a sequence number) */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  constructor(readonly capacity: number) {
    this.free = capacity;
  }

  /** A permit now for `organizationId`, if one is free and nobody waits for it. */
  tryAcquire(organizationId: string): boolean {
    if (this.free === 0 || this.waiting.size > 0) return false;
    this.free--;
    this.markServed(organizationId);
    return true;
  }

  /** Resolves when `organizationId` is given a permit. */
  acquire(organizationId: string): Promise<void> {
    if (this.tryAcquire(organizationId)) return Promise.resolve();
    return new Promise((resolve) => {
      const queue = this.waiting.get(organizationId);
      if (queue) queue.push(resolve);
      else this.waiting.set(organizationId, [resolve]);
    });
  }

  release(): void {
    let next: string | undefined;
    for (const organizationId of this.waiting.keys()) {
      if (next === undefined || (this.lastServed.get(organizationId) ?? -1) < (this.lastServed.get(next) ?? -1)) next = organizationId;
    }
    if (next === undefined) {
      this.free++;
      return;
    }
    const queue = this.waiting.get(next)!;
    const grant = queue.shift()!;
    if (queue.length === 0) this.waiting.delete(next);
    this.markServed(next);
    grant();
  }

  private markServed(organizationId: string): void {
    // Forgetting everyone at once is fair too: all start level again.
    if (this.lastServed.size > 100_000) this.lastServed.clear();
    this.lastServed.set(organizationId, ++this.served);
  }

  /** Permits in use, for metrics. */
  get inUse(): number {
    return this.capacity - this.free;
  }
}
