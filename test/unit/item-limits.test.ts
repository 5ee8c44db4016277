// The limits checked on a body's bytes before it is decoded (src/ingest/item-limits.ts).
import { describe, expect, it } from 'vitest';
import { decodeEventBatch } from '../../src/ingest/codec.js';
import { checkJsonContainers, checkProtobufItems, MAX_JSON_CONTAINERS } from '../../src/ingest/item-limits.js';
import { ProtoWriter } from '../helpers/protobuf.js';

const text = (s: string) => new TextEncoder().encode(s);
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
    expect(() => checkJsonContainers(text(JSON.stringify({ s: '\\"' + '{'.repeat(MAX_JSON_CONTAINERS + 1) })))).not.toThrow();
  });

  it('refuses 4 MiB of empty events before parsing them', () => {
    const body = text('[' + '{},'.repeat(1_300_000) + '{}]');
    expect(detailOf(() => decodeEventBatch(body, 'json'))).toBe('a JSON body may hold at most 100000 objects and arrays');
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

  it('leaves malformed wire format to the decoder, which words the error', () => {
    const truncated = new Uint8Array([0x0a, 0x05, 0x08]);
    expect(() => checkProtobufItems(truncated, 'batch')).not.toThrow();
    expect(() => decodeEventBatch(truncated, 'protobuf')).toThrow(/invalid protobuf body|index out of range/);
  });
});
