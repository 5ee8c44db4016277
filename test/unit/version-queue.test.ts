// A version's admission queue (src/inference/scheduling/version-queue.ts): places and
// a waiting room shared fairly between the organizations calling a version.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VersionQueue, type QueueTicket } from '../../src/inference/scheduling/version-queue.js';

afterEach(() => {
  vi.useRealTimers();
});

class Refused extends Error {}
const flush = () => new Promise((r) => setImmediate(r));

/** Enters `count` requests of `org`, recording which were admitted (at once or later) and which refused. */
function enterMany(queue: VersionQueue, org: string, count: number, log: string[]): QueueTicket[] {
  const tickets: QueueTicket[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const ticket = queue.enter(org);
      tickets.push(ticket);
      if (ticket.wait === null) log.push(`${org} in`);
      else
        ticket.wait.then(
          () => log.push(`${org} in`),
          () => log.push(`${org} refused`),
        );
    } catch {
      log.push(`${org} refused`);
    }
  }
  return tickets;
}

describe('VersionQueue', () => {
  it('admits up to its places, holds up to its waiting room, and refuses beyond', async () => {
    const queue = new VersionQueue({ places: 2, waitingRoom: 1, holdMs: 60_000 }, () => new Refused());
    const log: string[] = [];
    const tickets = enterMany(queue, 'a', 4, log);
    await flush();
    expect(log).toEqual(['a in', 'a in', 'a refused']);
    expect([queue.inFlight, queue.held]).toEqual([2, 1]);
    tickets[0]!.release();
    await flush();
    expect(log.at(-1)).toBe('a in');
    expect([queue.inFlight, queue.held]).toEqual([2, 0]);
  });

  it('refuses a held request after the hold time', async () => {
    vi.useFakeTimers();
    const queue = new VersionQueue({ places: 1, waitingRoom: 4, holdMs: 500 }, () => new Refused());
    queue.enter('a');
    const held = queue.enter('a');
    vi.advanceTimersByTime(499);
    expect(queue.held).toBe(1);
    vi.advanceTimersByTime(1);
    await expect(held.wait).rejects.toBeInstanceOf(Refused);
    expect(queue.held).toBe(0);
  });

  it('gives a freed place to the organization holding the fewest, not to the oldest request', async () => {
    const queue = new VersionQueue({ places: 2, waitingRoom: 10, holdMs: 60_000 }, () => new Refused());
    const log: string[] = [];
    const flood = enterMany(queue, 'a', 6, log); // 2 in, 4 held
    enterMany(queue, 'b', 1, log); // held behind a's four
    await flush();
    flood[0]!.release();
    await flush();
    // b holds no place, a holds one: b's request goes first.
    expect(log.slice(2)).toEqual(['b in']);
  });

  it("makes room in a full waiting room for a newcomer by refusing the flooding organization's newest request", async () => {
    const queue = new VersionQueue({ places: 2, waitingRoom: 4, holdMs: 60_000 }, () => new Refused());
    const log: string[] = [];
    enterMany(queue, 'a', 6, log); // 2 in, the waiting room full of a's
    enterMany(queue, 'b', 1, log);
    await flush();
    expect(log.filter((l) => l === 'a refused')).toHaveLength(1);
    expect(log).not.toContain('b refused');
    expect(queue.held).toBe(4);
    // b's second request would leave b holding as many as a would: refused instead.
    enterMany(queue, 'b', 2, log);
    await flush();
    expect(log.filter((l) => l === 'b refused')).toHaveLength(1);
  });

  it('counts a left place towards the drain rate', () => {
    const left = vi.fn();
    const queue = new VersionQueue({ places: 1, waitingRoom: 0, holdMs: 10 }, () => new Refused(), left);
    const ticket = queue.enter('a');
    ticket.release();
    ticket.release(); // a second release gives nothing back twice
    expect(left).toHaveBeenCalledTimes(1);
    expect(queue.inFlight).toBe(0);
  });
});
