// Freed memory goes back to the system when the server goes quiet
// (src/lib/idle-trim.ts), once per quiet spell, never while it is busy.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { trimWhenIdle } from '../../src/lib/idle-trim.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('trimWhenIdle', () => {
  it('trims after a spell without answers, once, and again only after new answers', () => {
    vi.useFakeTimers();
    let answered = 0;
    let inFlight = 0;
    const trim = vi.fn();
    const stop = trimWhenIdle({ answered: () => answered, inFlight: () => inFlight, trim, idleMs: 1000 });
    vi.advanceTimersByTime(5000);
    expect(trim).not.toHaveBeenCalled(); // nothing happened since start: nothing to give back
    answered = 10;
    vi.advanceTimersByTime(1000); // answers during the last second: not quiet yet
    expect(trim).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(trim).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(trim).toHaveBeenCalledTimes(1);
    // A request still running (a long upload) is not quiet, whatever the count says.
    answered = 11;
    inFlight = 1;
    vi.advanceTimersByTime(5000);
    expect(trim).toHaveBeenCalledTimes(1);
    inFlight = 0;
    vi.advanceTimersByTime(1000);
    expect(trim).toHaveBeenCalledTimes(2);
    stop();
  });
});
