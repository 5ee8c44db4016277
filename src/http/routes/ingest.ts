// The device ingestion API (/v1, api-notes.md §2): registration, mobile and
// IoT events, and what devices read back. JSON or protobuf both ways.
import { ApiError } from '../../errors.js';
import {
  decodeEvent,
  decodeEventBatch,
  decodeIotPayload,
  decodeRegistration,
  encode,
  ingress,
  requestFormat,
  responseFormat,
} from '../../ingest/codec.js';
import type { DeviceReadModel } from '../../ingest/device-reads.js';
import type { IngestService } from '../../ingest/service.js';
import type { DeviceClaims } from '../../platform/auth/tokens.js';
import type { BodyBudget } from '../body-budget.js';
import { readGatedBody, type BodyTooLargeError, type Reply, type Request, type Route } from '../server.js';

export interface IngestRouteDeps {
  ingest: IngestService;
  reads: DeviceReadModel;
  maxBodyBytes: number;
  /** the memory budget of all buffered request bodies */
  budget: BodyBudget;
  holdMs: number;
}

/** Registration bodies are a key and a few properties; they are read before the key in them is known. */
const MAX_REGISTRATION_BODY_BYTES = 64 * 1024;

type Handler<D> = (req: Request, body: Uint8Array, reply: Reply, device: D) => Promise<void>;

export function ingestRoutes({ ingest, reads, maxBodyBytes, budget, holdMs }: IngestRouteDeps): Route[] {
  const bodyOptions = (limit: number, setting: string) => ({
    limit,
    budget,
    holdMs,
    // A 400 like every other malformed ingestion request (the ingestion
    // contract has one bad-input status), the detail naming the limit.
    tooLarge: (error: BodyTooLargeError) =>
      new ApiError(400, 'request body too large', `${error.bytes} bytes is over the limit of ${limit} bytes (${setting})`),
  });
  const events = bodyOptions(maxBodyBytes, 'MAX_INGEST_BODY_BYTES');
  const registration = bodyOptions(Math.min(maxBodyBytes, MAX_REGISTRATION_BODY_BYTES), 'the registration limit');

  /** Runs `handler` with the caller `authenticate` finds, authenticated before the body is read (readGatedBody). */
  const withBody =
    <C>(options: typeof events, authenticate: (req: Request) => Promise<C>, handler: Handler<C>): Route['handler'] =>
    (req, reply) => {
      let caller: C | undefined;
      const owner = () => (caller as { organizationId?: string } | undefined)?.organizationId;
      const body = readGatedBody(req, reply, { ...options, owner }, async () => {
        caller = await authenticate(req);
      });
      return (async () => {
        const gated = await body;
        if (!gated) return;
        try {
          await handler(req, gated.bytes, reply, caller as C);
        } finally {
          gated.release();
        }
      })();
    };
  const withDevice = (handler: Handler<DeviceClaims>) =>
    withBody(events, (req) => ingest.authenticate(req.headers.authorization), handler);
  // Registration authenticates with the key inside its body: a small one.
  const withRegistrationBody = (handler: Handler<undefined>) => withBody(registration, async () => undefined, handler);

  const idempotencyKey = (req: Request) => req.headers['idempotency-key']?.slice(0, 256) || undefined;
  const formats = (req: Request) => ({
    request: requestFormat(req.headers['content-type']),
    response: responseFormat(req.headers.accept, req.headers['content-type']),
  });
  const sendEncoded = (reply: Reply, encoded: { body: string | Uint8Array; contentType: string }) =>
    reply.send(200, encoded.body, encoded.contentType);

  return [
    {
      method: 'post',
      path: '/v1/registration',
      handler: withRegistrationBody(async (req, body, reply) => {
        const f = formats(req);
        const result = await ingest.register(decodeRegistration(body, f.request));
        sendEncoded(reply, encode(ingress.RegistrationResponse, result, f.response));
      }),
    },
    {
      method: 'post',
      path: '/v1/mobile/events',
      handler: withDevice(async (req, body, reply, device) => {
        await ingest.submitMobile(device, [decodeEvent(body, formats(req).request)], idempotencyKey(req));
        reply.send(204, '');
      }),
    },
    {
      method: 'post',
      path: '/v1/mobile/events/batch',
      handler: withDevice(async (req, body, reply, device) => {
        await ingest.submitMobile(device, decodeEventBatch(body, formats(req).request), idempotencyKey(req));
        reply.send(204, '');
      }),
    },
    {
      method: 'post',
      path: '/v1/iot/events',
      handler: withDevice(async (req, body, reply, device) => {
        await ingest.submitIot(device, decodeIotPayload(body), idempotencyKey(req));
        reply.send(204, '');
      }),
    },
    {
      method: 'get',
      path: '/v1/mobile/configuration',
      async handler(req, reply) {
        const device = await ingest.authenticate(req.headers.authorization);
        const config = await reads.configuration(device);
        const f = formats(req);
        if (f.response === 'json') {
          // The documented JSON spelling (sensors, eventTTL), plus the protobuf names.
          reply.json(200, { ...config, sensors: config.useSensors, eventTTL: config.eventTtl });
        } else {
          sendEncoded(reply, encode(ingress.Configuration, { ...config }, 'protobuf'));
        }
      },
    },
    {
      method: 'get',
      path: '/v1/mobile/ibeacons',
      async handler(req, reply) {
        const device = await ingest.authenticate(req.headers.authorization);
        const count = Number(req.query.get('count') ?? 100);
        if (!Number.isInteger(count) || count < 1 || count > 1000) throw new ApiError(400, 'invalid query parameter', 'count: must be an integer between 1 and 1000');
        const beacons = await reads.ibeacons(device, count);
        const f = formats(req);
        if (f.response === 'json') reply.json(200, { ibeacons: beacons });
        else sendEncoded(reply, encode(ingress.IBeaconsResponse, { uuids: [...new Set(beacons.map((b) => b.uuid))] }, 'protobuf'));
      },
    },
    {
      method: 'get',
      path: '/v1/mobile/notifications',
      async handler(req, reply) {
        const device = await ingest.authenticate(req.headers.authorization);
        const number = (name: string) => {
          const raw = req.query.get(name);
          if (raw === null || raw === '') return undefined;
          const value = Number(raw);
          if (!Number.isFinite(value) || value < 0) throw new ApiError(400, 'invalid query parameter', `${name}: must be a non-negative number`);
          return value;
        };
        const result = await reads.notifications(device, { startTime: number('startTime'), endTime: number('endTime'), limit: Math.min(number('limit') ?? 100, 1000) });
        sendEncoded(reply, encode(ingress.NotificationResponse, result as never, formats(req).response));
      },
    },
    {
      method: 'get',
      path: '/v1/mobile/rules',
      async handler(req, reply) {
        const device = await ingest.authenticate(req.headers.authorization);
        const rules = await reads.rules(device, req.query.get('ruleType') ?? undefined);
        sendEncoded(reply, encode(ingress.RulesResponse, { rules } as never, formats(req).response));
      },
    },
  ];
}
