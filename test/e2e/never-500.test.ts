// Never a 500 for a client's mistake: valid request bodies of the
// management and ingestion APIs, each with a leaf replaced by an edge value
// (or removed), must be answered 2xx or 4xx. Seeded, so a failure replays.
// It found a search bound PostgreSQL could not read, and events that failed
// the group commit of every request batched with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { random } from '../helpers/random.js';

let platform: Platform;
let ids: { channel: string; project: string; landmark: string; channelKey: string };

beforeAll(async () => {
  platform = await startPlatform({ DEVICE_EVENT_RATE: '100000', DEVICE_EVENT_BURST: '100000' });
  const channel = (await platform.admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  const project = (await platform.admin.post('/v2/projects', { name: 'city', channelIds: [channel.id] })).body.data;
  const landmark = (
    await platform.admin.post('/v2/landmarks', {
      projectId: project.id,
      name: 'park',
      model: { type: 'circle', geometry: { center: { lat: 48.85, lon: 2.35 }, radius: 500 } },
    })
  ).body.data;
  ids = { channel: channel.id, project: project.id, landmark: landmark.id, channelKey: channel.apiKeys[0].apiKey };
});

afterAll(() => stopPlatform(platform));

const EDGE_VALUES: unknown[] = [
  null,
  0,
  -0,
  -1,
  1.5,
  91,
  -181,
  1e308,
  -1e308,
  2 ** 63,
  Number.MAX_SAFE_INTEGER + 2,
  8.64e15,
  -8.64e15,
  253_402_300_800_000,
  '',
  ' ',
  'x'.repeat(5000),
  'NaN',
  '12',
  '1e5',
  '1970-13-45',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  'Europe/Nowhere',
  'a\u0000b',
  '\ud800',
  '😀',
  "'; DROP TABLE events; --",
  true,
  [],
  {},
  [1, 2],
  [[[[[]]]]],
  { a: { b: { c: 1 } } },
];

/** Every path to a value in `value`, objects and arrays included. */
function paths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [path];
  return Object.entries(value)
    .flatMap(([key, v]) => paths(v, [...path, Array.isArray(value) ? Number(key) : key]))
    .concat([path]);
}

/** `count` copies of `body`, each with one or two leaves replaced by an edge value or removed. */
function mutations(body: object, count: number, rand: () => number): object[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const all = paths(body).filter((p) => p.length > 0);
  return Array.from({ length: count }, () => {
    const copy = structuredClone(body) as Record<string | number, any>;
    for (let m = 0; m < 1 + Math.floor(rand() * 2); m++) {
      const path = pick(all);
      let parent: any = copy;
      for (const key of path.slice(0, -1)) parent = parent?.[key];
      if (typeof parent !== 'object' || parent === null) continue;
      if (rand() < 0.15) delete parent[path.at(-1)!];
      else parent[path.at(-1)!] = pick(EDGE_VALUES);
    }
    return copy;
  });
}

describe('mutated request bodies', () => {
  it('get no 500 from the management API', async () => {
    const rand = random(11);
    const bodies: Array<[string, object]> = [
      [
        '/v2/landmarks',
        {
          projectId: ids.project,
          name: 'l',
          tags: ['a'],
          model: { type: 'circle', geometry: { center: { lat: 1, lon: 1 }, radius: 50 } },
        },
      ],
      [
        '/v2/landmarks',
        {
          projectId: ids.project,
          name: 'p',
          model: {
            type: 'polygon',
            geometry: {
              points: [
                { lat: 0, lon: 0 },
                { lat: 0, lon: 1 },
                { lat: 1, lon: 1 },
              ],
            },
          },
        },
      ],
      [
        '/v2/landmarks',
        {
          projectId: ids.project,
          name: 'r',
          model: { type: 'rectangle', geometry: { nw: { lat: 2, lon: 1 }, se: { lat: 1, lon: 2 } } },
        },
      ],
      [
        '/v2/rules',
        {
          projectId: ids.project,
          name: 'r',
          conditionsObject: {
            type: 'and',
            items: [
              { type: 'enterLandmark', ids: [ids.landmark], channelId: ids.channel },
              { type: 'matchAttribute', attribute: 'event.data.tempF', operator: '>', value: 70 },
              {
                type: 'schedule',
                weekDays: [1, 2],
                timeOfDay: { from: 3600, to: 7200 },
                date: { from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' },
              },
            ],
          },
          properties: { timezone: 'America/New_York' },
          throttleInSeconds: 60,
          actions: [
            {
              type: 'webhook',
              method: 'post',
              url: 'https://hooks.example.com/x',
              headers: [{ header: 'X', value: 'y' }],
              body: '{"d": "{{device.id}}"}',
              secret: 'sixteen-chars-secret',
            },
            { type: 'update device state add tags', deviceIds: 'triggering device', tags: ['x'] },
            { type: 'push', subject: 's', message: 'm', options: [{ text: 't', value: 1 }], landmarkId: ids.landmark },
          ],
        },
      ],
      [
        '/v2/rules',
        {
          projectId: ids.project,
          name: 'old',
          conditions: 'event.data.tempF < 32 && event.data.n >= 2',
          actions: [{ type: 'sms', message: 'hi', recipients: { reflect: true, telephoneNumbers: ['123'] } }],
        },
      ],
      [
        '/v2/schemas',
        {
          name: 's',
          format: 'json',
          fields: [{ id: 'data', type: 'object', fields: [{ id: 'tempF', type: 'float' }] }],
        },
      ],
      [
        '/v2/events',
        {
          from: '2020-01-01T00:00:00Z',
          to: 1_700_000_000_000,
          datePath: 'clientSentAt',
          filter: { kind: 'tick', 'data.tempF': 72 },
          sort: { field: 'serverReceivedAt', order: 'asc' },
          limit: 10,
        },
      ],
      ['/v2/devices', { channelId: ids.channel, name: 'd', model: 'm', type: 'iot', tags: ['a'] }],
      ['/v2/channels', { name: 'c', type: 'gateway', credentials: 'x', projectIds: [ids.project] }],
    ];
    const failures: string[] = [];
    for (const [path, body] of bodies) {
      expect((await platform.admin.post(path, body)).status, `${path} with its valid body`).toBeLessThan(300);
      for (const mutated of mutations(body, 80, rand)) {
        const res = await platform.admin.post(path, mutated);
        if (res.status >= 500) failures.push(`${path} ${JSON.stringify(mutated)} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('get no 500 from the ingestion API, single or batched', async () => {
    const rand = random(5);
    const registered = await fetch(`${platform.server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: ids.channelKey, properties: { name: 'n' } }),
    });
    const { token } = (await registered.json()) as { token: string };
    const event = {
      timestamp: 1_700_000_000_000,
      locations: [
        { timestamp: 1_700_000_000_000, latitude: 48.85, longitude: 2.35, velocity: 1, course: 2, accuracy: 3 },
      ],
      wifis: [{ timestamp: 1, mac: 'aa', ssid: 's', rssi: -50 }],
      powers: [{ timestamp: 1, charging: true, batteryLife: 50 }],
      configurations: { uuid: 'u', enabled: true, cadence: 1, useSensors: ['gps'], eventTtl: 1, maxStorage: 1 },
      properties: { manufacturer: 'm', model: 'm', os: 'o', osVersion: '1', sensors: ['s'], name: 'n' },
      attributes: { k: 'x' },
      error: [{ errorCode: 1, errorMessage: 'e' }],
    };
    const failures: string[] = [];
    const statuses = new Set<number>();
    const events = mutations(event, 240, rand);
    for (let i = 0; i < events.length; i += 3) {
      // One at a time and three per batch: a bad one must not fail the others.
      const answers = await Promise.all([
        ...events.slice(i, i + 2).map((e) =>
          fetch(`${platform.server.url}/v1/mobile/events`, {
            method: 'POST',
            headers: { authorization: token },
            body: JSON.stringify(e),
          }),
        ),
        fetch(`${platform.server.url}/v1/mobile/events/batch`, {
          method: 'POST',
          headers: { authorization: token },
          body: JSON.stringify({ events: events.slice(i, i + 3) }),
        }),
      ]);
      for (const res of answers) {
        statuses.add(res.status);
        if (res.status >= 500) failures.push(`${JSON.stringify(events.slice(i, i + 3))} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    // The mutations exercised both outcomes.
    expect([...statuses].sort()).toEqual([204, 400]);
  });
});
