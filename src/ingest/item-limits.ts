// Limits on how many things one request carries, checked before the costly
// part of decoding. A 4 MiB protobuf body holds two million empty events (2
// bytes each), or 1,000 events of 1,000 empty locations each, or one event
// whose properties list two million sensors: protobufjs
// built every one of those objects and zod judged each before the batch
// limit was looked at, 2 s and 19 s of the event loop. The protobuf walk
// below reads only tags and lengths (no object is made), the JSON walk only
// array lengths, and both stop at the first limit crossed. Once decoded,
// each event's values are counted (MAX_EVENT_VALUES), before validation,
// storage and rules see them.
import { CodedError, invalid, revivable } from '../errors.js';

/** Events in one batch request at most. */
export const MAX_BATCH_EVENTS = 1000;
/** Entries of one repeated field (locations, wifis, …, attributes) of one event at most. */
export const MAX_LIST_ITEMS = 1000;
/** Events plus the entries of all their lists, in one request at most. */
const MAX_REQUEST_ITEMS = 20_000;
/**
 * JSON values (objects, arrays, strings, numbers, booleans, nulls; keys do
 * not count) of one event at most, as sent in JSON or as the JSON form of a
 * protobuf event. The other limits count containers and list entries, not
 * what they hold: a 3.8 MB IoT event could be one list of 1.9 million
 * numbers, every one then walked by the storability check, the channel's
 * schema and each rule. A mobile event with 1,000 fully filled locations is
 * about 7,000 values; an IoT reading of a few thousand samples fits.
 */
export const MAX_EVENT_VALUES = 10_000;

/** Event's repeated fields (proto/ingress.proto): locations, wifis, ibeacons, powers, activities, attributes, error. */
const EVENT_LIST_FIELDS = new Map<number, string>([
  [2, 'locations'],
  [3, 'wifis'],
  [4, 'ibeacons'],
  [5, 'powers'],
  [6, 'activities'],
  [10, 'attributes'],
  [11, 'error'],
]);
const EVENT_LIST_NAMES = [...EVENT_LIST_FIELDS.values()];
/**
 * Event's message fields whose messages have lists of their own: field, name,
 * and the nested repeated fields (Configuration.useSensors, Property.sensors).
 * Their entries count like an event's own; a message field sent many times
 * (protobufjs merges each occurrence into the last) counts once per time.
 */
const EVENT_NESTED_LISTS = new Map<number, { name: string; lists: Map<number, string> }>([
  [7, { name: 'configurations', lists: new Map([[4, 'useSensors']]) }],
  [8, { name: 'properties', lists: new Map([[8, 'sensors']]) }],
  [9, { name: 'push', lists: new Map() }],
]);

const tooMany = (detail: string) => invalid('invalid request body', detail);

class Budget {
  private items = 0;
  add(count: number): void {
    this.items += count;
    if (this.items > MAX_REQUEST_ITEMS)
      throw tooMany(`a request may carry at most ${MAX_REQUEST_ITEMS} events and list entries in all`);
  }
}

// ---- protobuf ----------------------------------------------------------------

/** A cursor over protobuf wire format that reads tags and skips values. */
class Wire {
  pos: number;
  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (this.pos >= this.end) throw malformed();
      const byte = this.bytes[this.pos++]!;
      if (shift < 49) value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw malformed();
  }

  /** Skips the value of a field of `wireType`; for length-delimited ones returns [start, end). */
  skip(wireType: number): [number, number] | undefined {
    switch (wireType) {
      case 0:
        this.varint();
        return undefined;
      case 1:
        this.advance(8);
        return undefined;
      case 2: {
        const length = this.varint();
        const start = this.pos;
        this.advance(length);
        return [start, this.pos];
      }
      case 5:
        this.advance(4);
        return undefined;
      default:
        throw malformed(); // groups (3, 4) are not in this schema
    }
  }

  private advance(count: number): void {
    if (count > this.end - this.pos) throw malformed();
    this.pos += count;
  }
}

// protobufjs words the malformed bodies itself; the walk only declines them.
const malformed = () => new MalformedWire();
export class MalformedWire extends CodedError {
  readonly code = 'INGEST_MALFORMED_WIRE';
  static {
    revivable('INGEST_MALFORMED_WIRE', () => new MalformedWire());
  }
}

/** Counts the entries of the repeated fields `lists` in the message at [start, end), each against MAX_LIST_ITEMS and the budget. */
function checkListsWire(
  bytes: Uint8Array,
  start: number,
  end: number,
  lists: ReadonlyMap<number, string>,
  budget: Budget,
  where: string,
  counts = new Map<number, number>(),
  nested?: (field: number, range: [number, number] | undefined) => void,
): void {
  const wire = new Wire(bytes, start, end);
  while (wire.pos < wire.end) {
    const tag = wire.varint();
    const field = Math.floor(tag / 8);
    const range = wire.skip(tag & 7);
    nested?.(field, range);
    const name = lists.get(field);
    if (name === undefined) continue;
    const count = (counts.get(field) ?? 0) + 1;
    counts.set(field, count);
    if (count > MAX_LIST_ITEMS) throw tooMany(`${where}${name}: at most ${MAX_LIST_ITEMS} entries`);
    budget.add(1);
  }
}

function checkEventWire(bytes: Uint8Array, start: number, end: number, budget: Budget, where: string): void {
  // Every occurrence of a nested message field counts, and its lists' entries,
  // summed over the occurrences (protobufjs appends them as it merges).
  const occurrences = new Map<number, number>();
  const nestedCounts = new Map<number, Map<number, number>>();
  checkListsWire(bytes, start, end, EVENT_LIST_FIELDS, budget, where, new Map(), (field, range) => {
    const nested = EVENT_NESTED_LISTS.get(field);
    if (!nested || !range) return;
    const count = (occurrences.get(field) ?? 0) + 1;
    occurrences.set(field, count);
    if (count > MAX_LIST_ITEMS) throw tooMany(`${where}${nested.name}: sent ${count} times; at most ${MAX_LIST_ITEMS}`);
    budget.add(1);
    if (!nestedCounts.has(field)) nestedCounts.set(field, new Map());
    checkListsWire(bytes, range[0], range[1], nested.lists, budget, `${where}${nested.name}.`, nestedCounts.get(field));
  });
}

/**
 * Checks a protobuf MobileEvents (`batch`) or Event body against the limits
 * without decoding it. A body that is not well-formed wire format passes:
 * the decoder then refuses it with its own message.
 */
export function checkProtobufItems(bytes: Uint8Array, kind: 'batch' | 'event'): void {
  const budget = new Budget();
  try {
    if (kind === 'event') {
      checkEventWire(bytes, 0, bytes.length, budget, '');
      return;
    }
    const wire = new Wire(bytes, 0, bytes.length);
    let events = 0;
    while (wire.pos < wire.end) {
      const tag = wire.varint();
      const range = wire.skip(tag & 7);
      if (Math.floor(tag / 8) !== 1 || !range) continue;
      if (++events > MAX_BATCH_EVENTS) throw tooMany(`events: at most ${MAX_BATCH_EVENTS} events per batch`);
      budget.add(1);
      checkEventWire(bytes, range[0], range[1], budget, `events.${events - 1}.`);
    }
  } catch (error) {
    if (!(error instanceof MalformedWire)) throw error;
  }
}

// ---- JSON ---------------------------------------------------------------------

/**
 * Objects and arrays in one JSON body at most. JSON.parse builds every one
 * (4 MiB of `{},` is over a million objects, ~250 ms), so they are counted
 * on the bytes first (~1 ms per MiB). A full batch of events with all their
 * list entries and nested objects stays well below.
 */
export const MAX_JSON_CONTAINERS = 100_000;

export function checkJsonContainers(bytes: Uint8Array): void {
  let containers = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: skip the escaped character
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if ((byte === 0x7b || byte === 0x5b) && ++containers > MAX_JSON_CONTAINERS) {
      throw tooMany(`a JSON body may hold at most ${MAX_JSON_CONTAINERS} objects and arrays`);
    }
  }
}

/**
 * Counts the values of one event up to MAX_EVENT_VALUES and stops there: a
 * list is counted by its length before its entries are looked at, so a list
 * of millions costs no more than one at the limit.
 */
function countEventValues(event: unknown, where: string): void {
  let values = 1;
  const containers: unknown[] = [event];
  while (containers.length) {
    const container = containers.pop();
    if (typeof container !== 'object' || container === null) continue;
    const children = Array.isArray(container) ? container : Object.values(container);
    values += children.length;
    if (values > MAX_EVENT_VALUES) {
      throw tooMany(
        `${where}at most ${MAX_EVENT_VALUES} JSON values per event (objects, arrays, strings, numbers, booleans and nulls)`,
      );
    }
    for (const child of children) if (typeof child === 'object' && child !== null) containers.push(child);
  }
}

/** The events of a decoded batch (`{events: [...]}`, or a bare JSON array), or none when it has no such list (validation words that). */
function eventsOfBatch(value: unknown): unknown[] | undefined {
  const events = Array.isArray(value) ? value : (value as { events?: unknown } | null)?.events;
  return Array.isArray(events) ? events : undefined;
}

/**
 * Holds each event of a decoded body (parsed JSON, or a protobuf message as
 * plain objects) to MAX_EVENT_VALUES, naming the event of a batch. IoT
 * payloads are events too.
 */
export function checkEventValues(value: unknown, kind: 'batch' | 'event'): void {
  if (kind === 'event') {
    countEventValues(value, '');
    return;
  }
  eventsOfBatch(value)?.forEach((event, i) => countEventValues(event, `events.${i}: `));
}

function checkListsValue(value: unknown, names: Iterable<string>, budget: Budget, where: string): void {
  if (typeof value !== 'object' || value === null) return;
  for (const name of names) {
    const list = (value as Record<string, unknown>)[name];
    const count = Array.isArray(list)
      ? list.length
      : typeof list === 'object' && list !== null
        ? Object.keys(list).length
        : 0;
    if (count > MAX_LIST_ITEMS) throw tooMany(`${where}${name}: at most ${MAX_LIST_ITEMS} entries`);
    budget.add(count);
  }
}

function checkEventValue(event: unknown, budget: Budget, where: string): void {
  if (typeof event !== 'object' || event === null) return;
  checkListsValue(event, EVENT_LIST_NAMES, budget, where);
  for (const { name, lists } of EVENT_NESTED_LISTS.values()) {
    checkListsValue((event as Record<string, unknown>)[name], lists.values(), budget, `${where}${name}.`);
  }
}

/** The same limits over a parsed JSON batch (`{events: [...]}` or a bare array) or event, before validation. */
export function checkJsonItems(value: unknown, kind: 'batch' | 'event'): void {
  const budget = new Budget();
  if (kind === 'event') {
    checkEventValue(value, budget, '');
    return;
  }
  const events = eventsOfBatch(value);
  if (!events) return;
  if (events.length > MAX_BATCH_EVENTS) throw tooMany(`events: at most ${MAX_BATCH_EVENTS} events per batch`);
  budget.add(events.length);
  events.forEach((event, i) => checkEventValue(event, budget, `events.${i}.`));
}
