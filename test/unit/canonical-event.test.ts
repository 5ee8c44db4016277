// The fast path for canonical mobile events must be invisible: for any
// input it either declines or returns exactly what the zod schema returns
// (same values, same key order, since idempotency digests are taken over it).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DomainError } from '../../src/errors.js';
import { ApiError } from '../../src/http/errors.js';
import { canonicalEvent, EVENT_SHAPE, isRequired, type Shape } from '../../src/ingest/canonical-event.js';
import { decodeEvent, decodeEventBatch, eventSchema, ingress } from '../../src/ingest/codec.js';
import { random } from '../helpers/random.js';

/** The object schema inside zod's wrappers (preprocess pipes, optional, arrays). */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case 'object':
      return def.shape;
    case 'pipe':
      return objectShape(def.out) ?? objectShape(def.in);
    case 'optional':
      return objectShape(def.innerType);
    case 'array':
      return objectShape(def.element);
    default:
      return undefined;
  }
}

/** Asserts that the fast path's shape lists the schema's keys, in order, at every level. */
function expectSameKeys(shape: Shape, schema: z.ZodType, path: string): void {
  const zodShape = objectShape(schema);
  expect(zodShape, path).toBeDefined();
  expect(Object.keys(shape), path).toEqual(Object.keys(zodShape!));
  for (const [key, kind] of Object.entries(shape)) {
    const optional = (zodShape![key] as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'optional';
    expect(typeof kind === 'string' && isRequired(kind), `${path}.${key} is required`).toBe(!optional);
    if (typeof kind === 'object')
      expectSameKeys('object' in kind ? kind.object : kind.list, zodShape![key]!, `${path}.${key}`);
    else if (kind !== 'attributes' && kind !== 'strings')
      expect(objectShape(zodShape![key]!), `${path}.${key} is a scalar`).toBeUndefined();
  }
}

/** Values near the edges of what the schema accepts, and some it rejects. */
function generator(rand: () => number) {
  const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)]!;
  const odd = () =>
    pick<unknown>([
      null,
      undefined,
      'x',
      '12',
      '1.5',
      1.5,
      -0,
      2 ** 53,
      NaN,
      Infinity,
      true,
      {},
      [],
      'a'.repeat(1025),
      91,
      -181,
    ]);
  const scalar = (kind: string): unknown => {
    if (rand() < 0.08) return odd();
    switch (kind) {
      case 'int64':
        return pick([0, 1, -7, 1_700_000_000_000, Number.MAX_SAFE_INTEGER]);
      case 'time':
        return pick([
          0,
          1_700_000_000,
          1_700_000_000_000,
          946_684_799_999,
          946_684_800_000,
          Date.now() + 3_600_000,
          Date.now() + 2 * 86_400_000,
          253_402_300_800_000,
          -1,
        ]);
      case 'number':
        return pick([0, 2.5, -3.75, 1e-7, 12345.678]);
      case 'latitude':
        return pick([-90, 0, 48.8566, 90, 45.123456789]);
      case 'longitude':
        return pick([-180, 2.3522, 180, -73.98]);
      case 'string':
        // Now and then text PostgreSQL cannot store (U+0000, unpaired surrogates).
        if (rand() < 0.03) return pick(['a\u0000b', '\ud800', 'x\udc00']);
        return pick(['', 'abc', 'é€😀', 'a'.repeat(1024), '__proto__']);
      case 'boolean':
        return pick([true, false]);
      case 'strings':
        return Array.from({ length: Math.floor(rand() * 3) }, () => pick(['gps', 'wifi', 'x'.repeat(1024)]));
      default: {
        const entries = Array.from({ length: Math.floor(rand() * 4) }, () => [
          rand() < 0.03 ? 'k\u0000' : pick(['app', 'k', 'zone', 'k'.repeat(256), 'k'.repeat(257)]),
          rand() < 0.03 ? '\ud83d' : pick<unknown>(['v', 3, 2.5, false, null, {}]),
        ]);
        return Object.fromEntries(entries);
      }
    }
  };
  const object = (shape: Shape, depth: number): Record<string, unknown> => {
    // Keys in a random order: zod writes them in its own.
    const keys = Object.keys(shape)
      .filter(() => rand() < 0.5)
      .sort(() => rand() - 0.5);
    const out: Record<string, unknown> = {};
    for (const key of keys) {
      const kind = shape[key]!;
      if (typeof kind === 'string') out[key] = scalar(kind);
      else if ('object' in kind) out[key] = rand() < 0.05 ? odd() : object(kind.object, depth + 1);
      else
        out[key] =
          rand() < 0.05 ? odd() : Array.from({ length: Math.floor(rand() * 3) }, () => object(kind.list, depth + 1));
    }
    // Spellings zod renames or strips.
    if (rand() < 0.05)
      out[pick(['configuration', 'errors', 'batteryLevel', 'unknown', 'os_version'])] = depth === 0 ? {} : 1;
    return out;
  };
  return () => object(EVENT_SHAPE, 0);
}

describe('canonical mobile events skip zod', () => {
  it('lists the schema keys in the schema order, at every level', () => {
    expectSameKeys(EVENT_SHAPE, eventSchema, 'event');
  });

  it('returns exactly what zod returns, or declines, for 20,000 generated events', () => {
    const next = generator(random(42));
    let accepted = 0;
    let declined = 0;
    for (let i = 0; i < 20_000; i++) {
      const input = next();
      const fast = canonicalEvent(input);
      const slow = eventSchema.safeParse(input);
      if (fast === undefined) {
        declined++;
        continue;
      }
      accepted++;
      expect(slow.success, JSON.stringify(input)).toBe(true);
      expect(JSON.stringify(fast), JSON.stringify(input)).toBe(JSON.stringify(slow.data));
      expect(fast).toEqual(slow.data);
    }
    // Both paths exercised in earnest.
    expect(accepted).toBeGreaterThan(2_000);
    expect(declined).toBeGreaterThan(2_000);
  });

  it('takes the fast path for a full event in either encoding, and decodes it as zod does', () => {
    const event = {
      timestamp: 1_700_000_000_000,
      locations: [
        { timestamp: 1_700_000_000_000, latitude: 48.8566, longitude: 2.3522, velocity: 1.5, course: 90, accuracy: 5 },
      ],
      wifis: [{ mac: 'aa:bb', ssid: 'home', rssi: -40 }],
      ibeacons: [{ uuid: 'u', major: 1, minor: 2, rssi: -60, proximity: 'near', accuracy: 0.5 }],
      powers: [{ charging: true, batteryLife: 80 }],
      activities: [{ type: 'walking', confidenceLevel: 'high', confidencePercentage: 90 }],
      configurations: { enabled: true, cadence: 30, useSensors: ['gps'], eventTtl: 60, maxStorage: 100 },
      properties: { manufacturer: 'acme', os: 'android', osVersion: '14', sensors: ['gps'] },
      push: { token: 't', type: 'fcm' },
      attributes: { app: 'demo', level: '3' },
      error: [{ errorCode: 2, errorMessage: 'gps off' }],
    };
    const json = Buffer.from(JSON.stringify(event));
    const protobuf = ingress.Event.encode(ingress.Event.fromObject(event)).finish();
    const fromProtobuf = ingress.Event.toObject(ingress.Event.decode(protobuf), {
      longs: Number,
      defaults: false,
      arrays: false,
    });
    expect(canonicalEvent(JSON.parse(json.toString()))).toBeDefined();
    expect(canonicalEvent(fromProtobuf)).toBeDefined();
    const expected = eventSchema.parse(event);
    expect(decodeEvent(json, 'json')).toEqual({ events: [expected], unknownFields: new Set() });
    // protobuf floats are 32-bit: compared with zod's reading of the same decoded message
    expect(JSON.stringify(decodeEvent(protobuf, 'protobuf').events[0])).toBe(
      JSON.stringify(eventSchema.parse(fromProtobuf)),
    );
    expect(decodeEventBatch(Buffer.from(JSON.stringify({ events: [event, event] })), 'json').events).toEqual([
      expected,
      expected,
    ]);
  });

  it('leaves other spellings, strings for numbers and bad values to zod', () => {
    expect(canonicalEvent({ powers: [{ batteryLevel: 50 }] })).toBeUndefined();
    expect(canonicalEvent({ timestamp: '1700000000000' })).toBeUndefined();
    expect(canonicalEvent({ locations: [{ latitude: 91, longitude: 0 }] })).toBeUndefined();
    expect(canonicalEvent(JSON.parse('{"attributes":{"__proto__":"x"}}'))).toBeUndefined();
    // …and zod still answers them: renamed, converted, or refused with the path.
    expect(decodeEvent(Buffer.from('{"powers":[{"batteryLevel":50}]}'), 'json')).toEqual({
      events: [{ powers: [{ batteryLife: 50 }] }],
      unknownFields: new Set(),
    });
    expect(decodeEvent(Buffer.from('{"timestamp":"1700000000000"}'), 'json').events).toEqual([
      { timestamp: 1_700_000_000_000 },
    ]);
    let refusal: unknown;
    try {
      decodeEvent(Buffer.from('{"locations":[{"latitude":91,"longitude":0}]}'), 'json');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(ApiError.from(refusal)!.status).toBe(400);
    expect(ApiError.from(refusal)!.detail).toMatch(/locations/);
  });

  it('declines event times before 2000 or over a day ahead, which zod refuses asking for epoch milliseconds', () => {
    const detail = (body: string) => {
      try {
        decodeEvent(Buffer.from(body), 'json');
      } catch (error) {
        return ApiError.from(error)?.detail;
      }
      return undefined;
    };
    for (const timestamp of [1_700_000_000, 0, -1, 946_684_799_999, Date.now() + 2 * 86_400_000]) {
      expect(canonicalEvent({ timestamp }), String(timestamp)).toBeUndefined();
      expect(detail(JSON.stringify({ timestamp })), String(timestamp)).toMatch(
        /^timestamp: .*expected a time in epoch milliseconds, between 2000-01-01 and a day from now$/,
      );
    }
    expect(detail('{"timestamp": 1700000000}')).toContain('epoch seconds? send milliseconds (1700000000000)');
    for (const timestamp of [946_684_800_000, 1_700_000_000_000, Date.now() + 3_600_000])
      expect(canonicalEvent({ timestamp })).toEqual({ timestamp });
  });

  it('names the fields it does not know, through the aliases and the nested lists, and keeps the event', () => {
    const raw = {
      timestamp: 1_700_000_000_000,
      altitude: 3,
      configuration: { eventTTL: 5, colour: 'red' },
      locations: [
        { latitude: 1, longitude: 2, floor: 4 },
        { latitude: 1, longitude: 2, floor: 5, heading: 1 },
      ],
      powers: [{ batteryLevel: 5 }],
    };
    const decoded = decodeEventBatch(Buffer.from(JSON.stringify([raw])), 'json');
    expect([...decoded.unknownFields].sort()).toEqual([
      'altitude',
      'configurations.colour',
      'locations.floor',
      'locations.heading',
    ]);
    expect(decoded.events[0]).toMatchObject({
      timestamp: 1_700_000_000_000,
      configurations: { eventTtl: 5 },
      powers: [{ batteryLife: 5 }],
    });
    expect(decoded.events[0]).not.toHaveProperty('altitude');
  });
});
