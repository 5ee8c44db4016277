// A fast path for validating mobile events that are already in canonical
// form (protobuf field names, right types, nothing to rename or convert):
// what the SDKs send, and every protobuf event. zod (codec.ts) stays the
// definition: it handles everything else (alternative spellings, numbers
// sent as strings, unknown keys to strip) and writes every error message.
// Validating a single event with zod cost more of the server's time than
// parsing it, on the hottest path there is (`npm run bench -- ingest`).
//
// The contract, checked by test/unit/canonical-event.test.ts: for any input,
// canonicalEvent returns either undefined or exactly what zod would return,
// keys in zod's order (idempotency digests are computed over it).
import { isClientTimeMs } from '../lib/client-time.js';
import { isStorableText } from '../lib/storable.js';

/** Every field is optional but a location's latitude and longitude. */
type Kind =
  | 'int64'
  | 'time'
  | 'number'
  | 'latitude'
  | 'longitude'
  | 'string'
  | 'boolean'
  | 'strings'
  | 'attributes'
  | { object: Shape }
  | { list: Shape };

/** Keys in the order of the zod schema's shape, which is the order zod writes them. */
export type Shape = Readonly<Record<string, Kind>>;

export function isRequired(kind: Kind): boolean {
  return kind === 'latitude' || kind === 'longitude';
}

const MAX_STRING = 1024;
const MAX_LIST = 1000;
const MAX_STRINGS = 100;
const MAX_ATTRIBUTE_KEY = 256;

const location: Shape = {
  timestamp: 'int64',
  latitude: 'latitude',
  longitude: 'longitude',
  velocity: 'number',
  course: 'number',
  accuracy: 'number',
};
const wifi: Shape = { timestamp: 'int64', mac: 'string', ssid: 'string', rssi: 'int64' };
const ibeacon: Shape = {
  timestamp: 'int64',
  uuid: 'string',
  rssi: 'int64',
  major: 'int64',
  minor: 'int64',
  proximity: 'string',
  accuracy: 'number',
};
const power: Shape = { timestamp: 'int64', charging: 'boolean', batteryLife: 'int64' };
const activity: Shape = {
  timestamp: 'int64',
  type: 'string',
  confidenceLevel: 'string',
  confidencePercentage: 'number',
};
const configuration: Shape = {
  uuid: 'string',
  enabled: 'boolean',
  cadence: 'int64',
  useSensors: 'strings',
  eventTtl: 'int64',
  maxStorage: 'int64',
};
const property: Shape = {
  timestamp: 'int64',
  manufacturer: 'string',
  model: 'string',
  os: 'string',
  osVersion: 'string',
  softwareVersion: 'string',
  type: 'string',
  sensors: 'strings',
  name: 'string',
};
const push: Shape = { timestamp: 'int64', token: 'string', type: 'string' };
const eventError: Shape = { errorCode: 'int64', errorMessage: 'string' };

/** The mobile event, as codec.ts's eventSchema after its renames. */
export const EVENT_SHAPE: Shape = {
  timestamp: 'time',
  locations: { list: location },
  wifis: { list: wifi },
  ibeacons: { list: ibeacon },
  powers: { list: power },
  activities: { list: activity },
  configurations: { object: configuration },
  properties: { object: property },
  push: { object: push },
  attributes: 'attributes',
  error: { list: eventError },
};

/** Marks a value the fast path leaves to zod. */
const DECLINE = Symbol('decline');

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): string[] | typeof DECLINE {
  if (!Array.isArray(value) || value.length > MAX_STRINGS) return DECLINE;
  for (const item of value)
    if (typeof item !== 'string' || item.length > MAX_STRING || !isStorableText(item)) return DECLINE;
  return value.slice();
}

function attributes(value: unknown): Record<string, string> | typeof DECLINE {
  if (!isPlainObject(value)) return DECLINE;
  const out: Record<string, string> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const v = value[key];
    if (key.length > MAX_ATTRIBUTE_KEY || key === '__proto__' || !isStorableText(key)) return DECLINE;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return DECLINE;
      out[key] = v;
    } else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') out[key] = String(v);
    else return DECLINE;
  }
  return out;
}

function field(kind: Kind, value: unknown): unknown {
  switch (kind) {
    case 'int64':
      return Number.isSafeInteger(value) ? value : DECLINE;
    case 'time': // epoch milliseconds a device can mean (lib/client-time.ts); zod words the refusal of others
      return isClientTimeMs(value) ? value : DECLINE;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : DECLINE;
    case 'latitude':
      return typeof value === 'number' && value >= -90 && value <= 90 ? value : DECLINE;
    case 'longitude':
      return typeof value === 'number' && value >= -180 && value <= 180 ? value : DECLINE;
    case 'string':
      return typeof value === 'string' && value.length <= MAX_STRING && isStorableText(value) ? value : DECLINE;
    case 'boolean':
      return typeof value === 'boolean' ? value : DECLINE;
    case 'strings':
      return strings(value);
    case 'attributes':
      return attributes(value);
    default: {
      if ('object' in kind) return object(kind.object, value);
      if (!Array.isArray(value) || value.length > MAX_LIST) return DECLINE;
      const out = new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = object(kind.list, value[i]);
        if (item === DECLINE) return DECLINE;
        out[i] = item;
      }
      return out;
    }
  }
}

function object(shape: Shape, value: unknown): Record<string, unknown> | typeof DECLINE {
  if (!isPlainObject(value)) return DECLINE;
  // A key outside the shape (an alternative spelling, or one zod would strip) goes to zod.
  for (const key in value) if (Object.hasOwn(value, key) && !Object.hasOwn(shape, key)) return DECLINE;
  const out: Record<string, unknown> = {};
  for (const key in shape) {
    if (!Object.hasOwn(value, key)) {
      if (isRequired(shape[key]!)) return DECLINE;
      continue;
    }
    const v = value[key];
    // An explicit undefined is absent to zod's optional fields, but zod keeps the key.
    if (v === undefined) return DECLINE;
    const checked = field(shape[key]!, v);
    if (checked === DECLINE) return DECLINE;
    out[key] = checked;
  }
  return out;
}

/** The validated event when `value` is a canonical mobile event; undefined when zod must decide. */
export function canonicalEvent(value: unknown): Record<string, unknown> | undefined {
  const out = object(EVENT_SHAPE, value);
  return out === DECLINE ? undefined : out;
}
