// CPU run permits shared round-robin between organizations (src/inference/fair-share.ts),
// and the batcher taking them: an organization with slow runs gets its turn, not every turn.
import { describe, expect, it } from 'vitest';
import { DynamicBatcher } from '../../src/inference/batcher.js';
import { FairShare } from '../../src/inference/fair-share.js';
import type { ModelInstance } from '../../src/inference/instance.js';

describe('FairShare', () => {
  it('grants free permits at once and the rest to the waiting organization served longest ago', async () => {
    const gate = new FairShare(1);
    expect(gate.tryAcquire('a')).toBe(true);
    const order: string[] = [];
    const wait = (org: string, n: number) => gate.acquire(org).then(() => order.push(`${org}${n}`));
    const waits = [wait('a', 1), wait('a', 2), wait('a', 3), wait('b', 1), wait('c', 1)];
    expect(gate.tryAcquire('d')).toBe(false); // others are waiting
    for (let i = 0; i < 5; i++) {
      gate.release();
      await Promise.resolve();
    }
    await Promise.all(waits);
    // a was served last (the permit it held): b and c, never served, go first.
    expect(order).toEqual(['b1', 'c1', 'a1', 'a2', 'a3']);
    gate.release();
    expect(gate.inUse).toBe(0);
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
const settle = () => new Promise((r) => setTimeout(r, 5));

describe('batchers under a fair share', () => {
  it('lets another organization run between the runs of a busy one', async () => {
    const gate = new FairShare(1);
    const log: string[] = [];
    const slowA = fakeInstance(log, 'a');
    const slowA2 = fakeInstance(log, 'a2');
    const b = fakeInstance(log, 'b');
    const batcherA = new DynamicBatcher([slowA.instance, slowA2.instance], policy, observer, { gate, organizationId: 'org-a' });
    const batcherB = new DynamicBatcher([b.instance], policy, observer, { gate, organizationId: 'org-b' });
    for (let i = 0; i < 3; i++) {
      batcherA.expect();
      void batcherA.submit(slot(), 0.25);
    }
    await settle();
    expect(log).toEqual(['a:1']); // one permit: org A's second instance waits for it
    batcherB.expect();
    const answered = batcherB.submit(slot(), 0.25);
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
    void batcher.submit(slot(), 0.25);
    await settle();
    expect(log).toEqual(['gpu:1']);
  });
});
