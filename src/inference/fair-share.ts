// Fair shares of the CPU between organizations, by run time. Every version
// has its own instances (threads), but on a CPU host they all run on the
// same cores: an organization with a model that takes seconds per run, or
// with many versions busy at once, would otherwise hold every core while the
// others' batches wait in the operating system's run queue behind it. Each
// batch on a CPU instance first takes one of `capacity` run permits (one per
// core). When permits are short:
//   - the next goes to the waiting organization that has used the least run
//     time (start-time fair queueing: an organization that was idle comes
//     back level with the busy ones, not with credit for its idle time), so
//     an organization whose runs cost 100x more gets 100x fewer of them,
//     rather than every other turn;
//   - and no organization holds more than its share of the permits
//     (capacity / organizations active, rounded up), so a slow model's runs
//     cannot take every core for seconds at a time: a run is not preempted
//     once started. Active means running, waiting, or either within the last
//     ACTIVE_WINDOW_MS: a client of a fast model is between two runs (its
//     answer going out, its next request coming in) most of the time, and
//     the permit it is about to ask for must not go to the slow model in
//     the meantime. That keeps a permit idle for up to ACTIVE_WINDOW_MS after
//     an organization's last run: the price of not waiting seconds for one.
// A long run still holds its permit until it ends (INFERENCE_TIMEOUT_MS
// bounds that). GPU instances do not take permits: their device runs one
// kernel stream per instance and they barely use the CPU.

/** How long an organization counts as active after its last run or wait (see above). */
export const ACTIVE_WINDOW_MS = 250;

export class FairShare {
  private free: number;
  /** when each organization last ran or waited (this.now()) */
  private readonly lastActive = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** organizations with batches waiting for a permit, each with its waiters in arrival order */
  private readonly waiting = new Map<string, Array<() => void>>();
  /** run time (ms) each organization has used: its virtual time */
  private readonly used = new Map<string, number>();
  /** permits each organization holds now */
  private readonly holding = new Map<string, number>();

  constructor(
    readonly capacity: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.free = capacity;
  }

  /** A permit now for `organizationId`, if one is free, nobody waits for it and it is within its share. */
  tryAcquire(organizationId: string): boolean {
    this.catchUp(organizationId);
    this.lastActive.set(organizationId, this.now());
    if (this.free === 0 || this.waiting.size > 0 || this.atShare(organizationId)) return false;
    this.grant(organizationId);
    return true;
  }

  /** Resolves when `organizationId` is given a permit. */
  acquire(organizationId: string): Promise<void> {
    if (this.tryAcquire(organizationId)) return Promise.resolve();
    return new Promise((resolve) => {
      const queue = this.waiting.get(organizationId);
      if (queue) queue.push(resolve);
      else this.waiting.set(organizationId, [resolve]);
      this.dispatch(); // a free permit held back from another organization's recent share may be this one's
    });
  }

  /** Gives back `organizationId`'s permit, charging it `runMs` of run time (0 for one it did not use). */
  release(organizationId: string, runMs: number): void {
    this.lastActive.set(organizationId, this.now());
    const held = (this.holding.get(organizationId) ?? 1) - 1;
    if (held > 0) this.holding.set(organizationId, held);
    else this.holding.delete(organizationId);
    this.used.set(organizationId, (this.used.get(organizationId) ?? 0) + Math.max(0, runMs));
    this.free++;
    this.dispatch();
  }

  /** Organizations running, waiting, or either within ACTIVE_WINDOW_MS; the recently active ones forgotten once past it. */
  private activeCount(): number {
    const now = this.now();
    let count = 0;
    for (const [organizationId, at] of this.lastActive) {
      if (this.waiting.has(organizationId) || this.holding.has(organizationId) || now - at < ACTIVE_WINDOW_MS) count++;
      else this.lastActive.delete(organizationId);
    }
    return count;
  }

  /** Whether `organizationId` holds its share of the permits already. */
  private atShare(organizationId: string): boolean {
    return (this.holding.get(organizationId) ?? 0) >= Math.ceil(this.capacity / Math.max(1, this.activeCount()));
  }

  /** Free permits to the waiting organizations, least run time first, none beyond its share. */
  private dispatch(): void {
    while (this.free > 0 && this.waiting.size > 0) {
      let next: string | undefined;
      for (const organizationId of this.waiting.keys()) {
        if (this.atShare(organizationId)) continue;
        if (next === undefined || (this.used.get(organizationId) ?? 0) < (this.used.get(next) ?? 0)) next = organizationId;
      }
      if (next === undefined) {
        // Every waiting organization holds its share: the permit is kept for the
        // recently active others, until they run again or their window passes.
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.dispatch();
        }, ACTIVE_WINDOW_MS).unref();
        return;
      }
      const queue = this.waiting.get(next)!;
      const grant = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(next);
      this.grant(next);
      grant();
    }
  }

  private grant(organizationId: string): void {
    this.free--;
    this.holding.set(organizationId, (this.holding.get(organizationId) ?? 0) + 1);
  }

  /**
   * An organization coming back (neither running nor waiting) is brought
   * level with the least served of those that are: an idle spell is not
   * credit to spend later (and a first appearance starts there, not at zero).
   */
  private catchUp(organizationId: string): void {
    if (this.waiting.has(organizationId) || this.holding.has(organizationId)) return;
    let floor: number | undefined;
    for (const other of new Set([...this.waiting.keys(), ...this.holding.keys()])) {
      const used = this.used.get(other) ?? 0;
      if (floor === undefined || used < floor) floor = used;
    }
    this.used.set(organizationId, Math.max(this.used.get(organizationId) ?? 0, floor ?? 0));
    // Forgetting the idle ones keeps the map small; they come back level anyway.
    if (this.used.size > 10_000) {
      for (const key of this.used.keys()) if (!this.waiting.has(key) && !this.holding.has(key) && key !== organizationId) this.used.delete(key);
    }
  }

  /** Permits in use, for metrics. */
  get inUse(): number {
    return this.capacity - this.free;
  }
}
