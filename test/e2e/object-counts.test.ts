// GET /v2/devices/{device}/counts against a real server: a camera's object
// events (object.start, object.update, object.end) counted per hour and per
// day of their frames' times: each `crossed` entry once per line and
// direction, each `entered` zone once per zone and label. `from` is
// inclusive and `to` exclusive; the parameters are checked (400 in the
// {status, message, error} shape); another organization's device is 404
// and its events are never counted. The object events are written with
// SQL, shaped as a stream writes them (ingest/streams/camera-stream.ts), so
// that no video has to be streamed: the endpoint only reads them.
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { rowMaker } from '../helpers/rows.js';
import { twoTenants, type TwoTenants } from '../helpers/tenants.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

let platform: Platform;
let sql: postgres.Sql;
let admin: Api;
let tenants: TwoTenants;
/** A camera of the admin's organization, registered through its channel's key. */
let camera: { organizationId: string; channelId: string; deviceId: string };
/** Another camera of the same organization, and one of another organization, seen at the same times. */
let sibling: string;
let foreign: { organizationId: string; channelId: string; deviceId: string };
/** A device of the organization that never streamed. */
let plain: string;
/** UTC midnight three days ago: the first day counted. */
let day: number;

/** An ISO time `hours` (and minutes) after `day`'s midnight. */
const at = (hours: number, minutes = 0) => new Date(day + hours * HOUR_MS + minutes * 60_000).toISOString();

type Crossed = Array<{ line: string; direction: 'in' | 'out' }>;

/** An object event's payload, as objectEventPayload writes it. */
function objectPayload(
  type: 'object.start' | 'object.update' | 'object.end',
  trackId: number,
  label: string,
  frameTime: string,
  what: { entered?: string[]; left?: string[]; crossed?: Crossed; firstSeen?: string } = {},
) {
  const crossed = what.crossed ?? [];
  return {
    type,
    trackId,
    label,
    score: 0.9,
    box: [0.4, 0.4, 0.6, 0.8],
    zones: (what.entered ?? []).map((zone) => ({ zone, seconds: 0 })),
    timeInZones: Object.fromEntries((what.entered ?? []).map((zone) => [zone, 0])),
    entered: what.entered ?? [],
    left: what.left ?? [],
    crossed,
    dwelled: [],
    inZone: {},
    crossings: crossed.map((c) => ({ ...c, at: frameTime })),
    firstSeen: what.firstSeen ?? frameTime,
    lastSeen: frameTime,
    modelVersionId: '01JDEM0DETECT0R00000000001',
  };
}

/** Stores an event as the group commit does: `clientSentAt` the frame's time (null: none), received at `receivedAt`. */
async function store(
  device: { organizationId: string; channelId: string; deviceId: string },
  clientSentAt: string | null,
  payload: unknown,
  receivedAt = clientSentAt!,
): Promise<void> {
  const id = ulid();
  await sql`
    INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, client_sent_at, payload, dedup_key)
    VALUES (${id}, ${device.organizationId}, ${device.channelId}, ${device.deviceId}, 'iot', ${receivedAt},
            ${clientSentAt}, ${sql.json(payload as never)}, ${`u:${id}`})`;
}

/** Makes a device a camera, as PUT /v2/devices/:device/vision would (the demo model is not loaded here). */
async function makeCamera(organizationId: string, deviceId: string): Promise<void> {
  await sql`
    INSERT INTO device_vision (device_id, organization_id, model_version_id, zones, lines)
    VALUES (${deviceId}, ${organizationId}, '01JDEM0DETECT0R00000000001', '[]'::jsonb, '[]'::jsonb)`;
}

const counts = (api: Api, deviceId: string, query = '') => api.get(`/v2/devices/${deviceId}/counts${query}`);

beforeAll(async () => {
  platform = await startPlatform();
  ({ sql, admin } = platform);
  tenants = await twoTenants(platform);
  const rows = rowMaker(sql);
  day = Math.floor(Date.now() / DAY_MS) * DAY_MS - 3 * DAY_MS;

  const channel = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
  const registered = await fetch(`${platform.server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  expect(registered.status).toBe(200);
  const organizationId = tenants.a.organizationId;
  camera = {
    organizationId,
    channelId: channel.id,
    deviceId: ((await registered.json()) as { deviceId: string }).deviceId,
  };
  await makeCamera(organizationId, camera.deviceId);
  sibling = await rows.device(organizationId, channel.id);
  await makeCamera(organizationId, sibling);
  plain = await rows.device(organizationId, channel.id);
  const foreignChannel = await rows.channel(tenants.b.organizationId);
  foreign = {
    organizationId: tenants.b.organizationId,
    channelId: foreignChannel,
    deviceId: await rows.device(tenants.b.organizationId, foreignChannel),
  };
  await makeCamera(foreign.organizationId, foreign.deviceId);

  // Track 1, a person: crossed the gate in before it was confirmed (its start
  // says so) and entered the loading zone, then crossed back out, then ended.
  await store(
    camera,
    at(10, 5),
    objectPayload('object.start', 1, 'person', at(10, 5), {
      entered: ['loading_zone'],
      crossed: [{ line: 'north_gate', direction: 'in' }],
      firstSeen: at(10, 4),
    }),
  );
  await store(
    camera,
    at(10, 20),
    objectPayload('object.update', 1, 'person', at(10, 20), {
      left: ['loading_zone'],
      crossed: [{ line: 'north_gate', direction: 'out' }],
    }),
  );
  await store(camera, at(10, 30), objectPayload('object.end', 1, 'person', at(10, 30)));
  // Track 2, a car: seen at 10:50, its event received in the next hour (it
  // counts in the hour of its frame); crossed in and entered the lot at 11:10.
  await store(
    camera,
    at(10, 50),
    objectPayload('object.start', 2, 'car', at(10, 50), { entered: ['loading_zone'] }),
    at(11, 2),
  );
  await store(
    camera,
    at(11, 10),
    objectPayload('object.update', 2, 'car', at(11, 10), {
      entered: ['lot'],
      left: ['loading_zone'],
      crossed: [{ line: 'north_gate', direction: 'in' }],
    }),
  );
  // An event without a frame time counts at its arrival.
  await store(
    camera,
    null,
    objectPayload('object.update', 4, 'person', at(11, 40), { crossed: [{ line: 'north_gate', direction: 'in' }] }),
    at(11, 40),
  );
  // The next day, track 3, a person.
  await store(
    camera,
    at(24 + 9),
    objectPayload('object.start', 3, 'person', at(24 + 9), {
      entered: ['loading_zone'],
      crossed: [{ line: 'north_gate', direction: 'in' }],
    }),
  );

  // Nothing of these counts: an event that is no object event, object events
  // whose fields are not of their shape, and a frame time more than a day off
  // its arrival (not read: events are read by arrival, a day around the range).
  await store(camera, at(10, 10), {
    type: 'reading',
    entered: ['loading_zone'],
    crossed: [{ line: 'north_gate', direction: 'in' }],
    label: 'person',
  });
  await store(camera, at(10, 15), {
    type: 'object.update',
    label: 7,
    entered: { loading_zone: true },
    crossed: 'north_gate',
  });
  await store(camera, at(10, 16), {
    type: 'object.update',
    label: 'person',
    entered: [5, null, { zone: 'lot' }],
    crossed: [{ line: 'north_gate', direction: 'sideways' }, { direction: 'in' }, 5, null],
  });
  await store(
    camera,
    at(10, 45),
    objectPayload('object.update', 5, 'person', at(10, 45), { crossed: [{ line: 'north_gate', direction: 'in' }] }),
    at(3 * 24 + 1),
  );

  // The same hour on another camera of the organization, and on one of another organization.
  for (const device of [{ organizationId, channelId: channel.id, deviceId: sibling }, foreign]) {
    await store(
      device,
      at(10, 5),
      objectPayload('object.start', 1, 'person', at(10, 5), {
        entered: ['loading_zone'],
        crossed: [
          { line: 'north_gate', direction: 'in' },
          { line: 'south_gate', direction: 'out' },
        ],
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await stopPlatform(platform ?? {});
});

describe('GET /v2/devices/:device/counts', () => {
  it('counts per hour of the frames: crossings per line and direction, entries per zone and label', async () => {
    const res = await counts(admin, camera.deviceId, `?from=${at(0)}&to=${at(24)}&interval=hour`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: {
        deviceId: camera.deviceId,
        from: at(0),
        to: at(24),
        interval: 'hour',
        buckets: [
          {
            start: at(10),
            crossings: [
              { line: 'north_gate', direction: 'in', count: 1 },
              { line: 'north_gate', direction: 'out', count: 1 },
            ],
            entries: [
              { zone: 'loading_zone', label: 'car', count: 1 },
              { zone: 'loading_zone', label: 'person', count: 1 },
            ],
          },
          {
            start: at(11),
            crossings: [{ line: 'north_gate', direction: 'in', count: 2 }],
            entries: [{ zone: 'lot', label: 'car', count: 1 }],
          },
        ],
      },
    });
  });

  it('counts per day, hour the default interval and from `to` less 24 hours the default range', async () => {
    const days = await counts(admin, camera.deviceId, `?from=${at(0)}&to=${at(48)}&interval=day`);
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(days.body.data).toEqual({
      deviceId: camera.deviceId,
      from: at(0),
      to: at(48),
      interval: 'day',
      buckets: [
        {
          start: at(0),
          crossings: [
            { line: 'north_gate', direction: 'in', count: 3 },
            { line: 'north_gate', direction: 'out', count: 1 },
          ],
          entries: [
            { zone: 'loading_zone', label: 'car', count: 1 },
            { zone: 'loading_zone', label: 'person', count: 1 },
            { zone: 'lot', label: 'car', count: 1 },
          ],
        },
        {
          start: at(24),
          crossings: [{ line: 'north_gate', direction: 'in', count: 1 }],
          entries: [{ zone: 'loading_zone', label: 'person', count: 1 }],
        },
      ],
    });

    const hours = await counts(admin, camera.deviceId, `?to=${at(24)}`);
    expect(hours.status).toBe(200);
    expect(hours.body.data.from).toBe(at(0));
    expect(hours.body.data.interval).toBe('hour');
    expect(hours.body.data.buckets.map((b: { start: string }) => b.start)).toEqual([at(10), at(11)]);

    // The last 24 hours: nothing was seen then.
    const before = Date.now();
    const recent = await counts(admin, camera.deviceId);
    expect(recent.status).toBe(200);
    expect(recent.body.data.buckets).toEqual([]);
    const to = Date.parse(recent.body.data.to);
    expect(to).toBeGreaterThanOrEqual(before - 1000);
    expect(to).toBeLessThanOrEqual(Date.now() + 1000);
    expect(to - Date.parse(recent.body.data.from)).toBe(DAY_MS);
  });

  it('counts from `from` inclusive to `to` exclusive, the first bucket starting at its hour', async () => {
    const res = await counts(admin, camera.deviceId, `?from=${at(10, 5)}&to=${at(10, 50)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.buckets).toEqual([
      {
        start: at(10),
        crossings: [
          { line: 'north_gate', direction: 'in', count: 1 },
          { line: 'north_gate', direction: 'out', count: 1 },
        ],
        entries: [{ zone: 'loading_zone', label: 'person', count: 1 }],
      },
    ]);
    const after = await counts(
      admin,
      camera.deviceId,
      `?from=${encodeURIComponent(new Date(Date.parse(at(10, 5)) + 1).toISOString())}&to=${at(10, 51)}`,
    );
    expect(after.body.data.buckets).toEqual([
      {
        start: at(10),
        crossings: [{ line: 'north_gate', direction: 'out', count: 1 }],
        entries: [{ zone: 'loading_zone', label: 'car', count: 1 }],
      },
    ]);
    // A time in another zone names the same instant.
    const offset = new Date(day + 10 * HOUR_MS).toISOString().slice(0, 10);
    const shifted = await counts(
      admin,
      camera.deviceId,
      `?from=${encodeURIComponent(`${offset}T12:00:00+02:00`)}&to=${encodeURIComponent(`${offset}T13:00:00+02:00`)}`,
    );
    expect(shifted.body.data.from).toBe(at(10));
    expect(shifted.body.data.buckets.map((b: { start: string }) => b.start)).toEqual([at(10)]);
  });

  it("counts only the device's own object events: another camera's, a device that never streamed has none", async () => {
    const siblingCounts = await counts(admin, sibling, `?from=${at(0)}&to=${at(24)}`);
    expect(siblingCounts.body.data.buckets).toEqual([
      {
        start: at(10),
        crossings: [
          { line: 'north_gate', direction: 'in', count: 1 },
          { line: 'south_gate', direction: 'out', count: 1 },
        ],
        entries: [{ zone: 'loading_zone', label: 'person', count: 1 }],
      },
    ]);
    const none = await counts(admin, plain, `?from=${at(0)}&to=${at(24)}`);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual({ deviceId: plain, from: at(0), to: at(24), interval: 'hour', buckets: [] });
  });

  it("answers a member (devices:read), 404 for another organization's device, each organization its own", async () => {
    const asMember = await counts(tenants.a.member, camera.deviceId, `?from=${at(0)}&to=${at(24)}`);
    expect(asMember.status).toBe(200);
    expect(asMember.body.data.buckets).toHaveLength(2);

    for (const [api, deviceId] of [
      [admin, foreign.deviceId],
      [tenants.b.admin, camera.deviceId],
      [admin, ulid()],
    ] as const) {
      const res = await counts(api, deviceId, `?from=${at(0)}&to=${at(24)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'device not found' });
    }
    const own = await counts(tenants.b.admin, foreign.deviceId, `?from=${at(0)}&to=${at(24)}`);
    expect(own.status).toBe(200);
    expect(own.body.data.buckets).toEqual([
      {
        start: at(10),
        crossings: [
          { line: 'north_gate', direction: 'in', count: 1 },
          { line: 'south_gate', direction: 'out', count: 1 },
        ],
        entries: [{ zone: 'loading_zone', label: 'person', count: 1 }],
      },
    ]);
    expect((await platform.anon.get(`/v2/devices/${camera.deviceId}/counts`)).status).toBe(401);
  });

  it('refuses bad parameters with 400 {status, message, error}', async () => {
    const month = (days: number) => `?from=${at(0)}&to=${new Date(day + days * DAY_MS).toISOString()}`;
    const refused: Array<[string, RegExp]> = [
      ['?from=yesterday', /^from: expected an ISO 8601 time/],
      [`?to=${at(10).slice(0, 16)}`, /^to: expected an ISO 8601 time/], // no zone
      ['?from=2026-02-30T00:00:00Z', /^from: expected an ISO 8601 time/],
      ['?to=0000-01-01T00:00:00Z', /^to: expected .* in the years 1970 to 9999/],
      [`?from=${at(10)}&to=${at(10)}`, /^from: must be before to/],
      [`?from=${at(11)}&to=${at(10)}`, /^from: must be before to/],
      [`?from=${at(0)}&to=${at(1)}&interval=week`, /^interval: /],
      [`${month(31)}&interval=hour&x=1`, /"x"/],
      [month(32), /^from: the range .* is longer than 31 days/],
      [`${month(367)}&interval=day`, /^from: the range .* is longer than 366 days/],
      [`?from=${at(0)}&from=${at(1)}`, /^from: given more than once/],
    ];
    for (const [query, error] of refused) {
      const res = await counts(admin, camera.deviceId, query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual({ status: 400, message: 'invalid query parameter', error: expect.any(String) });
      expect(res.body.error, query).toMatch(error);
    }
    // the longest ranges are counted
    expect((await counts(admin, camera.deviceId, month(31))).status).toBe(200);
    expect((await counts(admin, camera.deviceId, `${month(366)}&interval=day`)).status).toBe(200);
  });
});
