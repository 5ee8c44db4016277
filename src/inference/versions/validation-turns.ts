// Whose model validation runs next. Validations are few at a time (each may
// take MODEL_VALIDATION_MEMORY_MB and a core until its time limit), and one
// queue for every tenant let one organization's burst of uploads (a few
// hundred bytes each, each looping until it is killed) put every other
// organization's upload behind all of them. Here each organization has its
// own line: at most one of its validations runs at a time, and a free place
// goes to the organizations in turn, the one served longest ago first.

export class ValidationTurns {
  private running = 0;
  /** organizations with validations waiting, in turn order, each with its waiters in arrival order */
  private readonly waiting = new Map<string, Array<() => void>>();
  /** organizations with a validation running */
  private readonly busy = new Set<string>();

  constructor(
    /** validations at once, all organizations together */
    readonly concurrent: number,
  ) {}

  /** Runs `task` once it is `organizationId`'s turn. */
  async run<T>(organizationId: string, task: () => Promise<T>): Promise<T> {
    await this.turn(organizationId);
    try {
      return await task();
    } finally {
      this.running--;
      this.busy.delete(organizationId);
      this.next();
    }
  }

  /** validations waiting for their turn, for tests and metrics */
  get queued(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.length;
    return count;
  }

  private turn(organizationId: string): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(organizationId);
      if (waiters) waiters.push(resolve);
      else this.waiting.set(organizationId, [resolve]);
      this.next();
    });
  }

  /** Starts waiting validations while places are free: the first organization in turn with none running. */
  private next(): void {
    while (this.running < this.concurrent) {
      let next: string | undefined;
      for (const organizationId of this.waiting.keys()) {
        if (!this.busy.has(organizationId)) {
          next = organizationId;
          break;
        }
      }
      if (next === undefined) return;
      const waiters = this.waiting.get(next)!;
      const start = waiters.shift()!;
      // Served: to the end of the line with what it has left.
      this.waiting.delete(next);
      if (waiters.length > 0) this.waiting.set(next, waiters);
      this.running++;
      this.busy.add(next);
      start();
    }
  }
}
