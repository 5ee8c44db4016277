// /v2 events endpoints (docs/CONTRACT.md#v2-pagination): search the organization's ingested
// events, and metrics over them per time bucket.
//
// GET /v2/events/stream follows them live: server-sent events fed by the
// organization's poller of platform/event-tail.ts.
//
// A channelId or deviceId that is not the caller's organization's is
// answered 401 "you dont have access to this channel" / "… device", as the
// platform did (docs/CONTRACT.md#v2-errors); nothing of another organization is ever read, since
// every query is scoped to the caller's organization anyway.
import { z } from 'zod';
import type { Config } from '../../../config.js';
import { EARLIEST_TIME_MS, LATEST_TIME_MS } from '../../../lib/storable.js';
import { isValidTimezone } from '../../../platform/rules/inputs.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { foreignScope, id } from './common.js';
import { eventSchema, list, metricBucketSchema, metricsMeta, totalsMeta } from './response-schemas.js';

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** epoch milliseconds, or an ISO 8601 string (UTC when it names no zone) */
const instant = z.union([z.number(), z.string().trim().max(40)]).transform((v, ctx) => {
  let ms = NaN;
  if (typeof v === 'number') ms = v;
  else if (/^\d{1,16}$/.test(v)) ms = Number(v);
  else if (ISO.test(v)) ms = Date.parse(/T.*(Z|[+-]\d{2}:\d{2})$/.test(v) || !v.includes('T') ? v : `${v}Z`);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({ code: 'custom', message: 'must be epoch milliseconds or an ISO 8601 date' });
    return z.NEVER;
  }
  if (ms < EARLIEST_TIME_MS || ms > LATEST_TIME_MS) {
    ctx.addIssue({ code: 'custom', message: 'must be a time in the years 0000 to 9999' });
    return z.NEVER;
  }
  return new Date(ms);
});

/** a path into the payload: `data.tempF`, `powers.0.batteryLevel` */
const payloadPath = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .transform((s) => s.split('.'))
  .refine(
    (segments) => segments.length <= 16 && segments.every((s) => s.length > 0 && s.length <= 64),
    'must be dot-separated keys, like data.tempF',
  );

const filter = z
  .record(z.string().max(256), z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]))
  .default({})
  .describe('payload equality tests: {"data.kind": "alarm"} keeps events whose payload has that value at that path')
  .transform((f, ctx) => {
    const entries = Object.entries(f);
    if (entries.length > 10) ctx.addIssue({ code: 'custom', message: 'at most 10 filters' });
    return entries.map(([key, value]) => {
      const parsed = payloadPath.safeParse(key);
      if (!parsed.success)
        ctx.addIssue({ code: 'custom', message: `"${key}": must be dot-separated keys, like data.tempF`, path: [key] });
      return { path: parsed.success ? parsed.data : [], value };
    });
  });

const datePath = z.enum(['serverReceivedAt', 'clientSentAt']).default('serverReceivedAt');

const searchBody = z
  .object({
    deviceId: id.optional(),
    channelId: id.optional(),
    datePath,
    from: instant.optional(),
    to: instant.optional(),
    limit: z.number().int().min(1).max(1000).default(100),
    sinceId: id.optional().describe('the last event of the previous page: the events after it in the sort order'),
    sort: z
      .object({
        field: z.enum(['serverReceivedAt']).default('serverReceivedAt'),
        order: z.enum(['asc', 'desc']).default('desc'),
      })
      .strict()
      .default({ field: 'serverReceivedAt', order: 'desc' }),
    filter,
  })
  .strict();

const metricsBody = z
  .object({
    channelId: id,
    timezone: z.string().trim().min(1).max(64).refine(isValidTimezone, 'must be an IANA time zone, like Europe/Paris'),
    from: instant.optional(),
    to: instant.optional(),
    interval: z.union([z.enum(['1h', '1d']), z.literal(false)]).default('1d'),
    metricPath: payloadPath.optional(),
    datePath,
    operation: z.enum(['avg', 'min', 'max', 'sum', 'count']).default('avg'),
    filter,
  })
  .strict()
  .refine((b) => b.operation === 'count' || b.metricPath !== undefined, {
    message: 'required unless operation is count',
    path: ['metricPath'],
  })
  .refine((b) => !b.from || !b.to || b.from <= b.to, { message: 'must not be after to', path: ['from'] });

const streamQuery = z
  .object({
    channelId: id.optional().describe("only this channel's events"),
    deviceId: id.optional().describe("only this device's events"),
  })
  .strict();

export function eventsEndpoints({ events, eventTail }: PlatformServices, config: Config): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/events/stream',
      tag: 'events',
      summary:
        "a live tail of the organization's new events (of a channel or device) as server-sent events; read it with fetch() and the Authorization header (EventSource cannot send one)",
      description:
        'A live tail of the new events of the organization, or of one channel or device, as server-sent events. Read it with fetch() and the Authorization header, since EventSource cannot send one; too many open streams are refused with 429.',
      auth: 'organization',
      action: 'events:read',
      query: streamQuery,
      responses: {
        200: {
          description:
            'an open text/event-stream: `ready` once the tail reads for it, then one `event` per new event (its id as the message id), oldest first; ' +
            'a comment line every 15 s when idle. A client that falls too far behind is dropped (EVENT_STREAM_BUFFER_BYTES), and the stream ends when the server shuts down: reconnect, and search for what was missed',
          events: {
            ready: {
              description: 'the tail reads for this stream: events committed from now on are sent',
              schema: z.strictObject({ pollMs: z.number().int().describe('how often the server reads new events') }),
            },
            event: { description: 'a new event, as the search answers it', schema: eventSchema },
          },
        },
        401: { description: 'you dont have access to this channel (or device)' },
        429: {
          description:
            'too many event streams open: of the organization on this server (EVENT_STREAMS_PER_ORGANIZATION), or on this server (EVENT_STREAMS_PER_SERVER)',
        },
      },
      async handler({ caller, query }) {
        const subscription = await foreignScope(eventTail.subscribe(caller.organizationId, query));
        return respond.eventStream({
          bufferBytes: config.eventStreams.bufferBytes,
          start(stream) {
            stream.onClose(() => subscription.close());
            subscription.start({
              ready: () => stream.send('ready', { pollMs: config.eventStreams.pollMs }),
              events: (rows) => {
                for (const row of rows) stream.send('event', row, row.id);
              },
            });
          },
        });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/events',
      tag: 'events',
      summary:
        'search the events of the organization (of a channel or device), newest first by default, paged with sinceId',
      description:
        'Searches the events of the organization, or of one channel or device, within a time range (`from`, `to`) and a `filter` on their payloads. Newest first by default, `limit` at a time, paged with `sinceId`.',
      auth: 'organization',
      action: 'events:read',
      body: searchBody,
      responses: {
        200: { description: 'a page of events', schema: list(eventSchema, totalsMeta) },
        401: { description: 'you dont have access to this channel (or device)' },
      },
      async handler({ caller, body }) {
        const { sort, ...search } = body;
        const { rows, totals } = await foreignScope(
          events.search(caller.organizationId, { ...search, order: sort.order }),
        );
        return respond.list(rows, totals);
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/events/metrics',
      tag: 'events',
      summary:
        "aggregate a numeric payload value (avg, min, max, sum, count) per hour or day of a channel's events, in a time zone",
      description:
        "Aggregates a numeric value of the payloads of a channel's events (avg, min, max, sum or count) per hour or per day in a time zone, over a time range.",
      auth: 'organization',
      action: 'events:read',
      body: metricsBody,
      responses: {
        200: {
          description: 'one bucket per hour or day (one in all with interval false)',
          schema: list(metricBucketSchema, metricsMeta),
        },
        401: { description: 'you dont have access to this channel' },
      },
      async handler({ caller, body }) {
        const { buckets, totals } = await foreignScope(events.metrics(caller.organizationId, body));
        return respond.list(buckets, {
          ...totals,
          interval: body.interval,
          timezone: body.timezone,
          operation: body.operation,
        });
      },
    }),
  ];
}
