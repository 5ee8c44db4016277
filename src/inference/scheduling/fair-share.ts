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
//     cannot take every core for seconds at a time. Active means running,
//     waiting, or either within the last ACTIVE_WINDOW_MS: a client of a
//     fast model is between two runs (its answer going out, its next request
//     coming in) most of the time, and the permit it is about to ask for
//     must not go to the slow model in the meantime. That keeps a permit
//     idle for up to ACTIVE_WINDOW_MS after an organization's last run: the
//     price of not waiting seconds for one.
// The share only applies to the permits' next owners: a run is not
// preempted once started (ONNX Runtime cannot interrupt a run in a thread;
// stopping the thread under it aborts the process). So an organization that
// came while every permit was held by runs that take seconds (a model that
// loops on some images, sent while nobody else was active) would wait for
// one of them to end, up to INFERENCE_TIMEOUT_MS, however fair the next
// grant. Instead, once no permit has changed hands for LEND_AFTER_MS, an
// organization that holds none is lent one beyond the capacity: its run
// shares the cores with the long ones (the operating system time-slices
// them) rather than queueing behind them. At most `capacity` are lent at
// once (twice as many runs as cores at worst), and the first permits given
// back end the lending before any is free again.
// GPU instances do not take permits: their device runs one kernel stream per
// instance and they barely use the CPU.

/** How long an organization counts as active after its last run or wait (see above). */
const ACTIVE_WINDOW_MS = 250;

/** How long every permit must have stayed with its run before one is lent to an organization holding none (see above). */
export const LEND_AFTER_MS = 250;

export class FairShare {
  private free: number;
  /** when each organization last ran or waited (this.now()) */
  private readonly lastActive = new Map<string, number>();
  private timer: { at: number; handle: NodeJS.Timeout } | undefined;
  /** permits granted beyond the capacity, to organizations that held none (see above): how many each holds */
  private readonly lentTo = new Map<string, number>();
  private lent = 0;
  /** when a permit within the capacity was last granted (this.now()): each of them has been held since then at least */
  private lastGrant = Number.NEGATIVE_INFINITY;
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
    if (this.lentTo.has(organizationId)) this.endLending(organizationId);
    else if (this.lent > 0) {
      // A permit of the capacity changes hands: the lending ends first (back
      // to one run per core), one lent permit becoming one of the capacity.
      this.endLending(this.lentTo.keys().next().value!);
      this.lastGrant = this.now();
    } else this.free++;
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

  /** Free permits to the waiting organizations, least run time first, none beyond its share; lent ones once permits stay held. */
  private dispatch(): void {
    while (this.waiting.size > 0) {
      const lend = this.free === 0;
      const next = lend ? this.nextToLend() : this.nextWithinShare();
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const grant = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(next);
      this.grant(next, lend);
      grant();
    }
  }

  /** The waiting organization with the least run time that is within its share, or undefined (and a wake-up for the held-back permit). */
  private nextWithinShare(): string | undefined {
    const next = this.leastUsedWaiting((organizationId) => !this.atShare(organizationId));
    // Every waiting organization holds its share: the permit is kept for the
    // recently active others, until they run again or their window passes.
    if (next === undefined) this.wakeIn(ACTIVE_WINDOW_MS);
    return next;
  }

  /**
   * With no permit free: the least served waiting organization that holds
   * none, once no permit has changed hands for LEND_AFTER_MS and fewer than
   * `capacity` are lent; undefined otherwise (and a wake-up for when it may be).
   */
  private nextToLend(): string | undefined {
    if (this.lent >= this.capacity) return undefined; // a release dispatches again
    const next = this.leastUsedWaiting((organizationId) => !this.holding.has(organizationId));
    if (next === undefined) return undefined;
    const wait = this.lastGrant + LEND_AFTER_MS - this.now();
    if (wait > 0) {
      this.wakeIn(wait);
      return undefined;
    }
    return next;
  }

  private leastUsedWaiting(eligible: (organizationId: string) => boolean): string | undefined {
    let next: string | undefined;
    for (const organizationId of this.waiting.keys()) {
      if (!eligible(organizationId)) continue;
      if (next === undefined || (this.used.get(organizationId) ?? 0) < (this.used.get(next) ?? 0))
        next = organizationId;
    }
    return next;
  }

  /** dispatch() again in `ms`, unless a wake-up comes sooner already. */
  private wakeIn(ms: number): void {
    const at = this.now() + ms;
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    const handle = setTimeout(() => {
      this.timer = undefined;
      this.dispatch();
    }, Math.ceil(ms)).unref();
    this.timer = { at, handle };
  }

  private grant(organizationId: string, lent = false): void {
    if (lent) {
      this.lent++;
      this.lentTo.set(organizationId, (this.lentTo.get(organizationId) ?? 0) + 1);
    } else {
      this.free--;
      this.lastGrant = this.now();
    }
    this.holding.set(organizationId, (this.holding.get(organizationId) ?? 0) + 1);
  }

  private endLending(organizationId: string): void {
    this.lent--;
    const left = this.lentTo.get(organizationId)! - 1;
    if (left > 0) this.lentTo.set(organizationId, left);
    else this.lentTo.delete(organizationId);
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
      for (const key of this.used.keys())
        if (!this.waiting.has(key) && !this.holding.has(key) && key !== organizationId) this.used.delete(key);
    }
  }

  /** Permits in use, the lent ones included, for metrics. */
  get inUse(): number {
    return this.capacity - this.free + this.lent;
  }
}
