// One device's MQTT connection (3.1.1 or 5): mqtt-packet parses and writes
// the packets; this class decides what they mean. The device authenticates
// in its CONNECT (user name: its id; password: its device token), publishes
// events to its own topics (topics.ts) and gets each QoS 1 PUBACK only once
// the event's group commit is done: the PUBLISH is handed to the same
// IngestService as POST /v1/iot/events or /v1/mobile/events/batch, whose
// promise resolves after the commit. PUBACKs leave in the order the
// PUBLISHes came (MQTT 4.6), so one slow commit holds back the acks behind
// it, never reorders them.
//
// What the connection bounds: QoS 1 messages in flight (receive maximum:
// past it the socket is paused, so TCP holds the rest in the client), a
// packet's size (MQTT 5 maximum packet size; past it the connection is
// closed before the packet is buffered whole), its write buffer (a client
// that stops reading is closed, not buffered for), keep-alive (mqtt-server.ts's
// ticker closes a connection silent for 1.5 keep-alive periods).
//
// Commands down: once the device subscribes to devices/<id>/commands, the
// connection claims the device's pending commands (platform/device-commands.ts,
// under a lease of its own id), publishes them and marks each delivered on
// its PUBACK; what is unacknowledged when the connection closes is released
// for the next subscription (sent again with DUP). Bounded by the client's
// receive maximum and a cap of its own, and by the bytes waiting in the
// write buffer, so that commands never trip the slow-reader close.
import type { Socket } from 'node:net';
import mqttPacket, { type IConnectPacket, type IPublishPacket, type ISubscribePacket, type Packet } from 'mqtt-packet';
import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import { sha256, sha256OfParts } from '../lib/sha256.js';
import { commandsTopic, publishTopicOf, type PublishTopic } from '../ingest/device-topics.js';
import type { IngestService } from '../ingest/ingest-service.js';
import type { DeviceClaims } from '../platform/auth/tokens.js';
import type { DeviceCommand } from '../platform/device-commands.js';
import { givenIdempotencyKey, ingestPublished, type MessageOutcome, type Outcome } from './message-ingest.js';
import { REASON, RETURN_CODE_311, SUBACK_FAILURE_311 } from './topics.js';

/** What the connection reports to its server (mqtt-server.ts): counted in /metrics, logged. */
export interface ConnectionHost {
  readonly ingest: IngestService;
  readonly settings: ConnectionSettings;
  readonly logger: MqttLogger;
  /** null: admitted (the device's earlier connection under this client id closed); else why not */
  admit(connection: MqttConnection): 'quota' | null;
  /** its CONNACK accepted it: the device is connected (presence) until release */
  opened(connection: MqttConnection): void;
  release(connection: MqttConnection): void;
  /** a refusal or a dropped connection, by reason (mqtt_refusals_total) */
  refused(reason: string): void;
  /** a message's outcome, by topic (mqtt_messages_total) */
  message(topic: PublishTopic, outcome: MessageOutcome): void;
  /** where the device's commands come from; undefined: none are sent */
  readonly commands?: CommandSource | undefined;
  /** commands written (mqtt_commands_total) */
  commandsSent(count: number): void;
  /** a command's PUBACK (mqtt_commands_total) */
  commandAcknowledged(): void;
  /** the connection closed with these commands unacknowledged: they go back to the device's queue */
  releaseCommands(holder: string, commandIds: string[]): void;
}

/** The commands of a device as a connection takes them (DeviceCommands, platform/device-commands.ts). */
export interface CommandSource {
  claim(
    device: { organizationId: string; deviceId: string },
    holder: string,
    limit: number,
    byteBudget: number,
    maxQos: 0 | 1,
  ): Promise<DeviceCommand[]>;
  acknowledge(organizationId: string, commandId: string): Promise<void>;
  abandon(organizationId: string, commandId: string, reason: string): Promise<void>;
}

export interface ConnectionSettings {
  receiveMaximum: number;
  maxKeepAliveSeconds: number;
  /** the largest payload taken, as MAX_INGEST_BODY_BYTES over HTTP */
  maxPayloadBytes: number;
  /** what a client's unread answers may hold before it is closed */
  maxWriteBufferBytes: number;
  /** QoS 1 commands in flight on one connection, whatever larger receive maximum the client gives */
  maxCommandsInFlight: number;
  /** commands are claimed only while the write buffer holds less than this, and no more than the difference */
  commandBytes: number;
}

/** The logging the MQTT front end does (log.ts's logger fits it). */
export interface MqttLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** A QoS 1 PUBLISH between its arrival and its PUBACK. */
interface InFlight {
  packetId: number;
  outcome: Outcome | undefined;
}

/** Room a PUBLISH's topic and properties take beside its payload (the packet limit is the payload limit plus this). */
const PACKET_OVERHEAD_BYTES = 64 * 1024;
/** Reason strings are for people; a field's path and why fit in this. */
const MAX_REASON_STRING = 512;

type State = 'connecting' | 'authenticating' | 'open' | 'draining' | 'closed';

export class MqttConnection {
  private readonly parser = mqttPacket.parser({ protocolVersion: 4 });
  private state: State = 'connecting';
  /** 3 (3.1), 4 (3.1.1) or 5 */
  private version: 3 | 4 | 5 = 4;
  device: DeviceClaims | undefined;
  clientId = '';
  private token = '';
  /** when anything was last heard from the client, for keep-alive (ms since the epoch) */
  private lastHeard = Date.now();
  /** the keep-alive in force, in ms; 0 before CONNECT */
  private keepAliveMs = 0;
  readonly connectedAt = Date.now();
  private readonly inFlight: InFlight[] = [];
  private readonly inFlightIds = new Map<number, InFlight>();
  private paused = false;
  /** MQTT 5: the client asked for no reason strings except on CONNACK and DISCONNECT */
  private problemInformation = true;
  /** MQTT 5: the largest packet the client takes */
  private clientMaxPacket = Number.POSITIVE_INFINITY;
  /** the commands filter the device subscribed to, with the QoS granted */
  readonly subscriptions = new Map<string, 0 | 1>();
  /** MQTT 5: the most QoS 1 publications the client takes at once (its receive maximum) */
  private clientReceiveMaximum = 65_535;
  /** this connection's lease on the commands it claimed */
  readonly holder = newId();
  /** QoS 1 commands sent and not yet acknowledged: packet id → command id */
  private readonly commandsInFlight = new Map<number, string>();
  private nextPacketId = 1;
  /** a claim is running; `claimAgain`: another was asked for meanwhile */
  private claiming = false;
  private claimAgain = false;
  /** the last claim filled what it could take: more may wait */
  private moreCommands = false;
  private waitingForDrain = false;
  private drained: (() => void) | undefined;
  /** packets that came behind CONNECT before its answer: read once it is accepted */
  private early: Packet[] = [];

  constructor(
    readonly socket: Socket,
    private readonly host: ConnectionHost,
  ) {
    socket.setNoDelay(true);
    this.parser.on('packet', (packet: Packet) => this.onPacket(packet));
    this.parser.on('error', (error: Error) => this.protocolError(REASON.malformedPacket, 'malformed', error.message));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => {}); // 'close' follows; a reset by the client is no server error
    socket.on('close', () => this.onClose());
  }

  /** 3 (3.1), 4 (3.1.1) or 5; read once CONNECT has come */
  get protocolVersion(): 3 | 4 | 5 {
    return this.version;
  }

  /** state read where a callback or an await may have changed it (TypeScript narrows it otherwise) */
  private closed(): boolean {
    return this.state === 'closed';
  }

  private onData(chunk: Buffer): void {
    if (this.state === 'closed') return;
    this.lastHeard = Date.now();
    // mqtt-packet holds a packet's bytes until it is whole (parse answers how
    // many): one over the limit is refused as its bytes arrive, not once they
    // all sit in memory.
    const buffered = this.parser.parse(chunk);
    if (!this.closed() && buffered > this.maxPacketBytes) this.packetTooLarge();
  }

  /** The largest packet taken (MQTT 5 tells the client in CONNACK). */
  private get maxPacketBytes(): number {
    return this.host.settings.maxPayloadBytes + PACKET_OVERHEAD_BYTES;
  }

  private packetTooLarge(): void {
    this.protocolError(REASON.packetTooLarge, 'packet_too_large', 'packet over the maximum packet size');
  }

  private onPacket(packet: Packet): void {
    if (this.state === 'closed') return;
    if ((packet.length ?? 0) > this.maxPacketBytes) {
      this.packetTooLarge(); // one that came whole in a single read
      return;
    }
    if (this.state === 'authenticating') {
      if (this.early.length >= this.host.settings.receiveMaximum)
        this.protocolError(REASON.protocolError, 'protocol', 'too many packets before CONNACK');
      else this.early.push(packet);
      return;
    }
    if (this.state === 'connecting') {
      if (packet.cmd !== 'connect') {
        this.host.refused('protocol');
        this.destroy();
        return;
      }
      void this.onConnect(packet);
      return;
    }
    switch (packet.cmd) {
      case 'publish':
        this.onPublish(packet);
        return;
      case 'subscribe':
        this.onSubscribe(packet);
        return;
      case 'unsubscribe':
        // Commands in flight still count their PUBACKs; no more are sent.
        for (const filter of packet.unsubscriptions) this.subscriptions.delete(filter);
        this.send({
          cmd: 'unsuback',
          messageId: packet.messageId!,
          ...(this.version === 5 ? { granted: packet.unsubscriptions.map(() => REASON.success) } : {}),
        } as Packet);
        return;
      case 'pingreq':
        this.send({ cmd: 'pingresp' });
        return;
      case 'disconnect':
        // The client is done: what it published still commits; its acks have no reader.
        this.state = 'draining';
        this.socket.end();
        return;
      case 'puback':
        this.onCommandAck(packet.messageId!);
        return;
      default:
        this.protocolError(REASON.protocolError, 'protocol', `unexpected ${packet.cmd}`);
    }
  }

  private async onConnect(packet: IConnectPacket): Promise<void> {
    this.version = packet.protocolVersion ?? 4;
    // mqtt-packet reads what follows CONNECT by the version its parser was made with.
    (this.parser as unknown as { settings: { protocolVersion: number } }).settings.protocolVersion = this.version;
    this.state = 'authenticating';
    this.socket.pause();
    const v5 = this.version === 5;
    const properties = packet.properties ?? {};
    if (properties.requestProblemInformation === false) this.problemInformation = false;
    if (properties.maximumPacketSize) this.clientMaxPacket = properties.maximumPacketSize;
    if (properties.receiveMaximum) this.clientReceiveMaximum = properties.receiveMaximum;
    const refuse = (reason: number, code311: number, why: string) => {
      this.host.refused(why);
      this.send(
        v5
          ? { cmd: 'connack', sessionPresent: false, reasonCode: reason }
          : { cmd: 'connack', sessionPresent: false, returnCode: code311 },
      );
      this.close();
    };
    if (properties.authenticationMethod !== undefined) {
      refuse(0x8c, RETURN_CODE_311.badUserNameOrPassword, 'bad_authentication_method');
      return;
    }
    this.token = packet.password?.toString('utf8') ?? '';
    try {
      if (this.token === '') throw new DomainError('unauthenticated', 'no password: the device token');
      this.device = await this.host.ingest.authenticate(this.token);
      if (packet.username !== this.device.deviceId)
        throw new DomainError('unauthenticated', 'the user name is not the device id of the token');
    } catch (error) {
      if (this.closed()) return;
      if (!(error instanceof DomainError) || error.kind !== 'unauthenticated') {
        this.host.logger.warn('mqtt connect failed', { error });
        refuse(REASON.serverUnavailable, RETURN_CODE_311.serverUnavailable, 'unavailable');
        return;
      }
      this.host.logger.debug('mqtt connect refused', { error, address: this.socket.remoteAddress });
      refuse(REASON.notAuthorized, RETURN_CODE_311.notAuthorized, 'not_authorized');
      return;
    }
    if (this.closed()) return;
    let assigned: string | undefined;
    this.clientId = packet.clientId;
    if (this.clientId === '') {
      if (!v5 && !packet.clean) {
        refuse(REASON.clientIdentifierNotValid, RETURN_CODE_311.identifierRejected, 'client_id');
        return;
      }
      this.clientId = assigned = `sense-${newId()}`;
    }
    if (this.host.admit(this) === 'quota') {
      refuse(REASON.quotaExceeded, RETURN_CODE_311.serverUnavailable, 'organization_connections');
      return;
    }
    const maxKeepAlive = this.host.settings.maxKeepAliveSeconds;
    // A client that asks for none (0) or more than the server allows gets the server's (MQTT 5 tells it so).
    const keepAlive = packet.keepalive && packet.keepalive <= maxKeepAlive ? packet.keepalive : maxKeepAlive;
    this.keepAliveMs = keepAlive * 1000;
    this.send(
      v5
        ? {
            cmd: 'connack',
            sessionPresent: false,
            reasonCode: REASON.success,
            properties: {
              receiveMaximum: this.host.settings.receiveMaximum,
              maximumQoS: 1,
              retainAvailable: false,
              maximumPacketSize: this.maxPacketBytes,
              topicAliasMaximum: 0,
              wildcardSubscriptionAvailable: false,
              subscriptionIdentifiersAvailable: false,
              sharedSubscriptionAvailable: false,
              ...(properties.sessionExpiryInterval ? { sessionExpiryInterval: 0 } : {}),
              ...(keepAlive !== packet.keepalive ? { serverKeepAlive: keepAlive } : {}),
              ...(assigned ? { assignedClientIdentifier: assigned } : {}),
            },
          }
        : { cmd: 'connack', sessionPresent: false, returnCode: RETURN_CODE_311.accepted },
    );
    this.state = 'open';
    this.host.opened(this);
    const early = this.early;
    this.early = [];
    for (const next of early) this.onPacket(next);
    if (!this.paused) this.socket.resume();
  }

  private onPublish(packet: IPublishPacket): void {
    if (this.state !== 'open') return; // draining: not taken, so never acknowledged; the client sends it again
    const v5 = this.version === 5;
    if (packet.qos === 2) {
      // The server's maximum QoS is 1: MQTT 5 told the client so in CONNACK;
      // 3.1.1 has no way to refuse a QoS 2 message but to close.
      this.protocolError(REASON.qosNotSupported, 'qos2', 'QoS 2 is not supported: publish with QoS 1');
      return;
    }
    if (packet.retain && v5) {
      this.protocolError(REASON.retainNotSupported, 'retain', 'retained messages are not supported');
      return;
    }
    const topic = publishTopicOf(packet.topic, this.device!.deviceId);
    if (topic === undefined) {
      this.host.refused('publish_topic');
      this.host.logger.debug('mqtt publish refused: not a topic of this device', {
        topic: packet.topic.slice(0, 200),
        deviceId: this.device!.deviceId,
      });
      if (!v5) {
        this.close(); // 3.1.1 has no negative PUBACK
        return;
      }
      if (packet.qos === 1)
        this.track(packet.messageId!, {
          reason: REASON.notAuthorized,
          reasonString: `a device publishes to devices/${this.device!.deviceId}/events or /mobile only`,
          outcome: 'invalid',
        });
      return;
    }
    if (packet.qos === 0) {
      void this.store(topic, packet);
      return;
    }
    const id = packet.messageId!;
    // A retransmission of a message still being committed: its PUBACK answers both.
    if (packet.dup && this.inFlightIds.has(id)) return;
    if (this.inFlight.length >= this.host.settings.receiveMaximum && v5) {
      this.protocolError(
        REASON.receiveMaximumExceeded,
        'receive_maximum',
        'more QoS 1 messages in flight than the receive maximum',
      );
      return;
    }
    const entry = this.track(id, undefined);
    void this.store(topic, packet).then((outcome) => {
      entry.outcome = outcome;
      this.flushAcks();
    });
  }

  /** A QoS 1 message in flight, answered in its turn once `outcome` is known. */
  private track(packetId: number, outcome: Outcome | undefined): InFlight {
    const entry: InFlight = { packetId, outcome };
    this.inFlight.push(entry);
    this.inFlightIds.set(packetId, entry);
    if (this.inFlight.length >= this.host.settings.receiveMaximum && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    if (outcome) this.flushAcks();
    return entry;
  }

  /** Stores the message through the ingestion service; resolves with its PUBACK's reason once committed or refused. */
  private async store(topic: PublishTopic, packet: IPublishPacket): Promise<Outcome> {
    const outcome = await ingestPublished(
      { ingest: this.host.ingest, maxPayloadBytes: this.host.settings.maxPayloadBytes, logger: this.host.logger },
      {
        kind: topic,
        deviceId: this.device!.deviceId,
        token: this.token,
        payload: typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload,
        contentType: packet.properties?.contentType,
        idempotencyKey: this.idempotencyKey(packet),
      },
    );
    // A token no longer valid ends the connection.
    if (outcome.denied) this.revoked();
    this.host.message(topic, outcome.outcome);
    return outcome;
  }

  /**
   * The key that makes a retransmission one event (docs/CONTRACT.md, "MQTT"):
   * an MQTT 5 user property `idempotency-key` as the HTTP header; else, for
   * QoS 1, the client id, the packet id and the payload's digest; QoS 0
   * messages are never sent twice by MQTT, and keep HTTP's key (the client
   * time and payload, when they have a time).
   */
  private idempotencyKey(packet: IPublishPacket): string | undefined {
    const given = givenIdempotencyKey(packet.properties?.userProperties);
    if (given) return given;
    if (packet.qos !== 1) return undefined;
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    return `mqtt:${sha256OfParts([this.clientId, String(packet.messageId), sha256(payload)], 'base64url')}`;
  }

  /** PUBACKs of the messages at the head of the line whose outcome is known, in the order they came. */
  private flushAcks(): void {
    if (this.state === 'closed') return;
    this.socket.cork();
    while (this.inFlight.length > 0 && this.inFlight[0]!.outcome !== undefined) {
      const { packetId, outcome } = this.inFlight.shift()!;
      this.inFlightIds.delete(packetId);
      if (this.version !== 5) {
        // 3.1.1 has no negative PUBACK: a refused message is dropped (counted and logged) and acknowledged.
        if (outcome!.reason !== REASON.success)
          this.host.logger.debug('mqtt message dropped', {
            reason: outcome!.reasonString,
            deviceId: this.device?.deviceId,
          });
        this.send({ cmd: 'puback', messageId: packetId });
        continue;
      }
      const reasonString =
        this.problemInformation && outcome!.reasonString !== undefined
          ? outcome!.reasonString.slice(0, MAX_REASON_STRING)
          : undefined;
      this.send({
        cmd: 'puback',
        messageId: packetId,
        reasonCode: outcome!.reason,
        ...(reasonString !== undefined && reasonString.length + 64 < this.clientMaxPacket
          ? { properties: { reasonString } }
          : {}),
      });
    }
    process.nextTick(() => this.socket.uncork());
    if (this.paused && this.inFlight.length < this.host.settings.receiveMaximum && this.state === 'open') {
      this.paused = false;
      this.socket.resume();
    }
    if (this.inFlight.length === 0) this.drained?.();
  }

  private onSubscribe(packet: ISubscribePacket): void {
    const own = commandsTopic(this.device!.deviceId);
    const v5 = this.version === 5;
    const granted = packet.subscriptions.map(({ topic, qos }) => {
      if (topic !== own) {
        this.host.refused('subscribe_topic');
        return v5 ? REASON.notAuthorized : SUBACK_FAILURE_311;
      }
      const grantedQos = qos === 0 ? 0 : 1; // QoS 2 granted as 1 (MQTT 3.8.4: the server may grant a lower QoS)
      this.subscriptions.set(topic, grantedQos);
      return grantedQos;
    });
    this.send({ cmd: 'suback', messageId: packet.messageId!, granted });
    // Pending commands are kept server-side whatever the session flags said: a (re)subscription gets them.
    if (this.subscriptions.has(own)) this.deliverCommands();
  }

  /** Whether the device's commands go out on this connection. */
  get subscribedToCommands(): boolean {
    return this.device !== undefined && this.subscriptions.has(commandsTopic(this.device.deviceId));
  }

  /**
   * Claims and publishes the device's pending commands while there is room:
   * in-flight slots (the client's receive maximum, our cap) and write-buffer
   * bytes. One claim at a time; one asked for meanwhile runs after it.
   */
  deliverCommands(): void {
    const source = this.host.commands;
    if (!source || this.state !== 'open' || !this.subscribedToCommands) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = true;
    void this.claimLoop(source)
      .catch((error: unknown) =>
        this.host.logger.warn('mqtt commands not sent', { error, deviceId: this.device?.deviceId }),
      )
      .finally(() => {
        this.claiming = false;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.deliverCommands();
        }
      });
  }

  private async claimLoop(source: CommandSource): Promise<void> {
    const { maxCommandsInFlight, commandBytes } = this.host.settings;
    for (;;) {
      this.claimAgain = false;
      if (this.state !== 'open' || !this.subscribedToCommands) return;
      const slots = Math.min(maxCommandsInFlight, this.clientReceiveMaximum) - this.commandsInFlight.size;
      if (slots <= 0) {
        this.moreCommands = true; // a PUBACK frees a slot and asks again
        return;
      }
      const buffered = this.socket.writableLength;
      if (buffered >= commandBytes) {
        this.afterDrain();
        return;
      }
      const device = this.device!;
      const qos = this.subscriptions.get(commandsTopic(device.deviceId))!;
      const claimed = await source.claim(device, this.holder, slots, commandBytes - buffered, qos);
      this.moreCommands = claimed.length === slots;
      if (claimed.length === 0) return;
      if (this.closed()) {
        // Closed while claiming: what it took goes back (QoS 0 ones count as delivered, as a write lost in the network would).
        this.host.releaseCommands(
          this.holder,
          claimed.filter((c) => c.qos === 1).map((c) => c.id),
        );
        return;
      }
      this.sendCommands(source, claimed);
    }
  }

  /** Claims again once what is buffered for the client has been written. */
  private afterDrain(): void {
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.socket.once('drain', () => {
      this.waitingForDrain = false;
      this.deliverCommands();
    });
  }

  private sendCommands(source: CommandSource, commands: readonly DeviceCommand[]): void {
    const v5 = this.version === 5;
    this.socket.cork();
    let sent = 0;
    for (const command of commands) {
      const messageId = command.qos === 1 ? this.packetIdForCommand(command.id) : undefined;
      const bytes = this.generate({
        cmd: 'publish',
        topic: command.topic,
        payload: command.payload,
        qos: command.qos,
        dup: command.attempts > 1,
        retain: false,
        ...(messageId === undefined ? {} : { messageId }),
        ...(v5
          ? {
              properties: {
                // The device dedupes by the command id: a command not acknowledged is sent again.
                userProperties: { 'command-id': command.id },
                correlationData: Buffer.from(command.id),
                contentType: command.contentType,
                payloadFormatIndicator: true,
              },
            }
          : {}),
      } as Packet);
      if (bytes.length > this.clientMaxPacket) {
        // MQTT 5 (3.1.2.11.4): a packet larger than the client takes is discarded, as if sent.
        if (messageId !== undefined) this.commandsInFlight.delete(messageId);
        const reason = `not sent: ${bytes.length} bytes, over the device's maximum packet size (${this.clientMaxPacket})`;
        void source
          .abandon(this.device!.organizationId, command.id, reason)
          .catch((error: unknown) =>
            this.host.logger.warn('mqtt command not abandoned', { error, commandId: command.id }),
          );
        continue;
      }
      this.write(bytes);
      sent++;
    }
    process.nextTick(() => this.socket.uncork());
    this.host.commandsSent(sent);
  }

  /** A packet id for a QoS 1 command that no command in flight holds (ids of the device's own publications are another space). */
  private packetIdForCommand(commandId: string): number {
    while (this.commandsInFlight.has(this.nextPacketId)) this.nextPacketId = (this.nextPacketId % 65_535) + 1;
    const id = this.nextPacketId;
    this.nextPacketId = (id % 65_535) + 1;
    this.commandsInFlight.set(id, commandId);
    return id;
  }

  private onCommandAck(packetId: number): void {
    const commandId = this.commandsInFlight.get(packetId);
    if (commandId === undefined) return; // not ours (a late or repeated PUBACK)
    this.commandsInFlight.delete(packetId);
    this.host.commandAcknowledged();
    void this.host.commands
      ?.acknowledge(this.device!.organizationId, commandId)
      .catch((error: unknown) =>
        this.host.logger.warn('mqtt command acknowledgement not stored', { error, commandId }),
      );
    if (this.moreCommands) this.deliverCommands();
  }

  /** The token stopped holding (revoked, expired, its device deleted): the connection ends now. */
  revoked(): void {
    if (this.state === 'closed') return;
    this.host.refused('revoked');
    this.disconnect(REASON.notAuthorized);
  }

  /** The token checked again (device credentials changed somewhere): closed if it no longer holds. */
  async recheck(): Promise<void> {
    if (this.state !== 'open' && this.state !== 'draining') return;
    try {
      await this.host.ingest.authenticate(this.token);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated') this.revoked();
    }
  }

  /** Silent past 1.5 keep-alive periods (MQTT 3.1.2.10): closed. */
  checkKeepAlive(now: number): void {
    if (this.keepAliveMs > 0 && now - this.lastHeard > this.keepAliveMs * 1.5) {
      this.host.refused('keep_alive');
      this.disconnect(REASON.keepAliveTimeout);
    }
  }

  /** Another connection of the same device and client id took over (MQTT 3.1.4-3). */
  takenOver(): void {
    this.host.refused('taken_over');
    this.disconnect(REASON.sessionTakenOver);
  }

  /**
   * Shutdown: nothing more is read; the messages in flight commit and are
   * acknowledged (within `timeoutMs`), then MQTT 5 clients hear why.
   */
  async drain(timeoutMs: number): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'connecting' || this.state === 'authenticating') {
      this.destroy();
      return;
    }
    this.state = 'draining';
    this.socket.pause();
    if (this.inFlight.length > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.disconnect(REASON.serverShuttingDown);
  }

  /** MQTT 5: DISCONNECT with the reason, then closed; 3.1.1 has no server DISCONNECT: closed. */
  private disconnect(reason: number, reasonString?: string): void {
    if (this.state === 'closed') return;
    if (this.version === 5 && this.state !== 'connecting')
      this.send({
        cmd: 'disconnect',
        reasonCode: reason,
        ...(reasonString === undefined ? {} : { properties: { reasonString } }),
      });
    this.close();
  }

  private protocolError(reason: number, counted: string, why: string): void {
    if (this.state === 'closed') return;
    this.host.refused(counted);
    this.host.logger.debug('mqtt connection closed', { why, deviceId: this.device?.deviceId });
    this.disconnect(reason, why);
  }

  private send(packet: Packet): void {
    this.write(this.generate(packet));
  }

  private generate(packet: Packet): Buffer {
    return mqttPacket.generate(packet, { protocolVersion: this.version });
  }

  private write(bytes: Buffer): void {
    if (this.state === 'closed' || this.socket.destroyed || this.socket.writableEnded) return;
    this.socket.write(bytes);
    // A client that stops reading: its answers pile up here; it is closed rather than buffered for.
    if (this.socket.writableLength > this.host.settings.maxWriteBufferBytes) {
      this.host.refused('slow_reader');
      this.destroy();
    }
  }

  /** Ends the connection once what was written is flushed (or at once, if the client reads nothing). */
  private close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.socket.end();
    this.socket.setTimeout(5000, () => this.socket.destroy());
  }

  private destroy(): void {
    this.state = 'closed';
    this.socket.destroy();
  }

  private onClose(): void {
    this.state = 'closed';
    if (this.commandsInFlight.size > 0) {
      this.host.releaseCommands(this.holder, [...this.commandsInFlight.values()]);
      this.commandsInFlight.clear();
    }
    this.host.release(this);
    this.drained?.();
  }
}
