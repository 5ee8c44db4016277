// Which model versions are loaded. A version loads on first use (or when it
// is deployed), at most a few at a time, and stays loaded while it is used;
// past MAX_LOADED_VERSIONS or the memory budget the least recently used
// version with no request in flight is unloaded, and loads again on its
// next request. Requests pin the load they run on, so eviction never pulls
// a session from under a request.
import { log } from '../log.js';
import type { LoadedModel } from './loaded-model.js';

export interface CacheLimits {
  maxLoaded: number;
  memoryBudgetBytes: number;
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

  constructor(private readonly limits: CacheLimits) {}

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
      log.warn('could not unload a model version', { id: model.versionId, error: error as Error });
    }
  }

  /** Evicts least recently used, unpinned loads while over a limit. */
  private trim(): void {
    for (const [id, entry] of this.entries) {
      if (this.loadedCount <= this.limits.maxLoaded && this.loadedBytes <= this.limits.memoryBudgetBytes) return;
      if (!entry.model || entry.pins > 0) continue;
      this.retire(id, entry);
      this.evictions++;
      log.info('model version unloaded (least recently used)', { id, loaded: this.loadedCount });
    }
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
