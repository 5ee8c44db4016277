// How a device's MQTT payloads are read, and the reason codes the server
// answers. Which topics a device may use is ingest/device-topics.ts's (the
// broker's auth hooks apply the same rule): the topic names the device, and
// the CONNECT (or, through a broker, the message's token) proves which device
// is speaking, so a device can never write as another or read another's
// commands.
import { requestFormat, type WireFormat } from '../ingest/codec.js';

/**
 * The encoding of a payload: the MQTT 5 content type when the client gives
 * one (as Content-Type on HTTP), else the payload's first byte that is not
 * white space: `{` or `[` is JSON, anything else protobuf. A protobuf
 * message of these schemas never starts with either (0x7b and 0x5b would be
 * field 15 and 11 as deprecated groups, which proto3 has none of).
 */
export function payloadFormat(payload: Uint8Array, contentType: string | undefined): WireFormat {
  if (contentType !== undefined && contentType.trim() !== '') return requestFormat(contentType);
  for (const byte of payload) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b || byte === 0x5b ? 'json' : 'protobuf';
  }
  return 'json';
}

/**
 * MQTT reason codes the server answers (MQTT 5.0, 2.4); a 3.1.1 client gets
 * its CONNACK return codes instead (MQTT 3.1.1, 3.2.2.3), or the connection
 * closed where 3.1.1 has no way to say no.
 */
export const REASON = {
  success: 0x00,
  noSubscriptionExisted: 0x11,
  unspecifiedError: 0x80,
  malformedPacket: 0x81,
  protocolError: 0x82,
  unsupportedProtocolVersion: 0x84,
  clientIdentifierNotValid: 0x85,
  badUserNameOrPassword: 0x86,
  notAuthorized: 0x87,
  serverUnavailable: 0x88,
  serverShuttingDown: 0x8b,
  keepAliveTimeout: 0x8d,
  sessionTakenOver: 0x8e,
  topicNameInvalid: 0x90,
  receiveMaximumExceeded: 0x93,
  packetTooLarge: 0x95,
  quotaExceeded: 0x97,
  payloadFormatInvalid: 0x99,
  retainNotSupported: 0x9a,
  qosNotSupported: 0x9b,
} as const;

/** CONNACK return codes of MQTT 3.1.1 (3.2.2.3). */
export const RETURN_CODE_311 = {
  accepted: 0,
  unacceptableProtocolVersion: 1,
  identifierRejected: 2,
  serverUnavailable: 3,
  badUserNameOrPassword: 4,
  notAuthorized: 5,
} as const;

/** SUBACK's failure return code in MQTT 3.1.1 (3.9.3). */
export const SUBACK_FAILURE_311 = 0x80;
