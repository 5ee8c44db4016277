// Graceful shutdown's bookkeeping: the requests in flight, counted so that
// stopping can wait for them, and the drain that refuses new ones (503) and
// tells the answers that would never end (event streams) to end now. One per
// server, passed to the router and the replies in its HttpContext.

/** Counts requests in progress so shutdown can wait for them. */
export class InFlight {
  private count = 0;
  private ended = 0;
  private waiters: Array<() => void> = [];
  private drainListeners = new Set<() => void>();
  draining = false;
  /**
   * Shutdown begins: new requests are refused (503), and the answers that
   * would otherwise never end (event streams) are told to end now.
   */
  drain(): void {
    this.draining = true;
    for (const listener of [...this.drainListeners]) listener();
    this.drainListeners.clear();
  }
  /** `listener` runs when drain() is called (at once if it was); returns its removal. */
  onDrain(listener: () => void): () => void {
    if (this.draining) {
      listener();
      return () => {};
    }
    this.drainListeners.add(listener);
    return () => void this.drainListeners.delete(listener);
  }
  start(): void {
    this.count++;
  }
  end(): void {
    this.count--;
    this.ended++;
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
  }
  /** requests answered (or abandoned) since start */
  get answered(): number {
    return this.ended;
  }
  get size(): number {
    return this.count;
  }
  /** Resolves true when nothing is in flight, false when the timeout hit first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
