// Commands down (the rules' `mqtt` action, docs/API.md "Commands to devices"):
// the app in process with its MQTT listener on a free port, a second app on
// the same database for the replica boundary, real MQTT clients (the mqtt
// package's, and the raw one for a client that never acknowledges). A rule
// fires from an event sent over HTTP; its command reaches the device's
// subscription once, survives the device being offline or dropping before
// its PUBACK, and never goes out once expired.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import type postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import {
  startInProcess,
  startInProcessPlatform,
  stopInProcessPlatform,
  type InProcessServer,
} from '../helpers/in-process.js';
import { freePort, RawMqtt } from '../helpers/mqtt.js';
import { waitFor } from '../helpers/server.js';

interface Device {
  deviceId: string;
  token: string;
}

/** A raw MQTT 5 client of the device, connected with `properties` and subscribed to its commands at QoS 1. */
async function rawSubscriber(
  device: Device,
  clientId: string,
  properties: NonNullable<Parameters<typeof RawMqtt.connect>[2]>['properties'],
): Promise<RawMqtt> {
  const { client, connack } = await RawMqtt.connect(port, device, { clientId, properties });
  raws.push(client);
  expect(connack).toMatchObject({ cmd: 'connack', reasonCode: 0 });
  client.send({
    cmd: 'subscribe',
    messageId: 1,
    subscriptions: [{ topic: `devices/${device.deviceId}/commands`, qos: 1 }],
  });
  expect(await client.next()).toMatchObject({ cmd: 'suback' });
  return client;
}

/** A command as the device saw it. */
interface Received {
  text: string;
  packet: IPublishPacket;
}

let server: InProcessServer & { databaseUrl: string };
let sql: postgres.Sql;
let admin: Api;
let port: number;
const clients: MqttClient[] = [];
const raws: RawMqtt[] = [];
/** What every server of one database must share (generated into each DATA_DIR otherwise). */
const shared = { JWT_SECRET: randomBytes(32).toString('hex'), SECRETS_KEY: randomBytes(32).toString('base64') };

beforeAll(async () => {
  port = await freePort();
  ({ server, sql, admin } = await startInProcessPlatform({ MQTT_PORT: String(port), ...shared }));
});

afterAll(async () => {
  for (const client of clients) client.end(true);
  for (const raw of raws) raw.end();
  await stopInProcessPlatform({ sql, server });
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.end(true);
  for (const client of raws.splice(0)) client.end();
});

/**
 * A channel, a project over it, a rule firing on every event with `data.n`
 * ≥ 1 with these actions, and a device of the channel.
 */
async function setup(actions: unknown[]): Promise<{ ruleId: string; device: Device }> {
  const channel = (await admin.post('/v2/channels', { name: `c-${randomBytes(4).toString('hex')}`, type: 'iot' })).body
    .data;
  const project = (
    await admin.post('/v2/projects', { name: `p-${randomBytes(4).toString('hex')}`, channelIds: [channel.id] })
  ).body.data.id;
  const rule = await admin.post('/v2/rules', {
    projectId: project,
    name: 'command the device',
    conditionsObject: [{ type: 'matchAttribute', attribute: 'event.data.n', operator: '>=', value: 1 }],
    actions,
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(200);
  const res = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  expect(res.status).toBe(200);
  return { ruleId: rule.body.data.id, device: (await res.json()) as Device };
}

async function jobCount(ruleId: string): Promise<number> {
  const [{ n }] = await sql<[{ n: number }]>`SELECT count(*)::int AS n FROM action_jobs WHERE rule_id = ${ruleId}`;
  return n;
}

/**
 * Posts an event with `data.n` over HTTP (to `url`) until the rule fires on
 * one (a new rule reaches the engine by NOTIFY): the rule then fired exactly
 * once more, its jobs queued in the event's commit.
 */
async function fire(ruleId: string, device: Device, n: number, url = server.url): Promise<void> {
  const before = await jobCount(ruleId);
  await waitFor(
    async () => {
      const res = await fetch(`${url}/v1/iot/events`, {
        method: 'POST',
        headers: { authorization: device.token, 'content-type': 'application/json' },
        body: JSON.stringify({ data: { n } }),
      });
      expect(res.status).toBe(204);
      return (await jobCount(ruleId)) > before;
    },
    15_000,
    'the rule to fire',
  );
}

async function connect(device: Device, options: IClientOptions = {}, mqttPort = port): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
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

/** Connects, subscribes to the device's commands at QoS 1, and collects what arrives. */
async function subscribed(
  device: Device,
  options: IClientOptions = {},
  mqttPort = port,
): Promise<{ client: MqttClient; received: Received[] }> {
  const client = await connect(device, options, mqttPort);
  const received: Received[] = [];
  client.on('message', (_topic, payload, packet) => received.push({ text: payload.toString(), packet }));
  const granted = await client.subscribeAsync(`devices/${device.deviceId}/commands`, { qos: 1 });
  expect(granted[0]?.qos).toBe(1);
  return { client, received };
}

/** The outcomes of each fired action's delivery log, oldest job first. */
async function logOf(ruleId: string): Promise<string[][]> {
  const res = await admin.get(`/v2/rules/${ruleId}/deliveries`);
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ deliveries: Array<{ outcome: string }> }>)
    .reverse()
    .map((job) => job.deliveries.map((d) => d.outcome));
}

async function commandsOf(deviceId: string) {
  return sql<
    Array<{ id: string; attempts: number; deliveredAt: Date | null; abandonedAt: Date | null; payload: Buffer }>
  >`SELECT id, attempts, delivered_at, abandoned_at, payload FROM device_commands WHERE device_id = ${deviceId} ORDER BY id`;
}

const withN = (received: readonly Received[], n: number) =>
  received.filter((r) => Number((JSON.parse(r.text) as { n: number | string }).n) === n);

const numbered = { type: 'mqtt', message: { n: '{{event.payload.data.n}}', id: '{{command.id}}' } };

describe('the mqtt action', () => {
  it('publishes the rendered message to a subscribed device exactly once, with its command id', async () => {
    const { ruleId, device } = await setup([
      { ...numbered, message: '{"n": {{event.payload.data.n}}, "id": "{{command.id}}"}' },
    ]);
    const { received } = await subscribed(device);
    await fire(ruleId, device, 1);
    await waitFor(async () => withN(received, 1).length > 0, 10_000, 'the command');
    const [command] = await commandsOf(device.deviceId);
    const first = withN(received, 1)[0]!;
    expect(JSON.parse(first.text)).toEqual({ n: 1, id: command!.id });
    expect(first.packet).toMatchObject({ qos: 1, dup: false, topic: `devices/${device.deviceId}/commands` });
    expect(first.packet.properties?.userProperties).toEqual({ 'command-id': command!.id });
    expect(first.packet.properties?.correlationData?.toString()).toBe(command!.id);
    expect(first.packet.properties?.contentType).toBe('application/json');
    // A later command arrives on the same connection: the first was not sent again before it, nor after its PUBACK.
    await fire(ruleId, device, 2);
    await waitFor(async () => withN(received, 2).length > 0, 10_000, 'the second command');
    await waitFor(
      async () => (await logOf(ruleId)).every((log) => log.at(-1) === 'success'),
      10_000,
      'both acknowledged',
    );
    expect(withN(received, 1)).toHaveLength(1);
    expect(await logOf(ruleId)).toEqual([
      ['queued', 'success'],
      ['queued', 'success'],
    ]);
    expect((await commandsOf(device.deviceId)).map((c) => c.attempts)).toEqual([1, 1]);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^mqtt_commands_total\{outcome="acknowledged"\} [1-9]/m);
  });

  it('keeps a command for an offline device and sends it when it subscribes (MQTT 3.1.1): queued, then success', async () => {
    const { ruleId, device } = await setup([numbered]);
    await fire(ruleId, device, 1);
    await waitFor(async () => (await logOf(ruleId))[0]?.length === 1, 10_000, 'the command queued');
    expect(await logOf(ruleId)).toEqual([['queued']]);
    const { received } = await subscribed(device, { protocolVersion: 4 });
    await waitFor(async () => received.length > 0, 10_000, 'the queued command');
    const [command] = await commandsOf(device.deviceId);
    expect(JSON.parse(received[0]!.text)).toEqual({ n: '1', id: command!.id });
    await waitFor(async () => (await logOf(ruleId))[0]?.at(-1) === 'success', 10_000, 'the PUBACK logged');
    expect(await logOf(ruleId)).toEqual([['queued', 'success']]);
  });

  it('sends a command not acknowledged again (DUP) on the next subscription, and one acknowledged never again', async () => {
    const { ruleId, device } = await setup([numbered]);
    const { client: silent } = await RawMqtt.connect(port, device);
    raws.push(silent);
    silent.send({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [{ topic: `devices/${device.deviceId}/commands`, qos: 1 }],
    });
    expect(await silent.next()).toMatchObject({ cmd: 'suback', granted: [1] });
    await fire(ruleId, device, 1);
    const publish = (await silent.next()) as IPublishPacket;
    expect(publish).toMatchObject({ cmd: 'publish', qos: 1, dup: false });
    silent.end(); // gone before its PUBACK
    await waitFor(async () => (await logOf(ruleId))[0]?.at(-1) === 'retry', 10_000, 'the unacknowledged send logged');

    const again = await subscribed(device);
    await waitFor(async () => again.received.length > 0, 10_000, 'the command sent again');
    expect(again.received[0]!.text).toBe(publish.payload.toString());
    expect(again.received[0]!.packet.dup).toBe(true);
    await waitFor(async () => (await logOf(ruleId))[0]?.at(-1) === 'success', 10_000, 'the PUBACK logged');
    again.client.end(true);

    // Acknowledged: a new subscription gets the next command, not that one.
    const later = await subscribed(device);
    await fire(ruleId, device, 2);
    await waitFor(async () => withN(later.received, 2).length > 0, 10_000, 'the next command');
    expect(later.received.map((r) => (JSON.parse(r.text) as { n: string }).n)).toEqual(['2']);
    expect(await logOf(ruleId)).toEqual([
      ['queued', 'retry', 'success'],
      ['queued', 'success'],
    ]);
  });

  it('sends a QoS 0 command once and counts it delivered at the write; a QoS 0 subscription takes QoS 1 commands as QoS 0', async () => {
    const { ruleId, device } = await setup([
      { type: 'mqtt', message: 'fire and forget', qos: 0 },
      { type: 'mqtt', message: 'acknowledged' },
    ]);
    const { received } = await subscribed(device);
    await fire(ruleId, device, 1);
    await waitFor(async () => received.length === 2, 10_000, 'both commands');
    const byText = new Map(received.map((r) => [r.text, r.packet.qos]));
    expect(byText).toEqual(
      new Map([
        ['fire and forget', 0],
        ['acknowledged', 1],
      ]),
    );
    await waitFor(
      async () => (await logOf(ruleId)).flat().filter((o) => o === 'success').length === 2,
      10_000,
      'both logged',
    );

    const other = await setup([{ type: 'mqtt', message: 'to a QoS 0 subscription' }]);
    const client = await connect(other.device);
    const atQos0: Received[] = [];
    client.on('message', (_topic, payload, packet) => atQos0.push({ text: payload.toString(), packet }));
    expect((await client.subscribeAsync(`devices/${other.device.deviceId}/commands`, { qos: 0 }))[0]?.qos).toBe(0);
    await fire(other.ruleId, other.device, 1);
    await waitFor(async () => atQos0.length > 0, 10_000, 'the command');
    expect(atQos0[0]!.packet.qos).toBe(0);
    await waitFor(async () => (await logOf(other.ruleId))[0]?.at(-1) === 'success', 10_000, 'delivered at the write');
    expect((await commandsOf(other.device.deviceId))[0]).toMatchObject({ attempts: 1, deliveredAt: expect.any(Date) });
  });

  it("keeps to the client's receive maximum: the next command only after the PUBACK", async () => {
    const { ruleId, device } = await setup([numbered]);
    for (const n of [1, 2, 3]) await fire(ruleId, device, n);
    const client = await rawSubscriber(device, `one-at-a-time-${device.deviceId}`, { receiveMaximum: 1 });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const publish = (await client.next()) as IPublishPacket;
      seen.push((JSON.parse(publish.payload.toString()) as { n: string }).n);
      // Claimed (and so counted as sent) before it is written: one in flight means one claimed.
      const sent = (await commandsOf(device.deviceId)).filter((c) => c.attempts > 0 && c.deliveredAt === null);
      expect(sent).toHaveLength(1);
      client.send({ cmd: 'puback', messageId: publish.messageId! });
      await waitFor(
        async () => (await commandsOf(device.deviceId)).filter((c) => c.deliveredAt !== null).length === i + 1,
        10_000,
        'the PUBACK stored',
      );
    }
    // Oldest command first (the three jobs may have run in any order, so the commands too).
    const oldestFirst = (await commandsOf(device.deviceId)).map(
      (c) => (JSON.parse(c.payload.toString()) as { n: string }).n,
    );
    expect(seen).toEqual(oldestFirst);
    expect([...seen].sort()).toEqual(['1', '2', '3']);
  });

  it("gives up a command larger than the client's maximum packet size (MQTT 5), and sends the rest", async () => {
    const { ruleId, device } = await setup([
      { type: 'mqtt', message: `big ${'x'.repeat(1000)}` },
      { type: 'mqtt', message: 'small {{command.id}}' },
    ]);
    await fire(ruleId, device, 1);
    await waitFor(async () => (await commandsOf(device.deviceId)).length === 2, 10_000, 'both commands queued');
    const client = await rawSubscriber(device, `small-packets-${device.deviceId}`, { maximumPacketSize: 512 });
    const publish = (await client.next()) as IPublishPacket;
    expect(publish.payload.toString()).toMatch(/^small /);
    client.send({ cmd: 'puback', messageId: publish.messageId! });
    await waitFor(
      async () => (await logOf(ruleId)).every((log) => log.at(-1) === 'success' || log.at(-1) === 'failure'),
      10_000,
      'both commands settled',
    );
    const big = (await commandsOf(device.deviceId)).find((c) => c.payload.toString().startsWith('big'))!;
    expect(big).toMatchObject({ deliveredAt: null, abandonedAt: expect.any(Date) });
    expect(client.pending).toEqual([]);
    const failure = (await admin.get(`/v2/rules/${ruleId}/deliveries`)).body.data
      .flatMap((job: { deliveries: Array<{ outcome: string; error: string | null }> }) => job.deliveries)
      .find((d: { outcome: string }) => d.outcome === 'failure');
    expect(failure.error).toMatch(/over the device's maximum packet size \(512\)/);
  });

  it('never sends an expired command, and logs it a failure', async () => {
    const { ruleId, device } = await setup([
      { type: 'mqtt', message: 'short-lived {{command.id}}', expiresInSeconds: 1 },
      { type: 'mqtt', message: 'kept {{command.id}}' },
    ]);
    await fire(ruleId, device, 1);
    await waitFor(async () => (await commandsOf(device.deviceId)).length === 2, 10_000, 'both commands queued');
    await waitFor(
      async () => {
        const [{ expired }] = await sql<[{ expired: number }]>`
          SELECT count(*)::int AS expired FROM device_commands WHERE device_id = ${device.deviceId} AND expires_at <= now()`;
        return expired === 1;
      },
      10_000,
      'the short-lived command past its time',
    );
    const { received } = await subscribed(device);
    await waitFor(async () => received.length > 0, 10_000, 'the kept command');
    await waitFor(
      async () =>
        (await logOf(ruleId)).flat().filter((o) => o === 'queued' || o === 'failure' || o === 'success').length === 4,
      10_000,
      'the expiry and the delivery logged',
    );
    const commands = await commandsOf(device.deviceId);
    const short = commands.find((c) => c.payload.toString().startsWith('short-lived'))!;
    const kept = commands.find((c) => c.payload.toString().startsWith('kept'))!;
    expect(short).toMatchObject({ attempts: 0, deliveredAt: null, abandonedAt: expect.any(Date) });
    expect(kept).toMatchObject({ attempts: 1, deliveredAt: expect.any(Date) });
    expect(received.map((r) => r.text)).toEqual([`kept ${kept.id}`]);
    expect(received[0]!.packet.properties?.contentType).toBe('text/plain; charset=utf-8');
    const logs = await logOf(ruleId);
    expect(logs).toContainEqual(['queued', 'failure']);
    expect(logs).toContainEqual(['queued', 'success']);
    const failure = (await admin.get(`/v2/rules/${ruleId}/deliveries`)).body.data
      .flatMap(
        (job: { deliveries: Array<{ outcome: string; error: string | null; request: unknown }> }) => job.deliveries,
      )
      .find((d: { outcome: string }) => d.outcome === 'failure');
    expect(failure).toMatchObject({
      error: expect.stringContaining('expired'),
      request: { commandId: short.id, qos: 1 },
    });
  });

  it('reaches a device connected to another replica of the database, exactly once', { timeout: 60_000 }, async () => {
    const replicaPort = await freePort();
    const replica = await startInProcess(
      { MQTT_PORT: String(replicaPort), ...shared },
      { databaseUrl: server.databaseUrl },
    );
    try {
      const { ruleId, device } = await setup([numbered]);
      const { received } = await subscribed(device, {}, replicaPort);
      await fire(ruleId, device, 1); // over HTTP to the first server
      await waitFor(async () => withN(received, 1).length > 0, 15_000, 'the command over the other replica');
      await fire(ruleId, device, 2);
      await waitFor(async () => withN(received, 2).length > 0, 15_000, 'the marker command');
      await waitFor(
        async () => (await logOf(ruleId)).every((log) => log.at(-1) === 'success'),
        10_000,
        'both acknowledged',
      );
      expect(withN(received, 1)).toHaveLength(1);
      expect((await commandsOf(device.deviceId)).map((c) => c.attempts)).toEqual([1, 1]);
      const sentHere = await (await fetch(`${replica.url}/metrics`)).text();
      expect(sentHere).toMatch(/^mqtt_commands_total\{outcome="sent"\} 2$/m);
    } finally {
      for (const client of clients.splice(0)) client.end(true);
      await replica.stop();
    }
  });

  it('refuses a bad mqtt action with a 400 naming the field', async () => {
    const project = (await admin.post('/v2/projects', { name: `v-${randomBytes(4).toString('hex')}` })).body.data.id;
    const post = (action: Record<string, unknown>) =>
      admin.post('/v2/rules', {
        projectId: project,
        name: 'bad',
        conditionsObject: [{ type: 'matchAttribute', attribute: 'event.data.n', operator: '>=', value: 1 }],
        actions: [{ type: 'mqtt', ...action }],
      });
    const qos2 = await post({ qos: 2 });
    expect(qos2.status).toBe(400);
    expect(qos2.body.error).toContain('actions.0.qos: must be 0 or 1');
    const large = await post({ message: 'x'.repeat(65_537) });
    expect(large.status).toBe(400);
    expect(large.body.error).toContain('actions.0.message: must be at most 65536 bytes');
    const long = await post({ expiresInSeconds: 7 * 86_400 + 1 });
    expect(long.status).toBe(400);
    expect(long.body.error).toContain('actions.0.expiresInSeconds');
    const json = await post({ message: '{"n": {{event.payload.data.n}' });
    expect(json.status).toBe(400);
    expect(json.body.error).toContain('actions.0.message');
    expect((await post({ qos: 0, message: 'ok', expiresInSeconds: 60 })).status).toBe(200);
    // The generated reference (/openapi.json, the console's /docs) shows the action and its fields.
    const openapi = await (await fetch(`${server.url}/openapi.json`)).text();
    for (const field of ['"mqtt"', '"expiresInSeconds"', '{{command.id}} among its placeholders'])
      expect(openapi).toContain(field);
  });
});

const hasMosquitto = spawnSync('sh', ['-c', 'command -v mosquitto_sub']).status === 0;

describe.skipIf(!hasMosquitto)("Debian's mosquitto_sub", () => {
  it('receives a queued command with its command-id user property, as docs/API.md shows', async () => {
    const { ruleId, device } = await setup([{ type: 'mqtt', message: 'reboot' }]);
    await fire(ruleId, device, 1);
    // Not spawnSync: the server runs in this process. -C 1: exit after one message.
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'mosquitto_sub',
        [
          ...[
            '-h',
            '127.0.0.1',
            '-p',
            String(port),
            '-V',
            'mqttv5',
            '-q',
            '1',
            '-u',
            device.deviceId,
            '-P',
            device.token,
          ],
          ...['-t', `devices/${device.deviceId}/commands`, '-F', '%P %p', '-C', '1'],
        ],
        { encoding: 'utf8', timeout: 20_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}: ${stderr}`)) : resolve(stdout)),
      );
    });
    const [command] = await commandsOf(device.deviceId);
    expect(output.trim()).toBe(`command-id:${command!.id} reboot`);
    await waitFor(async () => (await logOf(ruleId))[0]?.at(-1) === 'success', 10_000, 'the PUBACK logged');
  });
});
