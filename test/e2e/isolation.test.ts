// Organization isolation, walked over the whole management API: every route
// of /openapi.json is called with a token of organization B against the
// resources of organization A. Each must answer 403 or 404 (401 where the
// platform documented "you dont have access": docs/CONTRACT.md#v2-errors), B's lists (and B's live
// event stream, while A's device sends) must not show any of A's ids, and
// A's resources must be unchanged afterwards.
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { Api } from '../helpers/api.js';
import { openEventStream } from '../helpers/event-stream.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import type { TestServer } from '../helpers/server.js';
import { organizationOf, twoTenants } from '../helpers/tenants.js';

let server: TestServer;
let sql: postgres.Sql;
let a: Api;
let b: Api;
let database: Platform['database'];
const ids: Record<string, string> = {};

beforeAll(async () => {
  let anon: Api;
  ({ database, server, sql, anon, admin: a } = await startPlatform());
  const tenants = await twoTenants({ anon, admin: a, sql }, { member: false, other: 'intruder@example.com' });
  b = tenants.b.admin;

  ids.organization = tenants.a.organizationId;
  ids.schema = (
    await a.post('/v2/schemas', { name: 's', format: 'json', fields: [{ id: 'x', type: 'float' }] })
  ).body.data.id;
  const channel = (await a.post('/v2/channels', { name: 'c', type: 'gateway', schemaId: ids.schema })).body.data;
  ids.channel = channel.id;
  ids.channelKey = channel.apiKeys[0].id;
  ids.project = (await a.post('/v2/projects', { name: 'p', channelIds: [ids.channel] })).body.data.id;
  ids.gateway = (await a.post('/v2/gateways', { name: 'g' })).body.data.id;
  ids.device = (await a.post('/v2/devices', { channelId: ids.channel, name: 'd' })).body.data.id;
  // A camera of A's (no model runs on this server, so its profile is written as a server would store it).
  await sql`INSERT INTO device_vision (device_id, organization_id, model_version_id, zones)
            VALUES (${ids.device!}, ${ids.organization!}, 'a-version', '[{"name": "z", "polygon": [[0, 0], [1, 0], [1, 1]]}]')`;
  // ...which keeps its frames: one frame event, its image kept as a server keeps it in PostgreSQL.
  ids.event = ulid();
  await sql`INSERT INTO kept_frames (event_id, organization_id, account_id, device_id, content_type, bytes, sha256, data)
            VALUES (${ids.event}, ${ids.organization!}, ${ids.organization!}, ${ids.device!}, 'image/png', 5, 'unchecked', ${Buffer.from('frame')})`;
  ids.landmark = (
    await a.post('/v2/landmarks', {
      projectId: ids.project,
      name: 'l',
      model: { type: 'circle', geometry: { center: { lat: 1, lon: 1 }, radius: 50 } },
    })
  ).body.data.id;
  ids.rule = (
    await a.post('/v2/rules', {
      projectId: ids.project,
      name: 'r',
      conditionsObject: [{ type: 'insideLandmark', ids: [ids.landmark] }],
    })
  ).body.data.id;
  ids.model = (await a.post('/v2/models', { name: 'm' })).body.data.id;
  ids.inferenceKey = (await a.post('/v2/inference/api-keys', { name: 'k' })).body.data.id;
  await a.post('/v2/devices/alias-lookup', { type: 'tel', value: '1' });
  for (const [name, value] of Object.entries(ids)) expect(value, name).toMatch(/^[0-9A-Z]{26}$/);
});

afterAll(async () => {
  await stopPlatform({ sql, server, database });
});

/** B's own channel and device, for the events that mark how far B's stream has read. */
let ownOfB: { organization: string; channel: string; device: string } | undefined;

/** Commits an event as a device's, straight into the table (as any server's writer would). */
async function insertEvent(
  organization: string,
  channel: string,
  device: string,
  payload: Record<string, string | number>,
): Promise<string> {
  const id = ulid();
  await sql`
    INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, dedup_key, payload)
    VALUES (${id}, ${organization}, ${channel}, ${device}, 'iot', now(), ${id}, ${sql.json(payload)})`;
  return id;
}

/**
 * What B's stream of server-sent events carries while an event of A's device
 * is committed (and two polls after): the live event tail. Each of those
 * polls is marked by an event of B's own committed after A's: once B's
 * stream has it, the poll that read it came after A's event was there.
 */
async function streamedWhileAWrites(path: string): Promise<string> {
  if (!ownOfB) {
    const channel = (await b.post('/v2/channels', { name: 'b-sensors', type: 'iot' })).body.data.id as string;
    const device = (await b.post('/v2/devices', { channelId: channel, name: 'b-device' })).body.data.id as string;
    ownOfB = { organization: organizationOf(b), channel, device };
  }
  const stream = await openEventStream(b, '', {}, path);
  expect(stream.status, path).toBe(200);
  await stream.waitFor((m) => m.event === 'ready');
  await insertEvent(ids.organization!, ids.channel!, ids.device!, { secret: ids.organization! });
  for (let poll = 1; poll <= 2; poll++) {
    const marker = await insertEvent(ownOfB.organization, ownOfB.channel, ownOfB.device, { marker: poll });
    await stream.waitForEvent((e) => e.id === marker);
  }
  stream.close();
  return JSON.stringify(stream.messages);
}

/** A's view of its resources, to compare before and after the walk. */
async function snapshot(): Promise<string> {
  const parts = await Promise.all([
    a.get('/v2/organizations'),
    a.get('/v2/channels'),
    a.get(`/v2/channels/${ids.channel}/api-keys`),
    a.get('/v2/schemas'),
    a.get('/v2/projects'),
    a.get('/v2/gateways'),
    a.get(`/v2/devices/${ids.device}`),
    a.get(`/v2/devices/${ids.device}/vision`),
    a.get(`/v2/devices/${ids.device}/frames/${ids.event}`),
    a.get(`/v2/landmarks/${ids.landmark}`),
    a.get(`/v2/rules/${ids.rule}`),
    a.get(`/v2/models/${ids.model}`),
    a.get('/v2/inference/api-keys'),
  ]);
  return JSON.stringify(parts.map((p) => p.body));
}

/** Which of A's ids a path parameter stands for. */
function idFor(path: string, param: string): string {
  if (param === 'apiKey') return path.startsWith('/v2/inference') ? ids.inferenceKey! : ids.channelKey!;
  if (param === 'id') return ids.device!;
  if (param === 'modelVersion' || param === 'version') return '01ARZ3NDEKTSV4RRFFQ69G5FAV';
  const id = ids[param];
  if (!id) throw new Error(`no resource for {${param}} in ${path}`);
  return id;
}

/** A body that passes validation, so the answer is about access, not shape. */
function bodyFor(method: string, path: string): unknown {
  if (method === 'put' && path.includes('apiKeys')) return { enabled: false };
  if (method === 'put' && path.endsWith('/vision')) return { modelVersionId: 'a-version', zones: [] };
  if (method === 'put' && path.endsWith('/stages')) return { stages: [] };
  if (method === 'patch' || method === 'put') return { name: 'taken over' };
  if (path.endsWith('/landmarks'))
    return { name: 'x', model: { type: 'circle', geometry: { center: { lat: 1, lon: 1 }, radius: 10 } } };
  if (path.endsWith('/rules')) return { name: 'x' };
  return {};
}

describe('organization isolation', () => {
  it('answers 403 or 404 on every route with ids of another organization, and changes nothing', async () => {
    const before = await snapshot();
    const doc = (await b.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    let walked = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/v2/') || !template.includes('{')) continue;
      const path = template.replace(/\{(\w+)\}/g, (_m, param: string) => idFor(template, param));
      for (const method of Object.keys(operations)) {
        const res = await b.request(
          method.toUpperCase(),
          path,
          method === 'get' || method === 'delete' ? undefined : bodyFor(method, template),
        );
        expect(
          [403, 404],
          `${method.toUpperCase()} ${template} answered ${res.status} ${JSON.stringify(res.body)}`,
        ).toContain(res.status);
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(40);
    expect(await snapshot()).toBe(before);
  });

  it('refuses references to another organization in bodies', async () => {
    const attempts: Array<[string, unknown]> = [
      ['/v2/devices', { channelId: ids.channel }],
      [
        '/v2/landmarks',
        {
          projectId: ids.project,
          name: 'x',
          model: { type: 'circle', geometry: { center: { lat: 1, lon: 1 }, radius: 10 } },
        },
      ],
      ['/v2/rules', { projectId: ids.project, name: 'x' }],
      ['/v2/projects', { name: 'x', channelIds: [ids.channel] }],
      ['/v2/channels', { name: 'x', type: 'gateway', schemaId: ids.schema }],
      ['/v2/events', { deviceId: ids.device }],
      ['/v2/events', { channelId: ids.channel }],
      ['/v2/events/metrics', { channelId: ids.channel, timezone: 'UTC' }],
      ['/v2/devices/search', { channelId: ids.channel }],
      ['/v2/landmarks/search', { projectId: ids.project }],
      ['/v2/set-organization', { organizationId: ids.organization }],
    ];
    for (const [path, body] of attempts) {
      const res = await b.post(path, body);
      const empty = res.status === 200 && Array.isArray(res.body?.data) && res.body.data.length === 0;
      expect(
        empty || [400, 401, 403, 404].includes(res.status),
        `POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`,
      ).toBe(true);
    }
  });

  it('shows none of the other organization in lists', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
    const doc = (await b.get('/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    const leaks: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v2/') || path.includes('{') || !('get' in operations)) continue;
      const streamed = 'text/event-stream' in (operations.get!.responses['200']?.content ?? {});
      const text = streamed ? await streamedWhileAWrites(path) : JSON.stringify((await b.get(path)).body);
      for (const [name, id] of Object.entries(ids)) if (text.includes(id)) leaks.push(`${path} shows ${name}`);
    }
    expect(leaks).toEqual([]);
  });
});
