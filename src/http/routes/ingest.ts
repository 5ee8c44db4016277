// The device ingestion API (/v1, docs/CONTRACT.md#ingest): registration, mobile and
// IoT events, and what devices read back. JSON or protobuf both ways: bodies
// are decoded by their Content-Type (a content parser), answers encoded by
// Accept. Events authenticate the device from headers before their body is
// read; registration, whose key is inside the body, reads at most 64 KiB.
import { z } from 'zod';
import { ApiError } from '../errors.js';
import {
  decodeEvent,
  decodeEventBatch,
  decodeIotPayload,
  decodeRegistration,
  encode,
  eventBatchSchema,
  eventSchema,
  ingress,
  registrationSchema,
  requestFormat,
  responseFormat,
} from '../../ingest/codec.js';
import type { DeviceReadModel } from '../../ingest/device-reads.js';
import type { IngestService } from '../../ingest/ingest-service.js';
import {
  defineEndpoint,
  respond,
  type ApiResponse,
  type ContentParser,
  type Endpoint,
  type EndpointResponseDoc,
  type ErrorMapper,
} from '../api.js';
import { queryNumber } from '../query-params.js';
import type { Request } from '../request.js';

export interface IngestRouteDeps {
  ingest: IngestService;
  reads: DeviceReadModel;
  maxBodyBytes: number;
}

/** Registration bodies are a key and a few properties; they are read before the key in them is known. */
const MAX_REGISTRATION_BODY_BYTES = 64 * 1024;

/** A body decoded as protobuf or JSON by its Content-Type, documented by the schema JSON is validated with. */
function wire<T>(
  decode: (bytes: Uint8Array, request: Request) => T,
  json: z.ZodType,
  protobuf?: string,
): ContentParser<T> {
  return {
    parse: decode,
    doc: { 'application/json': { schema: json }, ...(protobuf ? { 'application/protobuf': { protobuf } } : {}) },
  };
}
const formatOf = (req: Request) => requestFormat(req.headers['content-type']);

/** The answer in the encoding the device asked for (Accept, else its request's Content-Type). */
function answer(req: Request, type: Parameters<typeof encode>[0], value: Record<string, unknown>): ApiResponse {
  return respond.encoded(encode(type, value, responseFormat(req.headers.accept, req.headers['content-type'])));
}

// A 400 like every other malformed ingestion request (the ingestion contract
// has one bad-input status), the detail naming the limit.
const bodyLimitErrors = (setting: string): ErrorMapper => ({
  bodyTooLarge: (bytes, limit) =>
    new ApiError(400, 'request body too large', `${bytes} bytes is over the limit of ${limit} bytes (${setting})`),
});

const idempotencyKey = (req: Request) => req.headers['idempotency-key']?.slice(0, 256) || undefined;
const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  description: 'a retried request with the same key (per device, up to 256 characters) is stored once',
};

const committed: Record<number, EndpointResponseDoc> = {
  204: { description: 'committed: stored durably and its rules evaluated' },
  400: { description: 'malformed body, wrong types (the field is named), or a body over MAX_INGEST_BODY_BYTES' },
  401: { description: 'missing, forged or expired device token' },
  429: { description: 'over the device rate (Retry-After)' },
};

const registered = z.object({ token: z.string(), deviceId: z.string(), organizationId: z.string() });
const configuration = z.object({
  uuid: z.string(),
  enabled: z.boolean(),
  cadence: z.number(),
  useSensors: z.array(z.string()),
  sensors: z.array(z.string()).meta({ description: 'useSensors, as the JSON API spells it' }),
  eventTtl: z.number(),
  eventTTL: z.number().meta({ description: 'eventTtl, as the JSON API spells it' }),
  maxStorage: z.number(),
});
const beacon = z.object({ uuid: z.string(), major: z.number().optional(), minor: z.number().optional() });
const notification = z
  .object({
    id: z.string(),
    timestamp: z.number(),
    deviceId: z.string(),
    ruleId: z.string().optional(),
    actionId: z.string().optional(),
  })
  .catchall(z.unknown());
const edgeRule = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  conditions: z.string(),
  conditionObject: z.string().meta({ description: 'the condition tree, as JSON' }),
  actionsJson: z.string().meta({ description: 'the actions, as JSON, without secrets' }),
  description: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  generator: z.string(),
  organizationId: z.string(),
  channelIds: z.array(z.string()),
  projectId: z.string(),
  tags: z.array(z.string()),
  throttleInSeconds: z.number(),
});

const nonNegative = (name: string) =>
  queryNumber({
    doc: { type: 'integer', minimum: 0, description: name },
    parse: (raw) => {
      const value = Number(raw);
      return Number.isFinite(value) && value >= 0 ? value : undefined;
    },
    message: () => 'must be a non-negative number',
    blankIsAbsent: true,
  });

export function ingestEndpoints({ ingest, reads, maxBodyBytes }: IngestRouteDeps): Endpoint[] {
  const events = {
    auth: 'device',
    bodyLimit: maxBodyBytes,
    errors: bodyLimitErrors('MAX_INGEST_BODY_BYTES'),
    headers: [IDEMPOTENCY_HEADER],
    responses: committed,
  } as const;
  return [
    defineEndpoint({
      method: 'post',
      path: '/v1/registration',
      tag: 'ingestion',
      summary: 'register a device with its channel API key',
      description:
        'Registers a device with the API key of its channel and answers the device token to send on every other /v1 route, in JSON or protobuf.',
      operationId: 'register',
      auth: 'none',
      content: wire(
        (bytes, req) => decodeRegistration(bytes, formatOf(req)),
        registrationSchema,
        'RegistrationRequest',
      ),
      bodyLimit: Math.min(maxBodyBytes, MAX_REGISTRATION_BODY_BYTES),
      errors: bodyLimitErrors('the registration limit'),
      responses: {
        200: { description: 'the device token', schema: registered, protobuf: 'RegistrationResponse' },
        400: { description: 'malformed body' },
        401: { description: 'Failed to register with given API KEY' },
      },
      async handler({ body, request }) {
        return answer(request, ingress.RegistrationResponse, { ...(await ingest.register(body)) });
      },
    }),
    defineEndpoint({
      ...events,
      method: 'post',
      path: '/v1/mobile/events',
      tag: 'ingestion',
      summary: 'send one mobile event; 204 once committed',
      description:
        'Sends one event of a mobile device, as JSON or protobuf. Answers 204 once the event is committed; an Idempotency-Key makes a retry safe.',
      operationId: 'mobileEvent',
      content: wire((bytes, req) => decodeEvent(bytes, formatOf(req)), eventSchema, 'Event'),
      async handler({ body, caller, request }) {
        await ingest.submitMobile(caller, body, idempotencyKey(request));
        return respond.noContent();
      },
    }),
    defineEndpoint({
      ...events,
      method: 'post',
      path: '/v1/mobile/events/batch',
      tag: 'ingestion',
      summary: 'send up to 1,000 mobile events; 204 once committed',
      description:
        'Sends up to 1,000 events of a mobile device at once, as JSON or protobuf. Answers 204 once all are committed.',
      operationId: 'mobileEventBatch',
      content: wire((bytes, req) => decodeEventBatch(bytes, formatOf(req)), eventBatchSchema, 'MobileEvents'),
      async handler({ body, caller, request }) {
        await ingest.submitMobile(caller, body, idempotencyKey(request));
        return respond.noContent();
      },
    }),
    defineEndpoint({
      ...events,
      method: 'post',
      path: '/v1/iot/events',
      tag: 'ingestion',
      summary: "send an IoT event (free-form JSON, checked against the channel's schema); 204 once committed",
      description:
        "Sends one event of an IoT device: free-form JSON, validated against the payload schema of the device's channel. Answers 204 once it is committed.",
      operationId: 'iotEvent',
      content: wire((bytes) => decodeIotPayload(bytes), z.record(z.string(), z.unknown())),
      async handler({ body, caller, request }) {
        await ingest.submitIot(caller, body, idempotencyKey(request));
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v1/mobile/configuration',
      tag: 'ingestion',
      summary: "the device's configuration",
      description:
        'Answers the configuration of the device, in JSON or protobuf: whether it is enabled, how often it sends, which sensors it uses, how long it keeps events and how much it may store.',
      operationId: 'configuration',
      auth: 'device',
      responses: { 200: { description: 'configuration', schema: configuration, protobuf: 'Configuration' } },
      async handler({ caller, request }) {
        const config = await reads.configuration(caller);
        if (responseFormat(request.headers.accept, request.headers['content-type']) === 'protobuf') {
          return respond.encoded(encode(ingress.Configuration, { ...config }, 'protobuf'));
        }
        // The documented JSON spelling (sensors, eventTTL), plus the protobuf names.
        return respond.bare({ ...config, sensors: config.useSensors, eventTTL: config.eventTtl });
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v1/mobile/ibeacons',
      tag: 'ingestion',
      summary: 'iBeacons to whitelist',
      description: 'Answers the iBeacons the device should listen for (its whitelist), `count` at most.',
      operationId: 'ibeacons',
      auth: 'device',
      query: z.object({
        count: queryNumber({
          doc: { type: 'integer', minimum: 1, maximum: 1000, description: 'at most this many (default 100)' },
          parse: (raw) => {
            const value = Number(raw);
            return Number.isInteger(value) && value >= 1 && value <= 1000 ? value : undefined;
          },
          message: () => 'must be an integer between 1 and 1000',
        }),
      }),
      responses: {
        200: {
          description: 'beacons (protobuf: their distinct uuids)',
          schema: z.object({ ibeacons: z.array(beacon) }),
          protobuf: 'IBeaconsResponse',
        },
      },
      async handler({ caller, query, request }) {
        const beacons = await reads.ibeacons(caller, query.count ?? 100);
        if (responseFormat(request.headers.accept, request.headers['content-type']) === 'json')
          return respond.bare({ ibeacons: beacons });
        return respond.encoded(
          encode(ingress.IBeaconsResponse, { uuids: [...new Set(beacons.map((b) => b.uuid))] }, 'protobuf'),
        );
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v1/mobile/notifications',
      tag: 'ingestion',
      summary: "the device's push notifications",
      description: 'Answers the push notifications waiting for the device.',
      operationId: 'notifications',
      auth: 'device',
      query: z.object({
        startTime: nonNegative('from this time, Unix milliseconds'),
        endTime: nonNegative('up to this time, Unix milliseconds'),
        limit: nonNegative('at most this many: 100 by default, 1,000 at most'),
      }),
      responses: {
        200: {
          description: 'notifications, oldest first',
          schema: z.object({ notifications: z.array(notification), hasMoreData: z.boolean() }),
          protobuf: 'NotificationResponse',
        },
      },
      async handler({ caller, query, request }) {
        const result = await reads.notifications(caller, {
          startTime: query.startTime,
          endTime: query.endTime,
          limit: Math.min(query.limit ?? 100, 1000),
        });
        return answer(request, ingress.NotificationResponse, result);
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v1/mobile/rules',
      tag: 'ingestion',
      summary: 'edge rules for the device to run',
      description: 'Answers the rules the device runs itself (edge rules), with their conditions and actions.',
      operationId: 'edgeRules',
      auth: 'device',
      query: z.object({ ruleType: z.string().optional().meta({ description: 'edge (default)' }) }),
      responses: {
        200: { description: 'rules', schema: z.object({ rules: z.array(edgeRule) }), protobuf: 'RulesResponse' },
      },
      async handler({ caller, query, request }) {
        return answer(request, ingress.RulesResponse, { rules: await reads.rules(caller, query.ruleType) });
      },
    }),
  ];
}
