// The dynamic batcher's policy (src/inference/scheduling/batcher.ts), on fake instances
// and fake timers: when a batch is sent (an idle instance and nothing more
// coming; max batch size reached; maxQueueDelayMs elapsed while others are
// still being preprocessed), how large (preferred sizes), what each request
// gets back, callers in turn, failures.
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DynamicBatcher,
  NoInstanceError,
  type BatchPolicy,
  type BatchedOutputs,
} from '../../src/inference/scheduling/batcher.js';
import type { ModelInstance } from '../../src/inference/instances/instance.js';

interface Run {
  instance: string;
  /** the first byte of each slot: which requests are in the batch */
  requests: number[];
  thresholds: number[];
  finish(runMs?: number): void;
  fail(error: Error): void;
}

/** Instances whose runs end when the test says; every run is logged. */
function fakeInstances(count: number) {
  const runs: Run[] = [];
  const instances = Array.from({ length: count }, (_, i) => {
    const instance = {
      name: `i${i}`,
      alive: true,
      run(slots: SharedArrayBuffer[], thresholds: number[]) {
        return new Promise((resolve, reject) => {
          const requests = slots.map((s) => new Uint8Array(s)[0]!);
          runs.push({
            instance: `i${i}`,
            requests,
            thresholds,
            // each request's outputs name it: the split must give each its own
            finish: (runMs = 7) => resolve({ outputs: requests.map((r) => ({ request: r })), runMs }),
            fail: reject,
          });
        });
      },
    };
    return instance;
  });
  return { instances: instances as unknown as ModelInstance[], runs, raw: instances };
}

/** A request's input tensor; its first byte says which request it is. */
function slot(n: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(4);
  new Uint8Array(buffer)[0] = n;
  return buffer;
}

function batcherOf(policy: Partial<BatchPolicy>, instanceCount = 1) {
  const fake = fakeInstances(instanceCount);
  const sizes: number[] = [];
  const batcher = new DynamicBatcher(
    fake.instances,
    { maxBatchSize: 8, maxQueueDelayMs: 0, preferredBatchSizes: [], ...policy },
    { batch: (size) => sizes.push(size) },
  );
  /** announces and submits request `n` (threshold n / 100) */
  const submit = (n: number, caller = 'org') => {
    batcher.expect();
    return batcher.submit(slot(n), n / 100, caller);
  };
  return { batcher, runs: fake.runs, sizes, submit, instances: fake.raw };
}

/** Lets promise callbacks run (the runs' ends); fake timers do not move. */
const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  // The batcher measures waits with perf_hooks' performance, which fake timers leave alone: follow the fake clock.
  vi.spyOn(performance, 'now').mockImplementation(() => Date.now());
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('when a batch is sent', () => {
  it('sends a lone request at once when nothing more is coming, whatever maxQueueDelayMs', () => {
    const { runs, submit } = batcherOf({ maxQueueDelayMs: 1000 });
    void submit(1);
    expect(runs.map((r) => r.requests)).toEqual([[1]]);
    expect(runs[0]!.thresholds).toEqual([0.01]);
  });

  it('holds a request while others are being preprocessed, up to maxQueueDelayMs, then sends what came', () => {
    const { batcher, runs } = batcherOf({ maxQueueDelayMs: 50 });
    for (let i = 0; i < 3; i++) batcher.expect(); // three requests being preprocessed
    void batcher.submit(slot(1), 0.5, 'org');
    vi.advanceTimersByTime(20);
    void batcher.submit(slot(2), 0.5, 'org');
    vi.advanceTimersByTime(29);
    expect(runs).toEqual([]); // 49 ms: still waiting for 3
    vi.advanceTimersByTime(1);
    expect(runs.map((r) => r.requests)).toEqual([[1, 2]]); // the delay counts from the oldest request; 3 is not waited for longer
  });

  it('sends as soon as the last expected request arrives, before the delay', () => {
    const { batcher, runs } = batcherOf({ maxQueueDelayMs: 1000 });
    batcher.expect();
    batcher.expect();
    void batcher.submit(slot(1), 0.5, 'org');
    vi.advanceTimersByTime(10);
    expect(runs).toEqual([]);
    void batcher.submit(slot(2), 0.5, 'org'); // nothing more coming
    expect(runs.map((r) => r.requests)).toEqual([[1, 2]]);
    vi.advanceTimersByTime(1000);
    expect(runs).toHaveLength(1); // the timer set for the delay sends nothing more
  });

  it('sends at once when the queue reaches maxBatchSize, even with more coming', () => {
    const { batcher, runs } = batcherOf({ maxBatchSize: 3, maxQueueDelayMs: 1000 });
    for (let i = 0; i < 5; i++) batcher.expect();
    void batcher.submit(slot(1), 0.5, 'org');
    void batcher.submit(slot(2), 0.5, 'org');
    expect(runs).toEqual([]);
    void batcher.submit(slot(3), 0.5, 'org');
    expect(runs.map((r) => r.requests)).toEqual([[1, 2, 3]]);
  });

  it('sends after an abandoned request if it was the one awaited', () => {
    const { batcher, runs } = batcherOf({ maxQueueDelayMs: 1000 });
    batcher.expect();
    batcher.expect();
    void batcher.submit(slot(1), 0.5, 'org');
    expect(runs).toEqual([]);
    batcher.abandon(); // its preprocessing failed
    expect(runs.map((r) => r.requests)).toEqual([[1]]);
  });

  it('queues while every instance is busy: the next batch forms by itself, up to maxBatchSize', async () => {
    const { runs, submit, sizes } = batcherOf({ maxBatchSize: 3 }, 2);
    void submit(1);
    void submit(2);
    expect(runs.map((r) => [r.instance, r.requests])).toEqual([
      ['i0', [1]],
      ['i1', [2]],
    ]);
    for (let n = 3; n <= 7; n++) void submit(n);
    expect(runs).toHaveLength(2); // no instance idle
    runs[0]!.finish();
    await flush();
    expect(runs[2]!.requests).toEqual([3, 4, 5]);
    runs[1]!.finish();
    await flush();
    expect(runs[3]!.requests).toEqual([6, 7]);
    expect(sizes).toEqual([1, 1, 3, 2]);
  });
});

describe('preferred batch sizes', () => {
  it('takes the largest preferred size that fits, and leaves the rest for the next batch', async () => {
    const { runs, submit } = batcherOf({ maxBatchSize: 8, preferredBatchSizes: [2, 4] });
    void submit(1); // runs alone, the instance busy
    for (let n = 2; n <= 8; n++) void submit(n); // 7 waiting
    runs[0]!.finish();
    await flush();
    expect(runs[1]!.requests).toEqual([2, 3, 4, 5]); // 4 of 7
    runs[1]!.finish();
    await flush();
    expect(runs[2]!.requests).toEqual([6, 7]); // 2 of 3
    runs[2]!.finish();
    await flush();
    expect(runs[3]!.requests).toEqual([8]); // fewer than any preferred size: what there is
  });

  it('never takes a preferred size beyond maxBatchSize', async () => {
    const { runs, submit } = batcherOf({ maxBatchSize: 3, preferredBatchSizes: [4] });
    void submit(1);
    for (let n = 2; n <= 6; n++) void submit(n);
    runs[0]!.finish();
    await flush();
    expect(runs[1]!.requests).toEqual([2, 3, 4]);
  });
});

describe('what each request gets back', () => {
  it('its own outputs of the batch, the batch size, the run time and how long it queued', async () => {
    const { batcher, runs } = batcherOf({ maxQueueDelayMs: 100 });
    batcher.expect();
    batcher.expect();
    const first = batcher.submit(slot(1), 0.5, 'org');
    vi.advanceTimersByTime(30);
    const second = batcher.submit(slot(2), 0.5, 'org');
    expect(runs).toHaveLength(1);
    runs[0]!.finish(12);
    const [a, b] = (await Promise.all([first, second])) as [BatchedOutputs, BatchedOutputs];
    expect(a).toEqual({ outputs: { request: 1 }, queueMs: 30, runMs: 12, batchSize: 2 });
    expect(b).toEqual({ outputs: { request: 2 }, queueMs: 0, runMs: 12, batchSize: 2 });
  });

  it('a failed run rejects every request of its batch, and the instance takes the next one', async () => {
    const { runs, submit } = batcherOf({ maxBatchSize: 2 });
    const one = submit(1);
    const [two, three] = [submit(2), submit(3)];
    runs[0]!.fail(new Error('boom'));
    await expect(one).rejects.toThrow('boom');
    expect(runs[1]!.requests).toEqual([2, 3]);
    runs[1]!.fail(new Error('again'));
    await expect(two).rejects.toThrow('again');
    await expect(three).rejects.toThrow('again');
  });

  it('rejects what waits once no instance is alive', async () => {
    const { runs, submit, instances } = batcherOf({});
    void submit(1).catch(() => {});
    const waiting = submit(2);
    instances[0]!.alive = false; // the instance's process died during the run
    runs[0]!.fail(new Error('instance exited'));
    await expect(waiting).rejects.toBeInstanceOf(NoInstanceError);
  });
});

describe('callers in turn', () => {
  it("takes the oldest request of the caller served longest ago, not all of one caller's first", async () => {
    const { runs, submit } = batcherOf({ maxBatchSize: 2 });
    void submit(1, 'flooder'); // runs at once
    for (const n of [2, 3, 4]) void submit(n, 'flooder');
    void submit(5, 'other');
    runs[0]!.finish();
    await flush();
    // Before: [2, 3], the other caller behind all of the flooder's.
    expect(runs[1]!.requests).toEqual([2, 5]);
    runs[1]!.finish();
    await flush();
    expect(runs[2]!.requests).toEqual([3, 4]);
  });
});
