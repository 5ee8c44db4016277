// /v2/events and /v2/events/metrics against a real server: search by device,
// channel, time range and payload, sort orders, sinceId paging, metrics per
// day and hour bucket in a time zone that is not UTC, roles and isolation
// between organizations. Events are written with SQL, as the ingestion API will.
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api.js';
import type { TestServer } from '../helpers/server.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { rowMaker, type RowMaker } from '../helpers/rows.js';
import { twoTenants } from '../helpers/tenants.js';

let server: TestServer;
let sql: postgres.Sql;
let anon: Api;
let admin: Api;
let member: Api;
let other: Api;
let database: Platform['database'];
let rows: RowMaker;
const channel = (organizationId: string) => rows.channel(organizationId);
const device = (organizationId: string, channelId: string) => rows.device(organizationId, channelId);

interface Stored {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  serverReceivedAt: string;
  clientSentAt: string | null;
  payload: unknown;
}

let seq = 0;
async function event(
  organizationId: string,
  channelId: string,
  deviceId: string,
  at: string,
  payload: unknown,
  clientSentAt: string | null = null,
): Promise<Stored> {
  // ids increase with insertion order; ties on serverReceivedAt are ordered by id
  const id = `01J${String(seq++).padStart(23, '0')}`;
  const row = {
    id,
    organizationId,
    channelId,
    deviceId,
    source: 'iot',
    serverReceivedAt: at,
    clientSentAt,
    dedupKey: id,
    payload: sql.json(payload as never),
  };
  await sql`INSERT INTO events ${sql(row)}`;
  return {
    id,
    organizationId,
    channelId,
    deviceId,
    serverReceivedAt: new Date(at).toISOString(),
    clientSentAt: clientSentAt && new Date(clientSentAt).toISOString(),
    payload,
  };
}

let orgA: string;
let channelA1: string;
let channelA2: string;
let deviceA1: string;
let deviceA2: string;
let channelB: string;
let deviceB: string;
/** org A's search events, oldest first */
const searchable: Stored[] = [];
let eventB: Stored;

beforeAll(async () => {
  ({ database, server, sql, anon, admin } = await startPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
  }));
  rows = rowMaker(sql);
  const tenants = await twoTenants(
    { anon, admin, sql },
    { member: 'events-member@example.com', other: 'events-other@example.com' },
  );
  member = tenants.a.member;
  other = tenants.b.admin;
  orgA = tenants.a.organizationId;
  const orgB = tenants.b.organizationId;
  channelA1 = await channel(orgA);
  channelA2 = await channel(orgA);
  deviceA1 = await device(orgA, channelA1);
  deviceA2 = await device(orgA, channelA2);
  channelB = await channel(orgB);
  deviceB = await device(orgB, channelB);

  const at = (i: number) => `2020-01-01T00:0${i}:00.000Z`;
  searchable.push(
    await event(
      orgA,
      channelA1,
      deviceA1,
      at(0),
      { kind: 'boot', battery_level: 90, odd_: true },
      '2019-12-31T23:59:00Z',
    ),
  );
  searchable.push(
    await event(orgA, channelA1, deviceA1, at(1), { kind: 'tick', data: { tempF: 70 } }, '2020-01-01T00:00:30Z'),
  );
  searchable.push(await event(orgA, channelA2, deviceA2, at(2), { kind: 'tick', data: { tempF: 71 } }));
  searchable.push(await event(orgA, channelA2, deviceA2, at(2), { kind: 'tick', data: { tempF: 72 } })); // same instant: ordered by id
  searchable.push(
    await event(orgA, channelA1, deviceA1, at(3), { kind: 'alarm', data: { tempF: 99 } }, '2020-01-01T00:02:59Z'),
  );
  searchable.push(await event(orgA, channelA2, deviceA2, at(4), { kind: 'tick', data: { tempF: 73 } }));
  eventB = await event(orgB, channelB, deviceB, at(1), { kind: 'secret' });
});

afterAll(() => stopPlatform({ sql, server, database }));

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((e) => e.id);
const chronological = () => searchable.map((e) => e.id);

describe('POST /v2/events', () => {
  it('returns the events of the organization, newest first, with the payload as stored', async () => {
    const res = await admin.post('/v2/events', {});
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(chronological().reverse());
    expect(res.body.meta).toEqual({ filteredTotal: 6, total: 6 });
    const first = res.body.data.at(-1);
    expect(first).toEqual(searchable[0]);
    expect(first.payload).toEqual({ kind: 'boot', battery_level: 90, odd_: true });
  });

  it('filters by device, channel, time range (ms or ISO), clientSentAt and payload values', async () => {
    const byDevice = await admin.post('/v2/events', { deviceId: deviceA2, sort: { order: 'asc' } });
    expect(ids(byDevice)).toEqual([searchable[2]!.id, searchable[3]!.id, searchable[5]!.id]);
    expect(byDevice.body.meta).toEqual({ filteredTotal: 3, total: 3 });
    const byChannel = await admin.post('/v2/events', { channelId: channelA1 });
    expect(ids(byChannel)).toEqual([searchable[4]!.id, searchable[1]!.id, searchable[0]!.id]);
    const range = await admin.post('/v2/events', {
      from: Date.parse('2020-01-01T00:01:00Z'),
      to: '2020-01-01T00:03:00Z',
      sort: { field: 'serverReceivedAt', order: 'asc' },
    });
    expect(ids(range)).toEqual(chronological().slice(1, 5));
    expect(range.body.meta).toEqual({ filteredTotal: 4, total: 6 });
    const client = await admin.post('/v2/events', {
      datePath: 'clientSentAt',
      from: '2020-01-01T00:00:00Z',
      sort: { order: 'asc' },
    });
    expect(ids(client)).toEqual([searchable[1]!.id, searchable[4]!.id]);
    const filtered = await admin.post('/v2/events', { filter: { kind: 'tick', 'data.tempF': 72 } });
    expect(ids(filtered)).toEqual([searchable[3]!.id]);
    expect(filtered.body.meta).toEqual({ filteredTotal: 1, total: 6 });
    const snake = await admin.post('/v2/events', { filter: { battery_level: 90 } });
    expect(ids(snake)).toEqual([searchable[0]!.id]);
  });

  it('pages with sinceId in both orders, ties broken by id', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      let sinceId: string | undefined;
      for (let page = 0; page < 10; page++) {
        const res = await admin.post('/v2/events', { limit: 2, sort: { order }, ...(sinceId ? { sinceId } : {}) });
        expect(res.status).toBe(200);
        if (res.body.data.length === 0) break;
        seen.push(...ids(res));
        sinceId = seen.at(-1);
      }
      expect(seen).toEqual(order === 'asc' ? chronological() : chronological().reverse());
    }
    const combined = await admin.post('/v2/events', {
      channelId: channelA2,
      sinceId: searchable[2]!.id,
      sort: { order: 'asc' },
    });
    expect(ids(combined)).toEqual([searchable[3]!.id, searchable[5]!.id]);
  });

  it('validates the body and names the field', async () => {
    const limit = await admin.post('/v2/events', { limit: 1001 });
    expect(limit.status).toBe(400);
    expect(limit.body.error).toContain('limit:');
    const from = await admin.post('/v2/events', { from: 'yesterday' });
    expect(from.body.error).toBe('from: must be epoch milliseconds or an ISO 8601 date');
    // A JavaScript date PostgreSQL cannot read (a six-digit year) was a 500.
    const ancient = await admin.post('/v2/events', { to: -8_640_000_000_000_000 });
    expect(ancient.body).toEqual({
      status: 400,
      message: 'invalid request body',
      error: 'to: must be a time in the years 0000 to 9999',
    });
    expect((await admin.post('/v2/events', { from: 253_402_300_800_000 })).status).toBe(400);
    expect((await admin.post('/v2/events', { to: 253_402_300_799_999 })).status).toBe(200);
    const extra = await admin.post('/v2/events', { page: 2 });
    expect(extra.body.error).toContain('Unrecognized key: "page"');
    const sort = await admin.post('/v2/events', { sort: { field: 'payload', order: 'asc' } });
    expect(sort.body.error).toContain('sort.field:');
    const since = await admin.post('/v2/events', { sinceId: ulid() });
    expect(since.body).toMatchObject({ status: 400, error: expect.stringMatching(/^sinceId: no event/) });
  });

  it('needs a token; members may read', async () => {
    expect((await anon.post('/v2/events', {})).status).toBe(401);
    const res = await member.post('/v2/events', { limit: 1 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });

  it('never shows another organization its events', async () => {
    const own = await other.post('/v2/events', {});
    expect(ids(own)).toEqual([eventB.id]);
    expect(own.body.meta).toEqual({ filteredTotal: 1, total: 1 });
    const channel = await other.post('/v2/events', { channelId: channelA1 });
    expect(channel.status).toBe(401);
    expect(channel.body.message).toBe('you dont have access to this channel');
    const dev = await other.post('/v2/events', { deviceId: deviceA1 });
    expect(dev.status).toBe(401);
    expect(dev.body.message).toBe('you dont have access to this device');
    expect((await other.post('/v2/events', { sinceId: searchable[0]!.id })).status).toBe(400);
    expect((await admin.post('/v2/events', { channelId: channelB })).status).toBe(401);
    const mine = await admin.post('/v2/events', { filter: { kind: 'secret' } });
    expect(mine.body.data).toEqual([]);
  });
});

describe('POST /v2/events/metrics', () => {
  let metricsChannel: string;
  beforeAll(async () => {
    metricsChannel = await channel(orgA);
    const d = await device(orgA, metricsChannel);
    const temp = (at: string, tempF: unknown) => event(orgA, metricsChannel, d, at, { data: { tempF } });
    // Europe/Paris is UTC+2 in September 2018: local days start at 22:00 UTC the day before
    await temp('2018-09-26T22:30:00Z', 10); // Paris 27th 00:30 (the 26th in UTC)
    await temp('2018-09-27T12:00:00Z', 20); // Paris 27th 14:00
    await temp('2018-09-27T21:59:00Z', 30); // Paris 27th 23:59
    await temp('2018-09-27T23:30:00Z', 100); // Paris 28th 01:30 (the 27th in UTC)
    await temp('2018-09-29T23:00:00Z', 15); // Paris 30th 01:00
    await temp('2018-09-30T10:00:00Z', 25); // Paris 30th 12:00
    await temp('2018-09-30T10:30:00Z', 'hot'); // not a number: not aggregated
    await event(orgA, metricsChannel, d, '2018-09-30T11:00:00Z', { other: 1 }); // no value
    await temp('2018-09-30T20:00:00Z', 20); // Paris 30th 22:00
  });

  const body = (extra: Record<string, unknown> = {}) => ({
    channelId: metricsChannel,
    timezone: 'Europe/Paris',
    from: '2018-09-26T22:00:00.000Z',
    to: '2018-09-30T21:59:59.999Z',
    interval: '1d',
    metricPath: 'data.tempF',
    operation: 'avg',
    ...extra,
  });

  it('averages per local day, empty days included', async () => {
    const res = await admin.post('/v2/events/metrics', body());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { value: 20, count: 3, ts: '2018-09-26T22:00:00.000Z' },
      { value: 100, count: 1, ts: '2018-09-27T22:00:00.000Z' },
      { value: null, count: 0, ts: '2018-09-28T22:00:00.000Z' },
      { value: 20, count: 3, ts: '2018-09-29T22:00:00.000Z' },
    ]);
    expect(res.body.meta).toMatchObject({
      filteredTotal: 9,
      total: 9,
      interval: '1d',
      timezone: 'Europe/Paris',
      operation: 'avg',
    });
    const utc = await admin.post(
      '/v2/events/metrics',
      body({ timezone: 'UTC', from: '2018-09-26T00:00:00Z', to: '2018-09-27T23:59:59Z' }),
    );
    expect(utc.body.data).toEqual([
      { value: 10, count: 1, ts: '2018-09-26T00:00:00.000Z' },
      { value: 50, count: 3, ts: '2018-09-27T00:00:00.000Z' },
    ]);
  });

  it('counts events, sums, takes min and max, per hour or over the whole range', async () => {
    const count = await admin.post('/v2/events/metrics', body({ operation: 'count', metricPath: undefined }));
    expect(count.body.data.map((b: { value: number; count: number }) => [b.value, b.count])).toEqual([
      [3, 3],
      [1, 1],
      [0, 0],
      [5, 5],
    ]);
    const all = (operation: string) => admin.post('/v2/events/metrics', body({ operation, interval: false }));
    expect((await all('sum')).body.data).toEqual([{ value: 220, count: 7, ts: '2018-09-26T22:00:00.000Z' }]);
    expect((await all('min')).body.data[0].value).toBe(10);
    expect((await all('max')).body.data[0].value).toBe(100);
    const hours = await admin.post(
      '/v2/events/metrics',
      body({ interval: '1h', from: '2018-09-30T09:00:00Z', to: '2018-09-30T11:59:59Z' }),
    );
    expect(hours.body.data).toEqual([
      { value: null, count: 0, ts: '2018-09-30T09:00:00.000Z' },
      { value: 25, count: 1, ts: '2018-09-30T10:00:00.000Z' },
      { value: null, count: 0, ts: '2018-09-30T11:00:00.000Z' },
    ]);
    const unbounded = await admin.post('/v2/events/metrics', body({ from: undefined, to: undefined }));
    expect(unbounded.body.data.map((b: { ts: string }) => b.ts)).toEqual([
      '2018-09-26T22:00:00.000Z',
      '2018-09-27T22:00:00.000Z',
      '2018-09-28T22:00:00.000Z',
      '2018-09-29T22:00:00.000Z',
    ]);
  });

  it('validates the body and names the field', async () => {
    const missing = await admin.post('/v2/events/metrics', { channelId: metricsChannel });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('timezone:');
    const tz = await admin.post('/v2/events/metrics', body({ timezone: 'Mars/Olympus' }));
    expect(tz.body.error).toBe('timezone: must be an IANA time zone, like Europe/Paris');
    const path = await admin.post('/v2/events/metrics', body({ metricPath: undefined }));
    expect(path.body.error).toBe('metricPath: required unless operation is count');
    const op = await admin.post('/v2/events/metrics', body({ operation: 'median' }));
    expect(op.body.error).toContain('operation:');
    const interval = await admin.post('/v2/events/metrics', body({ interval: '5m' }));
    expect(interval.body.error).toContain('interval:');
    const many = await admin.post(
      '/v2/events/metrics',
      body({ interval: '1h', from: '2018-01-01T00:00:00Z', to: '2018-12-31T00:00:00Z' }),
    );
    expect(many.body.error).toMatch(/^interval: from\.\.to holds about \d+ buckets of 1h; the most is 1000$/);
    const injection = await admin.post('/v2/events/metrics', body({ metricPath: "data'); DROP TABLE events; --" }));
    expect(injection.status).toBe(200);
    expect(injection.body.data.every((b: { count: number }) => b.count === 0)).toBe(true);
  });

  it('is refused for a channel of another organization', async () => {
    const res = await other.post('/v2/events/metrics', body());
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('you dont have access to this channel');
    expect((await anon.post('/v2/events/metrics', body())).status).toBe(401);
    expect((await member.post('/v2/events/metrics', body())).status).toBe(200);
  });
});
