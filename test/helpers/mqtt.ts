// MQTT clients for tests: a free port for the server's listener, and a raw
// client over mqtt-packet for what the mqtt package's client will not send on request (a DUP
// retransmission, QoS 2 to a server that said 1, a silent connection).
import { createServer, connect as tcpConnect, type Socket } from 'node:net';
import mqttPacket, { type IConnectPacket, type Packet } from 'mqtt-packet';
import { waitFor } from './server.js';

/** A port nothing listens on now (the server binds it next). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** One MQTT connection packet by packet: what it sends is written as given, what comes back is queued. */
export class RawMqtt {
  private readonly received: Packet[] = [];
  closed = false;
  /** set: packets go to it as they come, instead of the queue next() reads */
  onPacket: ((packet: Packet) => void) | undefined;
  /** set: what the server sends goes to it as it comes, unparsed (a load generator's own reader) */
  onBytes: ((chunk: Buffer) => void) | undefined;

  private constructor(
    private readonly socket: Socket,
    readonly protocolVersion: 4 | 5,
  ) {
    const parser = mqttPacket.parser({ protocolVersion });
    parser.on('packet', (packet: Packet) => {
      if (this.onPacket) this.onPacket(packet);
      else this.received.push(packet);
    });
    socket.on('data', (chunk: Buffer) => (this.onBytes ? this.onBytes(chunk) : parser.parse(chunk)));
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
    });
  }

  static async open(port: number, protocolVersion: 4 | 5): Promise<RawMqtt> {
    // no Nagle: a small PUBLISH is sent at once, not held for the ACK of the one before it
    const socket = tcpConnect({ port, host: '127.0.0.1', noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawMqtt(socket, protocolVersion);
  }

  /** Connects as the device and waits for the CONNACK. */
  static async connect(
    port: number,
    device: { deviceId: string; token: string },
    options: {
      protocolVersion?: 4 | 5;
      clientId?: string;
      keepalive?: number;
      /** MQTT 5 CONNECT properties (receive maximum, maximum packet size…) */
      properties?: IConnectPacket['properties'];
    } = {},
  ): Promise<{ client: RawMqtt; connack: Packet }> {
    const client = await RawMqtt.open(port, options.protocolVersion ?? 5);
    client.send({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: client.protocolVersion,
      clientId: options.clientId ?? `raw-${Math.random().toString(36).slice(2)}`,
      clean: true,
      keepalive: options.keepalive ?? 60,
      username: device.deviceId,
      password: Buffer.from(device.token),
      ...(options.properties && { properties: options.properties }),
    });
    return { client, connack: await client.next() };
  }

  send(packet: Packet): void {
    this.socket.write(mqttPacket.generate(packet, { protocolVersion: this.protocolVersion }));
  }

  /** Bytes written as they are: packets a load generator encoded itself. */
  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Several packets in one write (one TCP segment, read by the server at once). */
  sendAll(packets: Packet[]): void {
    this.socket.write(
      Buffer.concat(packets.map((p) => mqttPacket.generate(p, { protocolVersion: this.protocolVersion }))),
    );
  }

  /** The next packet the server sent (rejects once the connection closed with none left, or after `ms`). */
  async next(ms = 10_000): Promise<Packet> {
    await waitFor(async () => this.received.length > 0 || this.closed, ms, 'a packet from the server');
    const packet = this.received.shift();
    if (!packet) throw new Error('the connection closed');
    return packet;
  }

  /** Packets received and not yet taken by next(). */
  get pending(): readonly Packet[] {
    return this.received;
  }

  /** Resolves once the server has closed the connection. */
  async waitClosed(ms = 10_000): Promise<void> {
    await waitFor(async () => this.closed, ms, 'the server to close the connection');
  }

  /** Reads nothing more from the server (a client that stopped reading): what it sends piles up on its side. */
  stopReading(): void {
    this.socket.pause();
  }

  /** Resolves once what was written has gone to the kernel (or the connection closed). */
  drained(): Promise<void> {
    if (this.closed || this.socket.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('drain', resolve);
      this.socket.once('close', resolve);
    });
  }

  end(): void {
    this.socket.destroy();
  }
}
