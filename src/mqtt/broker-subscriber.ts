// Broker mode (MQTT_BROKER_URL): devices publish to a broker cluster the
// operator runs (EMQX, HiveMQ, VerneMQ, Mosquitto), and each replica of the
// server is one subscriber of a shared subscription on it
// ($share/<group>/devices/+/events and /mobile), so the broker hands each
// message to one replica. A message goes through the same ingestion as the
// listener's (message-ingest.ts) and is acknowledged to the broker only once
// its group commit is done. A replica killed mid-stream leaves its
// unacknowledged messages in its persistent session (a stable client id,
// clean start off, a session expiry), and the broker hands them again when it
// comes back; idempotency keys make a message handed twice one event.
//
// The broker cannot tell which device published (MQTT carries no publisher
// identity to subscribers), so each message proves its device: the device
// token as the MQTT 5 user property `authorization`, checked as on HTTP, and
// the topic's device id must be the token's. A message without one, with
// another device's or with one that no longer holds is acknowledged (the
// broker would otherwise hand it again forever), dropped, counted in
// /metrics and logged without the token; so is one the ingestion refuses
// (invalid, over the rate limit, too large). One the server failed to store
// (the database down) is not acknowledged: the connection is closed and
// opened again after a backoff, and the broker hands it again.
//
// The mqtt package hands a connection's messages to the client's
// handleMessage one at a time and writes a QoS 1 PUBACK when it calls back:
// holding the callback until the commit would take one message per commit.
// So handleMessage starts the message's ingestion and calls back at once with
// an error, which makes the package go on to the next message without a
// PUBACK; the PUBACKs are written here, in the order the messages came (MQTT
// 4.6), each once its message is committed, as the listener's connection
// does. The broker should send at most the receive maximum unacknowledged
// messages, so that many are stored at once and share group commits; one
// that sends more (Debian's Mosquitto 2.0 did, 1,700 past a maximum of 64
// under a flood) is not read from until the line is back under it: its
// callback is held, so the package stops parsing, and TCP holds the broker
// back. Without that, a flood queued messages without bound (128,000 waiting
// for a commit).
import mqtt, { type IPublishPacket, type IStream, type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import type { BrokerConfig } from '../config.js';
import { Fifo } from '../lib/fifo.js';
import { sha256, sha256OfParts } from '../lib/sha256.js';
import { ALL_DEVICES_PUBLISH_FILTERS, parsePublishTopic, type PublishTopic } from '../ingest/device-topics.js';
import type { IngestService } from '../ingest/ingest-service.js';
import { Gauge, type Registry } from '../observability/metrics.js';
import type { MqttLogger } from './connection.js';
import { givenIdempotencyKey, ingestPublished, MessageCounts, type MessageOutcome } from './message-ingest.js';

/**
 * The broker connection's tuning, named once here (docs/ARCHITECTURE.md,
 * "Tuning constants", lists it).
 */
const MQTT_BROKER_TUNING = {
  /** the first wait before connecting again; doubled after each failure */
  reconnectMinMs: 500,
  /** the longest wait between attempts */
  reconnectMaxMs: 30_000,
  /** how long the broker keeps this replica's session (its unacknowledged messages) while it is away */
  sessionExpirySeconds: 3600,
  /**
   * QoS 1 messages the broker may send before PUBACKs come back: read ahead
   * while commits run, so that many share them (one connection carries every
   * device's messages). Past it, or past maxUnacknowledgedBytes of payloads,
   * the subscriber stops reading.
   */
  receiveMaximum: 1000,
  /** payload bytes of the messages taken and not yet acknowledged past which the subscriber stops reading */
  maxUnacknowledgedBytes: 16 * 2 ** 20,
  keepaliveSeconds: 30,
  connectTimeoutMs: 10_000,
} as const;

export type BrokerState = 'connecting' | 'connected' | 'stopped';

export interface BrokerSubscriberSettings extends BrokerConfig {
  /** MAX_INGEST_BODY_BYTES: a message's payload, as a request's body */
  maxPayloadBytes: number;
}

/** A QoS 1 message waiting for its PUBACK. */
interface Pending {
  messageId: number;
  /**
   * the connection it came on (its socket, one per connection; the package's
   * 'connect' event comes a tick after the broker may have sent the session's
   * messages, so no count kept from events would name it): its PUBACK goes on
   * that one only
   */
  stream: IStream;
  /** undefined while it is being stored; then whether to acknowledge it */
  acknowledge: boolean | undefined;
  /** its payload's size, counted against maxUnacknowledgedBytes */
  bytes: number;
}

/** What handleMessage calls back with: the package then writes no PUBACK (flushAcks does). */
const HELD = new Error('acknowledged once committed');

/** Why a message was dropped before ingestion (mqtt_broker_refusals_total). */
type Refusal = 'no_token' | 'not_authorized' | 'wrong_device' | 'topic';

export class BrokerSubscriber {
  private client: MqttClient | undefined;
  /** a connection is up (CONNACK seen, not closed) */
  private open = false;
  /** and its subscriptions granted: the replica takes its share (readiness, mqtt_broker_connected) */
  private connected = false;
  private stopped = false;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** QoS 1 messages between their arrival and their PUBACK, in the order they came */
  private readonly line = new Fifo<Pending>();
  /** the payload bytes of the line */
  private lineBytes = 0;
  /** the held callback of the message that filled the line: called once it has room, and the package reads on */
  private readOn: (() => void) | undefined;
  /** the messages being stored: the stop waits for them */
  private readonly storing = new Set<Promise<void>>();
  private readonly refusals = new Map<string, number>();
  private readonly messages = new MessageCounts();

  constructor(
    private readonly ingest: IngestService,
    private readonly settings: BrokerSubscriberSettings,
    private readonly logger: MqttLogger,
  ) {}

  /** The broker connection's state, for readiness (/v2/health/ready). */
  get state(): BrokerState {
    if (this.stopped) return 'stopped';
    return this.connected ? 'connected' : 'connecting';
  }

  /** Where the broker is, for logs: its URL's scheme, host and port (no credentials are in it). */
  private get where(): string {
    const url = new URL(this.settings.url);
    return `${url.protocol}//${url.host}`;
  }

  registerMetrics(registry: Registry): void {
    registry.register(
      new Gauge('mqtt_broker_connected', '1 while broker mode (MQTT_BROKER_URL) is connected to its broker', [], () => [
        { value: this.connected ? 1 : 0 },
      ]),
    );
    registry.register(
      new Gauge(
        'mqtt_broker_unacknowledged',
        'messages taken from the broker in broker mode and not yet acknowledged (being stored, or waiting for an earlier one): at most the receive maximum the subscriber gives the broker',
        [],
        () => [{ value: this.line.length }],
      ),
    );
    registry.register(
      new Gauge(
        'mqtt_broker_messages_total',
        'messages taken from the broker in broker mode, by topic (events, mobile) and outcome (stored, invalid, throttled, too_large, failed)',
        ['topic', 'outcome'],
        () => this.messages.samples(),
        'counter',
      ),
    );
    registry.register(
      new Gauge(
        'mqtt_broker_refusals_total',
        'messages from the broker acknowledged and dropped before ingestion, by reason: no_token (no authorization user property), not_authorized (a token that does not hold), wrong_device (the token of another device than the topic names), topic',
        ['reason'],
        () => [...this.refusals].map(([reason, value]) => ({ labels: { reason }, value })),
        'counter',
      ),
    );
  }

  /** Connects (in the background: the first failure is retried as any later one). */
  start(): void {
    const { url, username, password, clientId } = this.settings;
    const client = mqtt.connect(url, {
      manualConnect: true,
      protocolVersion: 5,
      clientId,
      clean: false,
      keepalive: MQTT_BROKER_TUNING.keepaliveSeconds,
      connectTimeout: MQTT_BROKER_TUNING.connectTimeoutMs,
      // The backoff is this class's (scheduleReconnect): the mqtt package only knows a fixed period.
      reconnectPeriod: 0,
      resubscribe: false,
      properties: {
        sessionExpiryInterval: MQTT_BROKER_TUNING.sessionExpirySeconds,
        receiveMaximum: MQTT_BROKER_TUNING.receiveMaximum,
      },
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
    });
    client.handleMessage = (packet, callback) => {
      if (packet.qos !== 1) {
        // QoS 0: nothing to acknowledge, and no receive maximum bounds them: one at a time.
        this.track(this.handle(packet).then(() => callback()));
        return;
      }
      const entry: Pending = {
        messageId: packet.messageId!,
        stream: client.stream,
        acknowledge: undefined,
        bytes: packet.payload.length,
      };
      this.line.push(entry);
      this.lineBytes += entry.bytes;
      this.track(
        this.handle(packet).then((acknowledge) => {
          entry.acknowledge = acknowledge;
          this.flushAcks();
        }),
      );
      if (this.lineFull()) this.readOn = () => callback(HELD);
      else callback(HELD);
    };
    client.on('connect', (connack) => {
      this.open = true;
      this.failures = 0;
      this.logger.info('mqtt broker connected', {
        broker: this.where,
        clientId,
        sessionPresent: connack.sessionPresent,
      });
      this.subscribe(client);
    });
    client.on('close', () => {
      if (this.open && !this.stopped) this.logger.warn('mqtt broker connection lost', { broker: this.where });
      this.readOn = undefined; // that connection's reading is over; the next one starts its own
      this.open = false;
      this.connected = false;
      this.scheduleReconnect();
    });
    // The 'close' that follows reconnects; an error of its own says why.
    client.on('error', (error) => this.logger.warn('mqtt broker error', { broker: this.where, error: error.message }));
    this.client = client;
    client.connect();
  }

  private track(storing: Promise<void>): void {
    this.storing.add(storing);
    void storing.finally(() => this.storing.delete(storing));
  }

  /**
   * PUBACKs of the messages at the head of the line whose outcome is known,
   * in the order they came. One of an earlier connection is never sent: on
   * this one its packet id may name another message, and the broker hands
   * the unacknowledged message again anyway; nor is one not to acknowledge.
   */
  private flushAcks(): void {
    while (this.line.peek()?.acknowledge !== undefined) {
      const { messageId, stream, acknowledge, bytes } = this.line.shift()!;
      this.lineBytes -= bytes;
      if (!acknowledge || stream !== this.client?.stream || !stream.writable) continue;
      stream.write(mqttPacket.generate({ cmd: 'puback', messageId, reasonCode: 0 }, { protocolVersion: 5 }));
    }
    if (this.readOn && !this.lineFull()) {
      const readOn = this.readOn;
      this.readOn = undefined;
      readOn();
    }
  }

  /** Whether the messages taken and not yet acknowledged are at the receive maximum, or at their bytes' bound. */
  private lineFull(): boolean {
    return (
      this.line.length >= MQTT_BROKER_TUNING.receiveMaximum ||
      this.lineBytes >= MQTT_BROKER_TUNING.maxUnacknowledgedBytes
    );
  }

  private subscribe(client: MqttClient): void {
    const group = this.settings.shareGroup;
    const filters = ALL_DEVICES_PUBLISH_FILTERS.map((filter) => `$share/${group}/${filter}`);
    client.subscribe(filters, { qos: 1 }, (error, granted) => {
      const refused = (granted ?? []).filter((grant) => grant.qos !== 1 && grant.qos !== 0);
      if (error || refused.length > 0) {
        // Without its subscriptions the replica takes nothing: the connection starts again.
        this.logger.warn('mqtt broker subscription refused', {
          broker: this.where,
          error: error?.message,
          topics: refused.map((grant) => grant.topic).join(','),
        });
        client.end(true);
        return;
      }
      this.connected = this.open;
      this.logger.info('mqtt broker subscribed', { broker: this.where, topics: filters.join(',') });
    });
  }

  /** Another attempt after the backoff: 0.5 s doubled after each failure, at most 30 s, with jitter. */
  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const base = Math.min(
      MQTT_BROKER_TUNING.reconnectMaxMs,
      MQTT_BROKER_TUNING.reconnectMinMs * 2 ** Math.min(this.failures, 16),
    );
    this.failures++;
    const delay = base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.stopped) this.client?.reconnect();
    }, delay);
    this.reconnectTimer.unref();
  }

  /** Stores one message; resolves with whether to acknowledge it. */
  private async handle(packet: IPublishPacket): Promise<boolean> {
    if (this.stopped) return false; // taken again by this session's next connection, or another replica
    const topic = parsePublishTopic(packet.topic);
    if (!topic) return this.refuse('topic', packet.topic);
    const property = packet.properties?.userProperties?.authorization;
    const token = (Array.isArray(property) ? property[0] : property) ?? '';
    if (token.trim() === '') return this.refuse('no_token', packet.topic);
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const outcome = await ingestPublished(
      { ingest: this.ingest, maxPayloadBytes: this.settings.maxPayloadBytes, logger: this.logger },
      {
        kind: topic.kind,
        deviceId: topic.deviceId,
        token,
        payload,
        contentType: packet.properties?.contentType,
        idempotencyKey: givenIdempotencyKey(packet.properties?.userProperties),
        ...(packet.qos === 1 ? { deliveryKey: this.deliveryKey(packet, payload) } : {}),
      },
    );
    if (outcome.denied)
      return this.refuse(outcome.denied === 'token' ? 'not_authorized' : 'wrong_device', packet.topic);
    this.count(topic.kind, outcome.outcome);
    if (outcome.outcome === 'failed') {
      // Not stored: the broker hands it again once the connection starts over.
      this.client?.end(true);
      return false;
    }
    if (outcome.outcome !== 'stored')
      this.logger.debug('mqtt broker message dropped', { deviceId: topic.deviceId, reason: outcome.reasonString });
    return true;
  }

  /**
   * The key of this delivery: the broker hands an unacknowledged message
   * again to this session with the same packet id, so the client id, the
   * packet id and the payload's digest name it (IngestService uses it only
   * where the message has no key and no time of its own).
   */
  private deliveryKey(packet: IPublishPacket, payload: Buffer): string {
    return `broker:${sha256OfParts([this.settings.clientId, String(packet.messageId), sha256(payload)], 'base64url')}`;
  }

  private refuse(reason: Refusal, topic: string): boolean {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
    this.logger.debug('mqtt broker message refused', { reason, topic: topic.slice(0, 200) });
    return true;
  }

  private count(topic: PublishTopic, outcome: MessageOutcome): void {
    this.messages.add(topic, outcome);
  }

  /**
   * Shutdown: no new message is taken; those being stored commit and are
   * acknowledged (within `timeoutMs`), then the connection ends with the
   * session kept, so the broker holds what it had not handed over for this
   * replica's return (or another replica, once the session expires).
   */
  async stop(timeoutMs: number): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.storing),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    await new Promise<void>((resolve) => client.end(!this.open, {}, () => resolve()));
    this.open = false;
    this.connected = false;
  }
}
