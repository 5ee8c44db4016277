// What PostgreSQL can store (src/lib/storable.ts): whyUnstorable names the
// path of the first value it could not store, in the order the JSON reads.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, UNSTORABLE_TEXT, whyUnstorable } from '../../src/lib/storable.js';

/** `levels` arrays, one inside the other, the innermost holding `inner`. */
function nestedArrays(levels: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('whyUnstorable', () => {
  it('accepts storable values of every JSON type, however long the list', () => {
    const numbers = new Array<number>(1_000_000).fill(1.5);
    expect(
      whyUnstorable({ readings: numbers, label: 'café 😀', ok: true, none: null, nested: [{ a: [1, 'two'] }] }),
    ).toBeUndefined();
    expect(whyUnstorable(nestedArrays(MAX_JSON_DEPTH, 'deepest'))).toBeUndefined();
  });

  it('names the path of text it cannot store: in lists, under keys, and keys themselves', () => {
    const readings = new Array<unknown>(200_000).fill(0);
    readings[123_456] = { label: 'a\u0000b' };
    expect(whyUnstorable({ data: { readings } })).toBe(`data.readings.123456.label: ${UNSTORABLE_TEXT}`);
    expect(whyUnstorable({ data: [{ ok: 1 }, { ['x\ud800']: 1 }] })).toBe(`data.1.x\\ud800: ${UNSTORABLE_TEXT}`);
    expect(whyUnstorable({ 'dotted.key': ['\udc00'] })).toBe(`dotted.key.0: ${UNSTORABLE_TEXT}`);
    expect(whyUnstorable('\u0000')).toBe(`(body): ${UNSTORABLE_TEXT}`);
  });

  it('names the value nested one level too deep', () => {
    expect(whyUnstorable({ a: nestedArrays(MAX_JSON_DEPTH, 1) })).toBe(
      `a${'.0'.repeat(MAX_JSON_DEPTH - 1)}: nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(whyUnstorable({ a: nestedArrays(10_000, 1) })).toBe(
      `a${'.0'.repeat(MAX_JSON_DEPTH - 1)}: nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('names the first unstorable value in the order the JSON reads, a key before what it holds', () => {
    expect(whyUnstorable({ first: ['\u0000'], ['second\u0000']: 1, third: '\u0000' })).toBe(
      `first.0: ${UNSTORABLE_TEXT}`,
    );
    expect(whyUnstorable({ ok: 1, ['bad\u0000']: ['\u0000'], later: '\u0000' })).toBe(`bad\\u0000: ${UNSTORABLE_TEXT}`);
    expect(whyUnstorable([['fine', '\ud800'], '\u0000'])).toBe(`0.1: ${UNSTORABLE_TEXT}`);
  });
});
