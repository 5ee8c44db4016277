// The admission queue of one model version: QUEUE_SIZE places for requests
// in flight (reading their body, waiting for a load, queued or running) and
// a waiting room of QUEUE_WAITING_ROOM requests held unread until a place
// frees or QUEUE_HOLD_MS passes. A public version serves many organizations,
// so the places are shared fairly between the ones calling it:
//   - a freed place goes to a held request of the organization holding the
//     fewest places (the earliest of its requests), not to the oldest request;
//   - when the waiting room is full, a newcomer takes the place of the newest
//     request of the organization holding the most of it (that one is refused,
//     503), as long as that organization would still hold more than the
//     newcomer's; otherwise the newcomer is refused.
//   - an organization holds at most its share of the places (places /
//     organizations active, rounded up) while another active one holds less
//     than its own: active means holding a place, waiting, or either within
//     the last ACTIVE_WINDOW_MS, since a client between two requests (its
//     answer going out, its next request coming in) must find its place
//     still there, not taken by the flood that is always asking.
// So one organization's flood fills what nobody else wants and no more.

/** A request's place in the queue: admitted at once (`wait` null) or held until `wait` settles. */
export interface QueueTicket {
  wait: Promise<void> | null;
  /** gives the place (or the wait) back; call exactly once, when the request ends */
  release(): void;
}

export interface VersionQueueLimits {
  /** places for requests in flight */
  places: number;
  /** requests held beyond them before refusing */
  waitingRoom: number;
  /** how long a held request waits for a place */
  holdMs: number;
}

interface Waiter {
  organizationId: string;
  enter: () => void;
  /** refuses it now (to make room, or at the end of its hold) */
  refuse: () => void;
  timer: NodeJS.Timeout;
}

/** How long an organization counts as active after its last request left or came (see above). */
const ACTIVE_WINDOW_MS = 250;

export class VersionQueue {
  /** requests holding a place */
  inFlight = 0;
  private readonly inFlightBy = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  /** when each organization last entered or left */
  private readonly lastActive = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: VersionQueueLimits,
    /** the error a refused request gets (503 with Retry-After) */
    private readonly overloaded: () => Error,
    /** a request left its place (the drain rate counts it) */
    private readonly onLeave: () => void = () => {},
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Requests held in the waiting room. */
  get held(): number {
    return this.waiting.length;
  }

  /** A place now, or in the waiting room; throws `overloaded()` when neither is to be had. */
  enter(organizationId: string): QueueTicket {
    this.lastActive.set(organizationId, this.now());
    if (this.inFlight < this.limits.places && !this.overShare(organizationId)) {
      this.take(organizationId);
      return this.ticket(organizationId, null);
    }
    if (this.waiting.length >= this.limits.waitingRoom && !this.makeRoom(organizationId)) throw this.overloaded();
    let waiter!: Waiter;
    const wait = new Promise<void>((resolve, reject) => {
      waiter = {
        organizationId,
        enter: resolve,
        refuse: () => {
          clearTimeout(waiter.timer);
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(this.overloaded());
        },
        timer: setTimeout(() => waiter.refuse(), this.limits.holdMs),
      };
    });
    this.waiting.push(waiter);
    wait.catch(() => {}); // the caller may stop listening (client gone); the ticket still settles
    return this.ticket(organizationId, wait, waiter);
  }

  /** Refuses the newest waiter of the organization holding the most of the full waiting room, unless that is fair to `organizationId`. */
  private makeRoom(organizationId: string): boolean {
    const counts = new Map<string, number>();
    for (const w of this.waiting) counts.set(w.organizationId, (counts.get(w.organizationId) ?? 0) + 1);
    let largest: string | undefined;
    for (const [org, count] of counts) if (largest === undefined || count > counts.get(largest)!) largest = org;
    if (
      largest === undefined ||
      largest === organizationId ||
      counts.get(largest)! <= (counts.get(organizationId) ?? 0) + 1
    )
      return false;
    this.waiting.findLast((w) => w.organizationId === largest)!.refuse();
    return true;
  }

  /** The organizations holding a place, waiting, or either within ACTIVE_WINDOW_MS; the others forgotten. */
  private active(): string[] {
    const now = this.now();
    const holding = (org: string) => this.inFlightBy.has(org) || this.waiting.some((w) => w.organizationId === org);
    for (const [org, at] of this.lastActive)
      if (now - at >= ACTIVE_WINDOW_MS && !holding(org)) this.lastActive.delete(org);
    return [...this.lastActive.keys()];
  }

  /** Whether `organizationId` holds its share of the places while another active organization holds less than its own. */
  private overShare(organizationId: string): boolean {
    const active = this.active();
    if (active.length < 2) return false;
    const share = Math.ceil(this.limits.places / active.length);
    const held = (org: string) => this.inFlightBy.get(org) ?? 0;
    return held(organizationId) >= share && active.some((org) => org !== organizationId && held(org) < share);
  }

  private take(organizationId: string): void {
    this.inFlight++;
    this.inFlightBy.set(organizationId, (this.inFlightBy.get(organizationId) ?? 0) + 1);
  }

  private ticket(organizationId: string, wait: Promise<void> | null, waiter?: Waiter): QueueTicket {
    let holding = wait === null;
    let released = false;
    void wait?.then(
      () => (holding = true),
      () => {},
    );
    return {
      wait,
      release: () => {
        if (released) return;
        released = true;
        if (holding) return this.leave(organizationId);
        const index = waiter ? this.waiting.indexOf(waiter) : -1;
        if (index >= 0) {
          clearTimeout(waiter!.timer);
          this.waiting.splice(index, 1);
        }
      },
    };
  }

  /** A request left its place: the place goes to a held request of the organization holding the fewest, if any wait. */
  private leave(organizationId: string): void {
    this.onLeave();
    this.lastActive.set(organizationId, this.now());
    this.inFlight--;
    const left = (this.inFlightBy.get(organizationId) ?? 1) - 1;
    if (left > 0) this.inFlightBy.set(organizationId, left);
    else this.inFlightBy.delete(organizationId);
    this.admitWaiting();
  }

  /** Free places to held requests, the organization holding the fewest first, none beyond its share. */
  private admitWaiting(): void {
    while (this.inFlight < this.limits.places && this.waiting.length > 0) {
      let next: Waiter | undefined;
      for (const w of this.waiting) {
        if (this.overShare(w.organizationId)) continue;
        if (
          next === undefined ||
          (this.inFlightBy.get(w.organizationId) ?? 0) < (this.inFlightBy.get(next.organizationId) ?? 0)
        )
          next = w;
      }
      if (!next) {
        // Kept for an organization active a moment ago, until it asks or its window passes.
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.admitWaiting();
        }, ACTIVE_WINDOW_MS).unref();
        return;
      }
      this.waiting.splice(this.waiting.indexOf(next), 1);
      clearTimeout(next.timer);
      this.take(next.organizationId);
      next.enter();
    }
  }
}
