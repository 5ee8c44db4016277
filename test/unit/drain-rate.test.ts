// Retry-After from a version's measured drain rate.
import { describe, expect, it } from 'vitest';
import { DrainRate } from '../../src/inference/scheduling/drain-rate.js';

describe('DrainRate', () => {
  it('says 1 s until two completions are known', () => {
    const drain = new DrainRate();
    expect(drain.retryAfterSeconds(100)).toBe(1);
    drain.completed(0);
    expect(drain.retryAfterSeconds(100)).toBe(1);
  });

  it('is the time the queue ahead takes at the measured rate, 1 to 60 s', () => {
    const drain = new DrainRate(8);
    // 10 completions per second, the last one just now.
    const now = performance.now();
    for (let i = 7; i >= 0; i--) drain.completed(now - i * 100);
    expect(drain.perSecond(now)).toBeCloseTo(10, 5);
    expect(drain.retryAfterSeconds(25)).toBe(3);
    expect(drain.retryAfterSeconds(1)).toBe(1);
    expect(drain.retryAfterSeconds(100_000)).toBe(60);
  });

  it('slows down when the last completion is long past', () => {
    const drain = new DrainRate(4);
    const now = performance.now();
    for (let i = 3; i >= 0; i--) drain.completed(now - 10_000 - i * 10);
    // Four completions 30 ms apart, but none for 10 s: the rate is what the window says now.
    expect(drain.perSecond(now)!).toBeLessThan(1);
  });
});
