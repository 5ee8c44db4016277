// The device rate limiter (src/ingest/rate-limit.ts) against a real
// PostgreSQL bucket: a device whose requests arrive at once, each needing a
// lease from the bucket, is admitted its whole burst (no token leased is
// lost), and two servers sharing the bucket admit no more than one would.
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { RateLimiter } from '../../src/ingest/rate-limit.js';
import { cloneTemplate } from '../helpers/in-process.js';
import { testLog } from '../helpers/log.js';

let database: Awaited<ReturnType<typeof cloneTemplate>>;
let sql: Sql;

beforeAll(async () => {
  database = await cloneTemplate();
  sql = connect(database.url, 20);
});

afterAll(async () => {
  await sql?.end();
  await database?.drop();
});

/** How many of `takes` (each one event) were admitted: 0 is an admission, a number of seconds a refusal. */
async function admitted(takes: Array<number | Promise<number>>): Promise<number> {
  return (await Promise.all(takes)).filter((wait) => wait === 0).length;
}

// Leases come in chunks of a tenth of a second's rate (10 tokens here): a
// lease brings more than the request that asked for it spends, and what is
// left must stay for the device's next requests. The bucket refills at RATE
// a second while a test runs, so upper bounds count the time it took.
const RATE = 100;
const BURST = 100;

/** The most a bucket may admit from `since` on: its burst and its refill. */
function mostSince(since: number): number {
  return BURST + Math.ceil(((Date.now() - since) / 1000) * RATE);
}

describe('device rate limits', () => {
  it('admits the whole burst of a device whose requests lease at once, and no more than its refill after', async () => {
    const since = Date.now();
    const limiter = new RateLimiter(sql, RATE, BURST, testLog);
    // 100 events at once: none finds a lease, each asks the bucket for a chunk
    expect(await admitted(Array.from({ length: BURST }, () => limiter.take('device-a', 1)))).toBe(BURST);
    const more = await admitted(Array.from({ length: BURST }, () => limiter.take('device-a', 1)));
    expect(BURST + more).toBeLessThanOrEqual(mostSince(since));
  });

  it('keeps what concurrent leases took: a batch needing more than a chunk, with single events beside it', async () => {
    const limiter = new RateLimiter(sql, RATE, BURST, testLog);
    // a batch of 40 and 20 single events in the same tick: 60 of the bucket's 100
    const batch = limiter.take('device-b', 40);
    const singles = Array.from({ length: 20 }, () => limiter.take('device-b', 1));
    expect(await batch).toBe(0);
    expect(await admitted(singles)).toBe(20);
    // and the 40 left, at once
    expect(await admitted(Array.from({ length: 40 }, () => limiter.take('device-b', 1)))).toBe(40);
  });

  it('lets two servers sharing the bucket admit no more than one burst between them', async () => {
    const since = Date.now();
    const first = new RateLimiter(sql, RATE, BURST, testLog);
    const second = new RateLimiter(sql, RATE, BURST, testLog);
    const takes = Array.from({ length: 2 * BURST }, (_, i) => (i % 2 ? first : second).take('device-c', 1));
    const both = await admitted(takes);
    // each holds at most a chunk it could not spend
    expect(both).toBeGreaterThanOrEqual(BURST - 2 * (RATE / 10));
    expect(both).toBeLessThanOrEqual(mostSince(since));
  });
});
