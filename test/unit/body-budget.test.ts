// The body memory budget and each organization's part of it (src/lib/body-budget.ts).
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/lib/body-budget.js';

// A grant resolves its reserve() promise: every promise job queued so far has run after this.
const settle = () => new Promise((r) => setImmediate(r));

describe('BodyBudget', () => {
  it("lets other organizations' bodies past one held back by its own part", async () => {
    const budget = new BodyBudget(100, 40);
    expect(budget.tryReserve(30, 'a')).toBe(true);
    expect(budget.tryReserve(30, 'a')).toBe(false); // a's part (40) is spent
    const granted: string[] = [];
    void budget.reserve(30, 'a', 1000).then((ok) => ok && granted.push('a'));
    // Before: one waiter, whatever held it back, made everyone behind it wait.
    expect(budget.tryReserve(30, 'b')).toBe(true);
    budget.release(30, 'a');
    await settle();
    expect(granted).toEqual(['a']);
    expect(budget.inUse).toBe(60);
  });

  it('serves waiters first come first served when the whole budget is short', async () => {
    const budget = new BodyBudget(100, 100);
    expect(budget.tryReserve(90, 'a')).toBe(true);
    const order: string[] = [];
    void budget.reserve(50, 'b', 1000).then((ok) => ok && order.push('b'));
    void budget.reserve(20, 'c', 1000).then((ok) => ok && order.push('c'));
    expect(budget.tryReserve(5, 'd')).toBe(false); // fits, but others wait for memory first
    budget.release(90, 'a');
    await settle();
    expect(order).toEqual(['b', 'c']);
  });

  it('always allows an organization with nothing in memory one body, and gives up after the hold', async () => {
    const budget = new BodyBudget(100, 10);
    expect(budget.tryReserve(80, 'a')).toBe(true); // over its part, but its only body
    expect(await budget.reserve(30, 'b', 20)).toBe(false); // the whole budget is short
    expect(budget.tryReserve(20, 'b')).toBe(true);
    expect(budget.inUse).toBe(100);
  });
});
