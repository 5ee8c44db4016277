// Ids (src/ids.ts): ULIDs that the ulid package reads back, in the order they were made.
import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';

describe('newId', () => {
  it('makes valid ULIDs of the current time', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(after);
  });

  it('is strictly increasing, within a millisecond too, and never repeats', () => {
    const ids = Array.from({ length: 200_000 }, () => newId());
    for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) throw new Error(`${ids[i - 1]} then ${ids[i]}`);
    expect(new Set(ids).size).toBe(ids.length);
    // Many shared a millisecond: their random parts were incremented, carries included.
    const perMs = new Map<number, number>();
    for (const id of ids) perMs.set(decodeTime(id), (perMs.get(decodeTime(id)) ?? 0) + 1);
    expect(Math.max(...perMs.values())).toBeGreaterThan(32);
  });

  it('draws a new random part each millisecond', () => {
    const a = newId();
    // the first id of a later millisecond (no fixed wait: ids are drawn until the clock moves)
    let b = newId();
    while (decodeTime(b) === decodeTime(a)) b = newId();
    expect(decodeTime(b)).toBeGreaterThan(decodeTime(a));
    expect(b.slice(10)).not.toBe(a.slice(10));
  });
});
