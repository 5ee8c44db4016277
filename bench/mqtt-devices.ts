// The devices of the MQTT benchmark (mqtt.ts), over the tests' raw MQTT 5
// client (test/helpers/mqtt.ts): connections opened by the thousand, idle
// ones kept alive, and publishers of QoS 1 events, either on a fixed
// schedule (latency counted from when each message was due, so a server
// that falls behind shows it, as the HTTP load generator does) or as fast
// as PUBACKs return, a window of messages in flight each.
import { performance } from 'node:perf_hooks';
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

/** MQTT's variable byte integer (remaining lengths, property lengths). */
function variableInt(n: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 128;
    bytes.push(byte);
  } while (n > 0);
  return bytes;
}

/** An MQTT string or binary field: its 2-byte length, then it. */
function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text);
  const field = Buffer.allocUnsafe(2 + bytes.length);
  field.writeUInt16BE(bytes.length, 0);
  bytes.copy(field, 2);
  return field;
}

/**
 * A publisher's MQTT 5 QoS 1 PUBLISH packets, encoded by hand: the topic
 * and properties once, then per message its packet id and payload. The
 * HTTP figure beside it comes from a load generator that sends requests
 * built once (load-generator.ts); the generic encoder (mqtt-packet) cost
 * these publishers several times the CPU per event, on the cores the
 * server shares with them.
 */
export class PublishEncoder {
  /** topic, then room for the packet id */
  private readonly topic: Buffer;
  /** the properties' length, then the properties */
  private readonly properties: Buffer;

  constructor(topic: string, userProperties: Record<string, string> | undefined) {
    this.topic = lengthPrefixed(topic);
    const user = Object.entries(userProperties ?? {}).map(([key, value]) =>
      Buffer.concat([Buffer.from([0x26]), lengthPrefixed(key), lengthPrefixed(value)]),
    );
    const body = Buffer.concat(user);
    this.properties = Buffer.concat([Buffer.from(variableInt(body.length)), body]);
  }

  encode(packetId: number, payload: string): Buffer {
    const payloadBytes = Buffer.byteLength(payload);
    const remaining = this.topic.length + 2 + this.properties.length + payloadBytes;
    const lengthBytes = variableInt(remaining);
    const packet = Buffer.allocUnsafe(1 + lengthBytes.length + remaining);
    packet[0] = 0x32; // PUBLISH, QoS 1, no DUP, no retain
    let at = 1;
    for (const byte of lengthBytes) packet[at++] = byte;
    at += this.topic.copy(packet, at);
    packet.writeUInt16BE(packetId, at);
    at += 2;
    at += this.properties.copy(packet, at);
    packet.write(payload, at);
    return packet;
  }
}

/**
 * The PUBACKs in what a server sends, read by hand (their packet id and
 * reason code; everything else, a PINGRESP, skipped), a packet split
 * between reads kept for the next.
 */
export class PubackReader {
  private rest: Buffer | undefined;

  constructor(private readonly onPuback: (packetId: number, reasonCode: number) => void) {}

  feed(chunk: Buffer): void {
    const bytes = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let at = 0;
    while (at < bytes.length) {
      let length = 0;
      let multiplier = 1;
      let i = at + 1;
      let complete = false;
      while (i < bytes.length) {
        const byte = bytes[i++]!;
        length += (byte & 127) * multiplier;
        multiplier *= 128;
        if ((byte & 128) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete || i + length > bytes.length) break;
      // A PUBACK of MQTT 5 leaves out its reason code when it is success.
      if (bytes[at]! >> 4 === 4 && length >= 2) this.onPuback(bytes.readUInt16BE(i), length >= 3 ? bytes[i + 2]! : 0);
      at = i + length;
    }
    this.rest = at < bytes.length ? bytes.subarray(at) : undefined;
  }
}

/**
 * A device's QoS 1 events to devices/<id>/events, each numbered, each a new
 * event for the server: one Publisher a connection for all its runs, so that
 * its packet ids and numbers go on from one run to the next. The messages
 * its PUBACKs of one read call for go out in one write, as a client does
 * that answers what it read before it writes.
 */
export class Publisher {
  private packetId = 0;
  private seq = 0;
  /** packet id → when its latency counts from */
  private readonly inFlight = new Map<number, number>();
  onAck: ((startedAt: number, reasonCode: number) => void) | undefined;
  private readonly encoder: PublishEncoder;
  /** packets published while a read is handled, written together at its end */
  private held: Buffer[] | undefined;

  constructor(
    readonly connection: Connected,
    /** the token as a user property: a broker does not tell its subscribers who published, so each message proves its device */
    options: { tokenProperty?: boolean } = {},
  ) {
    this.encoder = new PublishEncoder(
      `devices/${connection.device.deviceId}/events`,
      options.tokenProperty ? tokenProperty(connection.device).userProperties : undefined,
    );
    const reader = new PubackReader((packetId, reasonCode) => {
      const startedAt = this.inFlight.get(packetId);
      if (startedAt === undefined) return;
      this.inFlight.delete(packetId);
      this.onAck?.(startedAt, reasonCode);
    });
    connection.client.onBytes = (chunk) => {
      this.held = [];
      reader.feed(chunk);
      const held = this.held;
      this.held = undefined;
      if (held.length > 0) connection.client.write(held.length === 1 ? held[0]! : Buffer.concat(held));
    };
  }

  get waiting(): number {
    return this.inFlight.size;
  }

  publish(startedAt: number): void {
    this.packetId = (this.packetId % 65535) + 1;
    this.inFlight.set(this.packetId, startedAt);
    // numbered: the same bytes under a reused packet id would be one event (MQTT's idempotency key)
    const packet = this.encoder.encode(this.packetId, `{"seq":${++this.seq},"temperature":21.5,"humidity":40}`);
    if (this.held) this.held.push(packet);
    else this.connection.client.write(packet);
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
