// The events table partitioned by day (migration 014): a table with events
// from before the migration converted and still searchable, retries left
// out across partitions (the idempotency keys), events without a partition
// kept and moved in when their day's partition is created, and retention
// dropping whole partitions while recent events stay.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { countEvents, insertAllEvents, insertNewEvents, searchEvents, type NewEventRow } from '../../src/db/events.js';
import { lockEngineDevices } from '../../src/db/device-state.js';
import { migrate } from '../../src/db/migrate.js';
import { MIGRATIONS } from '../../src/db/migrations.js';
import { newId } from '../../src/ids.js';
import { maintainEventPartitions } from '../../src/ingest/event-partitions.js';
import { EventWriter, type IncomingEvent } from '../../src/ingest/event-writer.js';
import { RulesEngine } from '../../src/platform/rules/rules-engine.js';
import { RuleService } from '../../src/platform/rules/rule-service.js';
import { Secrets } from '../../src/platform/secrets.js';
import { serverDatabaseUrl } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { removeDir, startServer } from '../helpers/server.js';
import { testLog } from '../helpers/log.js';
import { waitUntilBlocking } from '../helpers/row-locks.js';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const dayName = (time: number) => `events_${new Date(time).toISOString().slice(0, 10).replaceAll('-', '')}`;

let platform: Platform;
let url: string;
let sql: postgres.Sql;

beforeAll(async () => {
  platform = await startPlatform();
  url = await serverDatabaseUrl(platform.server, platform.database?.url);
  sql = connect(url, 4);
});

afterAll(async () => {
  await sql?.end();
  await stopPlatform(platform);
});

const partitionsOf = async (c: postgres.Sql) =>
  (
    await c<
      { name: string }[]
    >`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'events'::regclass ORDER BY 1`
  ).map((r) => r.name);

/** The partition holding each event, by id. */
async function placeOf(c: postgres.Sql, ids: string[]): Promise<Record<string, string>> {
  const rows = await c<
    { id: string; place: string }[]
  >`SELECT id, tableoid::regclass::text AS place FROM events WHERE id = ANY(${ids})`;
  return Object.fromEntries(rows.map((r) => [r.id, r.place]));
}

function row(deviceId: string, at: number, dedupKey: string, payload: Record<string, unknown> = {}): NewEventRow {
  return {
    id: newId(),
    organizationId: 'org-1',
    channelId: 'channel-1',
    deviceId,
    source: 'iot',
    serverReceivedAt: new Date(at),
    clientSentAt: null,
    payload,
    dedupKey,
  };
}

describe('migration 014 on a table with events', () => {
  let c: postgres.Sql;
  const name = `sense_migration_${newId()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  // The last one from a server whose clock ran three days ahead.
  const before = [
    row('device-1', today - 40 * DAY, 'k1', { n: 1 }),
    row('device-1', today - 2 * DAY, 'k2', { n: 2 }),
    row('device-2', today - DAY, 'k3', { n: 3 }),
    row('device-2', today + 3 * DAY, 'k4', { n: 4 }),
  ];

  beforeAll(async () => {
    await sql.unsafe(`CREATE DATABASE ${name}`);
    const other = new URL(url);
    other.pathname = `/${name}`;
    c = connect(other.toString(), 2);
    await migrate(
      c,
      testLog,
      MIGRATIONS.filter((m) => m.version < 14),
    );
    await c`INSERT INTO organizations (id, name) VALUES ('org-1', 'one')`;
    // As the ingestion of version 13 stored them: the key in the events table.
    await c`INSERT INTO events ${c(before.map((e) => ({ ...e, payload: c.json(e.payload as never) })))}`;
    expect(await migrate(c, testLog)).toEqual(MIGRATIONS.filter((m) => m.version >= 14).map((m) => m.version));
  });

  afterAll(async () => {
    await c?.end();
    await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('keeps the events in one partition of everything before the day after the newest, searchable as before', async () => {
    expect(await partitionsOf(c)).toEqual(['events_before', 'events_default']);
    expect(
      Object.values(
        await placeOf(
          c,
          before.map((e) => e.id),
        ),
      ),
    ).toEqual(before.map(() => 'events_before'));
    const found = await searchEvents(c, {
      organizationId: 'org-1',
      datePath: 'serverReceivedAt',
      filter: [],
      limit: 10,
      order: 'desc',
    });
    expect(found.map((e) => [e.id, e.deviceId, e.payload])).toEqual(
      [...before].reverse().map((e) => [e.id, e.deviceId, e.payload]),
    );
    const ranged = await countEvents(c, {
      organizationId: 'org-1',
      deviceId: 'device-1',
      datePath: 'serverReceivedAt',
      from: new Date(today - 3 * DAY),
      filter: [],
    });
    expect(ranged).toEqual({ total: 2, filteredTotal: 1 });
  });

  it('leaves out a retry of an event stored before the migration, in either form of the insert', async () => {
    const retry = row('device-1', Date.now(), 'k1', { n: 1 });
    expect(await insertNewEvents(c, [retry])).toEqual([]);
    await expect(c`WITH ${insertAllEvents(c, [retry])} SELECT 1`).rejects.toMatchObject({ code: '23505' });
    expect(await countEvents(c, { organizationId: 'org-1', datePath: 'serverReceivedAt', filter: [] })).toMatchObject({
      total: 4,
    });
  });

  it('drops the converted table whole once all of it is past retention, with its keys', async () => {
    // The converted table ends 4 days from now: not dropped 33 days from now, dropped 35 days from now.
    expect((await maintainEventPartitions(c, 30, today + 33 * DAY)).dropped).toEqual([]);
    const outcome = await maintainEventPartitions(c, 30, today + 35 * DAY);
    expect(outcome.dropped).toEqual(['events_before']);
    expect(await countEvents(c, { organizationId: 'org-1', datePath: 'serverReceivedAt', filter: [] })).toMatchObject({
      total: 0,
    });
    expect(await c`SELECT 1 FROM event_keys`).toHaveLength(0);
  });
});

describe('day partitions', () => {
  let engine: RulesEngine;
  let writer: EventWriter;
  let organizationId: string;
  let channelId: string;
  let deviceId: string;

  beforeAll(async () => {
    const created = (await platform.admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data;
    organizationId = created.organizationId;
    channelId = created.id;
    const res = await fetch(`${platform.server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: created.apiKeys[0].apiKey }),
    });
    deviceId = ((await res.json()) as { deviceId: string }).deviceId;
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
  });

  function event(at: number, dedupKey = newId()): IncomingEvent {
    return {
      id: newId(),
      organizationId,
      channelId,
      deviceId,
      source: 'iot',
      serverReceivedAt: new Date(at),
      clientSentAt: null,
      payload: { at },
      dedupKey,
    };
  }

  const stored = async () =>
    (await countEvents(sql, { organizationId, datePath: 'serverReceivedAt', filter: [] })).total;

  it('exists for today and the next two days once the server has started', async () => {
    const names = await partitionsOf(sql);
    for (const day of [today, today + DAY, today + 2 * DAY]) expect(names).toContain(dayName(day));
    expect(names).toContain('events_default');
  });

  it('stores a retry arriving on a later day once', async () => {
    const first = event(today + 3_600_000, 'retried');
    await writer.write([first]);
    const duplicates = writer.stats.duplicates;
    await writer.write([event(today + DAY + 3_600_000, 'retried')]);
    await writer.write([event(today + 2 * DAY + 3_600_000, 'retried'), event(today + 2 * DAY + 3_600_000, 'retried')]);
    expect(writer.stats.duplicates - duplicates).toBe(3);
    const found = await searchEvents(sql, {
      organizationId,
      deviceId,
      datePath: 'serverReceivedAt',
      filter: [],
      limit: 10,
      order: 'asc',
    });
    expect(found.map((e) => e.id)).toEqual([first.id]);
  });

  it('stores once a retry that two servers commit at the same moment, on different days', async () => {
    // A second writer with its own engine and connections: another server.
    const otherEngine = new RulesEngine(
      sql,
      new RuleService(sql, new Secrets(randomBytes(32))),
      { evaluationMsPerSecond: 100 },
      testLog,
    );
    await otherEngine.start();
    const otherWriter = new EventWriter(sql, otherEngine, testLog);
    try {
      for (let round = 0; round < 5; round++) {
        const key = `raced-${round}`;
        await Promise.all([
          writer.write([event(today + 3_600_000, key)]),
          otherWriter.write([event(today + DAY + 3_600_000, key)]),
        ]);
        const [{ count }] = await sql<
          [{ count: number }]
        >`SELECT count(*)::int AS count FROM events WHERE device_id = ${deviceId} AND dedup_key = ${key}`;
        expect(count).toBe(1);
      }
    } finally {
      await otherWriter.stop();
      await otherEngine.stop();
    }
  });

  it('commits again a batch that PostgreSQL rolled back to break a deadlock', async () => {
    // The writer's one-statement commit locks the device row, then inserts the
    // event's key; this transaction (another server's locked commit) holds the
    // key and then asks for the device row. PostgreSQL rolls the writer back
    // (its deadlock check runs first: this side waits 10 s before checking).
    // Before: the writer answered that batch with the deadlock error.
    await writer.write([event(Date.now())]); // the device remembered: the next batch goes the one-statement way
    const retried = writer.stats.retried;
    const key = `deadlocked-${newId()}`;
    const other = await sql.reserve();
    try {
      await other`BEGIN`;
      await other`SET LOCAL deadlock_timeout = '10s'`;
      await insertNewEvents(other, [event(today + 3_600_000, key)]);
      const write = writer.write([event(today + 3_600_000, key)]);
      // the writer now waits for the key: its backend is blocked by this transaction
      await waitUntilBlocking(sql, other, 'the writer to wait for the key');
      await lockEngineDevices(other, [deviceId]);
      await other`COMMIT`;
      await write;
    } finally {
      other.release();
    }
    expect(writer.stats.retried).toBeGreaterThan(retried);
    const [{ count }] = await sql<
      [{ count: number }]
    >`SELECT count(*)::int AS count FROM events WHERE device_id = ${deviceId} AND dedup_key = ${key}`;
    expect(count).toBe(1);
  });

  it('keeps an event no partition covers, and moves it into its day once that day is created', async () => {
    const later = event(today + 5 * DAY);
    await writer.write([later]);
    expect(await placeOf(sql, [later.id])).toEqual({ [later.id]: 'events_default' });
    const outcome = await maintainEventPartitions(sql, 0, today + 5 * DAY);
    expect(outcome.created).toContain(dayName(today + 5 * DAY));
    expect(await placeOf(sql, [later.id])).toEqual({ [later.id]: dayName(today + 5 * DAY) });
  });

  it('drops the partitions past retention and what is as old outside them; recent events stay', async () => {
    // Partitions ten days back, as the maintenance made them then.
    expect((await maintainEventPartitions(sql, 0, today - 10 * DAY)).created).toEqual([
      dayName(today - 10 * DAY),
      dayName(today - 9 * DAY),
      dayName(today - 8 * DAY),
    ]);
    const old = [event(today - 10 * DAY + 60_000), event(today - 8 * DAY + 60_000)];
    const ancient = event(Date.parse('2001-01-01T00:00:00Z'));
    const recent = event(Date.now());
    await writer.write([...old, ancient, recent]);
    expect(await placeOf(sql, [ancient.id, recent.id])).toEqual({
      [ancient.id]: 'events_default',
      [recent.id]: dayName(today),
    });
    const before = await stored();

    const outcome = await maintainEventPartitions(sql, 5);
    expect(outcome.dropped).toEqual([dayName(today - 10 * DAY), dayName(today - 9 * DAY), dayName(today - 8 * DAY)]);
    const names = await partitionsOf(sql);
    for (const gone of outcome.dropped) expect(names).not.toContain(gone);
    expect(names).toContain(dayName(today));
    expect(await stored()).toBe(before - 3);
    expect(
      Object.keys(
        await placeOf(
          sql,
          [...old, ancient, recent].map((e) => e.id),
        ),
      ),
    ).toEqual([recent.id]);
    const keys = await sql<
      { dedupKey: string }[]
    >`SELECT dedup_key FROM event_keys WHERE dedup_key = ANY(${[...old, ancient, recent].map((e) => e.dedupKey)})`;
    expect(keys.map((k) => k.dedupKey)).toEqual([recent.dedupKey]);
  });
});

describe('EVENT_RETENTION_DAYS on a running server', () => {
  it('drops the day partitions past it when the server starts (and hourly after)', { timeout: 120_000 }, async () => {
    // Days ten to eight days ago, with an event in one of them.
    const old = [today - 10 * DAY, today - 9 * DAY, today - 8 * DAY].map(dayName);
    expect((await maintainEventPartitions(sql, 0, today - 10 * DAY)).created).toEqual(old);
    expect(await partitionsOf(sql)).toEqual(expect.arrayContaining(old));
    const retained = await startServer({
      modelsDir: '/nonexistent',
      databaseUrl: url,
      env: { EVENT_RETENTION_DAYS: '5' },
    });
    try {
      await retained.waitForLog(/event partitions maintained .*dropped="?events_/);
      const names = await partitionsOf(sql);
      for (const gone of old) expect(names).not.toContain(gone);
      expect(names).toContain(dayName(today));
    } finally {
      await retained.stop();
      await removeDir(retained.dataDir);
    }
  });
});
