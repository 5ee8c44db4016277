// Broker mode against a broker that sends past the receive maximum the
// subscriber gave it (Debian's Mosquitto 2.0 does under a flood): a broker
// of the test's own, over mqtt-packet, that writes every message at once
// and never waits for a PUBACK. The subscriber takes no more than the
// receive maximum into ingestion while their commits wait, leaves the rest
// unread (in the socket, at the broker), and once the commits go through
// stores every message and acknowledges each once, in order.
import { createServer, type Server, type Socket } from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';
import type postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startInProcessPlatform, stopInProcessPlatform, type InProcessServer } from '../helpers/in-process.js';
import { holdDeviceRow } from '../helpers/row-locks.js';
import { waitFor } from '../helpers/server.js';

/** The subscriber's receive maximum (MQTT_BROKER_TUNING.receiveMaximum in src/mqtt/broker-subscriber.ts). */
const RECEIVE_MAXIMUM = 1000;
const MESSAGES = 2500;

/** A broker that hands its subscriber whatever it is told to at once, and records the PUBACKs. */
class FloodingBroker {
  readonly server: Server;
  readonly acknowledged: number[] = [];
  private readonly sockets = new Set<Socket>();
  /** the connection that subscribed */
  private subscriber: Socket | undefined;

  constructor() {
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Every packet written to the subscriber at once. */
  flood(packets: Packet[]): void {
    this.subscriber!.write(Buffer.concat(packets.map((p) => mqttPacket.generate(p, { protocolVersion: 5 }))));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as { port: number }).port;
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    const send = (packet: Packet) => socket.write(mqttPacket.generate(packet, { protocolVersion: 5 }));
    const parser = mqttPacket.parser({ protocolVersion: 5 });
    parser.on('packet', (packet: Packet) => {
      switch (packet.cmd) {
        case 'connect':
          send({ cmd: 'connack', sessionPresent: false, reasonCode: 0 });
          break;
        case 'subscribe':
          send({ cmd: 'suback', messageId: packet.messageId, granted: packet.subscriptions.map(() => 1) });
          this.subscriber = socket;
          break;
        case 'puback':
          this.acknowledged.push(packet.messageId!);
          break;
        case 'pingreq':
          send({ cmd: 'pingresp' });
          break;
        default:
          break;
      }
    });
    socket.on('data', (chunk) => parser.parse(chunk));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let broker: FloodingBroker;
let server: InProcessServer;
let sql: postgres.Sql;
let device: { deviceId: string; token: string };

const metric = async (name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);

beforeAll(async () => {
  broker = new FloodingBroker();
  const port = await broker.listen();
  const platform = await startInProcessPlatform({
    MQTT_BROKER_URL: `mqtt://127.0.0.1:${port}`,
    MQTT_BROKER_CLIENT_ID: 'overrun-test-replica',
    DEVICE_EVENT_RATE: '100000',
    DEVICE_EVENT_BURST: '100000',
  });
  ({ server, sql } = platform);
  const channel = (await platform.admin.post('/v2/channels', { name: 'sensors', type: 'iot' })).body.data;
  const response = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  device = (await response.json()) as typeof device;
});

afterAll(async () => {
  await stopInProcessPlatform({ sql, server });
  await broker?.close();
});

it('takes no more than its receive maximum from a broker that sends past it, and stores and acknowledges them all', async () => {
  const stored = async () =>
    (await sql<[{ n: number }]>`SELECT count(*)::int AS n FROM events WHERE device_id = ${device.deviceId}`)[0].n;
  // Hold the device's row: every commit of its events updates it, so they wait here.
  const held = await holdDeviceRow(sql, device.deviceId);
  try {
    await waitFor(async () => (await metric('mqtt_broker_connected')) === 1, 20_000, 'the broker subscription');
    broker.flood(
      Array.from({ length: MESSAGES }, (_, i) => ({
        cmd: 'publish',
        topic: `devices/${device.deviceId}/events`,
        payload: Buffer.from(JSON.stringify({ seq: i })),
        qos: 1,
        messageId: i + 1,
        dup: false,
        retain: false,
        properties: { userProperties: { authorization: device.token } },
      })),
    );
    await waitFor(
      async () => (await metric('mqtt_broker_unacknowledged')) === RECEIVE_MAXIMUM,
      20_000,
      'the subscriber to take its receive maximum',
    );
    // The broker's whole flood was written at once; turns of the server's event loop later the
    // subscriber still holds the receive maximum and no more, and so does the writer's queue.
    for (let turn = 0; turn < 10; turn++) {
      expect(await metric('mqtt_broker_unacknowledged')).toBe(RECEIVE_MAXIMUM);
      expect(await metric('ingest_backlog_events')).toBeLessThanOrEqual(RECEIVE_MAXIMUM);
    }
    expect(broker.acknowledged).toEqual([]);
    expect(await stored()).toBe(0);
  } finally {
    await held.release();
  }
  await waitFor(async () => broker.acknowledged.length === MESSAGES, 30_000, 'every message acknowledged');
  expect(broker.acknowledged).toEqual(Array.from({ length: MESSAGES }, (_, i) => i + 1));
  expect(await stored()).toBe(MESSAGES);
  expect(await metric('mqtt_broker_unacknowledged')).toBe(0);
});
