// Which model versions stay loaded (src/inference/versions/model-cache.ts), on fake
// loads: least recently used first out past MAX_LOADED_VERSIONS or the
// memory budget, never one with a request in flight; one load per version
// however many ask at once; unhealthy and failed loads; removal waiting for
// the requests in flight; loads at most `concurrentLoads` at a time; the
// resident memory of isolated instances, per organization and per server.
import { describe, expect, it } from 'vitest';
import type { LoadedModel } from '../../src/inference/versions/loaded-model.js';
import { ModelCache, type CacheLimits } from '../../src/inference/versions/model-cache.js';
import { testLog } from '../helpers/log.js';

interface FakeModel {
  versionId: string;
  organizationId: string;
  memoryBytes: number;
  /** what its instance processes hold, as if measured */
  residentBytes: number;
  healthy: boolean;
  instances: never[];
  closed: boolean;
  close(): Promise<void>;
}

function fakeModel(versionId: string, memoryBytes = 1, residentBytes = 0, organizationId = 'org'): FakeModel {
  return {
    versionId,
    organizationId,
    memoryBytes,
    residentBytes,
    healthy: true,
    instances: [],
    closed: false,
    async close() {
      this.closed = true;
    },
  };
}

/** A cache whose loads are fake models, counted per version; `resident`: a version's organization and what its processes hold. */
function cacheOf(
  limits: Partial<CacheLimits> = {},
  bytes: Record<string, number> = {},
  resident: Record<string, [string, number]> = {},
) {
  const cache = new ModelCache(
    {
      maxLoaded: 2,
      memoryBudgetBytes: Number.MAX_SAFE_INTEGER,
      concurrentLoads: 4,
      ...limits,
    },
    testLog,
  );
  const models = new Map<string, FakeModel[]>();
  const loads = (id: string) => models.get(id)?.length ?? 0;
  const load = (id: string) => async () => {
    const [organizationId, residentBytes] = resident[id] ?? ['org', 0];
    const model = fakeModel(id, bytes[id] ?? 1, residentBytes, organizationId);
    models.set(id, [...(models.get(id) ?? []), model]);
    return model as unknown as LoadedModel;
  };
  /** acquires and releases at once: the version used, nothing left in flight */
  const use = async (id: string) => {
    const model = await cache.acquire(id, load(id));
    cache.release(id, model);
    return model as unknown as FakeModel;
  };
  const loadedIds = () => cache.loaded().map((m) => m.versionId);
  return { cache, load, loads, use, loadedIds, models };
}

/** Lets the loads' and closes' promise callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('ModelCache', () => {
  it('loads a version once, however many requests ask for it at the same time', async () => {
    const { cache, load, loads } = cacheOf();
    const [a, b] = await Promise.all([cache.acquire('v1', load('v1')), cache.acquire('v1', load('v1'))]);
    expect(a).toBe(b);
    expect(loads('v1')).toBe(1);
    expect(cache.loadedCount).toBe(1);
  });

  it('unloads the least recently used version past maxLoaded', async () => {
    const { cache, use, loadedIds } = cacheOf({ maxLoaded: 2 });
    const v1 = await use('v1');
    await use('v2');
    await use('v3');
    await settle();
    expect(loadedIds()).toEqual(['v2', 'v3']);
    expect(v1.closed).toBe(true);
    expect(cache.evictions).toBe(1);
    expect(cache.loadedCount).toBe(2);
  });

  it('counts a use as recent: the one used longest ago goes', async () => {
    const { use, loadedIds, loads } = cacheOf({ maxLoaded: 2 });
    await use('v1');
    const v2 = await use('v2');
    await use('v1'); // v1 is now the most recent
    await use('v3');
    await settle();
    expect(loadedIds()).toEqual(['v1', 'v3']);
    expect(v2.closed).toBe(true);
    expect(loads('v1')).toBe(1); // used again without a reload
  });

  it('never unloads a version with a request in flight, and trims once it is released', async () => {
    const { cache, load, use, loadedIds } = cacheOf({ maxLoaded: 1 });
    const pinned = await cache.acquire('v1', load('v1'));
    const v2 = await use('v2'); // over the limit: v1 is older but in use, v2 goes
    await settle();
    expect(loadedIds()).toEqual(['v1']);
    expect(v2.closed).toBe(true);
    const v3 = await cache.acquire('v3', load('v3')); // both in use: over the limit for now
    expect(loadedIds()).toEqual(['v1', 'v3']);
    expect((pinned as unknown as FakeModel).closed).toBe(false);
    cache.release('v1', pinned); // v1 free again, and the oldest
    await settle();
    expect(loadedIds()).toEqual(['v3']);
    expect((pinned as unknown as FakeModel).closed).toBe(true);
    cache.release('v3', v3);
  });

  it('unloads past the memory budget too, however few are loaded', async () => {
    const { cache, use, loadedIds } = cacheOf({ maxLoaded: 10, memoryBudgetBytes: 100 }, { v1: 60, v2: 30, v3: 30 });
    await use('v1');
    await use('v2');
    expect(cache.loadedBytes).toBe(90);
    await use('v3'); // 120 > 100: the oldest (v1) goes, 60 is back
    await settle();
    expect(loadedIds()).toEqual(['v2', 'v3']);
    expect(cache.loadedBytes).toBe(60);
  });

  it('loads again a version whose load turned unhealthy; the old one is closed once its requests end', async () => {
    const { cache, load, loads } = cacheOf();
    const first = await cache.acquire('v1', load('v1'));
    (first as unknown as FakeModel).healthy = false; // e.g. its instance process died
    const second = await cache.acquire('v1', load('v1'));
    expect(second).not.toBe(first);
    expect(loads('v1')).toBe(2);
    expect((first as unknown as FakeModel).closed).toBe(false); // still in use by the first request
    cache.release('v1', first);
    await settle();
    expect((first as unknown as FakeModel).closed).toBe(true);
    expect(cache.loaded()).toEqual([second]);
  });

  it('keeps no failed load: the next request tries again', async () => {
    const { cache, load } = cacheOf();
    await expect(cache.acquire('v1', async () => Promise.reject(new Error('bad model')))).rejects.toThrow('bad model');
    await settle();
    expect(cache.loadedCount).toBe(0);
    const model = await cache.acquire('v1', load('v1'));
    expect(model.versionId).toBe('v1');
  });

  it('removes a version only after its requests in flight are done', async () => {
    const { cache, load } = cacheOf();
    const model = await cache.acquire('v1', load('v1'));
    await cache.remove('v1');
    expect(cache.loadedCount).toBe(0); // out of the cache at once: new requests load again
    expect((model as unknown as FakeModel).closed).toBe(false);
    cache.release('v1', model);
    await settle();
    expect((model as unknown as FakeModel).closed).toBe(true);
  });

  it('runs at most concurrentLoads loads at a time', async () => {
    const cache = new ModelCache(
      { maxLoaded: 10, memoryBudgetBytes: Number.MAX_SAFE_INTEGER, concurrentLoads: 1 },
      testLog,
    );
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const slowLoad = (id: string) => () =>
      new Promise<LoadedModel>((resolve) => {
        started.push(id);
        finish.set(id, () => resolve(fakeModel(id) as unknown as LoadedModel));
      });
    const a = cache.acquire('v1', slowLoad('v1'));
    const b = cache.acquire('v2', slowLoad('v2'));
    await settle();
    expect(started).toEqual(['v1']);
    finish.get('v1')!();
    await a;
    await settle();
    expect(started).toEqual(['v1', 'v2']);
    finish.get('v2')!();
    expect((await b).versionId).toBe('v2');
  });

  describe('resident memory of isolated instances', () => {
    const MB = 1024 * 1024;
    const budgets = { maxLoaded: 10, resident: { serverBytes: 300 * MB, organizationBytes: 100 * MB } };

    it("unloads an organization's least recently used idle loads past its budget, not another's", async () => {
      const { cache, use, loadedIds } = cacheOf(
        budgets,
        {},
        { a1: ['a', 60 * MB], a2: ['a', 60 * MB], b1: ['b', 90 * MB] },
      );
      await use('b1');
      await use('a1');
      expect(cache.residentRefusal('a')).toBeUndefined();
      await use('a2'); // a holds 120 MB: a1, its oldest, goes; b1 is older but b is under its budget
      await settle();
      expect(loadedIds()).toEqual(['b1', 'a2']);
      expect(cache.evictions).toBe(1);
    });

    it("refuses, with the reason, while what is over the organization's budget is held by requests in flight", async () => {
      const { cache, load, loadedIds } = cacheOf(budgets, {}, { a1: ['a', 150 * MB] });
      const running = await cache.acquire('a1', load('a1'));
      expect(cache.residentRefusal('a')).toBe(
        "your organization's isolated model instances hold 150 MB, over its budget of 100 MB (ORGANIZATION_ISOLATED_MEMORY_MB) while requests run on them",
      );
      expect(cache.residentRefusal('b')).toBeUndefined();
      cache.release('a1', running); // idle and over: unloaded, its next request loads it afresh
      await settle();
      expect(loadedIds()).toEqual([]);
      expect(cache.residentRefusal('a')).toBeUndefined();
    });

    it("refuses every organization past the server's budget while requests hold it, and unloads idle loads of any", async () => {
      const { cache, load, use, loadedIds } = cacheOf(
        budgets,
        {},
        { a1: ['a', 90 * MB], b1: ['b', 90 * MB], c1: ['c', 90 * MB], d1: ['d', 90 * MB] },
      );
      await use('a1');
      const held = await Promise.all(['b1', 'c1', 'd1'].map((id) => cache.acquire(id, load(id))));
      await settle();
      expect(loadedIds()).toEqual(['b1', 'c1', 'd1']); // a1, idle, made room
      expect(cache.residentRefusal('e')).toBeUndefined(); // 270 MB of 300
      const more = await cache.acquire('a1', load('a1'));
      expect(cache.residentRefusal('e')).toBe(
        "isolated model instances hold 360 MB, over this server's budget of 300 MB (ISOLATED_MEMORY_MB) while requests run on them",
      );
      cache.release('a1', more);
      for (const [i, id] of ['b1', 'c1', 'd1'].entries()) cache.release(id, held[i]!);
      expect(cache.residentRefusal('e')).toBeUndefined();
    });
  });
});
