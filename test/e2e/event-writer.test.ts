// The event writer's group commits against the real database, driven in
// process: what one request's data does to the requests batched with it.
// The decoders refuse what PostgreSQL cannot store (test/e2e/ingest.test.ts);
// this is the guarantee for anything that gets past them.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { DomainError } from '../../src/errors.js';
import { ApiError } from '../../src/http/errors.js';
import { newId } from '../../src/ids.js';
import { EventWriter, type IncomingEvent } from '../../src/ingest/event-writer.js';
import { RulesEngine } from '../../src/platform/rules/rules-engine.js';
import { RuleService } from '../../src/platform/rules/rule-service.js';
import { Secrets } from '../../src/platform/secrets.js';
import { type Api, serverDatabaseUrl, signUpTenant } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { testLog } from '../helpers/log.js';
import { holdDeviceRow } from '../helpers/row-locks.js';
import { waitFor } from '../helpers/server.js';

let platform: Platform;
let sql: postgres.Sql;
let engine: RulesEngine;
let writer: EventWriter;
let channel: { id: string; organizationId: string };
const devices: string[] = [];

beforeAll(async () => {
  platform = await startPlatform();
  sql = connect(await serverDatabaseUrl(platform.server, platform.database?.url), 4);
  const created = (await platform.admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  channel = { id: created.id, organizationId: created.organizationId };
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${platform.server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: created.apiKeys[0].apiKey }),
    });
    devices.push(((await res.json()) as { deviceId: string }).deviceId);
  }
  engine = new RulesEngine(
    sql,
    new RuleService(sql, new Secrets(randomBytes(32))),
    { evaluationMsPerSecond: 100 },
    testLog,
  );
  await engine.start();
  writer = new EventWriter(sql, engine, testLog);
});

afterAll(async () => {
  await writer?.stop();
  await engine?.stop();
  await sql?.end();
  await stopPlatform(platform);
});

/** Devices registered with a new channel of the organization `api` is logged into. */
async function channelWithDevices(api: Api, count: number): Promise<{ channel: typeof channel; devices: string[] }> {
  const created = (await api.post('/v2/channels', { name: `phones-${newId()}`, type: 'android' })).body.data;
  const registered: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${platform.server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: created.apiKeys[0].apiKey }),
    });
    registered.push(((await res.json()) as { deviceId: string }).deviceId);
  }
  return { channel: { id: created.id, organizationId: created.organizationId }, devices: registered };
}

function event(deviceId: string, payload: Record<string, unknown>, of: typeof channel = channel): IncomingEvent {
  const id = newId();
  return {
    id,
    organizationId: of.organizationId,
    channelId: of.id,
    deviceId,
    source: 'mobile',
    serverReceivedAt: new Date(),
    clientSentAt: null,
    payload,
    dedupKey: `u:${id}`,
  };
}

it('fails only the request whose value PostgreSQL refused, and commits the ones batched with it', async () => {
  const [a, b, c] = devices as [string, string, string];
  // Written in one turn, so they join one batch; b's NUL fails the statement.
  const outcomes = await Promise.allSettled([
    writer.write([event(a, { attributes: { n: 'a1' } })]),
    writer.write([event(b, { attributes: { n: 'b\u0000' } })]),
    writer.write([event(c, { attributes: { n: 'c1' } })]),
    writer.write([event(a, { attributes: { n: 'a2' } })]),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  const refused = (outcomes[1] as PromiseRejectedResult).reason;
  expect(refused).toBeInstanceOf(DomainError);
  expect(ApiError.from(refused)).toMatchObject({ status: 400, message: 'event refused by the database' });
  const stored = await sql<{ deviceId: string; n: string }[]>`
    SELECT device_id, payload->'attributes'->>'n' AS n FROM events WHERE channel_id = ${channel.id} ORDER BY id`;
  expect(stored).toEqual([
    { deviceId: a, n: 'a1' },
    { deviceId: c, n: 'c1' },
    { deviceId: a, n: 'a2' },
  ]);
  // The device state of the committed events was written with them.
  const [state] = await sql<{ lastSeenAt: Date | null }[]>`SELECT last_seen_at FROM devices WHERE id = ${c}`;
  expect(state!.lastSeenAt).toBeInstanceOf(Date);
});

it("commits a free device's events beside a device whose commit waits, and the waiting ones once it ends", async () => {
  const [a, b] = devices as [string, string, string];
  const stored = async (deviceId: string) =>
    (
      await sql<{ n: number }[]>`
        SELECT (payload->'attributes'->>'seq')::int AS n FROM events WHERE device_id = ${deviceId} AND payload->'attributes' ? 'seq'
        ORDER BY id`
    ).map((row) => row.n);
  // Hold a's row: the commit of a's first event updates it, so it waits here.
  const held = await holdDeviceRow(sql, a);
  const writes: Promise<void>[] = [];
  try {
    writes.push(writer.write([event(a, { attributes: { seq: 0 } })]));
    await held.blocking("the commit of a's first event to wait for the held row");
    // More of a's than it takes to open another transaction: every one of them waits for a.
    for (let seq = 1; seq <= 40; seq++) writes.push(writer.write([event(a, { attributes: { seq } })]));
    expect(writer.backlog).toBe(40);
    // A query's round trips: the writer has looked at its queue since, and found all of it waiting for a.
    expect(await stored(a)).toEqual([]);
    // b is not in flight: its event commits now, while a's wait.
    writes.push(writer.write([event(b, { attributes: { seq: 0 } })]));
    await waitFor(async () => (await stored(b)).length === 1, 10_000, "b's event committed while a's wait");
    expect(await stored(a)).toEqual([]);
    expect(writer.backlog).toBe(40);
  } finally {
    // Ended either way, so that a failure above fails the test rather than leaving the writer waiting for the row.
    await held.release();
  }
  await Promise.all(writes);
  expect(await stored(a)).toEqual(Array.from({ length: 41 }, (_, i) => i));
});

it("takes the organizations' requests in turns: another organization's event goes in the next batch, not behind a flood", async () => {
  // One transaction at a time of at most 10 events, so that the batches' order is the commits' order; on
  // connections of its own (the other writer keeps some of the file's pool reserved between its commits).
  const pool = connect(await serverDatabaseUrl(platform.server, platform.database?.url), 2);
  const fair = new EventWriter(pool, engine, testLog, { maxBatch: 10, maxConcurrent: 1, parallelBacklog: 1 });
  const flooding = await channelWithDevices(platform.admin, 10);
  const other = await channelWithDevices(
    await signUpTenant(platform.anon, platform.sql, 'writer-turns@example.com'),
    1,
  );
  const [first, ...rest] = flooding.devices as [string, ...string[]];
  // The first commit waits on the held row, while 90 of the flooding organization's events queue, then one of the other's.
  const held = await holdDeviceRow(sql, first);
  const writes: Promise<void>[] = [];
  try {
    writes.push(fair.write([event(first, { attributes: { turn: 'first' } }, flooding.channel)]));
    await held.blocking('the first commit to wait for the held row');
    for (let round = 0; round < 10; round++)
      for (const device of rest)
        writes.push(fair.write([event(device, { attributes: { turn: 'flood' } }, flooding.channel)]));
    writes.push(fair.write([event(other.devices[0]!, { attributes: { turn: 'other' } }, other.channel)]));
    expect(fair.backlog).toBe(91);
  } finally {
    await held.release();
  }
  await Promise.all(writes);
  await fair.stop();
  await pool.end();
  // The transaction that stored each event, in the order they committed.
  const rows = await sql<{ turn: string; tx: string }[]>`
    SELECT payload->'attributes'->>'turn' AS turn, xmin::text AS tx FROM events
    WHERE channel_id IN (${flooding.channel.id}, ${other.channel.id})`;
  const transactions = [...new Set(rows.map((r) => r.tx))].sort((x, y) => Number(x) - Number(y));
  expect(transactions).toHaveLength(11); // the first event, then 91 in batches of at most 10
  const otherTurn = transactions.indexOf(rows.find((r) => r.turn === 'other')!.tx);
  // FIFO would store it last (the eleventh transaction); in turns, it goes with the first batch after the held one.
  expect(otherTurn).toBe(1);
  expect(
    rows
      .filter((r) => r.tx === transactions[1])
      .map((r) => r.turn)
      .sort(),
  ).toEqual([...Array<string>(9).fill('flood'), 'other']);
});

it('samples 30 values per events column for statistics, none of the payload (migration 009)', async () => {
  const columns = await sql<{ attname: string; target: number | null }[]>`
    SELECT attname, attstattarget::int AS target FROM pg_attribute
    WHERE attrelid = 'events'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`;
  expect(columns.length).toBeGreaterThan(8);
  // A column added later without a target would bring back the full sample.
  for (const { attname, target } of columns)
    expect([attname, target]).toEqual([attname, attname === 'payload' ? 0 : 30]);
  await sql`ANALYZE events`;
  const stats = await sql<{ attname: string }[]>`SELECT attname FROM pg_stats WHERE tablename = 'events'`;
  expect(stats.map((s) => s.attname)).not.toContain('payload');
});
