// Shared memory for the decoded images kept for child stages, reused from
// one request to the next. A version with stages keeps each image decoded at
// its own size (a 1280x720 photo: 2.7 MB) until its crops are cut; taken
// fresh every request, that memory costs the kernel a zeroed page per 4 KiB
// and V8 a major collection every few hundred megabytes. The engine lends a
// buffer released by an earlier request to the pipeline worker that decodes
// the next image, which writes the pixels into it when they fit (a camera or
// a client sends the same size again and again) and takes a new one when they
// do not; the request gives its buffer back when its stages are done.
// Owned by the main thread: only it lends and takes back.

/** The pool's tuning, named once here (docs/ARCHITECTURE.md, "Tuning constants", lists it). */
const KEPT_IMAGES_TUNING = {
  /** free buffers kept for the next requests, in bytes at most (a buffer past it is left to the collector) */
  freeBytes: 64 * 1024 * 1024,
} as const;

export class KeptImagePool {
  /** free buffers, the last given back last */
  private readonly free: SharedArrayBuffer[] = [];
  private freeBytes = 0;

  constructor(private readonly maxFreeBytes: number = KEPT_IMAGES_TUNING.freeBytes) {}

  /**
   * The buffer given back last (the likeliest to have the next image's size,
   * and warm in the caches), or none: lent to one request until given back.
   */
  lend(): SharedArrayBuffer | undefined {
    const buffer = this.free.pop();
    if (buffer) this.freeBytes -= buffer.byteLength;
    return buffer;
  }

  /**
   * A buffer no request reads or writes any more, kept for the next ones;
   * the oldest free buffers make room for it, and one bigger than the whole
   * pool is not kept.
   */
  give(buffer: SharedArrayBuffer): void {
    if (buffer.byteLength > this.maxFreeBytes) return;
    while (this.freeBytes + buffer.byteLength > this.maxFreeBytes) this.freeBytes -= this.free.shift()!.byteLength;
    this.free.push(buffer);
    this.freeBytes += buffer.byteLength;
  }

  /** bytes held by free buffers */
  get heldBytes(): number {
    return this.freeBytes;
  }
}
