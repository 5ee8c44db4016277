// Input tensors in shared memory. A pipeline worker writes one image's
// tensor into a slot, the instance thread reads it when it runs the batch:
// no copy between threads. A version has a bounded set of slots, so the
// tensors waiting for an instance take bounded memory; a request waits
// (body still compressed) until a slot is free.
export class SlotPool {
  private readonly free: SharedArrayBuffer[] = [];
  private readonly waiting: Array<(slot: SharedArrayBuffer) => void> = [];
  private created = 0;

  constructor(
    readonly slotBytes: number,
    readonly capacity: number,
  ) {}

  /** A free slot, created on first need, or the next one released. */
  acquire(): Promise<SharedArrayBuffer> {
    const slot = this.tryAcquire();
    if (slot) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** A free slot now (created if there is room), or none: never waits. */
  tryAcquire(): SharedArrayBuffer | undefined {
    const slot = this.free.pop();
    if (slot) return slot;
    if (this.created >= this.capacity) return undefined;
    this.created++;
    return new SharedArrayBuffer(this.slotBytes);
  }

  release(slot: SharedArrayBuffer): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }
}
