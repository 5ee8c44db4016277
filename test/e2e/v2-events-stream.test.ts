// GET /v2/events/stream against a real server: events posted through the
// ingestion API arrive on the stream of their organization and no other;
// channel and device filters; 400 for a bad filter, 401 without a token or
// for another organization's channel, 429 past the per-organization and
// per-server caps;
// a client that stops reading is dropped; events another server of the
// database ingested arrive too; shutdown ends open streams instead of
// waiting for them.
import { connect } from 'node:net';
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, serverDatabaseUrl, type Api } from '../helpers/api.js';
import { openEventStream, type EventStreamClient } from '../helpers/event-stream.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';
import { twoTenants } from '../helpers/tenants.js';

/** shared with a second server of the database, which must accept the same device tokens */
const JWT_SECRET = 'stream-test-secret-stream-test-secret-1';
const PER_ORGANIZATION = 3;
const BUFFER_BYTES = 64 * 1024;
let platform: Platform;
let server: TestServer;
let sql: postgres.Sql;
let adminA: Api;
let memberA: Api;
let adminB: Api;
let orgA: string;
let orgB: string;

interface Device {
  deviceId: string;
  channelId: string;
  token: string;
}

/** A device registered through the ingestion API in a new IoT channel of `admin`'s organization. */
async function registerDevice(admin: Api): Promise<Device> {
  const channel = (await admin.post('/v2/channels', { name: `sensors ${ulid()}`, type: 'iot' })).body.data;
  const res = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey, properties: { type: 'probe' } }),
  });
  expect(res.status).toBe(200);
  const { token, deviceId } = (await res.json()) as { token: string; deviceId: string };
  return { deviceId, channelId: channel.id, token };
}

/** Posts one IoT event as the device, through the ingestion API; resolves once it is committed (204). */
async function post(device: Device, data: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${server.url}/v1/iot/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: device.token },
    body: JSON.stringify({ data }),
  });
  expect(res.status).toBe(204);
}

/** A stream that is open and read for: its `ready` came. */
async function ready(api: Api, query = ''): Promise<EventStreamClient> {
  const stream = await openEventStream(api, query);
  expect(stream.status, JSON.stringify(stream.body)).toBe(200);
  await stream.waitFor((m) => m.event === 'ready');
  return stream;
}

/** The event_streams_open gauge of /metrics (this host may read it). */
async function openStreams(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^event_streams_open (\d+)/m.exec(text)![1]);
}

beforeAll(async () => {
  platform = await startPlatform({
    JWT_SECRET,
    EVENT_STREAM_POLL_MS: '200',
    EVENT_STREAMS_PER_ORGANIZATION: String(PER_ORGANIZATION),
    EVENT_STREAM_BUFFER_BYTES: String(BUFFER_BYTES),
  });
  ({ server, sql } = platform);
  const tenants = await twoTenants(platform, {
    member: 'stream-member@example.com',
    other: 'stream-other@example.com',
  });
  adminA = tenants.a.admin;
  memberA = tenants.a.member;
  adminB = tenants.b.admin;
  orgA = tenants.a.organizationId;
  orgB = tenants.b.organizationId;
});

afterAll(() => stopPlatform(platform));

describe('GET /v2/events/stream', () => {
  it("sends each event posted through ingestion to its organization's streams, and to no other organization's", async () => {
    const [deviceA, deviceB] = [await registerDevice(adminA), await registerDevice(adminB)];
    // a member reads events too (events:read)
    const [streamA, streamB] = [await ready(memberA), await ready(adminB)];
    expect(streamA.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(streamA.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(streamA.messages.find((m) => m.event === 'ready')!.data)).toEqual({ pollMs: 200 });

    await post(deviceB, { secret: 'of B' });
    await post(deviceA, { tempF: 71.5 });
    const seen = await streamA.waitForEvent((e) => e.deviceId === deviceA.deviceId);
    expect(seen).toMatchObject({
      organizationId: orgA,
      channelId: deviceA.channelId,
      deviceId: deviceA.deviceId,
      payload: { data: { tempF: 71.5 } },
      clientSentAt: null,
    });
    // the message id is the event's, and the event is the one the search finds
    expect(streamA.messages.find((m) => m.event === 'event')!.id).toBe(seen.id);
    const [searched] = (await adminA.post('/v2/events', { deviceId: deviceA.deviceId })).body.data;
    expect(seen).toEqual(searched);

    const seenByB = await streamB.waitForEvent((e) => e.deviceId === deviceB.deviceId);
    expect(seenByB.organizationId).toBe(orgB);
    // later polls, still nothing of the other organization on either: each
    // stream reads on until an event of its own posted after everything else
    await post(deviceA, { tempF: 72 });
    await streamA.waitForEvent((e) => e.payload.data.tempF === 72);
    await post(deviceA, { marker: 'A' });
    await post(deviceB, { marker: 'B' });
    await streamA.waitForEvent((e) => e.payload.data.marker === 'A');
    await streamB.waitForEvent((e) => e.payload.data.marker === 'B');
    expect(streamA.events().every((e) => e.organizationId === orgA)).toBe(true);
    expect(streamA.events().map((e) => e.payload.data)).toEqual([{ tempF: 71.5 }, { tempF: 72 }, { marker: 'A' }]);
    expect(streamB.events().every((e) => e.organizationId === orgB)).toBe(true);
    expect(streamB.events().map((e) => e.payload.data)).toEqual([{ secret: 'of B' }, { marker: 'B' }]);
    streamA.close();
    streamB.close();
  });

  it('sends only what came after the stream opened, each event once, in order', async () => {
    const device = await registerDevice(adminA);
    await post(device, { n: 0 }); // before: not news
    const stream = await ready(adminA, `?deviceId=${device.deviceId}`);
    for (let n = 1; n <= 5; n++) await post(device, { n });
    await stream.waitForEvent((e) => e.payload.data.n === 5);
    // a later event: what would have come twice comes before it
    await post(device, { n: 6 });
    await stream.waitForEvent((e) => e.payload.data.n === 6);
    expect(stream.events().map((e) => e.payload.data.n)).toEqual([1, 2, 3, 4, 5, 6]);
    stream.close();
  });

  it('keeps to the channel or device it was opened for', async () => {
    const [one, two] = [await registerDevice(adminA), await registerDevice(adminA)];
    const byDevice = await ready(adminA, `?deviceId=${one.deviceId}`);
    const byChannel = await ready(adminA, `?channelId=${two.channelId}`);
    await post(two, { who: 'two' });
    await post(one, { who: 'one' });
    await byDevice.waitForEvent((e) => e.payload.data.who === 'one');
    await byChannel.waitForEvent((e) => e.payload.data.who === 'two');
    // each stream's own later event, posted after the other's: read past what it must not show
    await post(two, { who: 'two again' });
    await post(one, { who: 'one again' });
    await byDevice.waitForEvent((e) => e.payload.data.who === 'one again');
    await byChannel.waitForEvent((e) => e.payload.data.who === 'two again');
    expect(byDevice.events().map((e) => e.deviceId)).toEqual([one.deviceId, one.deviceId]);
    expect(byChannel.events().map((e) => e.channelId)).toEqual([two.channelId, two.channelId]);
    byDevice.close();
    byChannel.close();
  });

  it('refuses a bad filter (400), no token (401) and another organization’s channel or device (401)', async () => {
    const deviceB = await registerDevice(adminB);
    for (const query of ['?deviceId=nope', '?channelId=1234', '?since=now']) {
      const refused = await openEventStream(adminA, query);
      expect(refused.status, query).toBe(400);
      expect(refused.body, query).toMatchObject({
        status: 400,
        message: 'invalid query parameter',
        error: expect.any(String),
      });
    }
    const anonymous = await openEventStream(platform.anon);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: 401, message: expect.any(String) });
    expect((await openEventStream(adminA.withToken('not.a.token'))).status).toBe(401);
    const foreignChannel = await openEventStream(adminA, `?channelId=${deviceB.channelId}`);
    expect(foreignChannel.status).toBe(401);
    expect(foreignChannel.body).toMatchObject({ status: 401, message: 'you dont have access to this channel' });
    const foreignDevice = await openEventStream(adminA, `?deviceId=${deviceB.deviceId}`);
    expect(foreignDevice.body).toMatchObject({ status: 401, message: 'you dont have access to this device' });
  });

  it('answers 429 past the streams one organization may have open, and takes the place back when one closes', async () => {
    const open = [];
    for (let i = 0; i < PER_ORGANIZATION; i++) open.push(await ready(adminA));
    const refused = await openEventStream(adminA);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 429,
      message: 'too many event streams',
      error: expect.stringContaining('EVENT_STREAMS_PER_ORGANIZATION'),
    });
    // another organization has places of its own
    const other = await ready(adminB);
    expect(await openStreams()).toBe(PER_ORGANIZATION + 1);
    open.pop()!.close();
    const again = await waitFor(
      async () => {
        const stream = await openEventStream(adminA);
        return stream.status === 200 ? stream : undefined;
      },
      5_000,
      'a place for a new stream',
    );
    again.close();
    other.close();
    for (const stream of open) stream.close();
    await waitFor(async () => (await openStreams()) === 0, 5_000, 'every stream closed');
  });

  it('drops a client that stops reading once more than EVENT_STREAM_BUFFER_BYTES wait for it', async () => {
    const { channelId, deviceId } = await registerDevice(adminA);
    // a client that sends its request, reads the headers' first bytes, then reads nothing more
    const socket = connect(server.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    let received = '';
    let reading = true;
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (reading && received.includes('event: ready')) {
        reading = false;
        socket.pause();
      }
    });
    socket.write(
      `GET /v2/events/stream?deviceId=${deviceId} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${adminA.token}\r\n\r\n`,
    );
    await waitFor(async () => received.includes('event: ready'), 10_000, 'the stream to be ready');
    expect(await openStreams()).toBe(1);
    // 12 MiB of events: more than the socket buffers and the stream's own together hold
    for (let i = 0; i < 24; i++) {
      await sql`
        INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, dedup_key, payload)
        VALUES (${ulid()}, ${orgA}, ${channelId}, ${deviceId}, 'iot', now(), ${ulid()}, jsonb_build_object('data', repeat('x', 512 * 1024)))`;
    }
    // the server gives the place back without the client reading a byte more
    await waitFor(async () => (await openStreams()) === 0, 20_000, 'the slow stream to be dropped');
    socket.resume(); // what the kernel held, then the end of the connection
    await closed;
    // it got some of the events, not all 12 MiB of them
    const got = received.split('event: event').length - 1;
    expect(got).toBeLessThan(24);
    expect(server.stderr()).not.toMatch(/unhandled error|does not match its declared schema/);
  });

  it("sends the events another server of the database committed: its ingestion tells the stream's server nothing", async () => {
    const device = await registerDevice(adminA);
    const replica = await startServer({
      modelsDir: '/nonexistent',
      databaseUrl: await serverDatabaseUrl(server, platform.database?.url),
      env: { ADMIN_PASSWORD: ADMIN.password, JWT_SECRET, EVENT_STREAM_POLL_MS: '200', EVENT_STREAMS_PER_SERVER: '1' },
    });
    try {
      // the replica holds one stream at most, whoever asks: each server counts its own
      const held = await ready(adminB.withBaseUrl(replica.url));
      const refused = await openEventStream(adminA.withBaseUrl(replica.url));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        status: 429,
        message: 'too many event streams',
        error: expect.stringContaining('EVENT_STREAMS_PER_SERVER'),
      });
      held.close();

      const stream = await ready(adminA, `?deviceId=${device.deviceId}`);
      const res = await fetch(`${replica.url}/v1/iot/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: device.token },
        body: JSON.stringify({ data: { via: 'replica' } }),
      });
      expect(res.status).toBe(204);
      expect((await stream.waitForEvent((e) => e.payload.data.via === 'replica')).deviceId).toBe(device.deviceId);
      stream.close();
    } finally {
      await replica.stop();
      await removeDir(replica.dataDir);
    }
  });

  it('ends open streams at shutdown rather than waiting for them', async () => {
    const stream = await ready(adminA);
    const started = Date.now();
    const code = await server.stop();
    expect(code).toBe(0);
    // SHUTDOWN_TIMEOUT_MS is 15 s: the open stream did not hold the server that long
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(stream.ended).resolves.toBeUndefined();
    expect(server.stderr()).not.toContain('shutdown timeout reached');
  });
});
