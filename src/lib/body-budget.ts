// The memory every buffered request body shares (MAX_BUFFERED_BYTES), and
// each organization's part of it (ORGANIZATION_BUFFERED_BYTES). A body
// waits, unread in its socket, until its bytes fit both; waiters are served
// first come first served, except that one held back only by its own
// organization's part does not hold up the others behind it. An
// organization with nothing in memory may always have one body, however
// large (up to the whole budget), so the per-organization part never
// refuses a request that the server could take. Neutral code: the HTTP
// body readers reserve from it, and so does predict's admission
// (inference/scheduling/admission.ts).

interface Waiter {
  bytes: number;
  owner: string | undefined;
  grant: () => void;
}

export class BodyBudget {
  private used = 0;
  private readonly byOwner = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly limit: number,
    /** what one owner (organization) may hold at once */
    readonly ownerLimit: number = limit,
  ) {}

  /** Reserves `bytes` for `owner` (undefined: not yet known, counted globally only) if they fit now. */
  tryReserve(bytes: number, owner?: string): boolean {
    if (this.waiting.some((w) => !this.heldByOwner(w)) || !this.fits(bytes, owner)) return false;
    this.take(bytes, owner);
    return true;
  }

  /** Reserves `bytes` now or as soon as they fit; false if that has not happened within `holdMs`. */
  reserve(bytes: number, owner: string | undefined, holdMs: number): Promise<boolean> {
    if (this.tryReserve(bytes, owner)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve(false);
      }, holdMs);
      const waiter: Waiter = {
        bytes,
        owner,
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiting.push(waiter);
    });
  }

  release(bytes: number, owner?: string): void {
    this.used -= bytes;
    if (owner !== undefined) {
      const left = (this.byOwner.get(owner) ?? bytes) - bytes;
      if (left > 0) this.byOwner.set(owner, left);
      else this.byOwner.delete(owner);
    }
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i]!;
      if (this.fits(waiter.bytes, waiter.owner)) {
        this.waiting.splice(i, 1);
        this.take(waiter.bytes, waiter.owner);
        waiter.grant();
      } else if (this.heldByOwner(waiter)) {
        i++; // its organization's part is full: the next may go
      } else {
        break; // the whole budget is short: first come first served
      }
    }
  }

  get inUse(): number {
    return this.used;
  }

  private fits(bytes: number, owner: string | undefined): boolean {
    if (this.used + bytes > this.limit) return false;
    if (owner === undefined) return true;
    const mine = this.byOwner.get(owner) ?? 0;
    return mine === 0 || mine + bytes <= this.ownerLimit;
  }

  /** A waiter that the whole budget could take but its organization's part cannot. */
  private heldByOwner(waiter: Waiter): boolean {
    return this.used + waiter.bytes <= this.limit && !this.fits(waiter.bytes, waiter.owner);
  }

  private take(bytes: number, owner: string | undefined): void {
    this.used += bytes;
    if (owner !== undefined) this.byOwner.set(owner, (this.byOwner.get(owner) ?? 0) + bytes);
  }
}
