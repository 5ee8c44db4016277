// Devices over MQTT (src/mqtt/): the app in process with its MQTT listener on
// a free port, real clients (the mqtt package's, a raw client over mqtt-packet for the
// packets that one will not send on request, Debian's mosquitto_pub where
// installed). The same device tokens, topics' bodies, validation, limits and
// durable acknowledgement as the HTTP ingestion API (docs/API.md, "MQTT").
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient, type Packet } from 'mqtt';
import type postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ingress } from '../../src/ingest/codec.js';
import type { Api } from '../helpers/api.js';
import {
  startInProcess,
  startInProcessPlatform,
  stopInProcessPlatform,
  type InProcessServer,
} from '../helpers/in-process.js';
import { freePort, RawMqtt } from '../helpers/mqtt.js';
import { holdDeviceRow } from '../helpers/row-locks.js';
import { waitFor } from '../helpers/server.js';
import { twoTenants } from '../helpers/tenants.js';

interface Device {
  deviceId: string;
  token: string;
}

let server: InProcessServer;
let sql: postgres.Sql;
let admin: Api;
let otherAdmin: Api;
let port: number;
let apiKey: string;
let schemaKey: string;
const clients: MqttClient[] = [];
const raws: RawMqtt[] = [];
const CONNECTIONS_PER_ORGANIZATION = 4;

beforeAll(async () => {
  port = await freePort();
  let anon: Api;
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    MQTT_PORT: String(port),
    MQTT_MAX_CONNECTIONS_PER_ORGANIZATION: String(CONNECTIONS_PER_ORGANIZATION),
    MAX_INGEST_BODY_BYTES: '4096',
    DEVICE_EVENT_RATE: '1',
    DEVICE_EVENT_BURST: '20',
  }));
  ({
    b: { admin: otherAdmin },
  } = await twoTenants({ anon, admin, sql }, { member: false }));
  apiKey = (await admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data.apiKeys[0].apiKey;
  const schema = (
    await admin.post('/v2/schemas', {
      name: 'thermo',
      fields: [{ id: 'data', type: 'object', fields: [{ id: 'tempF', type: 'float', required: true }] }],
    })
  ).body.data;
  schemaKey = (await admin.post('/v2/channels', { name: 'thermos', type: 'iot', schemaId: schema.id })).body.data
    .apiKeys[0].apiKey;
});

afterAll(async () => {
  for (const client of clients) client.end(true);
  for (const raw of raws) raw.end();
  await stopInProcessPlatform({ sql, server });
});

// Each test's connections closed, and gone from the server, before the next: the organization's cap counts them.
afterEach(async () => {
  for (const client of clients.splice(0)) client.end(true);
  for (const client of raws.splice(0)) client.end();
  await waitFor(
    async () => /^mqtt_connections 0$/m.test(await (await fetch(`${server.url}/metrics`)).text()),
    10_000,
    'every MQTT connection closed',
  );
});

async function register(key = apiKey): Promise<Device> {
  const res = await fetch(`${server.url}/v1/registration`, { method: 'POST', body: JSON.stringify({ apiKey: key }) });
  expect(res.status).toBe(200);
  return (await res.json()) as Device;
}

async function connect(device: Device, options: mqtt.IClientOptions = {}): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    username: device.deviceId,
    password: device.token,
    protocolVersion: 5,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...options,
  });
  clients.push(client);
  return client;
}

async function raw(device: Device, options: Parameters<typeof RawMqtt.connect>[2] = {}) {
  const { client, connack } = await RawMqtt.connect(port, device, options);
  raws.push(client);
  return { client, connack };
}

/** The PUBACK packets a client receives, by packet id (the client hides their reason strings). */
function pubacks(
  client: MqttClient,
): Map<number, Packet & { reasonCode?: number; properties?: Record<string, unknown> }> {
  const seen = new Map();
  client.on('packetreceive', (packet) => {
    if (packet.cmd === 'puback') seen.set(packet.messageId, packet);
  });
  return seen;
}

async function storedPayloads(deviceId: string): Promise<Array<{ source: string; payload: unknown }>> {
  return sql<Array<{ source: string; payload: unknown }>>`
    SELECT source, payload FROM events WHERE device_id = ${deviceId} ORDER BY id`;
}

/** The outcome of a connect: the CONNACK's reason code, or 0 once connected. */
async function connectCode(device: Device, protocolVersion: 4 | 5): Promise<number> {
  try {
    const client = await connect(device, { protocolVersion });
    client.end(true);
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
}

describe('connecting', () => {
  it('refuses a wrong token, another device id, or a revoked device: 0x87 in MQTT 5, 5 in 3.1.1', async () => {
    const device = await register();
    const other = await register();
    expect(await connectCode(device, 5)).toBe(0);
    expect(await connectCode({ ...device, token: `${device.token}x` }, 5)).toBe(0x87);
    expect(await connectCode({ ...device, token: `${device.token}x` }, 4)).toBe(5);
    expect(await connectCode({ deviceId: other.deviceId, token: device.token }, 5)).toBe(0x87);
    expect((await admin.delete(`/v2/devices/${device.deviceId}`)).status).toBeLessThan(300);
    // The deletion reaches the server's credential cache by NOTIFY (as every
    // replica's): a connect in the next milliseconds may still pass.
    await waitFor(async () => (await connectCode(device, 5)) === 0x87, 10_000, 'the deleted device refused (0x87)');
    expect(await connectCode(device, 4)).toBe(5);
  });

  it('disconnects a device revoked while connected, within seconds', async () => {
    const device = await register();
    const client = await connect(device);
    const { client: older } = await raw(device, { protocolVersion: 4 });
    let reason: number | undefined;
    client.on('disconnect', (packet) => {
      reason = packet.reasonCode;
    });
    expect((await admin.delete(`/v2/devices/${device.deviceId}`)).status).toBeLessThan(300);
    await waitFor(async () => reason !== undefined && older.closed, 10_000, 'both connections closed');
    expect(reason).toBe(0x87);
  });

  it("caps an organization's connections (0x97 past MQTT_MAX_CONNECTIONS_PER_ORGANIZATION) and leaves other organizations alone", async () => {
    const key = (await otherAdmin.post('/v2/channels', { name: 'b sensors', type: 'iot' })).body.data.apiKeys[0].apiKey;
    const devices = await Promise.all(Array.from({ length: CONNECTIONS_PER_ORGANIZATION + 1 }, () => register(key)));
    const open: MqttClient[] = [];
    for (const device of devices.slice(0, CONNECTIONS_PER_ORGANIZATION)) open.push(await connect(device));
    expect(await connectCode(devices.at(-1)!, 5)).toBe(0x97);
    expect(await connectCode(devices.at(-1)!, 4)).toBe(3);
    // The same client id again takes its earlier connection's place rather than counting twice.
    const again = await connect(devices[0]!, { clientId: open[0]!.options.clientId });
    expect(again.connected).toBe(true);
    await waitFor(async () => !open[0]!.connected, 10_000, 'the earlier connection taken over');
    expect(await connectCode(await register(), 5)).toBe(0); // organization A is not B
  });

  it('closes a connection silent past 1.5 times its keep-alive', async () => {
    const device = await register();
    const { client, connack } = await raw(device, { keepalive: 1 });
    expect(connack).toMatchObject({ cmd: 'connack', reasonCode: 0 });
    await client.waitClosed(5000);
    const disconnect = client.pending.find((p) => p.cmd === 'disconnect');
    expect(disconnect).toMatchObject({ reasonCode: 0x8d });
  });
});

/** The device's `connection` as GET /v2/devices/:id answers it. */
async function connectionOf(deviceId: string): Promise<Record<string, unknown> | null> {
  const res = await admin.get(`/v2/devices/${deviceId}`);
  expect(res.status).toBe(200);
  return res.body.data.connection;
}

describe('presence', () => {
  it("answers a device's MQTT connection in its answer and in the list (protocol version, since when), null once it closed", async () => {
    const five = await register();
    const three = await register();
    expect(await connectionOf(five.deviceId)).toBeNull();
    const before = Date.now();
    const client = await connect(five);
    const { client: older } = await raw(three, { protocolVersion: 4 });
    const after = Date.now();
    // Recorded as the CONNACK goes, not before it: read until it is.
    const connection = (await waitFor(async () => connectionOf(five.deviceId), 10_000, 'the connection recorded'))!;
    expect(connection).toEqual({ protocol: 'mqtt', connectedAt: expect.any(String), protocolVersion: 5 });
    const at = new Date(connection.connectedAt as string).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(after + 1000);
    await waitFor(async () => connectionOf(three.deviceId), 10_000, 'the 3.1.1 connection recorded');
    const idle = await register();
    const page = await admin.post('/v2/devices/search', {
      filter: { ids: [five.deviceId, three.deviceId, idle.deviceId] },
      limit: 10,
    });
    const byId = new Map(page.body.data.map((d: { id: string; connection: unknown }) => [d.id, d.connection]));
    expect(byId.get(five.deviceId)).toEqual(connection);
    expect(byId.get(three.deviceId)).toMatchObject({ protocol: 'mqtt', protocolVersion: 4 });
    expect(byId.get(idle.deviceId)).toBeNull();
    // Another organization never reads it.
    expect((await otherAdmin.get(`/v2/devices/${five.deviceId}`)).status).toBe(404);

    client.end(true);
    older.end();
    await waitFor(
      async () => (await connectionOf(five.deviceId)) === null && (await connectionOf(three.deviceId)) === null,
      10_000,
      'both connections gone',
    );
    expect(
      await sql`SELECT 1 FROM device_connections WHERE device_id IN ${sql([five.deviceId, three.deviceId])}`,
    ).toEqual([]);
  });

  it('counts a connection only while its replica heartbeats, and sweeps the rows of a dead replica', async () => {
    const device = await register();
    const ghost = `ghost-${device.deviceId}`;
    const [{ organizationId }] = await sql<[{ organizationId: string }]>`
      SELECT organization_id FROM devices WHERE id = ${device.deviceId}`;
    // Another server of the database, alive, holding the device's connection.
    await sql`INSERT INTO replicas (id, host) VALUES (${ghost}, 'elsewhere')`;
    await sql`INSERT INTO device_connections (id, device_id, organization_id, replica_id, client_id, protocol, protocol_version)
              VALUES (${ghost}, ${device.deviceId}, ${organizationId}, ${ghost}, 'c1', 'mqtt', 4)`;
    expect(await connectionOf(device.deviceId)).toMatchObject({ protocol: 'mqtt', protocolVersion: 4 });
    // Its heartbeat stops: its row no longer counts, swept or not yet.
    await sql`UPDATE replicas SET heartbeat_at = now() - interval '1 hour' WHERE id = ${ghost}`;
    expect(await connectionOf(device.deviceId)).toBeNull();
    // The live replicas' heartbeat sweeps it, its connections with it.
    await waitFor(
      async () => (await sql`SELECT 1 FROM device_connections WHERE replica_id = ${ghost}`).length === 0,
      15_000,
      "the dead replica's connections swept",
    );
  });

  it('records its open connections again when the others had removed this replica', { timeout: 30_000 }, async () => {
    const device = await register();
    await connect(device);
    const connection = await waitFor(async () => connectionOf(device.deviceId), 10_000, 'the connection recorded');
    const [{ replicaId }] = await sql<[{ replicaId: string }]>`
      SELECT replica_id FROM device_connections WHERE device_id = ${device.deviceId}`;
    // As the others do when its heartbeat stopped too long (a pause, a partition): its row, and its connections, go.
    await sql`DELETE FROM replicas WHERE id = ${replicaId}`;
    expect(await connectionOf(device.deviceId)).toBeNull();
    // Its next heartbeat registers it again, and its open connection is written again, since the same time.
    expect(await waitFor(async () => connectionOf(device.deviceId), 20_000, 'the connection recorded again')).toEqual(
      connection,
    );
  });
});

describe('topics', () => {
  it('refuses to publish as another device or subscribe to its commands; counted in /metrics', async () => {
    const device = await register();
    const other = await register();
    const client = await connect(device);
    const acks = pubacks(client);
    await expect(
      client.publishAsync(`devices/${other.deviceId}/events`, JSON.stringify({ k: 1 }), { qos: 1 }),
    ).rejects.toMatchObject({ code: 0x87 });
    expect([...acks.values()][0]?.properties?.reasonString).toContain(`devices/${device.deviceId}/events`);
    const subacks: Packet[] = [];
    client.on('packetreceive', (packet) => {
      if (packet.cmd === 'suback') subacks.push(packet);
    });
    await expect(
      client.subscribeAsync([`devices/${other.deviceId}/commands`, `devices/${device.deviceId}/commands`], { qos: 1 }),
    ).rejects.toThrow(/Not authorized/);
    expect(subacks).toEqual([expect.objectContaining({ granted: [0x87, 1] })]);
    expect(await storedPayloads(other.deviceId)).toEqual([]);

    // 3.1.1 has no negative PUBACK: the publish is dropped and the connection closed; SUBACK says 0x80.
    const { client: old } = await raw(device, { protocolVersion: 4 });
    old.send({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [{ topic: `devices/${other.deviceId}/commands`, qos: 1 }],
    });
    expect(await old.next()).toMatchObject({ cmd: 'suback', granted: [0x80] });
    old.send({
      cmd: 'publish',
      topic: `devices/${other.deviceId}/events`,
      payload: Buffer.from('{}'),
      qos: 1,
      messageId: 2,
      dup: false,
      retain: false,
    });
    await old.waitClosed();

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/mqtt_refusals_total\{reason="publish_topic"\} [2-9]/);
    expect(metrics).toMatch(/mqtt_refusals_total\{reason="subscribe_topic"\} [2-9]/);
  });

  it('stores an event exactly as the same body over HTTP: IoT JSON, mobile JSON and protobuf', async () => {
    const device = await register();
    const client = await connect(device);
    const iot = { data: { tempF: 71.5, humidity: 20 }, timestamp: Date.now() - 1000 };
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify(iot), { qos: 1 });
    const mobile = { events: [{ timestamp: Date.now() - 500, attributes: { k: 'v' }, batteryLevel: 0.5 }] };
    await client.publishAsync(`devices/${device.deviceId}/mobile`, JSON.stringify(mobile), { qos: 1 });
    const protobuf = ingress.MobileEvents.encode(
      ingress.MobileEvents.fromObject({ events: [{ timestamp: Date.now() - 200, attributes: { p: 'b' } }] }),
    ).finish();
    await client.publishAsync(`devices/${device.deviceId}/mobile`, Buffer.from(protobuf), { qos: 1 });
    const overMqtt = await storedPayloads(device.deviceId);

    const twin = await register();
    const post = (path: string, body: string | Uint8Array, type = 'application/json') =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: twin.token, 'content-type': type },
        body,
      });
    expect((await post('/v1/iot/events', JSON.stringify(iot))).status).toBe(204);
    expect((await post('/v1/mobile/events/batch', JSON.stringify(mobile))).status).toBe(204);
    expect((await post('/v1/mobile/events/batch', protobuf, 'application/protobuf')).status).toBe(204);
    const overHttp = await storedPayloads(twin.deviceId);
    expect(overMqtt).toHaveLength(3);
    expect(overMqtt).toEqual(overHttp);
  });

  it('drives the rules: a landmark rule fires from an event published over MQTT', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'walkers', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'city', channelIds: [channel.id] })).body.data.id;
    const park = { lat: 48.8566, lon: 2.3522 };
    const far = { lat: 48.87, lon: 2.3522 }; // ~1.5 km north of the park's 200 m circle
    const landmark = (
      await admin.post('/v2/landmarks', {
        projectId: project,
        name: 'park',
        model: { type: 'circle', geometry: { center: park, radius: 200 } },
      })
    ).body.data.id;
    const rule = await admin.post('/v2/rules', {
      projectId: project,
      name: 'entered the park',
      conditionsObject: [{ type: 'enterLandmark', ids: [landmark], attribute: 'event.location.position' }],
      actions: [{ type: 'push', subject: 'welcome', message: 'in the park' }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const device = await register(channel.apiKeys[0].apiKey);
    const client = await connect(device);
    let clock = Date.now() - 600_000;
    const at = (point: { lat: number; lon: number }) => {
      clock += 1000;
      return { timestamp: clock, locations: [{ timestamp: clock, latitude: point.lat, longitude: point.lon }] };
    };
    // Out and in again until the rules engine has heard of the new rule (NOTIFY), then once more.
    await waitFor(
      async () => {
        const walk = JSON.stringify({ events: [at(far), at(park)] });
        await client.publishAsync(`devices/${device.deviceId}/mobile`, walk, { qos: 1 }).catch(() => {});
        const [{ n }] = await sql<[{ n: number }]>`
          SELECT count(*)::int AS n FROM action_jobs WHERE rule_id = ${rule.body.data.id} AND device_id = ${device.deviceId}`;
        return n > 0;
      },
      15_000,
      'the rule to fire from an MQTT event',
    );
    const [job] = await sql<Array<{ source: string }>>`
      SELECT e.source FROM action_jobs j JOIN events e ON e.id = j.event_id WHERE j.rule_id = ${rule.body.data.id}`;
    expect(job).toEqual({ source: 'mobile' });
  });

  it('answers a bad payload 0x99 naming the field, and keeps the connection', async () => {
    const device = await register(schemaKey);
    const client = await connect(device);
    const acks = pubacks(client);
    await expect(
      client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ data: { tempF: 'warm' } }), { qos: 1 }),
    ).rejects.toMatchObject({ code: 0x99 });
    await expect(
      client.publishAsync(`devices/${device.deviceId}/mobile`, '{"events":[{"timestamp":"soon"}]}', { qos: 1 }),
    ).rejects.toMatchObject({ code: 0x99 });
    const reasons = [...acks.values()].map((p) => p.properties?.reasonString);
    expect(reasons[0]).toContain('data.tempF');
    expect(reasons[1]).toContain('events.0.timestamp');
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ data: { tempF: 70 } }), { qos: 1 });
    expect(client.connected).toBe(true);
    expect(await storedPayloads(device.deviceId)).toEqual([{ source: 'iot', payload: { data: { tempF: 70 } } }]);

    // 3.1.1: dropped (and acknowledged, or the client would send it for ever), the connection kept.
    const { client: old } = await raw(device, { protocolVersion: 4 });
    old.send({
      cmd: 'publish',
      topic: `devices/${device.deviceId}/events`,
      payload: Buffer.from('{"data":{"tempF":"x"}}'),
      qos: 1,
      messageId: 9,
      dup: false,
      retain: false,
    });
    expect(await old.next()).toMatchObject({ cmd: 'puback', messageId: 9 });
    old.send({ cmd: 'pingreq' });
    expect(await old.next()).toMatchObject({ cmd: 'pingresp' });
    expect(await storedPayloads(device.deviceId)).toHaveLength(1);
  });

  it('answers 0x97 past the device rate or the body limit', async () => {
    const device = await register();
    const client = await connect(device);
    const acks = pubacks(client);
    const big = JSON.stringify({ blob: 'x'.repeat(5000) });
    await expect(client.publishAsync(`devices/${device.deviceId}/events`, big, { qos: 1 })).rejects.toMatchObject({
      code: 0x97,
    });
    expect([...acks.values()][0]?.properties?.reasonString).toContain('MAX_INGEST_BODY_BYTES');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ i }), { qos: 1 }),
      ),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((o) => (o.reason as { code: number }).code === 0x97)).toBe(true);
    expect(await storedPayloads(device.deviceId)).toHaveLength(30 - refused.length);
  });
});

describe('packets', () => {
  it('closes a connection whose packet is over the maximum packet size (0x95), before reading it whole', async () => {
    const device = await register();
    const { client, connack } = await raw(device);
    const maximum = (connack as { properties?: { maximumPacketSize?: number } }).properties?.maximumPacketSize;
    expect(maximum).toBe(4096 + 64 * 1024);
    client.send({
      cmd: 'publish',
      topic: `devices/${device.deviceId}/events`,
      payload: Buffer.alloc(maximum! + 1, 0x20),
      qos: 1,
      messageId: 1,
      dup: false,
      retain: false,
    });
    await client.waitClosed();
    expect(client.pending).toEqual([expect.objectContaining({ cmd: 'disconnect', reasonCode: 0x95 })]);
    expect(await storedPayloads(device.deviceId)).toEqual([]);
  });
});

describe('a client that stops reading', () => {
  it('is disconnected once its unread answers pass the bound, not buffered for', { timeout: 120_000 }, async () => {
    const device = await register();
    const other = await register();
    const { client } = await raw(device);
    client.stopReading();
    // Each refused message answers a PUBACK with a reason string, at once and bigger than the message:
    // the answers fill the socket buffers of both sides, then the server's write buffer.
    const refused = (messageId: number): Packet => ({
      cmd: 'publish',
      topic: `devices/${other.deviceId}/events`,
      payload: Buffer.alloc(0),
      qos: 1,
      messageId,
      dup: false,
      retain: false,
    });
    let id = 0;
    while (!client.closed && id < 2_000_000) {
      client.sendAll(Array.from({ length: 2000 }, () => refused((id++ % 65535) + 1)));
      await client.drained();
    }
    expect(client.closed).toBe(true);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/mqtt_refusals_total\{reason="slow_reader"\} 1/);
  });
});

describe('acknowledgements', () => {
  it('sends the QoS 1 PUBACK only after the commit', async () => {
    const device = await register();
    const client = await connect(device);
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ first: true }), { qos: 1 });
    // Hold the device's row: the writer's commit updates it, so it waits here.
    const held = await holdDeviceRow(sql, device.deviceId);
    try {
      let acked = false;
      const publish = client
        .publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ held: true }), { qos: 1 })
        .then(() => {
          acked = true;
        });
      await held.blocking('the commit to wait for the held row');
      // A round trip on the same connection after the PUBLISH: its answer comes, the PUBACK does not.
      await client.subscribeAsync(`devices/${device.deviceId}/commands`, { qos: 1 });
      expect(acked).toBe(false);
      await held.release();
      await publish;
      expect(acked).toBe(true);
    } finally {
      await held.release();
    }
    expect(await storedPayloads(device.deviceId)).toHaveLength(2);
  });

  it('stores a DUP retransmission once, in flight or after a reconnect', async () => {
    const device = await register();
    const publish = (dup: boolean, messageId: number, payload: string): Packet => ({
      cmd: 'publish',
      topic: `devices/${device.deviceId}/events`,
      payload: Buffer.from(payload),
      qos: 1,
      messageId,
      dup,
      retain: false,
    });
    const { client } = await raw(device, { clientId: 'dup-client' });
    client.sendAll([publish(false, 7, '{"n":1}'), publish(true, 7, '{"n":1}')]);
    expect(await client.next()).toMatchObject({ cmd: 'puback', messageId: 7, reasonCode: 0 });
    client.end();
    // The PUBACK lost, as if the connection dropped before it arrived: the client sends it again.
    const { client: again } = await raw(device, { clientId: 'dup-client' });
    again.send(publish(true, 7, '{"n":1}'));
    expect(await again.next()).toMatchObject({ cmd: 'puback', messageId: 7, reasonCode: 0 });
    // The same packet id with other bytes is another message.
    again.send(publish(false, 7, '{"n":2}'));
    expect(await again.next()).toMatchObject({ cmd: 'puback', messageId: 7, reasonCode: 0 });
    expect((await storedPayloads(device.deviceId)).map((e) => e.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('takes an MQTT 5 user property idempotency-key as HTTP takes the Idempotency-Key header', async () => {
    const device = await register();
    const client = await connect(device);
    const keyed = { properties: { userProperties: { 'idempotency-key': 'reading-42' } }, qos: 1 as const };
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ reading: 42 }), keyed);
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ reading: 42 }), keyed);
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ reading: 42 }), { qos: 1 });
    expect(await storedPayloads(device.deviceId)).toHaveLength(2);
  });

  it('stores QoS 0 through the same writer, and refuses QoS 2 (MQTT 5: DISCONNECT 0x9B)', async () => {
    const device = await register();
    const client = await connect(device);
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify({ q: 0 }), { qos: 0 });
    await waitFor(async () => (await storedPayloads(device.deviceId)).length === 1, 10_000, 'the QoS 0 event stored');
    const { client: qos2 } = await raw(device);
    qos2.send({
      cmd: 'publish',
      topic: `devices/${device.deviceId}/events`,
      payload: Buffer.from('{}'),
      qos: 2,
      messageId: 1,
      dup: false,
      retain: false,
    });
    expect(await qos2.next()).toMatchObject({ cmd: 'disconnect', reasonCode: 0x9b });
    await qos2.waitClosed();
    expect(await storedPayloads(device.deviceId)).toHaveLength(1);
  });

  it('disconnects an MQTT 5 client past its receive maximum (0x93)', async () => {
    const device = await register();
    const { client, connack } = await raw(device);
    const receiveMaximum = (connack as { properties?: { receiveMaximum?: number } }).properties?.receiveMaximum;
    expect(receiveMaximum).toBe(64);
    const holder = await sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`SELECT id FROM devices WHERE id = ${device.deviceId} FOR UPDATE`;
      client.sendAll(
        Array.from({ length: 65 }, (_, i) => ({
          cmd: 'publish' as const,
          topic: `devices/${device.deviceId}/events`,
          payload: Buffer.from(JSON.stringify({ i })),
          qos: 1 as const,
          messageId: i + 1,
          dup: false,
          retain: false,
        })),
      );
      await client.waitClosed();
      expect(client.pending.find((p) => p.cmd === 'disconnect')).toMatchObject({ reasonCode: 0x93 });
    } finally {
      await holder`COMMIT`;
      holder.release();
    }
  });
});

describe('shutdown', () => {
  it('stops accepting, lets a message in flight commit and be acknowledged, then disconnects (0x8B)', async () => {
    const drainPort = await freePort();
    const draining = await startInProcessPlatform({ MQTT_PORT: String(drainPort) });
    let stopped: Promise<void> | undefined;
    try {
      const key = (await draining.admin.post('/v2/channels', { name: 'last', type: 'iot' })).body.data.apiKeys[0]
        .apiKey;
      const res = await fetch(`${draining.server.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: key }),
      });
      const device = (await res.json()) as Device;
      const { client } = await RawMqtt.connect(drainPort, device);
      const publish = (messageId: number): Packet => ({
        cmd: 'publish',
        topic: `devices/${device.deviceId}/events`,
        payload: Buffer.from(JSON.stringify({ messageId })),
        qos: 1,
        messageId,
        dup: false,
        retain: false,
      });
      client.send(publish(1));
      expect(await client.next()).toMatchObject({ cmd: 'puback', messageId: 1 });
      const held = await holdDeviceRow(draining.sql, device.deviceId);
      try {
        client.send(publish(2));
        await held.blocking('the commit to wait for the held row');
        stopped = draining.server.stop();
        // No new connection once the shutdown began.
        await waitFor(
          async () =>
            await RawMqtt.open(drainPort, 5).then(
              (c) => (c.end(), false),
              () => true,
            ),
          10_000,
          'the listener closed',
        );
        expect(client.pending).toEqual([]);
      } finally {
        await held.release();
      }
      // Success: committed (the database goes with the in-process server once stopped, so the PUBACK is the witness).
      expect(await client.next()).toMatchObject({ cmd: 'puback', messageId: 2, reasonCode: 0 });
      expect(await client.next()).toMatchObject({ cmd: 'disconnect', reasonCode: 0x8b });
      client.end();
    } finally {
      await draining.sql.end();
      await (stopped ?? draining.server.stop());
    }
  });
});

describe('MQTT over TLS', () => {
  it('serves MQTTS_PORT with the certificate of HTTPS', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sense-mqtts-'));
    const cert = join(dir, 'server.crt');
    const key = join(dir, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const tlsPort = await freePort();
    const secure = await startInProcess({ TLS_CERT: cert, TLS_KEY: key, MQTTS_PORT: String(tlsPort) });
    try {
      // A CONNECT answered over TLS (a token of no device of this server's database: refused, 0x87).
      const refused = await mqtt
        .connectAsync(`mqtts://127.0.0.1:${tlsPort}`, {
          username: 'nobody',
          password: 'not-a-token',
          protocolVersion: 5,
          reconnectPeriod: 0,
          rejectUnauthorized: false,
        })
        .then(
          () => 0,
          (error: { code: number }) => error.code,
        );
      expect(refused).toBe(0x87);
    } finally {
      await secure.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const hasMosquitto = spawnSync('sh', ['-c', 'command -v mosquitto_pub']).status === 0;

describe.skipIf(!hasMosquitto)("Debian's mosquitto_pub", () => {
  // Not spawnSync: the server runs in this process, and must answer while the client runs.
  const pub = (device: Device, args: string[]) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      execFile(
        'mosquitto_pub',
        ['-h', '127.0.0.1', '-p', String(port), '-u', device.deviceId, '-P', device.token, '-q', '1', ...args],
        { encoding: 'utf8', timeout: 20_000 },
        (error, _stdout, stderr) =>
          resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });

  it('publishes events with MQTT 5 and 3.1.1; a wrong token is refused', async () => {
    const device = await register();
    const topic = `devices/${device.deviceId}/events`;
    expect((await pub(device, ['-V', 'mqttv5', '-t', topic, '-m', '{"from":"mosquitto","v":5}'])).status).toBe(0);
    expect((await pub(device, ['-V', 'mqttv311', '-t', topic, '-m', '{"from":"mosquitto","v":4}'])).status).toBe(0);
    const refused = await pub({ ...device, token: 'wrong' }, ['-V', 'mqttv5', '-t', topic, '-m', '{}']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/not authori[sz]ed/i);
    expect((await storedPayloads(device.deviceId)).map((e) => e.payload)).toEqual([
      { from: 'mosquitto', v: 5 },
      { from: 'mosquitto', v: 4 },
    ]);
  });
});
