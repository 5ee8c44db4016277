// Giving freed memory back to the system once the server goes quiet. glibc
// keeps freed blocks in its heaps, and after a flood of large request bodies
// the free memory around a few live allocations can stay mapped for good (a
// server idle after an attack sat at gigabytes). Trimming returns it, but
// takes a few hundred milliseconds for a large heap and holds the
// allocator meanwhile, so it runs only after `idleMs` without a request
// answered, and once per such quiet spell: never under load, never twice
// for nothing.

export interface IdleTrimOptions {
  /** requests answered so far (a counter that grows) */
  answered: () => number;
  /** requests in progress now */
  inFlight: () => number;
  /** gives free memory back (native trimMemory) */
  trim: () => void;
  idleMs: number;
}

/** Starts watching; returns the stop. */
export function trimWhenIdle(options: IdleTrimOptions): () => void {
  let seen = options.answered();
  let trimmedAt = seen;
  const timer = setInterval(() => {
    const now = options.answered();
    const quiet = now === seen && options.inFlight() === 0;
    seen = now;
    if (quiet && now !== trimmedAt) {
      trimmedAt = now;
      options.trim();
    }
  }, options.idleMs);
  timer.unref();
  return () => clearInterval(timer);
}
