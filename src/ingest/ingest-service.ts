// The device ingestion API's domain: registration with a channel API key,
// device authentication, rate limits, idempotency and the hand-off of
// events to the group-commit writer; plus what devices read back
// (configuration, beacons, notifications, edge rules).
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import { deviceCredentialsValid, registerDevice } from '../db/devices.js';
import { UNIQUE_KEY_PREFIX } from '../db/events.js';
import { findChannelSchemaId } from '../db/channels.js';
import { findSchema } from '../db/schemas.js';
import { readClientTime } from '../lib/client-time.js';
import type { Logger } from '../log.js';
import { DomainError, invalid } from '../errors.js';
import type { DeviceClaims, TokenService } from '../platform/auth/tokens.js';
import { bearer } from '../platform/auth/authenticator.js';
import type { ChannelKeyService } from '../platform/channel-keys.js';
import { validatePayload } from '../platform/payload-validation.js';
import type { DecodedEvents, Registration } from './codec.js';
import type { EventWriter, IncomingEvent } from './event-writer.js';
import { RateLimiter } from './rate-limit.js';
import { UnknownFieldReport } from './unknown-fields.js';
import { sha256OfParts } from '../lib/sha256.js';

export interface IngestSettings {
  deviceTokenTtlSeconds: number;
  deviceEventRate: number;
  deviceEventBurst: number;
}

/**
 * An IoT event's client time: its `timestamp` (epoch milliseconds, or ISO
 * 8601 text), else its `timestamp_iso8601`; null without either (or with
 * null). One that is given but is no time a device can mean is a 400
 * naming it (lib/client-time.ts), never stored as 1970 or dropped silently.
 */
function iotClientTime(payload: Record<string, unknown>): Date | null {
  let ms: number | undefined;
  for (const key of ['timestamp', 'timestamp_iso8601'] as const) {
    const value = payload[key];
    if (value === undefined || value === null) continue;
    const time =
      key === 'timestamp' || typeof value === 'string'
        ? readClientTime(value)
        : {
            problem: `expected an ISO 8601 time with a date and a zone, such as 2026-01-01T10:00:00Z, got ${typeof value === 'object' ? (Array.isArray(value) ? 'an array' : 'an object') : String(value)}`,
          };
    if ('problem' in time) throw invalid('invalid request body', `${key}: ${time.problem}`);
    ms ??= time.ms;
  }
  return ms === undefined ? null : new Date(ms);
}

/** How long a device token's credentials (and an IoT channel's schema) are trusted before checking again. */
const RECHECK_MS = 30_000;

/** A deduplication key's digest: its parts, base64url (keys already stored use it). */
export function digest(...parts: string[]): string {
  return sha256OfParts(parts, 'base64url');
}

/**
 * JSON for digests: fractional numbers at float32 precision, since the
 * protobuf fields are 32-bit floats, so a retry sent in the other encoding
 * maps to the same key.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Math.fround(v) : v,
  );
}

export class IngestService {
  private readonly limiter: RateLimiter;
  /** device id → when its token's credentials were last found valid, and for which channel key */
  private readonly knownDevices = new Map<string, { checkedAt: number; keyId: string | undefined }>();
  private readonly channelSchemas = new Map<string, { schemaId: string | null; fields: unknown; checkedAt: number }>();
  /** fields the devices send that the server drops: counted and logged once per channel */
  readonly unknownFields: UnknownFieldReport;

  constructor(
    private readonly sql: Sql,
    private readonly tokens: TokenService,
    private readonly channelKeys: ChannelKeyService,
    private readonly writer: EventWriter,
    private readonly settings: IngestSettings,
    log: Logger,
  ) {
    this.limiter = new RateLimiter(sql, settings.deviceEventRate, settings.deviceEventBurst, log);
    this.unknownFields = new UnknownFieldReport(log);
  }

  private unlisten: (() => Promise<void>) | undefined;
  /** told when device credentials may have stopped holding: connections that outlive a request check theirs again */
  private readonly credentialListeners = new Set<() => void>();

  /**
   * Calls `listener` whenever a device, channel or channel key changes in a
   * way that can end device tokens (from any server); returns the function
   * that stops it. Long-lived connections (MQTT) check their token again
   * then, so a revoked device is cut off within seconds, as HTTP refuses its
   * next request.
   */
  onCredentialsChanged(listener: () => void): () => void {
    this.credentialListeners.add(listener);
    return () => this.credentialListeners.delete(listener);
  }

  /**
   * Follows device deletions and changes to channel keys and channels (from
   * any server) so the tokens they invalidate stop working at once, and
   * sweeps idle rate buckets.
   */
  async start(): Promise<void> {
    const forget = () => {
      this.knownDevices.clear();
      this.tokens.forgetDevices();
      for (const listener of this.credentialListeners) listener();
    };
    const subscriptions = await Promise.all([
      this.sql.listen('devices_deleted', forget),
      this.sql.listen('device_credentials', forget),
    ]);
    this.unlisten = async () => {
      await Promise.all(subscriptions.map((s) => s.unlisten()));
    };
    this.limiter.start();
  }

  async stop(): Promise<void> {
    this.limiter.stop();
    await this.unlisten?.().catch(() => {});
  }

  async register(request: Registration): Promise<{ token: string; deviceId: string; organizationId: string }> {
    const channel = await this.channelKeys.authenticate(request.apiKey);
    if (!channel)
      throw new DomainError(
        'unauthenticated',
        'Failed to register with given API KEY',
        'the API key is unknown or disabled, or its channel is disabled',
      );
    const properties = request.properties ?? {};
    const device = await registerDevice(this.sql, {
      organizationId: channel.organizationId,
      channelId: channel.channelId,
      properties,
      sensors: properties.sensors ?? [],
      aliases: request.aliases ?? {},
    });
    const token = await this.tokens.issueDevice(
      {
        deviceId: device.id,
        organizationId: channel.organizationId,
        channelId: channel.channelId,
        keyId: channel.apiKeyId,
      },
      this.settings.deviceTokenTtlSeconds,
    );
    this.knownDevices.set(device.id, { checkedAt: Date.now(), keyId: channel.apiKeyId });
    return { token, deviceId: device.id, organizationId: channel.organizationId };
  }

  /**
   * The device of an Authorization header when that is known without
   * waiting: its token verified before, its device and key checked within
   * RECHECK_MS. Undefined otherwise, and authenticate() decides. The same
   * checks as authenticate's, without a promise: a device's body can then be
   * read at once, counted in its organization's part of the body memory.
   */
  authenticateNow(authorization: string | undefined): DeviceClaims | undefined {
    const token = bearer(authorization) ?? authorization?.trim();
    const claims = token ? this.tokens.verifiedDevice(token) : undefined;
    return claims && this.recentlyChecked(claims) ? claims : undefined;
  }

  /** The device of an Authorization header, with or without "Bearer " (SDKs send both). */
  async authenticate(authorization: string | undefined): Promise<DeviceClaims> {
    const token = bearer(authorization) ?? authorization?.trim();
    if (!token)
      throw new DomainError(
        'unauthenticated',
        'authentication required',
        'missing Authorization header with the device token',
      );
    const claims = await this.tokens.verifyDevice(token);
    if (!this.recentlyChecked(claims)) {
      if (!(await deviceCredentialsValid(this.sql, claims))) {
        this.knownDevices.delete(claims.deviceId);
        throw new DomainError(
          'unauthenticated',
          'invalid token',
          'this device token no longer holds: its device is not registered (deleted?), or its channel or channel API key was disabled or deleted; register again',
        );
      }
      if (this.knownDevices.size > 500_000) this.knownDevices.clear();
      this.knownDevices.set(claims.deviceId, { checkedAt: Date.now(), keyId: claims.keyId });
    }
    return claims;
  }

  /** Its device is registered, with this key, as checked in the database within RECHECK_MS. */
  private recentlyChecked(claims: DeviceClaims): boolean {
    const known = this.knownDevices.get(claims.deviceId);
    return known !== undefined && known.keyId === claims.keyId && Date.now() - known.checkedAt <= RECHECK_MS;
  }

  /**
   * The device's rate limit for `count` events (429 beyond): at once when
   * its lease decides (see RateLimiter.take), else after asking the bucket.
   * Camera frames (frames.ts) count against it too.
   */
  rateLimit(device: DeviceClaims, count: number): void | Promise<void> {
    const wait = this.limiter.take(device.deviceId, count);
    if (typeof wait === 'number') return this.throttle(wait);
    return wait.then((seconds) => this.throttle(seconds));
  }

  private throttle(waitSeconds: number): void {
    if (waitSeconds > 0) {
      throw new DomainError(
        'throttled',
        'too many events',
        `this device is over ${this.settings.deviceEventRate} events/s`,
        waitSeconds,
      );
    }
  }

  /**
   * Stores mobile events (one request = one or a batch); resolves once committed.
   * `deliveryKey`: see dedupKey.
   */
  async submitMobile(
    device: DeviceClaims,
    { events, unknownFields }: DecodedEvents,
    idempotencyKey: string | undefined,
    deliveryKey?: string,
  ): Promise<void> {
    const admitting = this.rateLimit(device, events.length);
    if (admitting) await admitting;
    if (unknownFields.size > 0) this.unknownFields.note(device.channelId, unknownFields);
    const now = new Date();
    const incoming = events.map((event, index): IncomingEvent => {
      const timestamp = typeof event.timestamp === 'number' ? event.timestamp : undefined;
      const id = newId(); // monotonic: events sort in arrival order
      return {
        id,
        organizationId: device.organizationId,
        channelId: device.channelId,
        deviceId: device.deviceId,
        source: 'mobile',
        serverReceivedAt: now,
        clientSentAt: timestamp === undefined ? null : new Date(timestamp),
        payload: event as Record<string, unknown>,
        dedupKey: this.dedupKey(id, device, { idempotencyKey, deliveryKey }, index, timestamp, event),
      };
    });
    await this.writer.write(incoming);
  }

  /** Stores an IoT event after checking it against its channel's schema (400 naming the path); `deliveryKey`: see dedupKey. */
  async submitIot(
    device: DeviceClaims,
    payload: Record<string, unknown>,
    idempotencyKey: string | undefined,
    deliveryKey?: string,
  ): Promise<void> {
    const clientSentAt = iotClientTime(payload);
    const admitting = this.rateLimit(device, 1);
    if (admitting) await admitting;
    const schema = await this.schemaOf(device);
    if (schema) {
      const violation = validatePayload(schema as never, payload);
      if (violation) throw invalid('payload does not match the schema for this channel', violation);
    }
    const id = newId();
    await this.writer.write([
      {
        id,
        organizationId: device.organizationId,
        channelId: device.channelId,
        deviceId: device.deviceId,
        source: 'iot',
        serverReceivedAt: new Date(),
        clientSentAt,
        payload,
        dedupKey: this.dedupKey(id, device, { idempotencyKey, deliveryKey }, 0, clientSentAt?.getTime(), payload),
      },
    ]);
  }

  /**
   * A retry must map to the same key: the client's Idempotency-Key, or the
   * device, client timestamp and payload. Without either, a `deliveryKey`
   * names the one delivery a transport may repeat (a broker handing the same
   * message again: docs/OPERATIONS.md, "MQTT broker mode"); it comes after the
   * client's time because a time and payload stay the same whichever replica
   * the broker hands the message to, while a delivery is one replica's. With
   * none of them there is nothing that identifies a retry, so the event is
   * always new.
   */
  private dedupKey(
    eventId: string,
    device: DeviceClaims,
    keys: { idempotencyKey: string | undefined; deliveryKey: string | undefined },
    index: number,
    timestamp: number | undefined,
    payload: unknown,
  ): string {
    if (keys.idempotencyKey) return `k:${digest(keys.idempotencyKey, String(index))}`;
    if (timestamp !== undefined) return `p:${digest(device.deviceId, String(timestamp), canonicalJson(payload))}`;
    if (keys.deliveryKey) return `d:${digest(keys.deliveryKey, String(index))}`;
    return `${UNIQUE_KEY_PREFIX}${eventId}`;
  }

  private async schemaOf(device: DeviceClaims): Promise<unknown> {
    const cached = this.channelSchemas.get(device.channelId);
    if (cached && Date.now() - cached.checkedAt < RECHECK_MS) return cached.schemaId ? cached.fields : undefined;
    const channel = await findChannelSchemaId(this.sql, device.organizationId, device.channelId);
    const schema = channel?.schemaId ? await findSchema(this.sql, device.organizationId, channel.schemaId) : undefined;
    this.channelSchemas.set(device.channelId, { schemaId: schema?.id ?? null, fields: schema, checkedAt: Date.now() });
    return schema;
  }
}
