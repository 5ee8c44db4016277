// One published message into the ingestion service, whichever way it came:
// a device's own connection to the server's listener (connection.ts) or a
// broker the server subscribes to (broker-subscriber.ts). The same payload
// limit, token check, decoding by topic, rate limits, validation and
// idempotency keys as the HTTP ingestion routes; what comes back is the
// message's outcome, which the listener answers as a PUBACK reason code and
// the broker subscriber counts.
import { CodedError, DomainError } from '../errors.js';
import { decodeEventBatch, decodeIotPayload } from '../ingest/codec.js';
import type { PublishTopic } from '../ingest/device-topics.js';
import type { IngestService } from '../ingest/ingest-service.js';
import { REASON, payloadFormat } from './topics.js';

export type MessageOutcome = 'stored' | 'invalid' | 'throttled' | 'too_large' | 'failed';

export interface Outcome {
  reason: number;
  reasonString?: string;
  outcome: MessageOutcome;
  /** the token does not hold (revoked, expired, unknown), or names another device than the topic's */
  denied?: 'token' | 'wrong_device';
}

export interface PublishedMessage {
  kind: PublishTopic;
  /** the device the topic names: the token's must be it */
  deviceId: string;
  /** the device token the message is sent with */
  token: string;
  payload: Buffer;
  /** MQTT 5 content type */
  contentType: string | undefined;
  /** the sender's key: the `idempotency-key` user property, or the listener's own for QoS 1 */
  idempotencyKey: string | undefined;
  /** a key of the delivery, for messages a broker may hand again (IngestService's dedupKey) */
  deliveryKey?: string;
}

/** What ingesting a message needs beside it. */
export interface MessageIngestHost {
  readonly ingest: IngestService;
  /** MAX_INGEST_BODY_BYTES: a message's payload, as a request's body */
  readonly maxPayloadBytes: number;
  readonly logger: { warn(message: string, fields?: Record<string, unknown>): void };
}

/** Stores the message; resolves with its outcome once committed or refused (never rejects). */
export async function ingestPublished(host: MessageIngestHost, message: PublishedMessage): Promise<Outcome> {
  const { payload } = message;
  const limit = host.maxPayloadBytes;
  if (payload.length > limit)
    return {
      reason: REASON.quotaExceeded,
      reasonString: `payload of ${payload.length} bytes is over the limit of ${limit} bytes (MAX_INGEST_BODY_BYTES)`,
      outcome: 'too_large',
    };
  try {
    const device = host.ingest.authenticateNow(message.token) ?? (await host.ingest.authenticate(message.token));
    if (device.deviceId !== message.deviceId)
      return {
        reason: REASON.notAuthorized,
        reasonString: `the token is not the device's of the topic (devices/${message.deviceId}/…)`,
        outcome: 'invalid',
        denied: 'wrong_device',
      };
    const key = message.idempotencyKey;
    if (message.kind === 'events')
      await host.ingest.submitIot(device, decodeIotPayload(payload), key, message.deliveryKey);
    else {
      const format = payloadFormat(payload, message.contentType);
      await host.ingest.submitMobile(device, decodeEventBatch(payload, format), key, message.deliveryKey);
    }
    return { reason: REASON.success, outcome: 'stored' };
  } catch (error) {
    return refusal(host, error, message.deviceId);
  }
}

/** The `idempotency-key` MQTT 5 user property, as the HTTP header (at most 256 characters). */
export function givenIdempotencyKey(userProperties: Record<string, string | string[]> | undefined): string | undefined {
  const property = userProperties?.['idempotency-key'];
  const given = Array.isArray(property) ? property[0] : property;
  return given ? given.slice(0, 256) : undefined;
}

/** A refused message's outcome; the server's own failures logged. */
function refusal(host: MessageIngestHost, error: unknown, deviceId: string): Outcome {
  if (error instanceof DomainError) {
    const reasonString = error.detail ? `${error.message}: ${error.detail}` : error.message;
    switch (error.kind) {
      case 'invalid':
        return { reason: REASON.payloadFormatInvalid, reasonString, outcome: 'invalid' };
      case 'throttled':
      case 'too-large':
        return { reason: REASON.quotaExceeded, reasonString, outcome: 'throttled' };
      case 'unauthenticated':
        return { reason: REASON.notAuthorized, reasonString, outcome: 'invalid', denied: 'token' };
      default:
        break;
    }
  } else if (error instanceof CodedError && (error.code === 'INGEST_MALFORMED_WIRE' || error.code === 'UTF8_INVALID')) {
    return {
      reason: REASON.payloadFormatInvalid,
      reasonString: error.message || 'malformed payload',
      outcome: 'invalid',
    };
  }
  host.logger.warn('mqtt message not stored', { error, deviceId });
  return { reason: REASON.unspecifiedError, reasonString: 'not stored: the server failed', outcome: 'failed' };
}

/** Published messages counted by topic and outcome: the listener's and broker mode's /metrics series, one shape. */
export class MessageCounts {
  private readonly counts = new Map<string, number>();

  add(topic: PublishTopic, outcome: MessageOutcome): void {
    const key = `${topic} ${outcome}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** The samples of a counter labelled `topic` and `outcome`. */
  samples(): Array<{ labels: { topic: string; outcome: string }; value: number }> {
    return [...this.counts].map(([key, value]) => {
      const [topic, outcome] = key.split(' ');
      return { labels: { topic: topic!, outcome: outcome! }, value };
    });
  }
}
