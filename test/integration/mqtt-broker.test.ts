// Broker mode (MQTT_BROKER_URL) and the broker's auth hooks, against
// Debian's Mosquitto 2 (test/helpers/mosquitto.ts): devices publish to the
// broker with their token as the MQTT 5 user property `authorization`, the
// app in process subscribes and stores what they send as the same body over
// HTTP; messages without a token, or with another device's, are dropped and
// counted. The hooks answer EMQX's and mosquitto-go-auth's shapes.
import { execFile } from 'node:child_process';
import mqtt, { type MqttClient } from 'mqtt';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import {
  startInProcess,
  startInProcessPlatform,
  stopInProcessPlatform,
  type InProcessServer,
} from '../helpers/in-process.js';
import { mosquittoTests, startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';
import { waitFor } from '../helpers/server.js';

interface Device {
  deviceId: string;
  token: string;
}

const SECRET = 'hook-secret-0123456789';

let broker: Mosquitto;
let server: InProcessServer;
let sql: postgres.Sql;
let admin: Api;
let apiKey: string;
const clients: MqttClient[] = [];

async function metrics(): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

async function register(): Promise<Device> {
  const response = await fetch(`${server.url}/v1/registration`, { method: 'POST', body: JSON.stringify({ apiKey }) });
  return (await response.json()) as Device;
}

/** A device's MQTT 5 connection to the broker (anonymous: this broker checks nothing, the server checks each message). */
async function deviceClient(): Promise<MqttClient> {
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, reconnectPeriod: 0 });
  clients.push(client);
  return client;
}

async function rowsOf(deviceId: string) {
  return sql<{ payload: Record<string, unknown>; source: string; channel_id: string }[]>`
    SELECT payload, source, channel_id FROM events WHERE device_id = ${deviceId} ORDER BY id`;
}

describe.skipIf(!mosquittoTests)('MQTT broker mode', () => {
  beforeAll(async () => {
    broker = await startMosquitto();
    ({ server, sql, admin } = await startInProcessPlatform({
      MQTT_BROKER_URL: broker.url,
      MQTT_BROKER_CLIENT_ID: 'broker-test-replica',
      // this broker lets anyone in: the name and password are for the hooks' rules of the server's own user
      MQTT_BROKER_USERNAME: 'sense-replicas',
      MQTT_BROKER_PASSWORD: 'replica-password',
      MQTT_AUTH_HOOK_SECRET: SECRET,
    }));
    apiKey = (await admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data.apiKeys[0].apiKey;
    await waitFor(async () => /^mqtt_broker_connected 1$/m.test(await metrics()), 20_000, 'the broker subscription');
  });

  afterAll(async () => {
    for (const client of clients) client.end(true);
    await stopInProcessPlatform({ sql, server });
    await broker?.stop();
  });

  describe('against Mosquitto', messagesThroughTheBroker);
  describe("the broker's auth hooks", authHooks);
});

function messagesThroughTheBroker() {
  it('stores a message published to the broker as the same body over HTTP', async () => {
    const device = await register();
    const body = { data: { tempF: 70.5 }, label: 'same body' };
    const http = await fetch(`${server.url}/v1/iot/events`, {
      method: 'POST',
      headers: { authorization: device.token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(http.status).toBe(204);
    const client = await deviceClient();
    await client.publishAsync(`devices/${device.deviceId}/events`, JSON.stringify(body), {
      qos: 1,
      properties: { userProperties: { authorization: device.token } },
    });
    await waitFor(async () => (await rowsOf(device.deviceId)).length === 2, 10_000, 'the MQTT event stored');
    const [overHttp, overMqtt] = await rowsOf(device.deviceId);
    expect(overMqtt).toEqual(overHttp);
    expect(overMqtt!.payload).toMatchObject(body);
    expect(await metrics()).toMatch(/^mqtt_broker_messages_total\{topic="events",outcome="stored"\} [1-9]/m);
  });

  it("takes mosquitto_pub's message with the token as a user property", async () => {
    const device = await register();
    const result = await new Promise<{ status: number; stderr: string }>((resolve) => {
      execFile(
        'mosquitto_pub',
        [
          ...['-h', '127.0.0.1', '-p', String(broker.port), '-V', 'mqttv5', '-q', '1'],
          ...['-t', `devices/${device.deviceId}/events`, '-m', '{"from":"mosquitto_pub"}'],
          ...['-D', 'PUBLISH', 'user-property', 'authorization', device.token],
        ],
        (error, _stdout, stderr) => resolve({ status: error ? 1 : 0, stderr }),
      );
    });
    expect(result).toMatchObject({ status: 0 });
    await waitFor(async () => (await rowsOf(device.deviceId)).length === 1, 10_000, "mosquitto_pub's event stored");
    expect((await rowsOf(device.deviceId))[0]!.payload).toEqual({ from: 'mosquitto_pub' });
  });

  it("drops and counts a message without a token or with another device's", async () => {
    const [device, other] = [await register(), await register()];
    const count = (reason: string, text: string) =>
      Number(new RegExp(`^mqtt_broker_refusals_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await metrics();
    const client = await deviceClient();
    const topic = `devices/${device.deviceId}/events`;
    await client.publishAsync(topic, '{"n":"no token"}', { qos: 1 });
    await client.publishAsync(topic, '{"n":"other token"}', {
      qos: 1,
      properties: { userProperties: { authorization: other.token } },
    });
    await client.publishAsync(topic, '{"n":"bad token"}', {
      qos: 1,
      properties: { userProperties: { authorization: `${device.token}x` } },
    });
    // The last one proves the others were taken: one subscriber takes them in order.
    await client.publishAsync(topic, '{"n":"own token"}', {
      qos: 1,
      properties: { userProperties: { authorization: `Bearer ${device.token}` } },
    });
    await waitFor(async () => (await rowsOf(device.deviceId)).length === 1, 10_000, 'the last message stored');
    expect((await rowsOf(device.deviceId)).map((row) => row.payload)).toEqual([{ n: 'own token' }]);
    expect(await rowsOf(other.deviceId)).toEqual([]);
    const after = await metrics();
    expect(count('no_token', after) - count('no_token', before)).toBe(1);
    expect(count('wrong_device', after) - count('wrong_device', before)).toBe(1);
    expect(count('not_authorized', after) - count('not_authorized', before)).toBe(1);
  });

  it('is not ready while the broker is away, and takes messages again once it is back', async () => {
    // No model is Active here, so the server is never ready; what matters is whether the broker is missing too.
    const readiness = async () => JSON.stringify(await (await fetch(`${server.url}/v2/health/ready`)).json());
    expect(await readiness()).not.toMatch(/MQTT broker/);
    const { port } = broker;
    await broker.stop();
    await waitFor(async () => /^mqtt_broker_connected 0$/m.test(await metrics()), 10_000, 'the connection lost');
    expect(await readiness()).toMatch(/not connected to the MQTT broker/);
    broker = await startMosquitto(port);
    await waitFor(async () => /^mqtt_broker_connected 1$/m.test(await metrics()), 30_000, 'the reconnection');
    expect(await readiness()).not.toMatch(/MQTT broker/);
    const device = await register();
    const client = await deviceClient();
    await client.publishAsync(`devices/${device.deviceId}/events`, '{"after":"reconnect"}', {
      qos: 1,
      properties: { userProperties: { authorization: device.token } },
    });
    await waitFor(async () => (await rowsOf(device.deviceId)).length === 1, 10_000, 'the event after the reconnect');
  });
}

function authHooks() {
  const hook = (path: string, body: unknown, options: { secret?: string | null; form?: boolean } = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        ...(options.secret === null ? {} : { authorization: `Bearer ${options.secret ?? SECRET}` }),
        'content-type': options.form ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body: options.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    });
  const answer = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  });

  it('answer EMQX 5: allow and deny as {"result"}, always 200', async () => {
    const [device, other] = [await register(), await register()];
    const auth = (username: string, password: string) =>
      hook('/v1/mqtt/auth', { username, password, clientid: 'c1', peerhost: '10.0.0.1' }).then(answer);
    expect(await auth(device.deviceId, device.token)).toEqual({ status: 200, body: { result: 'allow' } });
    expect(await auth(device.deviceId, other.token)).toEqual({ status: 200, body: { result: 'deny' } });
    expect(await auth(device.deviceId, 'not a token')).toEqual({ status: 200, body: { result: 'deny' } });
    const acl = (topic: string, action: string) =>
      hook('/v1/mqtt/acl', { username: device.deviceId, clientid: 'c1', topic, action }).then(answer);
    const id = device.deviceId;
    expect(await acl(`devices/${id}/events`, 'publish')).toEqual({ status: 200, body: { result: 'allow' } });
    expect(await acl(`devices/${id}/mobile`, 'publish')).toEqual({ status: 200, body: { result: 'allow' } });
    expect(await acl(`devices/${id}/commands`, 'subscribe')).toEqual({ status: 200, body: { result: 'allow' } });
    expect((await acl(`devices/${other.deviceId}/events`, 'publish')).body).toEqual({ result: 'deny' });
    expect((await acl(`devices/${id}/commands`, 'publish')).body).toEqual({ result: 'deny' });
    expect((await acl(`devices/${id}/events`, 'subscribe')).body).toEqual({ result: 'deny' });
    expect((await acl('devices/+/events', 'subscribe')).body).toEqual({ result: 'deny' });
  });

  it('answer mosquitto-go-auth: 200 or 403 with {"ok", "error"}, JSON or a form', async () => {
    const [device, other] = [await register(), await register()];
    const user = (password: string, form = false) =>
      hook('/v1/mqtt/auth', { username: device.deviceId, password, clientid: 'c2' }, { form }).then(answer);
    expect(await user(device.token)).toEqual({ status: 200, body: { ok: true, error: '', result: 'allow' } });
    expect(await user(device.token, true)).toMatchObject({ status: 200, body: { ok: true } });
    expect(await user(other.token)).toMatchObject({ status: 403, body: { ok: false, result: 'deny' } });
    const acl = (topic: string, acc: number, form = false) =>
      hook('/v1/mqtt/acl', { username: device.deviceId, clientid: 'c2', topic, acc: String(acc) }, { form }).then(
        (response) => response.status,
      );
    const id = device.deviceId;
    expect(await acl(`devices/${id}/events`, 2)).toBe(200);
    expect(await acl(`devices/${id}/mobile`, 2, true)).toBe(200);
    expect(await acl(`devices/${id}/commands`, 4)).toBe(200);
    expect(await acl(`devices/${id}/commands`, 1)).toBe(200);
    expect(await acl(`devices/${other.deviceId}/events`, 2)).toBe(403);
    expect(await acl(`devices/${id}/events`, 1)).toBe(403);
    expect(await acl(`devices/${id}/commands`, 3)).toBe(403); // read and write: a device writes no commands
    expect(await acl(`devices/${id}/events`, 8)).toBe(400);
  });

  it("let the server's own broker user subscribe to every device's messages only with its password", async () => {
    const auth = (password: string) =>
      hook('/v1/mqtt/auth', { username: 'sense-replicas', password }).then(async (r) => (await answer(r)).body);
    expect(await auth('replica-password')).toEqual({ result: 'allow' });
    expect(await auth('wrong-password')).toEqual({ result: 'deny' });
    expect(await auth('')).toEqual({ result: 'deny' });
    const acl = (topic: string, action: string) =>
      hook('/v1/mqtt/acl', { username: 'sense-replicas', topic, action }).then(async (r) => (await answer(r)).body);
    expect(await acl('$share/sense/devices/+/events', 'subscribe')).toEqual({ result: 'allow' });
    expect(await acl('devices/+/mobile', 'subscribe')).toEqual({ result: 'allow' });
    expect(await acl('$share/other/devices/+/events', 'subscribe')).toEqual({ result: 'deny' });
    expect(await acl('devices/#', 'subscribe')).toEqual({ result: 'deny' });
    expect(await acl('devices/x/events', 'publish')).toEqual({ result: 'deny' });
    const read = await hook('/v1/mqtt/acl', {
      username: 'sense-replicas',
      clientid: 'r',
      topic: 'devices/x/events',
      acc: 1,
    });
    expect(read.status).toBe(200);
  });

  it('deny a revoked device', async () => {
    const device = await register();
    const auth = () => hook('/v1/mqtt/auth', { username: device.deviceId, password: device.token }).then(answer);
    expect((await auth()).body).toMatchObject({ result: 'allow' });
    const deleted = await admin.delete(`/v2/devices/${device.deviceId}`);
    expect(deleted.status).toBeLessThan(300);
    // The deletion's NOTIFY reaches the token cache within moments, as for HTTP.
    await waitFor(async () => (await auth()).body.result === 'deny', 10_000, 'the revoked device denied');
  });

  it('answer 401 without the secret, and 404 on a server without one', async () => {
    const body = { username: 'x', password: 'y' };
    expect((await hook('/v1/mqtt/auth', body, { secret: null })).status).toBe(401);
    expect((await hook('/v1/mqtt/acl', body, { secret: 'wrong-secret-0123456789' })).status).toBe(401);
    const viaQuery = await fetch(`${server.url}/v1/mqtt/acl?secret=${SECRET}`, {
      method: 'POST',
      body: JSON.stringify({ username: 'x', clientid: 'c', topic: 'devices/x/events', acc: 2 }),
    });
    expect(viaQuery.status).toBe(200);
    const plain = await startInProcess();
    try {
      const response = await fetch(`${plain.url}/v1/mqtt/auth`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}` },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
}
