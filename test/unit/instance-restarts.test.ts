// When an isolated instance's dead process starts again: kills from outside
// a bounded number of times with a growing backoff, a crash once.
import { describe, expect, it } from 'vitest';
import {
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  InstanceRestarts,
  RESTARTS_AFTER_KILLS,
  WINDOW_MS,
} from '../../src/inference/instances/instance-restarts.js';

const killed = { code: null, signal: 'SIGKILL' as const };
const crashed = { code: null, signal: 'SIGSEGV' as const };

describe('InstanceRestarts', () => {
  it('restarts after outside kills with a doubling backoff, then fails the version with the count', () => {
    let now = 0;
    const restarts = new InstanceRestarts(() => now);
    const delays: number[] = [];
    for (let i = 0; i < RESTARTS_AFTER_KILLS; i++) {
      const decision = restarts.died(killed);
      if (!decision.restart) throw new Error(`kill ${i + 1} was not restarted`);
      expect(decision.how).toBe('was killed by SIGKILL');
      delays.push(decision.delayMs);
      now += 1000;
    }
    expect(delays[0]).toBe(BACKOFF_BASE_MS);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBe(Math.min(BACKOFF_MAX_MS, delays[i - 1]! * 2));
    expect(restarts.died(killed)).toEqual({
      restart: false,
      reason: `its instance process was killed by SIGKILL ${RESTARTS_AFTER_KILLS + 1} times in 10 minutes`,
    });
  });

  it("restarts a crash once: the model's second crash in the window fails it, whichever the signal or exit", () => {
    const restarts = new InstanceRestarts(() => 0);
    expect(restarts.died(crashed)).toMatchObject({ restart: true, how: 'crashed (killed by SIGSEGV)' });
    expect(restarts.died({ code: 1, signal: null })).toEqual({
      restart: false,
      reason: 'its instance process crashed (exit code 1) 2 times in 10 minutes',
    });
  });

  it('forgets deaths older than the window', () => {
    let now = 0;
    const restarts = new InstanceRestarts(() => now);
    expect(restarts.died(crashed).restart).toBe(true);
    now += WINDOW_MS + 1;
    expect(restarts.died(crashed)).toMatchObject({ restart: true, delayMs: BACKOFF_BASE_MS });
  });
});
