// The device ingestion API end to end: registration with a channel key,
// events in JSON and protobuf (single and batch), idempotency, bad input,
// tokens, rate limits, IoT schemas, and what devices read back.
import type postgres from 'postgres';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENT_VALUES } from '../../src/ingest/item-limits.js';
import { ingress } from '../../src/ingest/generated/ingress.js';
import { Api, signUpTenant } from '../helpers/api.js';
import { waitFor, type TestServer } from '../helpers/server.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { mobileEventWithValues, protobufEvent } from '../helpers/mobile-event-values.js';
import { ProtoWriter } from '../helpers/protobuf.js';

const SECRET = 'ingest-test-secret-ingest-test-secret-12';
let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let anon: Api;
let channelKey: string;
let channelId: string;
let database: Platform['database'];

beforeAll(async () => {
  ({ database, server, sql, anon, admin } = await startPlatform({
    JWT_SECRET: SECRET,
    DEVICE_EVENT_RATE: '5',
    DEVICE_EVENT_BURST: '400',
    MAX_INGEST_BODY_BYTES: '65536',
  }));
  const channel = (await admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  channelId = channel.id;
  channelKey = channel.apiKeys[0].apiKey;
});

afterAll(() => stopPlatform({ sql, server, database }));

async function send(path: string, body: Uint8Array | string | object, headers: Record<string, string> = {}) {
  const isBinary = body instanceof Uint8Array;
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': isBinary ? 'application/protobuf' : 'application/json', ...headers },
    body: isBinary ? body : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    type,
    bytes,
    json: type.includes('json') && bytes.length ? JSON.parse(Buffer.from(bytes).toString()) : undefined,
  };
}

async function register(
  properties: object = { model: 'Pixel 8', os: 'Android', sensors: ['location'] },
  aliases: object = {},
) {
  const res = await send('/v1/registration', { apiKey: channelKey, properties, aliases });
  expect(res.status).toBe(200);
  return res.json as { token: string; deviceId: string; organizationId: string };
}

async function storedEvents(deviceId: string) {
  return sql<{ payload: any; clientSentAt: Date | null; source: string }[]>`
    SELECT payload, client_sent_at, source FROM events WHERE device_id = ${deviceId} ORDER BY server_received_at, id`;
}

describe('registration', () => {
  it('registers with a channel key in JSON and answers {token, deviceId, organizationId}', async () => {
    const device = await register(
      { manufacturer: 'Google', model: 'Pixel 8', os: 'Android', osVersion: '15', sensors: ['location', 'wifi'] },
      { phone_number: '+1 555 0100' },
    );
    expect(device.token.split('.')).toHaveLength(3);
    const [row] = await sql`SELECT model, sensors, channel_id FROM devices WHERE id = ${device.deviceId}`;
    expect(row).toMatchObject({ model: 'Pixel 8', sensors: ['location', 'wifi'], channelId });
    const lookup = await admin.post('/v2/devices/alias-lookup', { type: 'phone_number', value: '+1 555 0100' });
    expect(lookup.body.data).toBe(device.deviceId);
  });

  it('registers in protobuf both ways', async () => {
    const body = ingress.RegistrationRequest.encode({
      apiKey: channelKey,
      properties: { model: 'iPhone X', type: 'iOS' },
      aliases: { tel: '5550101' },
    }).finish();
    const res = await send('/v1/registration', body, { accept: 'application/protobuf' });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/protobuf');
    const answer = ingress.RegistrationResponse.decode(res.bytes);
    expect(answer.deviceId).toMatch(/^[0-9A-Z]{26}$/);
    expect(answer.organizationId).toBe(
      (await sql`SELECT organization_id FROM channels WHERE id = ${channelId}`)[0]!.organizationId,
    );
  });

  it('refuses unknown and disabled keys with 401, malformed bodies with 400', async () => {
    expect((await send('/v1/registration', { apiKey: 'sk_nope' })).json).toMatchObject({
      status: 401,
      message: 'Failed to register with given API KEY',
    });
    expect((await send('/v1/registration', { properties: {} })).json).toMatchObject({
      status: 400,
      error: expect.stringContaining('apiKey'),
    });
    expect((await send('/v1/registration', '{"apiKey": ')).json).toMatchObject({
      status: 400,
      message: 'invalid JSON body',
    });
    expect((await send('/v1/registration', new Uint8Array([0x0a, 0xff, 0xff]))).json).toMatchObject({
      status: 400,
      message: 'invalid protobuf body',
    });
    const keyId = (await admin.get(`/v2/channels/${channelId}/api-keys`)).body.data[0].id;
    await admin.post(`/v2/channels/${channelId}/api-keys/${keyId}/disable`);
    expect((await send('/v1/registration', { apiKey: channelKey })).status).toBe(401);
    await admin.post(`/v2/channels/${channelId}/api-keys/${keyId}/enable`);
    expect((await send('/v1/registration', { apiKey: channelKey })).status).toBe(200);
  });
});

describe('mobile events', () => {
  it('stores a JSON event in canonical form, accepting both documented spellings', async () => {
    const device = await register();
    const event = {
      timestamp: 1_700_000_000_000,
      locations: [
        {
          timestamp: 1_700_000_000_000,
          latitude: 43.0956,
          longitude: -77.5658,
          velocity: 12.2,
          course: 77.9,
          accuracy: 10.4,
        },
      ],
      wifis: [{ timestamp: 1, mac: 'FF:FF:FF:FF:FF:FF', ssid: 'Lab', rssi: -20 }],
      ibeacons: [
        {
          timestamp: 1,
          uuid: '123e4567-e89b-12d3-a456-426655440000',
          rssi: -20,
          major: 123,
          minor: 124,
          proximity: 'near',
          accuracy: 10,
        },
      ],
      powers: [{ timestamp: 1, charging: false, batteryLevel: 91 }],
      activities: [{ timestamp: 1, type: 'walking', confidenceLevel: 'low', confidencePercentage: 62 }],
      configuration: { enabled: true, cadence: 60000, sensors: ['location'], eventTTL: 6000000, maxStorage: 6000000 },
      properties: {
        timestamp: 1,
        manufacturer: 'Apple',
        model: 'iPhone X',
        os: 'iOS',
        osVersion: '11.0.0',
        softwareVersion: 'ReachSDK-v1.2.3',
        type: 'iOS',
        sensors: ['location'],
      },
      attributes: { plan: 'gold' },
    };
    expect((await send('/v1/mobile/events', event, { authorization: `Bearer ${device.token}` })).status).toBe(204);
    const [stored] = await storedEvents(device.deviceId);
    expect(stored!.payload).toMatchObject({
      powers: [{ batteryLife: 91, charging: false }],
      configurations: { useSensors: ['location'], eventTtl: 6000000, cadence: 60000 },
      attributes: { plan: 'gold' },
    });
    expect(stored!.clientSentAt!.getTime()).toBe(1_700_000_000_000);
    const [state] = await sql`SELECT state, last_seen_at FROM devices WHERE id = ${device.deviceId}`;
    expect(state!.state.lastLocation).toMatchObject({ latitude: 43.0956, longitude: -77.5658 });
  });

  it('stores values with quotes, backslashes, braces and NULL exactly as sent', async () => {
    // The writer sends its arrays as PostgreSQL array literals it builds itself (db/array-literal.ts).
    const device = await register();
    const awkward = {
      quote: 'say "hi"',
      backslash: 'C:\\dir\\',
      braces: '{a,b}',
      comma: 'a, b',
      null: 'NULL',
      empty: '',
      unicode: 'é€😀',
      newline: 'a\nb',
    };
    for (let i = 0; i < 3; i++) {
      const event = {
        timestamp: 1_700_000_000_000 + i,
        locations: [{ latitude: 10 + i, longitude: 20 }],
        attributes: awkward,
      };
      expect(
        (await send('/v1/mobile/events', event, { authorization: device.token, 'idempotency-key': `"k\\${i}"` }))
          .status,
      ).toBe(204);
    }
    const stored = await storedEvents(device.deviceId);
    expect(stored.map((e) => e.payload.attributes)).toEqual([awkward, awkward, awkward]);
    expect(stored.map((e) => e.clientSentAt!.getTime())).toEqual([
      1_700_000_000_000, 1_700_000_000_001, 1_700_000_000_002,
    ]);
    const [row] = await sql`SELECT state FROM devices WHERE id = ${device.deviceId}`;
    expect(row!.state.lastLocation).toMatchObject({ latitude: 12, longitude: 20 });
  });

  it('decodes a protobuf Event built field by field from the documented field numbers', async () => {
    const device = await register();
    const location = new ProtoWriter().int64(1, 1_700_000_123_000).float(2, 48.5).float(3, 2.25).float(6, 5).finish();
    const power = new ProtoWriter().int64(1, 7).bool(2, true).int64(3, 55).finish();
    const config = new ProtoWriter()
      .bool(2, true)
      .int64(3, 30000)
      .string(4, 'location')
      .string(4, 'wifi')
      .int64(5, 42)
      .finish();
    const attribute = new ProtoWriter().string(1, 'tier').string(2, 'silver').finish();
    const event = new ProtoWriter()
      .int64(1, 1_700_000_123_000)
      .bytes(2, location)
      .bytes(5, power)
      .bytes(7, config)
      .bytes(10, attribute)
      .bytes(11, new ProtoWriter().int32(1, 3).string(2, 'no permission').finish())
      .finish();
    expect((await send('/v1/mobile/events', event, { authorization: device.token })).status).toBe(204);
    const [stored] = await storedEvents(device.deviceId);
    expect(stored!.payload).toEqual({
      timestamp: 1_700_000_123_000,
      locations: [{ timestamp: 1_700_000_123_000, latitude: 48.5, longitude: 2.25, accuracy: 5 }],
      powers: [{ timestamp: 7, charging: true, batteryLife: 55 }],
      configurations: { enabled: true, cadence: 30000, useSensors: ['location', 'wifi'], eventTtl: 42 },
      attributes: { tier: 'silver' },
      error: [{ errorCode: 3, errorMessage: 'no permission' }],
    });
  });

  it('stores a protobuf batch, and the same batch in JSON, each event once', async () => {
    const device = await register();
    const events = Array.from({ length: 50 }, (_, i) => ({
      timestamp: 1_700_000_000_000 + i,
      locations: [{ latitude: 10 + i / 100, longitude: 20 }],
    }));
    const proto = ingress.MobileEvents.encode({ events }).finish();
    expect((await send('/v1/mobile/events/batch', proto, { authorization: `Bearer ${device.token}` })).status).toBe(
      204,
    );
    // A retry of the whole batch, now in JSON: nothing new is stored.
    expect(
      (await send('/v1/mobile/events/batch', { events }, { authorization: `Bearer ${device.token}` })).status,
    ).toBe(204);
    const stored = await storedEvents(device.deviceId);
    expect(stored).toHaveLength(50);
    expect(stored.map((e) => e.payload.timestamp)).toEqual(events.map((e) => e.timestamp));
  });

  it('stores a retry with the same Idempotency-Key once, and events without timestamp each time', async () => {
    const device = await register();
    const auth = { authorization: device.token };
    for (let i = 0; i < 3; i++)
      await send('/v1/mobile/events', { attributes: { n: 'x' } }, { ...auth, 'idempotency-key': 'retry-1' });
    await send('/v1/mobile/events', { attributes: { n: 'x' } }, auth);
    await send('/v1/mobile/events', { attributes: { n: 'x' } }, auth);
    expect(await storedEvents(device.deviceId)).toHaveLength(3);
  });

  it('answers bad input and oversized bodies with 400, and bad tokens with 401', async () => {
    const device = await register();
    const auth = { authorization: `Bearer ${device.token}` };
    expect((await send('/v1/mobile/events', '{"timestamp": ', auth)).json).toMatchObject({
      status: 400,
      message: 'invalid JSON body',
    });
    expect(
      (await send('/v1/mobile/events', { locations: [{ latitude: 'north', longitude: 1 }] }, auth)).json,
    ).toMatchObject({
      status: 400,
      error: expect.stringContaining('locations.0.latitude'),
    });
    expect((await send('/v1/mobile/events', new Uint8Array([0x12, 0x05, 0x01]), auth)).json).toMatchObject({
      status: 400,
      message: 'invalid protobuf body',
    });
    expect((await send('/v1/mobile/events/batch', { events: [] }, auth)).status).toBe(400);
    expect((await send('/v1/mobile/events', { attributes: { big: 'x'.repeat(70_000) } }, auth)).json).toMatchObject({
      status: 400,
      message: 'request body too large',
      error: expect.stringMatching(/^\d+ bytes is over the limit of \d+ bytes/),
    });
    expect((await send('/v1/mobile/events', {}, {})).json).toMatchObject({
      status: 401,
      message: 'authentication required',
    });
    expect((await send('/v1/mobile/events', {}, { authorization: 'Bearer not.a.token' })).status).toBe(401);
    const key = new TextEncoder().encode(SECRET);
    const expired = await new SignJWT({ type: 'device', organizationId: device.organizationId, channelId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(device.deviceId)
      .setIssuedAt(1)
      .setExpirationTime(2)
      .sign(key);
    expect((await send('/v1/mobile/events', {}, { authorization: expired })).json).toMatchObject({
      status: 401,
      error: 'token has expired',
    });
    const accessToken = admin.token!;
    expect((await send('/v1/mobile/events', {}, { authorization: accessToken })).json).toMatchObject({
      status: 401,
      error: 'not a device token',
    });
    expect(await storedEvents(device.deviceId)).toHaveLength(0);
  });

  it('refuses an event time before 2000 or over a day ahead (epoch seconds, -1) with 400 asking for milliseconds, and commits the events beside it', async () => {
    const device = await register();
    const auth = { authorization: device.token };
    const now = Date.now();
    // Each is a valid int64 that cannot be the time of an event sent now:
    // epoch seconds read as milliseconds (January 1970), before 2000, over a
    // day ahead, and times neither JavaScript nor PostgreSQL can write.
    const wrong = [
      1_529_462_707,
      -1,
      0,
      946_684_799_999,
      now + 2 * 86_400_000,
      8_640_000_000_000_001,
      253_402_300_800_000,
    ];
    const answers = await Promise.all([
      ...wrong.map((timestamp) => send('/v1/mobile/events', { timestamp }, auth)),
      send('/v1/mobile/events', { timestamp: '99999999999999999999' }, auth),
      send('/v1/mobile/events', { timestamp: '-1' }, auth),
      send('/v1/mobile/events', new ProtoWriter().int64(1, 1_529_462_707).finish(), auth),
      send('/v1/mobile/events', new ProtoWriter().int64(1, 2 ** 62).finish(), auth),
      send(
        '/v1/mobile/events/batch',
        { events: [{ timestamp: 1_700_000_000_000 }, { timestamp: 1_700_000_000 }] },
        auth,
      ),
      send(
        '/v1/mobile/events/batch',
        new ProtoWriter()
          .bytes(1, new ProtoWriter().int64(1, 1_700_000_000_000).finish())
          .bytes(1, new ProtoWriter().int64(1, 1_700_000_000).finish())
          .finish(),
        auth,
      ),
      send('/v1/mobile/events', { timestamp: 946_684_800_000, attributes: { n: 'first millisecond of 2000' } }, auth),
      send('/v1/mobile/events', { timestamp: now + 3_600_000, attributes: { n: 'an hour ahead' } }, auth),
    ]);
    answers.slice(0, -2).forEach((refused, i) => {
      // Past 2^53 (the string of 20 digits, 2^62 in protobuf) zod refuses the integer itself.
      const why =
        i === 7 || i === 10
          ? /Too big/
          : /expected a time in epoch milliseconds, between 2000-01-01 and a day from now$/;
      expect(refused.json, String(i)).toMatchObject({
        status: 400,
        message: 'invalid request body',
        error: expect.stringMatching(/^(events\.1\.)?timestamp: /),
      });
      expect(refused.json.error, String(i)).toMatch(why);
    });
    expect(answers[0]!.json.error).toBe(
      'timestamp: 1529462707 is 1970-01-18T16:51:02.707Z read as milliseconds: epoch seconds? send milliseconds (1529462707000); expected a time in epoch milliseconds, between 2000-01-01 and a day from now',
    );
    expect(answers[11]!.json.error).toMatch(
      /^events\.1\.timestamp: 1700000000 is 1970-01-20T16:13:20\.000Z read as milliseconds: epoch seconds\?/,
    );
    expect(answers.slice(-2).map((a) => a.status)).toEqual([204, 204]);
    const stored = await storedEvents(device.deviceId);
    expect(stored.map((e) => e.clientSentAt?.toISOString()).sort()).toEqual([
      '2000-01-01T00:00:00.000Z',
      new Date(now + 3_600_000).toISOString(),
    ]);
  });

  it('refuses text PostgreSQL cannot store (U+0000, unpaired surrogates) with 400 naming it, and commits the events beside it', async () => {
    const device = await register();
    const auth = { authorization: device.token };
    const nul = new ProtoWriter().bytes(10, new ProtoWriter().string(1, 'k').string(2, 'a\u0000b').finish()).finish();
    const answers = await Promise.all([
      send('/v1/mobile/events', '{"attributes": {"k": "a\\u0000b"}}', auth),
      send('/v1/mobile/events', '{"attributes": {"k\\u0000": "b"}}', auth),
      send('/v1/mobile/events', '{"properties": {"model": "\\ud800"}}', auth),
      send('/v1/mobile/events/batch', '{"events": [{}, {"wifis": [{"ssid": "\\udc00x"}]}]}', auth),
      send('/v1/mobile/events', nul, auth),
      send('/v1/registration', '{"apiKey": "' + channelKey + '", "aliases": {"imei": "1\\u0000"}}'),
      send('/v1/mobile/events', { attributes: { n: 'fine', emoji: '😀' } }, auth),
    ]);
    expect(answers.slice(0, 6).map((a) => [a.status, a.json?.error])).toEqual([
      [400, 'attributes.k: must not contain U+0000 or an unpaired surrogate'],
      [400, 'attributes.k\\u0000: must not contain U+0000 or an unpaired surrogate'],
      [400, 'properties.model: must not contain U+0000 or an unpaired surrogate'],
      [400, 'events.1.wifis.0.ssid: must not contain U+0000 or an unpaired surrogate'],
      [400, 'attributes.k: must not contain U+0000 or an unpaired surrogate'],
      [400, 'aliases.imei: must not contain U+0000 or an unpaired surrogate'],
    ]);
    expect(answers[6]!.status).toBe(204);
    expect((await storedEvents(device.deviceId)).map((e) => e.payload)).toEqual([
      { attributes: { n: 'fine', emoji: '😀' } },
    ]);
  });

  it('answers 429 with Retry-After when a device is over its rate', async () => {
    const device = await register();
    const batch = { events: Array.from({ length: 300 }, (_, i) => ({ timestamp: 1_700_000_000_000 + i })) };
    expect((await send('/v1/mobile/events/batch', batch, { authorization: device.token })).status).toBe(204);
    const res = await fetch(`${server.url}/v1/mobile/events/batch`, {
      method: 'POST',
      headers: { authorization: device.token, 'content-type': 'application/json' },
      body: JSON.stringify(batch),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a deleted device', async () => {
    const device = await register();
    expect((await admin.delete(`/v2/devices/${device.deviceId}`)).status).toBe(204);
    // Deletion reaches every server through NOTIFY within moments.
    await waitFor(
      async () => (await send('/v1/mobile/events', {}, { authorization: device.token })).status === 401,
      5000,
      '401',
    );
    expect((await send('/v1/mobile/events', {}, { authorization: device.token })).json).toMatchObject({
      status: 401,
      error: expect.stringContaining('not registered'),
    });
  });
});

describe('item limits, checked before decoding', () => {
  // Before: 4 MiB of empty protobuf events cost 2 s of the event loop and
  // 1,000 events of 1,000 empty locations 19 s before any limit was checked.
  const events = (count: number, event: Uint8Array) => {
    const writer = new ProtoWriter();
    for (let i = 0; i < count; i++) writer.bytes(1, event);
    return writer.finish();
  };
  const refused = (detail: string) => ({ status: 400, message: 'invalid request body', error: detail });

  // (this server's MAX_INGEST_BODY_BYTES is 64 KiB; the JSON container count is tested in test/unit/item-limits.test.ts)
  it('refuses too many events or list entries in protobuf, JSON and single events', async () => {
    const device = await register();
    const auth = { authorization: device.token };
    const manyEmpty = new Uint8Array(60_000).map((_, i) => (i % 2 === 0 ? 0x0a : 0)); // 30,000 empty events
    expect((await send('/v1/mobile/events/batch', manyEmpty, auth)).json).toEqual(
      refused('events: at most 1000 events per batch'),
    );
    const location = new ProtoWriter().finish(); // an empty Location
    const thousandLocations = new ProtoWriter();
    for (let i = 0; i < 1000; i++) thousandLocations.bytes(2, location);
    const heavyEvent = thousandLocations.finish();
    expect((await send('/v1/mobile/events/batch', events(25, heavyEvent), auth)).json).toEqual(
      refused('a request may carry at most 20000 events and list entries in all'),
    );
    const tooLong = new ProtoWriter();
    for (let i = 0; i < 1001; i++) tooLong.bytes(3, location);
    expect((await send('/v1/mobile/events', tooLong.finish(), auth)).json).toEqual(
      refused('wifis: at most 1000 entries'),
    );
    const json = { events: [{}, { locations: Array.from({ length: 1001 }, () => ({})) }] };
    expect((await send('/v1/mobile/events/batch', json, auth)).json).toEqual(
      refused('events.1.locations: at most 1000 entries'),
    );
    expect((await send('/v1/mobile/events/batch', events(100, new Uint8Array()), auth)).status).toBe(204);
  });

  it('refuses an event of more JSON values than the cap, IoT and mobile, JSON and protobuf, naming the limit; one at the cap is stored', async () => {
    const capped = `at most ${MAX_EVENT_VALUES} JSON values per event (objects, arrays, strings, numbers, booleans and nulls)`;
    const iot = (await admin.post('/v2/channels', { name: 'samplers', type: 'iot' })).body.data;
    const sampler = (await send('/v1/registration', { apiKey: iot.apiKeys[0].apiKey, properties: { type: 'sampler' } }))
      .json as { token: string; deviceId: string };
    const phone = await register();
    // The payload object, its list and the list's numbers.
    const readings = (count: number) => ({ readings: new Array(count).fill(7) });
    const answers = await Promise.all([
      send('/v1/iot/events', readings(MAX_EVENT_VALUES - 1), { authorization: sampler.token }),
      send('/v1/iot/events', readings(MAX_EVENT_VALUES - 2), { authorization: sampler.token }),
      send('/v1/mobile/events', protobufEvent(mobileEventWithValues(MAX_EVENT_VALUES + 1)), {
        authorization: phone.token,
      }),
      send(
        '/v1/mobile/events/batch',
        { events: [{}, { samples: new Array(MAX_EVENT_VALUES).fill(0) }] },
        { authorization: phone.token },
      ),
      send('/v1/mobile/events', protobufEvent(mobileEventWithValues(MAX_EVENT_VALUES)), { authorization: phone.token }),
    ]);
    expect(answers.map((a) => [a.status, a.json])).toEqual([
      [400, refused(capped)],
      [204, undefined],
      [400, refused(capped)],
      [400, refused(`events.1: ${capped}`)],
      [204, undefined],
    ]);
    expect((await storedEvents(sampler.deviceId)).map((e) => e.payload.readings.length)).toEqual([
      MAX_EVENT_VALUES - 2,
    ]);
    expect((await storedEvents(phone.deviceId)).map((e) => e.payload.locations.length)).toEqual([1000]);
  });

  it('names the field, what it expects and what arrived', async () => {
    const auth = { authorization: (await register()).token };
    // Before: `events.0.timestamp: Invalid input`.
    const batch = { events: [{ timestamp: 'yesterday' }] };
    expect((await send('/v1/mobile/events/batch', batch, auth)).json).toEqual(
      refused('events.0.timestamp: expected an integer (a JSON number, or a string of digits), got "yesterday"'),
    );
    expect(
      (await send('/v1/mobile/events', { locations: [{ latitude: 48.8, longitude: 2.3, accuracy: [5] }] }, auth)).json,
    ).toEqual(refused('locations.0.accuracy: expected a number (a JSON number, or a string of one), got an array'));
    expect((await send('/v1/mobile/events', { attributes: { floor: null } }, auth)).json).toEqual(
      refused('attributes.floor: expected a string, number or boolean, got null'),
    );
  });

  it('accepts fields it does not know, counts them by name and logs each once per channel', async () => {
    const auth = { authorization: (await register()).token };
    const metric = async () =>
      /^ingest_unknown_fields_total\{field="locations\.altitudeMeters"\} (\d+)$/m.exec(
        await (await fetch(`${server.url}/metrics`)).text(),
      )?.[1];
    const before = Number((await metric()) ?? 0);
    const event = { locations: [{ latitude: 48.8, longitude: 2.3, altitudeMeters: 35 }] };
    // Before: accepted with 204 and the field dropped without a trace.
    expect((await send('/v1/mobile/events', event, auth)).status).toBe(204);
    expect((await send('/v1/mobile/events/batch', { events: [event, event] }, auth)).status).toBe(204);
    expect(Number(await metric())).toBe(before + 2);
    const logged = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('field the server does not know') && line.includes('locations.altitudeMeters'));
    expect(logged).toHaveLength(1);
  });
});

describe('revoked credentials', () => {
  // Before: a device token kept working after its channel key or channel was disabled or deleted.
  const refused = async (token: string) =>
    waitFor(async () => (await send('/v1/mobile/events', {}, { authorization: token })).status === 401, 5000, 'a 401');
  const accepted = async (token: string) =>
    expect((await send('/v1/mobile/events', {}, { authorization: token })).status).toBe(204);

  it('stops device tokens when the channel key that registered them is disabled or deleted', async () => {
    const key = (await admin.post(`/v2/channels/${channelId}/api-keys`)).body.data;
    const device = (await send('/v1/registration', { apiKey: key.apiKey, properties: {} })).json as { token: string };
    const sibling = await register(); // registered with the channel's other key
    await accepted(device.token);
    await admin.post(`/v2/channels/${channelId}/api-keys/${key.id}/disable`);
    await refused(device.token);
    expect((await send('/v1/mobile/events', {}, { authorization: device.token })).json).toMatchObject({
      status: 401,
      message: 'invalid token',
      error: expect.stringContaining('channel API key was disabled or deleted'),
    });
    await accepted(sibling.token);
    await admin.post(`/v2/channels/${channelId}/api-keys/${key.id}/enable`);
    await waitFor(
      async () => (await send('/v1/mobile/events', {}, { authorization: device.token })).status === 204,
      5000,
      'a 204',
    );
    expect((await admin.delete(`/v2/channels/${channelId}/api-keys/${key.id}`)).status).toBe(204);
    await refused(device.token);
    await accepted(sibling.token);
  });

  it('stops device tokens of a disabled channel until it is enabled again', async () => {
    const device = await register();
    await accepted(device.token);
    await admin.patch(`/v2/channels/${channelId}`, { enabled: false });
    try {
      await refused(device.token);
    } finally {
      await admin.patch(`/v2/channels/${channelId}`, { enabled: true });
    }
    await waitFor(
      async () => (await send('/v1/mobile/events', {}, { authorization: device.token })).status === 204,
      5000,
      'a 204',
    );
  });
});

describe('reads', () => {
  it('answers configuration in JSON (documented spelling) and protobuf', async () => {
    const device = await register();
    const json = await fetch(`${server.url}/v1/mobile/configuration`, { headers: { authorization: device.token } });
    expect(await json.json()).toMatchObject({
      enabled: true,
      cadence: 60000,
      sensors: ['location', 'wifi', 'beacon', 'power', 'activity'],
      eventTTL: 6000000,
    });
    const proto = await fetch(`${server.url}/v1/mobile/configuration`, {
      headers: { authorization: device.token, accept: 'application/x-protobuf' },
    });
    const config = ingress.Configuration.decode(new Uint8Array(await proto.arrayBuffer()));
    expect(config.enabled).toBe(true);
    expect(Number(config.cadence)).toBe(60000);
  });

  it('lists notifications and edge rules (empty at first), and beacons', async () => {
    const device = await register();
    const notes = await fetch(`${server.url}/v1/mobile/notifications?limit=10`, {
      headers: { authorization: device.token },
    });
    expect(await notes.json()).toEqual({ notifications: [], hasMoreData: false });
    const rules = await fetch(`${server.url}/v1/mobile/rules?ruleType=mobile-edge`, {
      headers: { authorization: device.token, accept: 'application/protobuf' },
    });
    expect(ingress.RulesResponse.decode(new Uint8Array(await rules.arrayBuffer())).rules).toEqual([]);
    const beacons = await fetch(`${server.url}/v1/mobile/ibeacons?count=5`, {
      headers: { authorization: device.token },
    });
    expect(await beacons.json()).toEqual({ ibeacons: [] });
    expect(
      (await fetch(`${server.url}/v1/mobile/ibeacons?count=0`, { headers: { authorization: device.token } })).status,
    ).toBe(400);
  });
});

describe('IoT events', () => {
  it('validates against the channel schema and names the offending path', async () => {
    const schema = (
      await admin.post('/v2/schemas', {
        name: 'thermo',
        format: 'json',
        fields: [{ id: 'data', type: 'object', fields: [{ id: 'tempF', type: 'float' }] }],
      })
    ).body.data;
    const iot = (await admin.post('/v2/channels', { name: 'sensors', type: 'gateway', schemaId: schema.id })).body.data;
    const res = await send('/v1/registration', {
      apiKey: iot.apiKeys[0].apiKey,
      properties: { type: 'wrlinux', sensors: ['temperature'] },
    });
    const device = res.json as { token: string; deviceId: string };
    expect(
      (await send('/v1/iot/events', { data: { tempF: 72.5, humidity: 23 } }, { authorization: device.token })).status,
    ).toBe(204);
    const bad = await send('/v1/iot/events', { data: { tempF: 'warm' } }, { authorization: device.token });
    expect(bad.json).toMatchObject({
      status: 400,
      message: 'payload does not match the schema for this channel',
      error: expect.stringContaining('data.tempF'),
    });
    expect((await send('/v1/iot/events', '[1,2]', { authorization: device.token })).status).toBe(400);
    const stored = await storedEvents(device.deviceId);
    expect(stored).toEqual([
      expect.objectContaining({ source: 'iot', payload: { data: { tempF: 72.5, humidity: 23 } } }),
    ]);
  });

  it('holds a payload to the fields a schema requires and to the keys it allows, naming the field', async () => {
    const fields = [
      {
        id: 'data',
        type: 'object',
        required: true,
        additionalProperties: false,
        fields: [
          { id: 'tempF', type: 'float', required: true },
          { id: 'humidity', type: 'integer' },
        ],
      },
    ];
    const created = await admin.post('/v2/schemas', { name: 'strict thermo', fields });
    expect(created.status).toBe(200);
    expect((await admin.get(`/v2/schemas/${created.body.data.id}`)).body.data.fields).toEqual(fields);
    const refused = await admin.post('/v2/schemas', {
      name: 'bad',
      fields: [{ id: 'a', type: 'float', additionalProperties: false }],
    });
    expect(refused.body).toEqual({
      status: 400,
      message: 'invalid request body',
      error: 'fields.0.additionalProperties: only fields of type object may say additionalProperties',
    });
    const iot = (
      await admin.post('/v2/channels', { name: 'strict sensors', type: 'iot', schemaId: created.body.data.id })
    ).body.data;
    const device = (await send('/v1/registration', { apiKey: iot.apiKeys[0].apiKey, properties: { type: 'probe' } }))
      .json as { token: string; deviceId: string };
    const auth = { authorization: device.token };
    expect(
      (await send('/v1/iot/events', { data: { tempF: 70, humidity: 3 }, at: 'root keys are free' }, auth)).status,
    ).toBe(204);
    const answers = await Promise.all([
      send('/v1/iot/events', { other: 1 }, auth),
      send('/v1/iot/events', { data: { humidity: 3 } }, auth),
      send('/v1/iot/events', { data: { tempF: null } }, auth),
      send('/v1/iot/events', { data: { tempF: 70, tmepF: 71 } }, auth),
    ]);
    expect(answers.map((a) => a.json)).toEqual(
      [
        'data: required, missing',
        'data.tempF: required, missing',
        'data.tempF: required, got null',
        'data.tmepF: not in the schema, which allows no other keys here (additionalProperties: false)',
      ].map((error) => ({ status: 400, message: 'payload does not match the schema for this channel', error })),
    );
    expect(await storedEvents(device.deviceId)).toHaveLength(1);
    // at the root, the schema itself says it
    expect(created.body.data.additionalProperties).toBe(true);
    const closed = await admin.post('/v2/schemas', { name: 'closed thermo', fields, additionalProperties: false });
    expect(closed.body.data.additionalProperties).toBe(false);
    const closedChannel = (
      await admin.post('/v2/channels', { name: 'closed sensors', type: 'iot', schemaId: closed.body.data.id })
    ).body.data;
    const closedDevice = (
      await send('/v1/registration', { apiKey: closedChannel.apiKeys[0].apiKey, properties: { type: 'probe' } })
    ).json as { token: string; deviceId: string };
    expect((await send('/v1/iot/events', { data: { tempF: 70 } }, { authorization: closedDevice.token })).status).toBe(
      204,
    );
    expect(
      (await send('/v1/iot/events', { data: { tempF: 70 }, at: 'the root' }, { authorization: closedDevice.token }))
        .json,
    ).toEqual({
      status: 400,
      message: 'payload does not match the schema for this channel',
      error: 'at: not in the schema, which allows no other keys here (additionalProperties: false)',
    });
    const reopened = await admin.patch(`/v2/schemas/${closed.body.data.id}`, { additionalProperties: true });
    expect(reopened.body.data).toMatchObject({ additionalProperties: true, fields });
  });

  it('refuses an IoT payload PostgreSQL could not store, naming where, and commits the events beside it', async () => {
    const iot = (await admin.post('/v2/channels', { name: 'probes', type: 'iot' })).body.data;
    const device = (await send('/v1/registration', { apiKey: iot.apiKeys[0].apiKey, properties: { type: 'probe' } }))
      .json as { token: string; deviceId: string };
    const auth = { authorization: device.token };
    const nested = (levels: number) => '{"a": ' + '['.repeat(levels - 1) + ']'.repeat(levels - 1) + '}';
    const answers = await Promise.all([
      send('/v1/iot/events', nested(5000), auth),
      send('/v1/iot/events', nested(65), auth),
      send('/v1/iot/events', '{"data": [{"label": "a\\u0000"}]}', auth),
      send('/v1/iot/events', nested(64), auth),
      send('/v1/iot/events', { data: { label: 'fine' } }, auth),
    ]);
    expect(answers.map((a) => [a.status, a.json?.error])).toEqual([
      [400, `a${'.0'.repeat(63)}: nested deeper than 64 levels`],
      [400, `a${'.0'.repeat(63)}: nested deeper than 64 levels`],
      [400, 'data.0.label: must not contain U+0000 or an unpaired surrogate'],
      [204, undefined],
      [204, undefined],
    ]);
    expect(await storedEvents(device.deviceId)).toHaveLength(2);
  });

  it('refuses an IoT event time that is not epoch milliseconds or strict ISO 8601 between 2000 and a day ahead, naming it', async () => {
    const iot = (await admin.post('/v2/channels', { name: 'meters', type: 'iot' })).body.data;
    const device = (await send('/v1/registration', { apiKey: iot.apiKeys[0].apiKey, properties: { type: 'meter' } }))
      .json as { token: string; deviceId: string };
    const auth = { authorization: device.token };
    // Before, each was stored: in 1970 (-1, 1, epoch seconds), as 2001-01-01
    // ("+1", "-1": Date.parse's lenient forms), or without a client time.
    const wrong: Array<Record<string, unknown>> = [
      { timestamp: -1 },
      { timestamp: 1 },
      { timestamp: 1_700_000_000 },
      { timestamp: 1_700_000_000_000.5 },
      { timestamp: '+1' },
      { timestamp: '-1' },
      { timestamp: '1700000000000' },
      { timestamp: true },
      { timestamp_iso8601: '+1' },
      { timestamp_iso8601: 'Tue, 14 Nov 2023 22:13:20 GMT' },
      { timestamp_iso8601: '2023-11-14T22:13:20' },
      { timestamp_iso8601: '2023-02-29T00:00:00Z' },
      { timestamp_iso8601: '1999-12-31T23:59:59Z' },
      { timestamp_iso8601: 1_700_000_000_000 },
      { timestamp: 8_640_000_000_000_000 },
      { timestamp_iso8601: '+275760-09-13T00:00:00.000Z' },
      { timestamp_iso8601: new Date(Date.now() + 2 * 86_400_000).toISOString() },
    ];
    const refused = await Promise.all(wrong.map((payload) => send('/v1/iot/events', { ...payload, kwh: 0 }, auth)));
    refused.forEach((answer, i) => {
      const field = Object.keys(wrong[i]!)[0];
      expect(answer.json, JSON.stringify(wrong[i])).toMatchObject({
        status: 400,
        message: 'invalid request body',
        error: expect.stringMatching(new RegExp(`^${field}: .*ISO 8601`)),
      });
    });
    expect(refused[2]!.json.error).toContain('epoch seconds? send milliseconds (1700000000000)');
    const right = [
      { timestamp: 1_700_000_000_000, kwh: 1 },
      { timestamp_iso8601: '2023-11-14T23:13:20+01:00', kwh: 2 },
      { timestamp: '2023-11-14T22:13:20.5Z', kwh: 3 },
      { timestamp_iso8601: '2024-02-29', kwh: 4 },
      { kwh: 5 },
      { timestamp: null, kwh: 6 },
    ];
    const statuses = await Promise.all(right.map(async (p) => (await send('/v1/iot/events', p, auth)).status));
    expect(statuses).toEqual([204, 204, 204, 204, 204, 204]);
    const stored = await storedEvents(device.deviceId);
    expect(stored.map((e) => [e.payload.kwh, e.clientSentAt?.toISOString() ?? null]).sort()).toEqual([
      [1, '2023-11-14T22:13:20.000Z'],
      [2, '2023-11-14T22:13:20.000Z'],
      [3, '2023-11-14T22:13:20.500Z'],
      [4, '2024-02-29T00:00:00.000Z'],
      [5, null],
      [6, null],
    ]);
  });
});

describe('isolation', () => {
  it('keeps events of one organization out of another', async () => {
    const device = await register();
    await send('/v1/mobile/events', { timestamp: 1_700_000_000_005 }, { authorization: device.token });
    const other = await signUpTenant(anon, sql, 'ingest-other@example.com');
    const search = await other.post('/v2/events', {});
    expect(search.body.data).toEqual([]);
    expect((await other.post('/v2/events', { deviceId: device.deviceId })).status).toBeGreaterThanOrEqual(400);
    expect((await admin.post('/v2/events', { deviceId: device.deviceId })).body.data).toHaveLength(1);
  });

  it('deletes the events of a deleted organization', async () => {
    const org = (await admin.post('/v2/organizations', { name: 'short-lived' })).body.data;
    const inOrg = admin.withToken((await admin.post('/v2/set-organization', { organizationId: org.id })).body.token);
    const channel = (await inOrg.post('/v2/channels', { name: 'c', type: 'ios' })).body.data;
    const device = (await send('/v1/registration', { apiKey: channel.apiKeys[0].apiKey })).json as {
      token: string;
      deviceId: string;
    };
    expect(
      (await send('/v1/mobile/events', { timestamp: 1_700_000_000_009 }, { authorization: device.token })).status,
    ).toBe(204);
    expect(await storedEvents(device.deviceId)).toHaveLength(1);
    expect((await inOrg.delete(`/v2/organizations/${org.id}`)).status).toBe(204);
    expect(await storedEvents(device.deviceId)).toHaveLength(0);
  });
});
