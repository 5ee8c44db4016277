// The ingestion API's two encodings. Requests and answers are JSON unless
// the client says protobuf (Content-Type / Accept: application/protobuf or
// application/x-protobuf), as the platform's SDKs do. JSON accepts both
// spellings the platform's documentation and protobuf used (docs/CONTRACT.md#ingest-encodings: batteryLevel /
// batteryLife, configuration / configurations, eventTTL / eventTtl, sensors
// / useSensors, snake_case / camelCase); events are stored in one canonical
// form: the protobuf field names.
import { z } from 'zod';
import { CLIENT_TIME_RANGE, whyNotClientTimeMs } from '../lib/client-time.js';
import { isStorableText, UNSTORABLE_TEXT, whyUnstorable } from '../lib/storable.js';
import { invalid } from '../errors.js';
import { decodeUtf8 } from '../lib/utf8.js';
import { describeIssues, received } from '../lib/zod-issues.js';
import { collectUnknownFields } from './unknown-fields.js';
import { canonicalEvent } from './canonical-event.js';
import {
  checkEventValues,
  checkJsonContainers,
  checkJsonItems,
  checkProtobufItems,
  MAX_BATCH_EVENTS,
  MAX_LIST_ITEMS,
} from './item-limits.js';
import { ingress } from './generated/ingress.js';

export type WireFormat = 'json' | 'protobuf';

const PROTOBUF_TYPES = new Set(['application/protobuf', 'application/x-protobuf', 'application/vnd.google.protobuf']);

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

export function requestFormat(contentType: string | undefined): WireFormat {
  return PROTOBUF_TYPES.has(mediaType(contentType)) ? 'protobuf' : 'json';
}

export function responseFormat(accept: string | undefined, contentType: string | undefined): WireFormat {
  if (accept) {
    for (const part of accept.split(',')) if (PROTOBUF_TYPES.has(mediaType(part))) return 'protobuf';
    return 'json';
  }
  // No Accept: answer in the request's encoding.
  return requestFormat(contentType);
}

const contentTypeOf = (format: WireFormat) => (format === 'protobuf' ? 'application/protobuf' : 'application/json');

// ---- JSON input: lenient about spelling, strict about types ---------------

/**
 * int64 values: JSON numbers, or strings of digits (proto3 JSON writes int64
 * as strings); either way a safe integer, which a JavaScript number holds exactly.
 */
const int64 = z.union(
  [
    z.number().int(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number)
      .pipe(z.number().int()),
  ],
  {
    error: (issue) => `expected an integer (a JSON number, or a string of digits), got ${received(issue.input)}`,
  },
);
/**
 * The event's own time: epoch milliseconds between 2000-01-01 and a day from
 * now (lib/client-time.ts); epoch seconds, or a time that cannot be right,
 * would break the rules that measure how long a condition held.
 */
const clientTime = int64.pipe(
  z.number().superRefine((ms, ctx) => {
    const why = whyNotClientTimeMs(ms);
    if (why !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `${ms} ${why}; expected a time in epoch milliseconds, ${CLIENT_TIME_RANGE}`,
      });
  }),
);
const num = z.union(
  [
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/)
      .transform(Number),
  ],
  {
    error: (issue) => `expected a number (a JSON number, or a string of one), got ${received(issue.input)}`,
  },
);
/** A string PostgreSQL can store (lib/storable.ts). */
const storable = z.string().refine(isStorableText, { error: UNSTORABLE_TEXT });
const str = storable.max(1024);

/** Renames the alternative spellings of keys before validation. */
function renamed<T extends z.ZodType>(aliases: Record<string, string>, schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [from, to] of Object.entries(aliases)) {
      if (from in out && !(to in out)) out[to] = out[from];
      delete out[from];
    }
    return out;
  }, schema);
}

const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_LIST_ITEMS);

const location = z.object({
  timestamp: int64.optional(),
  latitude: num.pipe(z.number().min(-90).max(90)),
  longitude: num.pipe(z.number().min(-180).max(180)),
  velocity: num.optional(),
  course: num.optional(),
  accuracy: num.optional(),
});
const wifi = z.object({
  timestamp: int64.optional(),
  mac: str.optional(),
  ssid: str.optional(),
  rssi: int64.optional(),
});
const ibeacon = z.object({
  timestamp: int64.optional(),
  uuid: str.optional(),
  rssi: int64.optional(),
  major: int64.optional(),
  minor: int64.optional(),
  proximity: str.optional(),
  accuracy: num.optional(),
});
const power = renamed(
  { batteryLevel: 'batteryLife' },
  z.object({ timestamp: int64.optional(), charging: z.boolean().optional(), batteryLife: int64.optional() }),
);
const activity = z.object({
  timestamp: int64.optional(),
  type: str.optional(),
  confidenceLevel: str.optional(),
  confidencePercentage: num.optional(),
});
const configuration = renamed(
  { eventTTL: 'eventTtl', sensors: 'useSensors', max_storage: 'maxStorage' },
  z.object({
    uuid: str.optional(),
    enabled: z.boolean().optional(),
    cadence: int64.optional(),
    useSensors: z.array(str).max(100).optional(),
    eventTtl: int64.optional(),
    maxStorage: int64.optional(),
  }),
);
const property = renamed(
  { os_version: 'osVersion', software_version: 'softwareVersion' },
  z.object({
    timestamp: int64.optional(),
    manufacturer: str.optional(),
    model: str.optional(),
    os: str.optional(),
    osVersion: str.optional(),
    softwareVersion: str.optional(),
    type: str.optional(),
    sensors: z.array(str).max(100).optional(),
    name: str.optional(),
  }),
);
const push = z.object({ timestamp: int64.optional(), token: str.optional(), type: str.optional() });
const eventError = renamed(
  { error_code: 'errorCode', error_message: 'errorMessage' },
  z.object({ errorCode: int64.optional(), errorMessage: str.optional() }),
);

export const eventSchema = renamed(
  { configuration: 'configurations', errors: 'error' },
  z.object({
    timestamp: clientTime.optional(),
    locations: list(location).optional(),
    wifis: list(wifi).optional(),
    ibeacons: list(ibeacon).optional(),
    powers: list(power).optional(),
    activities: list(activity).optional(),
    configurations: configuration.optional(),
    properties: property.optional(),
    push: push.optional(),
    attributes: z
      .record(
        storable.max(256),
        z
          .union([storable, z.number(), z.boolean()], {
            error: (issue) => `expected a string, number or boolean, got ${received(issue.input)}`,
          })
          .transform(String),
      )
      .optional(),
    error: list(eventError).optional(),
  }),
);

/** The canonical stored form of a mobile event (protobuf field names). */
type MobileEvent = z.infer<typeof eventSchema>;

const batchSchema = z.object({ events: z.array(z.unknown()).min(1).max(MAX_BATCH_EVENTS) });
/** A batch as documented: what validatedBatch accepts, event by event. */
export const eventBatchSchema = z.object({ events: z.array(eventSchema).min(1).max(MAX_BATCH_EVENTS) });

/**
 * Validates a batch event by event and stops at the first invalid one:
 * zod spends ~20 µs on each issue it words, and a batch of 1,000 events
 * with a bad entry in each list would otherwise cost seconds to describe.
 */
function validatedBatch(value: unknown): MobileEvent[] {
  const { events } = validated(batchSchema, value);
  return events.map((event, index) => {
    const result = eventSchema.safeParse(event);
    if (result.success) return result.data;
    const issues = result.error.issues.map((issue) => ({ ...issue, path: ['events', index, ...issue.path] }));
    throw invalid('invalid request body', describeIssues(new z.ZodError(issues)));
  });
}

export const registrationSchema = renamed(
  { api_key: 'apiKey' },
  z.object({
    apiKey: z.string().min(1).max(256),
    properties: property.optional(),
    aliases: z.record(storable.min(1).max(64), z.union([storable, z.number()]).transform(String)).optional(),
  }),
);

export type Registration = z.infer<typeof registrationSchema>;

// ---- decoding ---------------------------------------------------------------

function parseJson(body: Uint8Array): unknown {
  checkJsonContainers(body);
  try {
    return JSON.parse(decodeUtf8(body));
  } catch (error) {
    throw invalid('invalid JSON body', (error as Error).message);
  }
}

function validated<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid('invalid request body', describeIssues(result.error));
  return result.data;
}

interface ProtoType<M> {
  decode(reader: Uint8Array): M;
  toObject(
    message: M,
    options: { longs: NumberConstructor; defaults: boolean; arrays: boolean },
  ): Record<string, unknown>;
}

/** protobuf bytes → plain object with numbers for int64, then the same validation as JSON. */
function fromProtobuf<M>(type: ProtoType<M>, body: Uint8Array, what: string): Record<string, unknown> {
  let message: M;
  try {
    message = type.decode(body);
  } catch (error) {
    throw invalid('invalid protobuf body', `${what}: ${(error as Error).message}`);
  }
  return type.toObject(message, { longs: Number, defaults: false, arrays: false });
}

/** Events already in canonical form skip zod (canonical-event.ts); zod decides the rest. */
function canonicalEvents(value: unknown): MobileEvent[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const events = (value as { events?: unknown }).events;
  if (keys.length !== 1 || !Array.isArray(events) || events.length === 0 || events.length > MAX_BATCH_EVENTS)
    return undefined;
  const out: MobileEvent[] = [];
  for (const event of events) {
    const canonical = canonicalEvent(event);
    if (!canonical) return undefined;
    out.push(canonical as MobileEvent);
  }
  return out;
}

/**
 * The body as a plain object, its item counts checked before anything
 * costly and each event's values counted before validation (item-limits.ts).
 */
function decodeChecked<M>(
  body: Uint8Array,
  format: WireFormat,
  kind: 'batch' | 'event',
  type: ProtoType<M>,
  what: string,
): unknown {
  let value: unknown;
  if (format === 'protobuf') {
    checkProtobufItems(body, kind);
    value = fromProtobuf(type, body, what);
  } else {
    value = parseJson(body);
    checkJsonItems(value, kind);
  }
  checkEventValues(value, kind);
  return value;
}

/**
 * Decoded mobile events, and the fields they carried that the server does
 * not know (dropped; unknown-fields.ts counts and logs them).
 */
export interface DecodedEvents {
  events: MobileEvent[];
  unknownFields: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** The unknown fields of events that left the fast path (which takes none). */
function unknownFieldsOf(events: readonly unknown[]): ReadonlySet<string> {
  const found = new Set<string>();
  for (const event of events) collectUnknownFields(event, found);
  return found;
}

export function decodeEvent(body: Uint8Array, format: WireFormat): DecodedEvents {
  const value = decodeChecked(body, format, 'event', ingress.Event, 'Event');
  const canonical = canonicalEvent(value) as MobileEvent | undefined;
  if (canonical) return { events: [canonical], unknownFields: NONE };
  return { events: [validated(eventSchema, value)], unknownFields: unknownFieldsOf([value]) };
}

export function decodeEventBatch(body: Uint8Array, format: WireFormat): DecodedEvents {
  const value = decodeChecked(body, format, 'batch', ingress.MobileEvents, 'MobileEvents');
  // A bare JSON array is accepted as a batch too.
  const batch = Array.isArray(value) ? { events: value } : value;
  const canonical = canonicalEvents(batch);
  if (canonical) return { events: canonical, unknownFields: NONE };
  const events = validatedBatch(batch);
  return { events, unknownFields: unknownFieldsOf((batch as { events: unknown[] }).events) };
}

export function decodeRegistration(body: Uint8Array, format: WireFormat): Registration {
  const value =
    format === 'protobuf' ? fromProtobuf(ingress.RegistrationRequest, body, 'RegistrationRequest') : parseJson(body);
  return validated(registrationSchema, value);
}

/** IoT payloads are free-form JSON objects (checked later against the channel's schema). */
export function decodeIotPayload(body: Uint8Array): Record<string, unknown> {
  const value = parseJson(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('invalid request body', 'an IoT event must be a JSON object');
  }
  checkEventValues(value, 'event');
  const unstorable = whyUnstorable(value);
  if (unstorable !== undefined) throw invalid('invalid request body', unstorable);
  return value as Record<string, unknown>;
}

// ---- encoding ---------------------------------------------------------------

interface EncodableType<M> {
  fromObject(object: Record<string, unknown>): M;
  encode(message: M): { finish(): Uint8Array };
}

export interface Encoded {
  body: string | Uint8Array;
  contentType: string;
}

/** JSON as given, or the protobuf message built from the same object. */
export function encode<M>(type: EncodableType<M>, value: Record<string, unknown>, format: WireFormat): Encoded {
  if (format === 'json') return { body: JSON.stringify(value), contentType: contentTypeOf('json') };
  return { body: type.encode(type.fromObject(value)).finish(), contentType: contentTypeOf('protobuf') };
}

export { ingress };
