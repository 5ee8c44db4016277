// The devices of the MQTT benchmark (mqtt.ts), over the tests' raw MQTT 5
// client (test/helpers/mqtt.ts): connections opened by the thousand, idle
// ones kept alive, and publishers of QoS 1 events, either on a fixed
// schedule (latency counted from when each message was due, so a server
// that falls behind shows it, as the HTTP load generator does) or as fast
// as PUBACKs return, a window of messages in flight each.
import { performance } from 'node:perf_hooks';
import type { Packet } from 'mqtt-packet';
import { RawMqtt } from '../test/helpers/mqtt.js';
import { waitFor } from '../test/helpers/server.js';
import type { RegisteredDevice } from './ingest-load.js';
import { percentile } from './load-generator.js';

/** CONNECTs in flight at once while opening thousands of connections. */
const CONNECT_CONCURRENCY = 200;
/** The keep-alive the devices ask for; the bench pings the idle ones at half of it. */
export const KEEP_ALIVE_SECONDS = 120;

/** A device's open MQTT 5 connection. */
export interface Connected {
  device: RegisteredDevice;
  client: RawMqtt;
  /** the receive maximum the server's CONNACK gave: QoS 1 messages it takes in flight */
  receiveMaximum: number;
}

/** Connects one device (MQTT 5, clean start) and checks the CONNACK. */
async function connectDevice(port: number, device: RegisteredDevice, clientId: string): Promise<Connected> {
  const { client, connack } = await RawMqtt.connect(port, device, {
    protocolVersion: 5,
    clientId,
    keepalive: KEEP_ALIVE_SECONDS,
  });
  if (connack.cmd !== 'connack' || (connack.reasonCode ?? 0) !== 0) {
    client.end();
    throw new Error(`CONNECT refused: ${JSON.stringify(connack)}`);
  }
  // What an idle device hears (PINGRESP) is not kept.
  client.onPacket = () => {};
  return { device, client, receiveMaximum: connack.properties?.receiveMaximum ?? 65535 };
}

/** Every device connected, CONNECT_CONCURRENCY at a time; client ids `<prefix>-<i>`. */
export async function connectAll(port: number, devices: RegisteredDevice[], prefix: string): Promise<Connected[]> {
  const connected = new Array<Connected>(devices.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < devices.length; i = next++)
      connected[i] = await connectDevice(port, devices[i]!, `${prefix}-${i}`);
  };
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, devices.length) }, worker));
  return connected;
}

/** PINGREQ from every connection at half the keep-alive, so that idle devices stay connected however long a run takes. */
export function keepAlive(connections: () => Iterable<Connected>): () => void {
  const timer = setInterval(
    () => {
      for (const { client } of connections()) if (!client.closed) client.send({ cmd: 'pingreq' });
    },
    (KEEP_ALIVE_SECONDS * 1000) / 2,
  ).unref();
  return () => clearInterval(timer);
}

/** The MQTT 5 properties of a device's message through a broker: its token as the user property `authorization`. */
export function tokenProperty(device: RegisteredDevice): { userProperties: Record<string, string> } {
  return { userProperties: { authorization: device.token } };
}

/**
 * A device's QoS 1 events to devices/<id>/events, each numbered, each a new
 * event for the server: one Publisher a connection for all its runs, so that
 * its packet ids and numbers go on from one run to the next.
 */
export class Publisher {
  private packetId = 0;
  private seq = 0;
  /** packet id → when its latency counts from */
  private readonly inFlight = new Map<number, number>();
  onAck: ((startedAt: number, reasonCode: number) => void) | undefined;
  /** the token as a user property: a broker does not tell its subscribers who published, so each message proves its device */
  private readonly properties: { userProperties: Record<string, string> } | undefined;

  constructor(
    readonly connection: Connected,
    options: { tokenProperty?: boolean } = {},
  ) {
    this.properties = options.tokenProperty ? tokenProperty(connection.device) : undefined;
    connection.client.onPacket = (packet: Packet) => {
      if (packet.cmd !== 'puback') return;
      const startedAt = this.inFlight.get(packet.messageId!);
      if (startedAt === undefined) return;
      this.inFlight.delete(packet.messageId!);
      this.onAck?.(startedAt, packet.reasonCode ?? 0);
    };
  }

  get waiting(): number {
    return this.inFlight.size;
  }

  publish(startedAt: number): void {
    this.packetId = (this.packetId % 65535) + 1;
    this.inFlight.set(this.packetId, startedAt);
    this.connection.client.send({
      cmd: 'publish',
      topic: `devices/${this.connection.device.deviceId}/events`,
      // numbered: the same bytes under a reused packet id would be one event (MQTT's idempotency key)
      payload: Buffer.from(`{"seq":${++this.seq},"temperature":21.5,"humidity":40}`),
      qos: 1,
      messageId: this.packetId,
      dup: false,
      retain: false,
      ...(this.properties ? { properties: this.properties } : {}),
    });
  }

  /** Resolves once every message sent has its PUBACK (or the connection closed). */
  drained(): Promise<unknown> {
    return waitFor(async () => this.inFlight.size === 0 || this.connection.client.closed, 60_000, 'the last PUBACKs');
  }
}

export interface PublishOptions {
  durationMs: number;
  warmupMs: number;
  /** events/s offered over all publishers on a fixed schedule; as fast as PUBACKs return when absent */
  rate?: number;
  /** messages in flight per publisher when not paced */
  window: number;
}

export interface PublishResult {
  /** events PUBACKed with success per second in the measured window */
  eventsPerSecond: number;
  /** publish → PUBACK, ms (paced: from when the message was due) */
  p50: number;
  p99: number;
  /** PUBACKs with a failure reason code in the measured window */
  refused: number;
  /** PUBACKs with success over the whole run, warm-up included: what the database must hold */
  acknowledged: number;
  /** connections the server closed during the run */
  closed: number;
}

/** One run of the publishers, paced or as fast as PUBACKs return; ends once every message sent has its PUBACK. */
export async function publish(publishers: Publisher[], options: PublishOptions): Promise<PublishResult> {
  const start = performance.now();
  const measureFrom = start + options.warmupMs;
  const end = measureFrom + options.durationMs;
  const latencies: number[] = [];
  let refused = 0;
  let acknowledged = 0;
  const record = (startedAt: number, reasonCode: number) => {
    const now = performance.now();
    if (reasonCode === 0) acknowledged++;
    if (now < measureFrom || now > end) return;
    if (reasonCode === 0) latencies.push(now - startedAt);
    else refused++;
  };
  publishers.forEach((publisher, index) => {
    const inFlightMax = Math.min(options.window, publisher.connection.receiveMaximum);
    if (options.rate === undefined) {
      publisher.onAck = (startedAt, reasonCode) => {
        record(startedAt, reasonCode);
        const now = performance.now();
        if (now < end) publisher.publish(now);
      };
      for (let i = 0; i < inFlightMax; i++) publisher.publish(performance.now());
      return;
    }
    // Paced: every `interval` ms, spread over one interval from the start;
    // never more in flight than the server takes (a message held back for
    // it counts its wait in its latency).
    const limit = publisher.connection.receiveMaximum;
    const interval = (publishers.length / options.rate) * 1000;
    let due = start + (interval * index) / publishers.length;
    let timer: NodeJS.Timeout | undefined;
    const tick = () => {
      timer = undefined;
      const now = performance.now();
      while (due <= now && due < end && publisher.waiting < limit) {
        publisher.publish(due);
        due += interval;
      }
      if (due < end && publisher.waiting < limit) timer = setTimeout(tick, due - now);
    };
    publisher.onAck = (startedAt, reasonCode) => {
      record(startedAt, reasonCode);
      if (timer === undefined) tick();
    };
    tick();
  });
  await waitFor(async () => performance.now() >= end, options.warmupMs + options.durationMs + 60_000, 'the run');
  await Promise.all(publishers.map((p) => p.drained()));
  for (const publisher of publishers) publisher.onAck = undefined;
  const sorted = Float64Array.from(latencies).sort();
  return {
    eventsPerSecond: latencies.length / (options.durationMs / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    refused,
    acknowledged,
    closed: publishers.filter((p) => p.connection.client.closed).length,
  };
}
