// Which model versions are loaded. A version loads on first use (or when it
// is deployed), at most a few at a time, and stays loaded while it is used;
// past MAX_LOADED_VERSIONS or the memory budget the least recently used
// version with no request in flight is unloaded, and loads again on its
// next request. Requests pin the load they run on, so eviction never pulls
// a session from under a request. What isolated instance processes hold
// resident (measured, not estimated: a few-byte model may keep gigabytes
// after a run) has budgets of its own, one per organization and one for the
// server: past one, the least recently used idle loads that count against
// it are unloaded, and while it stays exceeded (the memory is held by
// requests in flight) residentRefusal says why a request for another run
// must wait.
import type { Logger } from '../../log.js';
import type { LoadedModel } from './loaded-model.js';

/** The model cache's tuning, named once here (docs/ARCHITECTURE.md, "Tuning constants", lists it). */
export const MODEL_CACHE_TUNING = {
  /** versions loading at once (each starts threads and sessions, and reads its files); the others wait their turn */
  concurrentLoads: 2,
} as const;

export interface CacheLimits {
  maxLoaded: number;
  memoryBudgetBytes: number;
  /** what isolated instance processes may hold resident (ISOLATED_MEMORY_MB, ORGANIZATION_ISOLATED_MEMORY_MB); unset: unbounded */
  resident?: { serverBytes: number; organizationBytes: number };
  /** loads running at once (each starts threads and sessions) */
  concurrentLoads: number;
}

interface Entry {
  loading: Promise<LoadedModel>;
  model: LoadedModel | undefined;
  pins: number;
  /** removed from the cache: close once unpinned */
  retired: boolean;
}

export class ModelCache {
  /** in least-recently-used order: first is the next to evict */
  private readonly entries = new Map<string, Entry>();
  private loadsRunning = 0;
  private readonly loadQueue: Array<() => void> = [];
  evictions = 0;

  constructor(
    private readonly limits: CacheLimits,
    private readonly log: Logger,
  ) {}

  /** The loaded version, loading it with `load` if needed; pinned until release(). */
  async acquire(id: string, load: () => Promise<LoadedModel>): Promise<LoadedModel> {
    let entry = this.entries.get(id);
    if (entry?.model && !entry.model.healthy) {
      this.retire(id, entry);
      entry = undefined;
    }
    if (entry) {
      this.entries.delete(id); // most recently used goes last
    } else {
      entry = { loading: this.throttled(load), model: undefined, pins: 0, retired: false };
      const created = entry;
      entry.loading.then(
        (model) => {
          created.model = model;
          if (created.retired) this.closeWhenIdle(created);
          else this.trim();
        },
        () => {
          if (this.entries.get(id) === created) this.entries.delete(id);
        },
      );
    }
    this.entries.set(id, entry);
    entry.pins++;
    try {
      return await entry.loading;
    } catch (error) {
      entry.pins--;
      throw error;
    }
  }

  release(id: string, model: LoadedModel): void {
    const entry = this.entries.get(id);
    const owner = entry?.model === model ? entry : undefined;
    if (owner) {
      owner.pins--;
      this.trim();
    } else {
      // A retired load finishing its last request.
      this.retiredPins.set(model, (this.retiredPins.get(model) ?? 1) - 1);
      if (this.retiredPins.get(model)! <= 0) {
        this.retiredPins.delete(model);
        void this.closeModel(model);
      }
    }
  }

  /** pins still held on loads that left the cache */
  private readonly retiredPins = new Map<LoadedModel, number>();

  /** Unloads a version (deleted, or shutting down); its requests in flight finish first. */
  async remove(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.retire(id, entry);
    await entry.loading.catch(() => undefined);
  }

  get loadedCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.model) n++;
    return n;
  }

  get loadedBytes(): number {
    let bytes = 0;
    for (const e of this.entries.values()) bytes += e.model?.memoryBytes ?? 0;
    return bytes;
  }

  loaded(): LoadedModel[] {
    return [...this.entries.values()].flatMap((e) => (e.model ? [e.model] : []));
  }

  async close(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.remove(id)));
  }

  private retire(id: string, entry: Entry): void {
    this.entries.delete(id);
    entry.retired = true;
    if (entry.model) this.closeWhenIdle(entry);
  }

  private closeWhenIdle(entry: Entry): void {
    const model = entry.model!;
    if (entry.pins <= 0) void this.closeModel(model);
    else this.retiredPins.set(model, entry.pins);
  }

  private async closeModel(model: LoadedModel): Promise<void> {
    try {
      await model.close();
    } catch (error) {
      this.log.warn('could not unload a model version', { id: model.versionId, error: error as Error });
    }
  }

  /** Evicts least recently used, unpinned loads while over a limit they count against. */
  private trim(): void {
    for (const [id, entry] of this.entries) {
      if (!entry.model || entry.pins > 0) continue;
      const limit = this.exceededBy(entry.model);
      if (limit === undefined) continue;
      this.retire(id, entry);
      this.evictions++;
      this.log.info('model version unloaded (least recently used)', { id, over: limit, loaded: this.loadedCount });
    }
  }

  /** The setting of a limit now exceeded that unloading `model` would bring down, if any. */
  private exceededBy(model: LoadedModel): string | undefined {
    if (this.loadedCount > this.limits.maxLoaded) return 'MAX_LOADED_VERSIONS';
    if (this.loadedBytes > this.limits.memoryBudgetBytes) return 'MODEL_MEMORY_BUDGET_MB';
    const resident = this.limits.resident;
    if (!resident || model.residentBytes === 0) return undefined;
    if (this.residentOf(model.organizationId) > resident.organizationBytes) return 'ORGANIZATION_ISOLATED_MEMORY_MB';
    if (this.residentOf(undefined) > resident.serverBytes) return 'ISOLATED_MEMORY_MB';
    return undefined;
  }

  /** what the loads' instance processes hold resident: one organization's, or (undefined) all */
  private residentOf(organizationId: string | undefined): number {
    let bytes = 0;
    for (const e of this.entries.values()) {
      if (e.model && (organizationId === undefined || e.model.organizationId === organizationId))
        bytes += e.model.residentBytes;
    }
    return bytes;
  }

  /**
   * Why a request for an isolated version of `organizationId` must wait, or
   * undefined: idle loads over a resident budget are unloaded first; what
   * is still over it is held by requests in flight.
   */
  residentRefusal(organizationId: string): string | undefined {
    const resident = this.limits.resident;
    if (!resident) return undefined;
    this.trim();
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    const own = this.residentOf(organizationId);
    if (own > resident.organizationBytes) {
      return `your organization's isolated model instances hold ${mb(own)} MB, over its budget of ${mb(resident.organizationBytes)} MB (ORGANIZATION_ISOLATED_MEMORY_MB) while requests run on them`;
    }
    const all = this.residentOf(undefined);
    if (all > resident.serverBytes) {
      return `isolated model instances hold ${mb(all)} MB, over this server's budget of ${mb(resident.serverBytes)} MB (ISOLATED_MEMORY_MB) while requests run on them`;
    }
    return undefined;
  }

  private async throttled<T>(task: () => Promise<T>): Promise<T> {
    if (this.loadsRunning >= this.limits.concurrentLoads) await new Promise<void>((go) => this.loadQueue.push(go));
    this.loadsRunning++;
    try {
      return await task();
    } finally {
      this.loadsRunning--;
      this.loadQueue.shift()?.();
    }
  }
}
