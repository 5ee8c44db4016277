// CPU run permits shared round-robin between organizations (src/inference/scheduling/fair-share.ts),
// and the batcher taking them: an organization with slow runs gets its turn, not every turn.
import { describe, expect, it } from 'vitest';
import { DynamicBatcher } from '../../src/inference/scheduling/batcher.js';
import { FairShare, LEND_AFTER_MS } from '../../src/inference/scheduling/fair-share.js';
import type { ModelInstance } from '../../src/inference/instances/instance.js';

const flush = () => new Promise((r) => setImmediate(r));

describe('FairShare', () => {
  it('grants free permits at once and the rest to the waiting organization that has used the least run time', async () => {
    const gate = new FairShare(1);
    expect(gate.tryAcquire('a')).toBe(true);
    const order: string[] = [];
    const wait = (org: string, n: number) => gate.acquire(org).then(() => order.push(`${org}${n}`));
    const waits = [wait('a', 1), wait('a', 2), wait('b', 1), wait('c', 1)];
    expect(gate.tryAcquire('d')).toBe(false); // others are waiting
    gate.release('a', 100); // a has used 100 ms: b and c (level with a when they came, at 0) go first
    await flush();
    gate.release('b', 10);
    await flush();
    gate.release('c', 10);
    await flush();
    gate.release('a', 100);
    await flush();
    await Promise.all(waits);
    expect(order).toEqual(['b1', 'c1', 'a1', 'a2']);
    gate.release('a', 100);
    expect(gate.inUse).toBe(0);
  });

  it('shares the cores by run time: a model 100x slower gets 100x fewer runs, not every other one', async () => {
    // Two cores, two organizations each keeping a run waiting at all times: one whose runs take 1.4 s, one 14 ms.
    const gate = new FairShare(2);
    const cost: Record<string, number> = { slow: 1400, fast: 14 };
    const busy: Record<string, number> = { slow: 0, fast: 0 };
    const running: Array<{ org: string; end: number }> = [];
    let now = 0;
    const want = (org: string) => void gate.acquire(org).then(() => running.push({ org, end: now + cost[org]! }));
    for (const org of ['slow', 'slow', 'fast', 'fast']) want(org);
    await flush();
    while (now < 60_000) {
      running.sort((a, b) => a.end - b.end);
      const run = running.shift()!;
      now = run.end;
      busy[run.org]! += cost[run.org]!;
      gate.release(run.org, cost[run.org]!);
      want(run.org);
      await flush();
    }
    // The fast organization keeps at least its core: about half of the run time (the share cap), never starved.
    const fastShare = busy.fast! / (busy.fast! + busy.slow!);
    expect(fastShare).toBeGreaterThan(0.45);
    expect(fastShare).toBeLessThan(0.55);
  });

  it('brings an organization coming back from idle level with the busy ones: no credit for its idle time', async () => {
    const gate = new FairShare(1);
    expect(gate.tryAcquire('busy')).toBe(true);
    gate.release('busy', 10_000); // ten seconds of runs, then idle
    expect(gate.tryAcquire('busy')).toBe(true);
    const order: string[] = [];
    const want = (org: string) => void gate.acquire(org).then(() => order.push(org));
    want('busy');
    want('new');
    let holder = 'busy';
    for (let i = 0; i < 10; i++) {
      gate.release(holder, 100);
      await flush();
      holder = order.at(-1)!;
      want(holder);
    }
    // Level at its first wait, "new" alternates with "busy"; starting from zero it would take every permit for ten seconds.
    expect(order.filter((o) => o === 'new').length).toBeLessThanOrEqual(6);
    expect(order.filter((o) => o === 'busy').length).toBeGreaterThanOrEqual(4);
  });

  it('lends an organization holding no permit one beyond the capacity once every permit has stayed with a long run', async () => {
    // A model that loops on some images: its organization took both permits
    // while nobody else was active, and its runs last seconds.
    let now = 0;
    const gate = new FairShare(2, () => now);
    expect(gate.tryAcquire('looping')).toBe(true);
    expect(gate.tryAcquire('looping')).toBe(true);
    let loopingAgain = false;
    void gate.acquire('looping').then(() => (loopingAgain = true));
    now = LEND_AFTER_MS; // the permits have been held this long: an arrival need not wait for their end
    const granted: string[] = [];
    void gate.acquire('sporadic').then(() => granted.push('sporadic'));
    void gate.acquire('other').then(() => granted.push('other'));
    await flush();
    expect(granted).toEqual(['sporadic', 'other']);
    expect(gate.inUse).toBe(4);
    // Only to an organization holding none, and at most the capacity.
    void gate.acquire('sporadic').then(() => granted.push('sporadic again'));
    void gate.acquire('third').then(() => granted.push('third'));
    await flush();
    expect(granted).toEqual(['sporadic', 'other']);
    expect(loopingAgain).toBe(false);
    // A lent permit given back is lent again while the capacity stays held.
    gate.release('sporadic', 30);
    await flush();
    expect(granted).toEqual(['sporadic', 'other', 'third']);
    expect(gate.inUse).toBe(4);
    // A permit of the capacity given back ends a lending instead (back
    // towards one run per core), and counts as changing hands: no new
    // lending for LEND_AFTER_MS.
    gate.release('looping', 5000);
    await flush();
    expect(gate.inUse).toBe(3);
    now += LEND_AFTER_MS;
    gate.release('other', 30);
    await flush();
    expect(gate.inUse).toBe(2);
    expect(granted).toEqual(['sporadic', 'other', 'third']);
    // Then the next free permit goes by run time: the looping organization's 5 s make it last.
    gate.release('third', 30);
    await flush();
    expect(granted).toEqual(['sporadic', 'other', 'third', 'sporadic again']);
    expect(loopingAgain).toBe(false);
    expect(gate.inUse).toBe(2);
  });

  it('lends only once no permit has changed hands for LEND_AFTER_MS', { timeout: 5000 }, async () => {
    const gate = new FairShare(1);
    expect(gate.tryAcquire('looping')).toBe(true);
    const asked = performance.now();
    await gate.acquire('sporadic'); // the looping run never ends here: the permit is lent
    expect(performance.now() - asked).toBeGreaterThanOrEqual(LEND_AFTER_MS - 5);
    expect(gate.inUse).toBe(2);
  });
});

/** An instance whose runs end when the test says so, recording what ran. */
function fakeInstance(log: string[], name: string) {
  const pending: Array<() => void> = [];
  const instance = {
    alive: true,
    name,
    run(slots: SharedArrayBuffer[]) {
      log.push(`${name}:${slots.length}`);
      return new Promise((resolve) => pending.push(() => resolve({ outputs: slots.map(() => ({})), runMs: 1 })));
    },
  };
  return { instance: instance as unknown as ModelInstance, finish: () => pending.shift()?.() };
}

const policy = { maxBatchSize: 1, maxQueueDelayMs: 0, preferredBatchSizes: [] };
const observer = { batch() {} };
const slot = () => new SharedArrayBuffer(4);
// Every promise job queued so far has run: the fake runs and the permits
// here are promise-driven, no timer is involved.
const settle = () => new Promise((r) => setImmediate(r));

describe('batchers under a fair share', () => {
  it('lets another organization run between the runs of a busy one', async () => {
    const gate = new FairShare(1);
    const log: string[] = [];
    const slowA = fakeInstance(log, 'a');
    const slowA2 = fakeInstance(log, 'a2');
    const b = fakeInstance(log, 'b');
    const batcherA = new DynamicBatcher([slowA.instance, slowA2.instance], policy, observer, {
      gate,
      organizationId: 'org-a',
    });
    const batcherB = new DynamicBatcher([b.instance], policy, observer, { gate, organizationId: 'org-b' });
    for (let i = 0; i < 3; i++) {
      batcherA.expect();
      void batcherA.submit(slot(), 0.25, 'caller');
    }
    await settle();
    expect(log).toEqual(['a:1']); // one permit: org A's second instance waits for it
    batcherB.expect();
    const answered = batcherB.submit(slot(), 0.25, 'caller');
    await settle();
    slowA.finish();
    await settle();
    // Without the fair share A's second run would start here (and A's third after it).
    expect(log).toEqual(['a:1', 'b:1']);
    b.finish();
    await answered;
    await settle();
    expect(log).toEqual(['a:1', 'b:1', 'a2:1']);
  });

  it('takes no permits without a fair share (GPU instances)', async () => {
    const gate = new FairShare(1);
    expect(gate.tryAcquire('other')).toBe(true);
    const log: string[] = [];
    const gpu = fakeInstance(log, 'gpu');
    const batcher = new DynamicBatcher([gpu.instance], policy, observer);
    batcher.expect();
    void batcher.submit(slot(), 0.25, 'caller');
    await settle();
    expect(log).toEqual(['gpu:1']);
  });
});
