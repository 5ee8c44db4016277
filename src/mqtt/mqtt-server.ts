// The MQTT front end (MQTT_PORT, MQTTS_PORT): devices keep one connection
// open and publish their events over it, with the same authentication,
// validation, limits and durable acknowledgement as the HTTP ingestion API
// (connection.ts has the protocol). This file holds what spans connections:
// the listening sockets, which device's connections are open (one per
// client id; at most MQTT_MAX_CONNECTIONS_PER_ORGANIZATION per organization),
// the keep-alive ticker, the re-check of every token when device
// credentials change (revocation reaches a connection within seconds), the
// devices' presence (each accepted connection recorded until it closes), the
// counts /metrics shows, and the drain at shutdown. And commands down: the
// device commands service (platform/device-commands.ts) says which devices
// have commands waiting (NOTIFY device_commands, on every replica); the
// connections of those devices here that subscribed to their commands
// topic claim and send them.
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:tls';
import type { IngestService } from '../ingest/ingest-service.js';
import type { CommandSink, DeviceCommands } from '../platform/device-commands.js';
import { Gauge, type Registry } from '../observability/metrics.js';
import type { PublishTopic } from '../ingest/device-topics.js';
import type { OpenedConnection } from '../platform/presence.js';
import { MqttConnection, type ConnectionHost, type ConnectionSettings, type MqttLogger } from './connection.js';
import { MessageCounts, type MessageOutcome } from './message-ingest.js';

export interface MqttSettings {
  receiveMaximum: number;
  maxKeepAliveSeconds: number;
  maxConnectionsPerOrganization: number;
  /** MAX_INGEST_BODY_BYTES: a message's payload, as a request's body */
  maxPayloadBytes: number;
}

/**
 * The MQTT front end's tuning, named once here (docs/ARCHITECTURE.md,
 * "Tuning constants", lists it).
 */
const MQTT_TUNING = {
  /** how often keep-alive is checked, over every connection */
  tickMs: 1000,
  /** a socket that sends no CONNECT within this is closed */
  connectTimeoutMs: 10_000,
  /**
   * answers a client may leave unread before it is closed: PUBACKs are a few
   * bytes, so only a client that stopped reading reaches this
   */
  maxWriteBufferBytes: 256 * 1024,
  /** tokens checked at once when device credentials change */
  recheckConcurrency: 8,
  /** QoS 1 commands in flight on one connection, below a smaller receive maximum of the client's */
  maxCommandsInFlight: 16,
  /**
   * commands are claimed while the write buffer holds less than this, and
   * no more bytes of them than the difference (past the first): with one
   * command of at most 64 KiB over it, they stay under maxWriteBufferBytes
   */
  commandBytes: 128 * 1024,
} as const;

/** Where accepted connections are reported (platform/presence.ts's DevicePresence): the function returned ends one. */
export interface Presence {
  connected(connection: OpenedConnection): () => void;
}

export interface MqttListen {
  host: string;
  port: number;
  /** MQTT over TLS with these PEM files (TLS_CERT, TLS_KEY) */
  tls?: { certFile: string; keyFile: string } | undefined;
}

export class MqttServer implements ConnectionHost, CommandSink {
  readonly settings: ConnectionSettings;
  private readonly servers: Server[] = [];
  private readonly connections = new Set<MqttConnection>();
  /** device id + client id → its connection (MQTT: one connection per client id) */
  private readonly byClient = new Map<string, MqttConnection>();
  /** device id → its admitted connections (a device may hold several, under different client ids) */
  private readonly byDevice = new Map<string, Set<MqttConnection>>();
  private readonly commandCounts = { sent: 0, acknowledged: 0 };
  /** releases of unacknowledged commands still being written (awaited at stop) */
  private readonly releasing = new Set<Promise<void>>();
  private readonly perOrganization = new Map<string, number>();
  /** each accepted connection's end of presence, called once it has closed */
  private readonly present = new Map<MqttConnection, () => void>();
  private readonly refusals = new Map<string, number>();
  private readonly messages = new MessageCounts();
  private ticker: NodeJS.Timeout | undefined;
  private readonly stopListening: () => void;
  private rechecking: Promise<void> | undefined;
  private recheckAgain = false;

  constructor(
    readonly ingest: IngestService,
    private readonly limits: MqttSettings,
    readonly logger: MqttLogger,
    private readonly presence: Presence,
    /** the device commands to send; none: subscriptions are taken and nothing is sent */
    readonly commands?: DeviceCommands,
  ) {
    this.settings = {
      ...limits,
      maxWriteBufferBytes: MQTT_TUNING.maxWriteBufferBytes,
      maxCommandsInFlight: MQTT_TUNING.maxCommandsInFlight,
      commandBytes: MQTT_TUNING.commandBytes,
    };
    this.stopListening = ingest.onCredentialsChanged(() => this.recheckAll());
    commands?.attach(this);
  }

  /** The counts of the MQTT front end in /metrics. */
  registerMetrics(registry: Registry): void {
    registry.register(
      new Gauge('mqtt_connections', 'MQTT connections of devices open on this server', [], () => [
        { value: this.byClient.size },
      ]),
    );
    registry.register(
      new Gauge(
        'mqtt_refusals_total',
        'MQTT packets or connections refused, by reason: not_authorized, publish_topic, subscribe_topic, qos2, organization_connections, keep_alive, slow_reader, revoked, receive_maximum, packet_too_large, malformed, …',
        ['reason'],
        () => [...this.refusals].map(([reason, value]) => ({ labels: { reason }, value })),
        'counter',
      ),
    );
    registry.register(
      new Gauge(
        'mqtt_messages_total',
        'MQTT messages published by devices, by topic (events, mobile) and outcome (stored, invalid, throttled, too_large, failed)',
        ['topic', 'outcome'],
        () => this.messages.samples(),
        'counter',
      ),
    );
    this.registerCommandMetrics(registry);
  }

  private registerCommandMetrics(registry: Registry): void {
    registry.register(
      new Gauge(
        'mqtt_commands_total',
        "commands to devices (the rules' mqtt action): sent (written to a connection, retransmissions included), acknowledged (PUBACK), expired (never sent, by this server's expiry)",
        ['outcome'],
        () => [
          { labels: { outcome: 'sent' }, value: this.commandCounts.sent },
          { labels: { outcome: 'acknowledged' }, value: this.commandCounts.acknowledged },
          { labels: { outcome: 'expired' }, value: this.commands?.expired ?? 0 },
        ],
        'counter',
      ),
    );
  }

  /** Listens on `port` (0: any free one), plain or TLS; resolves with the port. */
  async listen({ host, port, tls }: MqttListen): Promise<number> {
    const accept = (socket: Socket) => this.accept(socket);
    const server = tls
      ? createTlsServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, accept)
      : createTcpServer(accept);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.servers.push(server);
    this.ticker ??= setInterval(() => this.tick(), MQTT_TUNING.tickMs).unref();
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  private accept(socket: Socket): void {
    const connection = new MqttConnection(socket, this);
    this.connections.add(connection);
  }

  admit(connection: MqttConnection): 'quota' | null {
    const key = clientKey(connection);
    const earlier = this.byClient.get(key);
    const organizationId = connection.device!.organizationId;
    const open = this.perOrganization.get(organizationId) ?? 0;
    if (!earlier && open >= this.limits.maxConnectionsPerOrganization) return 'quota';
    if (earlier) {
      this.forget(earlier);
      earlier.takenOver();
    }
    this.byClient.set(key, connection);
    const deviceId = connection.device!.deviceId;
    const ofDevice = this.byDevice.get(deviceId) ?? new Set<MqttConnection>();
    ofDevice.add(connection);
    this.byDevice.set(deviceId, ofDevice);
    this.perOrganization.set(organizationId, (this.perOrganization.get(organizationId) ?? 0) + 1);
    return null;
  }

  opened(connection: MqttConnection): void {
    const device = connection.device!;
    this.present.set(
      connection,
      this.presence.connected({
        deviceId: device.deviceId,
        organizationId: device.organizationId,
        clientId: connection.clientId,
        protocolVersion: connection.protocolVersion,
      }),
    );
  }

  release(connection: MqttConnection): void {
    this.connections.delete(connection);
    this.forget(connection);
    // A connection taken over is still present until its socket closes: the device is connected either way.
    this.present.get(connection)?.();
    this.present.delete(connection);
  }

  /** The connection no longer counts as its client's (closed, or taken over). */
  private forget(connection: MqttConnection): void {
    if (!connection.device) return;
    const key = clientKey(connection);
    if (this.byClient.get(key) !== connection) return;
    this.byClient.delete(key);
    const ofDevice = this.byDevice.get(connection.device.deviceId);
    ofDevice?.delete(connection);
    if (ofDevice?.size === 0) this.byDevice.delete(connection.device.deviceId);
    const organizationId = connection.device.organizationId;
    const open = (this.perOrganization.get(organizationId) ?? 1) - 1;
    if (open > 0) this.perOrganization.set(organizationId, open);
    else this.perOrganization.delete(organizationId);
  }

  refused(reason: string): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  message(topic: PublishTopic, outcome: MessageOutcome): void {
    this.messages.add(topic, outcome);
  }

  commandsSent(count: number): void {
    this.commandCounts.sent += count;
  }

  commandAcknowledged(): void {
    this.commandCounts.acknowledged++;
  }

  releaseCommands(holder: string, commandIds: string[]): void {
    if (!this.commands || commandIds.length === 0) return;
    const released = this.commands
      .release(holder, commandIds)
      .catch((error: unknown) => this.logger.warn('mqtt commands not released', { error, count: commandIds.length }))
      .finally(() => this.releasing.delete(released));
    this.releasing.add(released);
  }

  /** Commands wait for these devices: their subscribed connections here claim them. */
  pending(deviceIds: readonly string[]): void {
    for (const deviceId of deviceIds)
      for (const connection of this.byDevice.get(deviceId) ?? []) connection.deliverCommands();
  }

  subscribedDevices(): string[] {
    return [...this.byDevice]
      .filter(([, connections]) => [...connections].some((c) => c.subscribedToCommands))
      .map(([deviceId]) => deviceId);
  }

  /** Keep-alive over every connection; sockets that never sent CONNECT closed. */
  private tick(): void {
    const now = Date.now();
    for (const connection of this.connections) {
      if (connection.device) connection.checkKeepAlive(now);
      else if (now - connection.connectedAt > MQTT_TUNING.connectTimeoutMs) {
        this.refused('connect_timeout');
        connection.socket.destroy();
      }
    }
  }

  /** Every open connection's token checked again (a few at a time); one asked while running runs once more after. */
  private recheckAll(): void {
    if (this.rechecking) {
      this.recheckAgain = true;
      return;
    }
    this.rechecking = (async () => {
      do {
        this.recheckAgain = false;
        const open = [...this.byClient.values()];
        for (let i = 0; i < open.length; i += MQTT_TUNING.recheckConcurrency) {
          await Promise.all(open.slice(i, i + MQTT_TUNING.recheckConcurrency).map((c) => c.recheck()));
        }
      } while (this.recheckAgain);
    })()
      .catch((error: unknown) => this.logger.warn('mqtt token re-check failed', { error }))
      .finally(() => {
        this.rechecking = undefined;
      });
  }

  /**
   * Shutdown: stops accepting, lets each connection's messages in flight
   * commit and be acknowledged (within `timeoutMs`), then closes them.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopListening();
    clearInterval(this.ticker);
    const closed = Promise.all(
      this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    await Promise.all([...this.connections].map((connection) => connection.drain(timeoutMs)));
    // The last DISCONNECTs flushed, not cut off: each socket closes, or is destroyed after a moment.
    await Promise.all([...this.connections].map((connection) => closedWithin(connection.socket, 1000)));
    await closed;
    await this.rechecking;
    // Unacknowledged commands back in their devices' queues before the database closes.
    await Promise.all([...this.releasing]);
  }
}

function clientKey(connection: MqttConnection): string {
  return `${connection.device!.deviceId}\u0000${connection.clientId}`;
}

function closedWithin(socket: Socket, ms: number): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
