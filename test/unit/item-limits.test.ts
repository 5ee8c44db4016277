// The limits on what one request carries (src/ingest/item-limits.ts): counted on a body's bytes before it is decoded, and values per event.
import { describe, expect, it } from 'vitest';
import { decodeEvent, decodeEventBatch, decodeIotPayload } from '../../src/ingest/codec.js';
import {
  checkJsonContainers,
  checkProtobufItems,
  MAX_EVENT_VALUES,
  MAX_JSON_CONTAINERS,
} from '../../src/ingest/item-limits.js';
import { mobileEventWithValues, protobufBatch, protobufEvent } from '../helpers/mobile-event-values.js';
import { ProtoWriter } from '../helpers/protobuf.js';

const text = (s: string) => new TextEncoder().encode(s);

/** Field `field` holding `value` (ProtoWriter spreads its bytes, too many for megabytes). */
function lengthDelimited(field: number, value: Uint8Array): Uint8Array {
  const head = [field * 8 + 2];
  for (let n = value.length; ; n = Math.floor(n / 128)) {
    head.push(n >= 128 ? (n % 128) | 0x80 : n);
    if (n < 128) break;
  }
  const out = new Uint8Array(head.length + value.length);
  out.set(head);
  out.set(value, head.length);
  return out;
}
const detailOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { detail?: string }).detail;
  }
  return undefined;
};

describe('JSON containers', () => {
  it('counts objects and arrays outside strings only', () => {
    expect(() => checkJsonContainers(text('[' + '{},'.repeat(MAX_JSON_CONTAINERS - 2) + '{}]'))).not.toThrow();
    expect(detailOf(() => checkJsonContainers(text('[' + '{},'.repeat(MAX_JSON_CONTAINERS - 1) + '{}]')))).toBe(
      'a JSON body may hold at most 100000 objects and arrays',
    );
    expect(() => checkJsonContainers(text(JSON.stringify({ s: '{['.repeat(MAX_JSON_CONTAINERS) })))).not.toThrow();
    // an escaped quote does not end the string
    expect(() =>
      checkJsonContainers(text(JSON.stringify({ s: '\\"' + '{'.repeat(MAX_JSON_CONTAINERS + 1) }))),
    ).not.toThrow();
  });

  it('refuses 4 MiB of empty events before parsing them', () => {
    const body = text('[' + '{},'.repeat(1_300_000) + '{}]');
    expect(detailOf(() => decodeEventBatch(body, 'json'))).toBe(
      'a JSON body may hold at most 100000 objects and arrays',
    );
  });
});

describe('JSON text', () => {
  it('refuses bytes that are not UTF-8 instead of storing U+FFFD for them', () => {
    const body = Buffer.concat([
      Buffer.from('[{"attributes":{"name":"caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}}]'),
    ]);
    expect(detailOf(() => decodeEventBatch(body, 'json'))).toBe('the body is not valid UTF-8');
    expect(decodeEventBatch(Buffer.from('[{"attributes":{"name":"café"}}]'), 'json').events[0]!.attributes).toEqual({
      name: 'café',
    });
  });
});

describe('protobuf walk', () => {
  it('counts events and list entries by field number without decoding', () => {
    const event = new ProtoWriter().int64(1, 5).bytes(2, new Uint8Array()).bytes(2, new Uint8Array()).finish();
    const batch = new ProtoWriter();
    for (let i = 0; i < 1001; i++) batch.bytes(1, event);
    expect(detailOf(() => checkProtobufItems(batch.finish(), 'batch'))).toBe('events: at most 1000 events per batch');
    const fine = new ProtoWriter();
    for (let i = 0; i < 1000; i++) fine.bytes(1, event);
    expect(() => checkProtobufItems(fine.finish(), 'batch')).not.toThrow();
  });

  it('counts the lists nested in an event (properties.sensors, configurations.useSensors) before decoding', () => {
    // One event whose properties list two million sensors (4 MiB): refused on the bytes.
    const sensors = new Uint8Array(4_000_000);
    for (let i = 0; i < sensors.length; i += 2) sensors[i] = 0x42; // field 8, length-delimited, empty: one sensor ""
    const event = lengthDelimited(8, sensors);
    expect(event.length).toBeGreaterThan(4_000_000);
    expect(detailOf(() => checkProtobufItems(event, 'event'))).toBe('properties.sensors: at most 1000 entries');
    expect(detailOf(() => decodeEventBatch(lengthDelimited(1, event), 'protobuf'))).toBe(
      'events.0.properties.sensors: at most 1000 entries',
    );
    // The entries of a nested message sent several times add up, as the decoder merges them.
    const half = new ProtoWriter();
    for (let i = 0; i < 600; i++) half.bytes(4, new TextEncoder().encode('gps'));
    const twice = new ProtoWriter().bytes(7, half.finish()).bytes(7, half.finish()).finish();
    expect(detailOf(() => checkProtobufItems(twice, 'event'))).toBe('configurations.useSensors: at most 1000 entries');
    // And the same in JSON.
    const json = text(JSON.stringify({ properties: { sensors: Array.from({ length: 1001 }, () => 'gps') } }));
    expect(detailOf(() => decodeEventBatch(text(`[${new TextDecoder().decode(json)}]`), 'json'))).toBe(
      'events.0.properties.sensors: at most 1000 entries',
    );
  });

  it('leaves malformed wire format to the decoder, which words the error', () => {
    const truncated = new Uint8Array([0x0a, 0x05, 0x08]);
    expect(() => checkProtobufItems(truncated, 'batch')).not.toThrow();
    expect(() => decodeEventBatch(truncated, 'protobuf')).toThrow(/invalid protobuf body|index out of range/);
  });
});

describe('JSON values per event', () => {
  const capped = `at most ${MAX_EVENT_VALUES} JSON values per event (objects, arrays, strings, numbers, booleans and nulls)`;
  const json = (value: unknown) => text(JSON.stringify(value));

  it('counts values of every type, keys not, up to the cap', () => {
    // The object, its list, the list's entries and an empty list after them: entries + 3 values.
    const mixed = (entries: number) => ({
      v: Array.from({ length: entries }, (_, i) => [i, 'text', true, null, {}][i % 5]).concat([[]]),
    });
    expect(decodeIotPayload(json(mixed(MAX_EVENT_VALUES - 3)))).toEqual(mixed(MAX_EVENT_VALUES - 3));
    expect(detailOf(() => decodeIotPayload(json(mixed(MAX_EVENT_VALUES - 2))))).toBe(capped);
    // A list far over the cap (3.8 MB of numbers) is refused on its length.
    expect(detailOf(() => decodeIotPayload(text(`{"readings":[${'1,'.repeat(1_900_000)}1]}`)))).toBe(capped);
    // Values nested in objects count the same: three objects and their entries.
    const deep = { a: { b: Object.fromEntries(Array.from({ length: MAX_EVENT_VALUES - 3 }, (_, i) => [`k${i}`, i])) } };
    expect(() => decodeIotPayload(json(deep))).not.toThrow();
    expect(detailOf(() => decodeIotPayload(json({ ...deep, c: 1 })))).toBe(capped);
  });

  it('holds mobile events to the cap in JSON and protobuf, single and in batches, naming the event', () => {
    const atCap = mobileEventWithValues(MAX_EVENT_VALUES);
    const overCap = mobileEventWithValues(MAX_EVENT_VALUES + 1);
    expect(decodeEvent(json(atCap), 'json').events).toHaveLength(1);
    expect(decodeEvent(protobufEvent(atCap), 'protobuf').events).toHaveLength(1);
    expect(decodeEventBatch(json({ events: [{}, atCap] }), 'json').events).toHaveLength(2);
    expect(decodeEventBatch(protobufBatch([{}, atCap]), 'protobuf').events).toHaveLength(2);
    expect(detailOf(() => decodeEvent(json(overCap), 'json'))).toBe(capped);
    expect(detailOf(() => decodeEvent(protobufEvent(overCap), 'protobuf'))).toBe(capped);
    expect(detailOf(() => decodeEventBatch(json({ events: [{}, overCap] }), 'json'))).toBe(`events.1: ${capped}`);
    expect(detailOf(() => decodeEventBatch(json([{}, {}, overCap]), 'json'))).toBe(`events.2: ${capped}`);
    expect(detailOf(() => decodeEventBatch(protobufBatch([{}, overCap]), 'protobuf'))).toBe(`events.1: ${capped}`);
    // Fields the server does not know count too: they are what was sent.
    const unknownList = { timestamp: 1_767_261_600_000, samples: new Array(MAX_EVENT_VALUES).fill(0) };
    expect(detailOf(() => decodeEvent(json(unknownList), 'json'))).toBe(capped);
  });
});
