// /v2 channels, channel API keys, schemas, projects and gateways against a
// real server: happy paths, validation, roles, and isolation between
// organizations (another organization's resources are 404 and stay as they were).
import { createHash } from 'node:crypto';
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelKeyService } from '../../src/platform/channel-keys.js';
import { Api } from '../helpers/api.js';
import { startInProcessPlatform, stopInProcessPlatform, type InProcessServer } from '../helpers/in-process.js';
import { twoTenants } from '../helpers/tenants.js';

let server: InProcessServer;
let sql: postgres.Sql;
/** the service ingestion authenticates devices' keys with, on the test's own connection */
let channelKeys: ChannelKeyService;
let anon: Api;
/** admin of organization A */
let admin: Api;
/** member (read-only role) of organization A */
let member: Api;
/** admin of organization B */
let other: Api;

beforeAll(async () => {
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
  }));
  channelKeys = new ChannelKeyService(sql);
  ({
    a: { member },
    b: { admin: other },
  } = await twoTenants({ anon, admin, sql }));
});

afterAll(() => stopInProcessPlatform({ sql, server }));

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const ULID = expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/);
const weatherFields = [
  {
    id: 'data',
    type: 'object',
    fields: [
      { id: 'tempF', type: 'float' },
      { id: 'humidity', type: 'integer' },
    ],
  },
];

/** 401 without a token, 403 for a member; `body` is sent for write methods. */
async function expectWriteGuards(method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, body?: unknown) {
  const unauthenticated = await anon.request(method, path, body);
  expect(unauthenticated.status).toBe(401);
  const forbidden = await member.request(method, path, body);
  expect(forbidden.status).toBe(403);
  expect(forbidden.body.message).toBe('forbidden');
}

describe('schemas', () => {
  it('creates, lists, gets and updates a schema', async () => {
    const created = await admin.post('/v2/schemas', { name: 'weather', format: 'json', fields: weatherFields });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      id: ULID,
      type: 'default',
      organizationId: ULID,
      name: 'weather',
      format: 'json',
      fields: weatherFields,
      additionalProperties: true,
      createdAt: ISO,
      updatedAt: ISO,
    });
    const schemaId = created.body.data.id;
    const list = await member.get('/v2/schemas');
    expect(list.body).toEqual({ data: [created.body.data], meta: { count: 1 } });
    expect((await member.get(`/v2/schemas/${schemaId}`)).body.data).toEqual(created.body.data);

    // Gen B clients send the object back with their change; read-only fields are ignored
    const patched = await admin.patch(`/v2/schemas/${schemaId}`, {
      ...created.body.data,
      name: 'weather v2',
      fields: [
        {
          id: 'data',
          type: 'object',
          fields: [
            { id: 'tempF', type: 'float' },
            { id: 'count', type: 'int', isArray: true },
          ],
        },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: schemaId,
      name: 'weather v2',
      fields: [
        {
          id: 'data',
          type: 'object',
          fields: [
            { id: 'tempF', type: 'float' },
            { id: 'count', type: 'integer', isArray: true },
          ],
        },
      ],
    });
    expect((await admin.patch(`/v2/schemas/${schemaId}`, {})).body.data.name).toBe('weather v2');
  });

  it('validates definitions recursively and names the field', async () => {
    const nested = await admin.post('/v2/schemas', {
      name: 's',
      fields: [{ id: 'data', type: 'object', fields: [{ id: 'x', type: 'double' }] }],
    });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toBe('invalid request body');
    expect(nested.body.error).toContain('fields.0.fields.0.type:');
    const scalar = await admin.post('/v2/schemas', {
      name: 's',
      fields: [{ id: 'n', type: 'string', fields: [{ id: 'x', type: 'float' }] }],
    });
    expect(scalar.body.error).toBe('fields.0.fields: only fields of type object may have nested fields');
    const format = await admin.post('/v2/schemas', { name: 's', format: 'xml', fields: weatherFields });
    expect(format.body.error).toContain('format:');
    const extra = await admin.post('/v2/schemas', { name: 's', fields: weatherFields, color: 'red' });
    expect(extra.body.error).toContain('Unrecognized key: "color"');
    expect((await admin.post('/v2/schemas', { fields: weatherFields })).body.error).toContain('name:');
    expect((await admin.get('/v2/schemas/not-a-ulid')).status).toBe(400);
  });

  it('guards writes by role and hides other organizations', async () => {
    const schemaId = (await admin.post('/v2/schemas', { name: 'private', fields: weatherFields })).body.data.id;
    await expectWriteGuards('POST', '/v2/schemas', { name: 'x', fields: weatherFields });
    await expectWriteGuards('PATCH', `/v2/schemas/${schemaId}`, { name: 'x' });
    await expectWriteGuards('DELETE', `/v2/schemas/${schemaId}`);
    expect((await anon.get('/v2/schemas')).status).toBe(401);

    expect((await other.get(`/v2/schemas/${schemaId}`)).status).toBe(404);
    const patch = await other.patch(`/v2/schemas/${schemaId}`, { name: 'stolen' });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ status: 404, message: 'schema not found' });
    expect((await other.delete(`/v2/schemas/${schemaId}`)).status).toBe(404);
    expect((await other.get('/v2/schemas')).body).toEqual({ data: [], meta: { count: 0 } });
    expect((await admin.get(`/v2/schemas/${schemaId}`)).body.data.name).toBe('private');
  });

  it('refuses to delete a schema a channel uses, then deletes it once unused', async () => {
    const schemaId = (await admin.post('/v2/schemas', { name: 'in use', fields: weatherFields })).body.data.id;
    const channel = (await admin.post('/v2/channels', { name: 'sensors', type: 'iot', schemaId })).body.data;
    const refused = await admin.delete(`/v2/schemas/${schemaId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('schema is in use by channels');
    expect(refused.body.error).toContain(channel.id);
    expect((await admin.patch(`/v2/channels/${channel.id}`, { schemaId: null })).body.data.schemaId).toBeNull();
    expect((await admin.delete(`/v2/schemas/${schemaId}`)).status).toBe(204);
    expect((await admin.get(`/v2/schemas/${schemaId}`)).status).toBe(404);
  });
});

describe('channels', () => {
  it('creates a channel with its first API key, shown only in that response', async () => {
    const schemaId = (await admin.post('/v2/schemas', { name: 'gw', fields: weatherFields })).body.data.id;
    const project = (await admin.post('/v2/projects', { name: 'for channels' })).body.data;
    const res = await admin.post('/v2/channels', {
      name: 'Gateway One',
      type: 'gateway',
      schemaId,
      projectIds: [project.id],
      method: 'fcm',
      credentials: { serverKey: 'abc' },
    });
    expect(res.status).toBe(200);
    const { apiKeys, ...channel } = res.body.data;
    expect(channel).toEqual({
      id: ULID,
      organizationId: project.organizationId,
      schemaId,
      name: 'Gateway One',
      type: 'gateway',
      method: 'fcm',
      credentials: { serverKey: 'abc' },
      projectIds: [project.id],
      enabled: true,
      createdAt: ISO,
      updatedAt: ISO,
    });
    expect(apiKeys).toEqual([
      {
        id: ULID,
        apiKey: expect.any(String),
        prefix: expect.any(String),
        enabled: true,
        createdAt: ISO,
        updatedAt: ISO,
      },
    ]);
    expect(apiKeys[0].apiKey.startsWith(apiKeys[0].prefix)).toBe(true);
    expect(await channelKeys.authenticate(apiKeys[0].apiKey)).toMatchObject({
      channelId: channel.id,
      organizationId: channel.organizationId,
    });

    expect((await member.get(`/v2/channels/${channel.id}`)).body.data).toEqual(channel);
    expect((await admin.get(`/v2/projects/${project.id}`)).body.data.channelIds).toEqual([channel.id]);
    const list = await member.get('/v2/channels');
    expect(list.body.meta.count).toBe(list.body.data.length);
    expect(list.body.data).toContainEqual(channel);
    expect(JSON.stringify(list.body)).not.toContain(apiKeys[0].apiKey);
    expect(JSON.stringify((await admin.get(`/v2/channels/${channel.id}/api-keys`)).body)).not.toContain(
      apiKeys[0].apiKey,
    );
  });

  it('normalises Gen A type spellings and accepts credentials as null or a string', async () => {
    const android = await admin.post('/v2/channels', {
      name: 'phones',
      type: 'Android',
      credentials: null,
      method: null,
    });
    expect(android.body.data).toMatchObject({
      type: 'android',
      credentials: null,
      method: null,
      schemaId: null,
      projectIds: [],
    });
    const ios = await admin.post('/v2/channels', { name: 'iphones', type: 'iOS', credentials: 'p8-key' });
    expect(ios.body.data).toMatchObject({ type: 'ios', credentials: 'p8-key' });
    expect((await admin.post('/v2/channels', { name: 'things', type: 'iot' })).body.data.type).toBe('iot');
  });

  it('validates the body and names the field', async () => {
    const type = await admin.post('/v2/channels', { name: 'x', type: 'windows' });
    expect(type.status).toBe(400);
    expect(type.body.error).toContain('type:');
    expect((await admin.post('/v2/channels', { type: 'ios' })).body.error).toContain('name:');
    expect((await admin.post('/v2/channels', { name: 'x', type: 'ios', apiKey: 'x' })).body.error).toContain(
      'Unrecognized key: "apiKey"',
    );
    expect((await admin.post('/v2/channels', { name: 'x', type: 'ios', projectIds: ['nope'] })).body.error).toContain(
      'projectIds.0:',
    );
    const badSchema = await admin.post('/v2/channels', { name: 'x', type: 'iot', schemaId: ulid() });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.message).toBe('bad schemaId');
    const badProject = await admin.post('/v2/channels', { name: 'x', type: 'iot', projectIds: [ulid()] });
    expect(badProject.status).toBe(400);
    expect(badProject.body.message).toBe('bad projectIds');
    expect((await admin.patch(`/v2/channels/${ulid()}`, { name: '' })).body.error).toContain('name:');
    // Text PostgreSQL cannot store: refused with its path, never a 500 or a silently altered name.
    expect((await admin.post('/v2/channels', { name: 'a\u0000b', type: 'ios' })).body).toEqual({
      status: 400,
      message: 'invalid request body',
      error: 'name: must not contain U+0000 or an unpaired surrogate',
    });
    expect(
      (await admin.post('/v2/channels', { name: 'x', type: 'ios', credentials: { ['k\ud800']: 1 } })).body.error,
    ).toBe('credentials.k\\ud800: must not contain U+0000 or an unpaired surrogate');
    // In a query a route reads (a route that declares none never parses its query).
    expect((await admin.get('/v2/rules?projectId=%00')).body).toEqual({
      status: 400,
      message: 'invalid query parameter',
      error: 'projectId: must not contain U+0000 or an unpaired surrogate',
    });
  });

  it('updates a channel: fields, projects, and the read-only fields of a Gen B body are ignored', async () => {
    const created = (await admin.post('/v2/channels', { name: 'before', type: 'ios' })).body.data;
    const { apiKeys: _keys, ...channel } = created;
    const p1 = (await admin.post('/v2/projects', { name: 'p1' })).body.data.id;
    const p2 = (await admin.post('/v2/projects', { name: 'p2' })).body.data.id;
    const patched = await admin.patch(`/v2/channels/${channel.id}`, {
      ...channel,
      id: ulid(),
      name: 'after',
      type: 'Android',
      projectIds: [p2, p1, p1],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id: channel.id,
      name: 'after',
      type: 'android',
      projectIds: [p1, p2].sort(),
    });
    expect(new Date(patched.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(channel.updatedAt).getTime(),
    );
    const detached = await admin.patch(`/v2/channels/${channel.id}`, { projectIds: [] });
    expect(detached.body.data.projectIds).toEqual([]);
    expect((await admin.patch(`/v2/channels/${channel.id}`, { schemaId: ulid() })).body.message).toBe('bad schemaId');
    expect((await admin.patch(`/v2/channels/${channel.id}`, { projectIds: [ulid()] })).body.message).toBe(
      'bad projectIds',
    );
    expect((await admin.get(`/v2/channels/${channel.id}`)).body.data).toMatchObject({ name: 'after', projectIds: [] });
  });

  it('deletes a channel with its keys', async () => {
    const created = (await admin.post('/v2/channels', { name: 'doomed', type: 'ios' })).body.data;
    expect((await admin.delete(`/v2/channels/${created.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/channels/${created.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/channels/${created.id}`)).status).toBe(404);
    expect(await channelKeys.authenticate(created.apiKeys[0].apiKey)).toBeUndefined();
    expect((await sql`SELECT count(*)::int AS n FROM channel_api_keys WHERE channel_id = ${created.id}`)[0]!.n).toBe(0);
  });

  it('guards writes by role', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'guarded', type: 'ios' })).body.data;
    await expectWriteGuards('POST', '/v2/channels', { name: 'x', type: 'ios' });
    await expectWriteGuards('PATCH', `/v2/channels/${channel.id}`, { name: 'x' });
    await expectWriteGuards('DELETE', `/v2/channels/${channel.id}`);
    expect((await anon.get('/v2/channels')).status).toBe(401);
    expect((await anon.get(`/v2/channels/${channel.id}`)).status).toBe(401);
    expect((await member.get(`/v2/channels/${channel.id}`)).status).toBe(200);
  });

  it('keeps other organizations out', async () => {
    const schemaId = (await admin.post('/v2/schemas', { name: 'a schema', fields: weatherFields })).body.data.id;
    const projectId = (await admin.post('/v2/projects', { name: 'a project' })).body.data.id;
    const { apiKeys, ...channel } = (
      await admin.post('/v2/channels', { name: 'mine', type: 'iot', schemaId, projectIds: [projectId] })
    ).body.data;

    expect((await other.get(`/v2/channels/${channel.id}`)).body).toEqual({ status: 404, message: 'channel not found' });
    expect((await other.patch(`/v2/channels/${channel.id}`, { name: 'stolen', enabled: false })).status).toBe(404);
    expect((await other.delete(`/v2/channels/${channel.id}`)).status).toBe(404);
    expect((await other.get('/v2/channels')).body.data.map((c: { id: string }) => c.id)).not.toContain(channel.id);
    // references into organization A are refused as if they did not exist
    expect((await other.post('/v2/channels', { name: 'x', type: 'iot', schemaId })).body.message).toBe('bad schemaId');
    expect((await other.post('/v2/channels', { name: 'x', type: 'iot', projectIds: [projectId] })).body.message).toBe(
      'bad projectIds',
    );
    const own = (await other.post('/v2/channels', { name: 'theirs', type: 'ios' })).body.data;
    expect((await other.patch(`/v2/channels/${own.id}`, { schemaId })).body.message).toBe('bad schemaId');
    expect((await other.patch(`/v2/channels/${own.id}`, { projectIds: [projectId] })).body.message).toBe(
      'bad projectIds',
    );

    expect((await admin.get(`/v2/channels/${channel.id}`)).body.data).toEqual(channel);
    expect(await channelKeys.authenticate(apiKeys[0].apiKey)).toMatchObject({ channelId: channel.id });
    expect((await admin.get(`/v2/projects/${projectId}`)).body.data.channelIds).toEqual([channel.id]);
  });
});

describe('channel API keys', () => {
  let channelId: string;
  let firstKey: string;

  beforeAll(async () => {
    const created = (await admin.post('/v2/channels', { name: 'keyed', type: 'android' })).body.data;
    channelId = created.id;
    firstKey = created.apiKeys[0].apiKey;
  });

  it('creates keys, lists them without the key, stores only digests', async () => {
    const created = await admin.post(`/v2/channels/${channelId}/api-keys`);
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      id: ULID,
      apiKey: expect.any(String),
      prefix: expect.any(String),
      enabled: true,
      createdAt: ISO,
      updatedAt: ISO,
    });
    const apiKey: string = created.body.data.apiKey;
    expect(apiKey.length).toBeGreaterThanOrEqual(40);

    const list = await admin.get(`/v2/channels/${channelId}/api-keys`);
    expect(list.body.meta).toEqual({ count: 2 });
    for (const key of list.body.data)
      expect(Object.keys(key).sort()).toEqual(['createdAt', 'enabled', 'id', 'prefix', 'updatedAt']);
    expect(list.body.data[1]).toEqual({ ...created.body.data, apiKey: undefined });

    const rows = await sql`SELECT * FROM channel_api_keys WHERE channel_id = ${channelId} ORDER BY created_at, id`;
    expect(rows.map((r) => r.keyHash)).toEqual([sha256(firstKey), sha256(apiKey)]);
    const stored = JSON.stringify(await sql`SELECT * FROM channel_api_keys`);
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toContain(firstKey);
    expect(await channelKeys.authenticate(apiKey)).toEqual({
      apiKeyId: created.body.data.id,
      channelId,
      organizationId: rows[0]!.organizationId,
      channelType: 'android',
      schemaId: null,
    });
  });

  it('refuses unknown, disabled and deleted keys, and keys of disabled channels', async () => {
    expect(await channelKeys.authenticate('sk_not-a-real-key')).toBeUndefined();
    expect(await channelKeys.authenticate('')).toBeUndefined();
    expect(await channelKeys.authenticate(undefined)).toBeUndefined();
    expect(await channelKeys.authenticate('x'.repeat(10_000))).toBeUndefined();

    const key = (await admin.post(`/v2/channels/${channelId}/api-keys`)).body.data;
    const disabled = await admin.post(`/v2/channels/${channelId}/api-keys/${key.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ id: key.id, enabled: false });
    expect(disabled.body.data.apiKey).toBeUndefined();
    expect(await channelKeys.authenticate(key.apiKey)).toBeUndefined();
    expect((await admin.post(`/v2/channels/${channelId}/api-keys/${key.id}/enable`)).body.data.enabled).toBe(true);
    expect(await channelKeys.authenticate(key.apiKey)).toMatchObject({ channelId });

    expect((await admin.patch(`/v2/channels/${channelId}`, { enabled: false })).body.data.enabled).toBe(false);
    expect(await channelKeys.authenticate(key.apiKey)).toBeUndefined();
    expect((await admin.patch(`/v2/channels/${channelId}`, { enabled: true })).body.data.enabled).toBe(true);
    expect(await channelKeys.authenticate(key.apiKey)).toMatchObject({ channelId });

    expect((await admin.delete(`/v2/channels/${channelId}/api-keys/${key.id}`)).status).toBe(204);
    expect(await channelKeys.authenticate(key.apiKey)).toBeUndefined();
    expect((await admin.delete(`/v2/channels/${channelId}/api-keys/${key.id}`)).body).toEqual({
      status: 404,
      message: 'API key not found',
    });
    expect((await admin.post(`/v2/channels/${channelId}/api-keys/${key.id}/enable`)).status).toBe(404);
  });

  it('serves the Gen A spellings', async () => {
    const created = await admin.post(`/v2/channels/${channelId}/apiKeys`);
    expect(created.status).toBe(200);
    const key = created.body.data;
    expect((await admin.get(`/v2/channels/${channelId}/apiKeys`)).body.data.map((k: { id: string }) => k.id)).toContain(
      key.id,
    );
    const put = await admin.request('PUT', `/v2/channels/${channelId}/apiKeys/${key.id}`, { enabled: false });
    expect(put.status).toBe(200);
    expect(put.body.data.enabled).toBe(false);
    expect(await channelKeys.authenticate(key.apiKey)).toBeUndefined();
    const invalid = await admin.request('PUT', `/v2/channels/${channelId}/apiKeys/${key.id}`, { enabled: 'yes' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toContain('enabled:');
    expect(
      (await admin.request('PUT', `/v2/channels/${channelId}/apiKeys/${key.id}`, { enabled: true })).body.data.enabled,
    ).toBe(true);
    expect((await admin.delete(`/v2/channels/${channelId}/apiKeys/${key.id}`)).status).toBe(204);
  });

  it('is for managers only', async () => {
    const key = (await admin.post(`/v2/channels/${channelId}/api-keys`)).body.data;
    expect((await anon.get(`/v2/channels/${channelId}/api-keys`)).status).toBe(401);
    expect((await member.get(`/v2/channels/${channelId}/api-keys`)).status).toBe(403);
    await expectWriteGuards('POST', `/v2/channels/${channelId}/api-keys`);
    await expectWriteGuards('POST', `/v2/channels/${channelId}/api-keys/${key.id}/disable`);
    await expectWriteGuards('POST', `/v2/channels/${channelId}/api-keys/${key.id}/enable`);
    await expectWriteGuards('PUT', `/v2/channels/${channelId}/apiKeys/${key.id}`, { enabled: false });
    await expectWriteGuards('DELETE', `/v2/channels/${channelId}/api-keys/${key.id}`);
    expect(await channelKeys.authenticate(key.apiKey)).toMatchObject({ channelId });
  });

  it('keeps other organizations out', async () => {
    const key = (await admin.post(`/v2/channels/${channelId}/api-keys`)).body.data;
    expect((await other.get(`/v2/channels/${channelId}/api-keys`)).body).toEqual({
      status: 404,
      message: 'channel not found',
    });
    expect((await other.post(`/v2/channels/${channelId}/api-keys`)).status).toBe(404);
    expect((await other.post(`/v2/channels/${channelId}/api-keys/${key.id}/disable`)).status).toBe(404);
    expect((await other.request('PUT', `/v2/channels/${channelId}/apiKeys/${key.id}`, { enabled: false })).status).toBe(
      404,
    );
    expect((await other.delete(`/v2/channels/${channelId}/api-keys/${key.id}`)).status).toBe(404);
    // a key id paired with a channel of the caller's own organization does not reach it either
    const theirs = (await other.post('/v2/channels', { name: 'theirs', type: 'ios' })).body.data;
    expect((await other.post(`/v2/channels/${theirs.id}/api-keys/${key.id}/disable`)).body).toEqual({
      status: 404,
      message: 'API key not found',
    });
    expect((await other.delete(`/v2/channels/${theirs.id}/api-keys/${key.id}`)).status).toBe(404);
    // and a key id under another channel of the same organization is not found
    const sibling = (await admin.post('/v2/channels', { name: 'sibling', type: 'ios' })).body.data;
    expect((await admin.post(`/v2/channels/${sibling.id}/api-keys/${key.id}/disable`)).status).toBe(404);

    expect(await channelKeys.authenticate(key.apiKey)).toMatchObject({ channelId });
    const after = (await admin.get(`/v2/channels/${channelId}/api-keys`)).body.data.find(
      (k: { id: string }) => k.id === key.id,
    );
    expect(after.enabled).toBe(true);
  });
});

describe('projects', () => {
  it('creates, lists, gets, updates and deletes projects', async () => {
    const c1 = (await admin.post('/v2/channels', { name: 'pc1', type: 'ios' })).body.data.id;
    const c2 = (await admin.post('/v2/channels', { name: 'pc2', type: 'android' })).body.data.id;
    const created = await admin.post('/v2/projects', { name: 'Campus', channelIds: [c1] });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      id: ULID,
      name: 'Campus',
      organizationId: ULID,
      channelIds: [c1],
      enabled: true,
      createdAt: ISO,
      updatedAt: ISO,
    });
    const project = created.body.data;
    // Gen A spelling, and both spellings at once
    expect((await admin.post('/v2/projects', { name: 'Gen A', channelIDs: [c2] })).body.data.channelIds).toEqual([c2]);
    expect(
      (await admin.post('/v2/projects', { name: 'Both', channelIds: [c1], channelIDs: [c2, c1] })).body.data.channelIds,
    ).toEqual([c1, c2].sort());

    expect((await member.get(`/v2/projects/${project.id}`)).body.data).toEqual(project);
    const list = await member.get('/v2/projects');
    expect(list.body.meta.count).toBe(list.body.data.length);
    expect(list.body.data).toContainEqual(project);

    const patched = await admin.patch(`/v2/projects/${project.id}`, {
      ...project,
      name: 'Campus 2',
      channelIds: [c2],
      enabled: false,
    });
    expect(patched.body.data).toMatchObject({ id: project.id, name: 'Campus 2', channelIds: [c2], enabled: false });
    const put = await admin.request('PUT', `/v2/projects/${project.id}`, { name: 'Campus 3' });
    expect(put.body.data).toMatchObject({ name: 'Campus 3', channelIds: [c2] });
    expect((await admin.get(`/v2/channels/${c2}`)).body.data.projectIds).toContain(project.id);

    expect((await admin.delete(`/v2/projects/${project.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/projects/${project.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/projects/${project.id}`)).status).toBe(404);
  });

  it('attaches, lists and detaches channels (Gen A routes); deleting a project detaches its channels', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'attachable', type: 'iot' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'Attach' })).body.data;
    const attached = await admin.post(`/v2/projects/${project.id}/channels/${channel.id}`);
    expect(attached.status).toBe(201);
    expect(attached.body.data.channelIds).toEqual([channel.id]);
    expect((await admin.post(`/v2/projects/${project.id}/channels/${channel.id}`)).status).toBe(201); // idempotent
    const listed = await member.get(`/v2/projects/${project.id}/channels`);
    expect(listed.body.meta).toEqual({ count: 1 });
    expect(listed.body.data[0]).toMatchObject({ id: channel.id, name: 'attachable', projectIds: [project.id] });
    expect((await admin.delete(`/v2/projects/${project.id}/channels/${channel.id}`)).status).toBe(204);
    expect((await admin.delete(`/v2/projects/${project.id}/channels/${channel.id}`)).status).toBe(404);
    expect((await admin.get(`/v2/projects/${project.id}/channels`)).body).toEqual({ data: [], meta: { count: 0 } });
    expect((await admin.post(`/v2/projects/${project.id}/channels/${ulid()}`)).body).toEqual({
      status: 404,
      message: 'channel not found',
    });

    await admin.post(`/v2/projects/${project.id}/channels/${channel.id}`);
    expect((await admin.delete(`/v2/projects/${project.id}`)).status).toBe(204);
    const after = await admin.get(`/v2/channels/${channel.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data.projectIds).toEqual([]);
    expect((await sql`SELECT count(*)::int AS n FROM project_channels WHERE project_id = ${project.id}`)[0]!.n).toBe(0);
  });

  it('validates the body and names the field', async () => {
    const missing = await admin.post('/v2/projects', { channelIds: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('name:');
    expect((await admin.post('/v2/projects', { name: 'x', channelIds: 'abc' })).body.error).toContain('channelIds:');
    expect((await admin.post('/v2/projects', { name: 'x', rules: [] })).body.error).toContain(
      'Unrecognized key: "rules"',
    );
    const unknown = await admin.post('/v2/projects', { name: 'x', channelIds: [ulid()] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('bad channelIds');
    expect((await admin.patch(`/v2/projects/${ulid()}`, { enabled: 'no' })).body.error).toContain('enabled:');
  });

  it('guards writes by role', async () => {
    const project = (await admin.post('/v2/projects', { name: 'guarded' })).body.data;
    const channel = (await admin.post('/v2/channels', { name: 'guarded', type: 'ios' })).body.data;
    await expectWriteGuards('POST', '/v2/projects', { name: 'x' });
    await expectWriteGuards('PATCH', `/v2/projects/${project.id}`, { name: 'x' });
    await expectWriteGuards('PUT', `/v2/projects/${project.id}`, { name: 'x' });
    await expectWriteGuards('DELETE', `/v2/projects/${project.id}`);
    await expectWriteGuards('POST', `/v2/projects/${project.id}/channels/${channel.id}`);
    await expectWriteGuards('DELETE', `/v2/projects/${project.id}/channels/${channel.id}`);
    expect((await anon.get('/v2/projects')).status).toBe(401);
    expect((await anon.get(`/v2/projects/${project.id}/channels`)).status).toBe(401);
    expect((await admin.get(`/v2/projects/${project.id}`)).body.data).toMatchObject({
      name: 'guarded',
      channelIds: [],
    });
  });

  it('keeps other organizations out', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'a channel', type: 'ios' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'a project', channelIds: [channel.id] })).body.data;
    expect((await other.get(`/v2/projects/${project.id}`)).body).toEqual({ status: 404, message: 'project not found' });
    expect((await other.patch(`/v2/projects/${project.id}`, { name: 'stolen', channelIds: [] })).status).toBe(404);
    expect((await other.delete(`/v2/projects/${project.id}`)).status).toBe(404);
    expect((await other.get(`/v2/projects/${project.id}/channels`)).status).toBe(404);
    expect((await other.delete(`/v2/projects/${project.id}/channels/${channel.id}`)).status).toBe(404);
    expect((await other.get('/v2/projects')).body.data.map((p: { id: string }) => p.id)).not.toContain(project.id);
    // B's project cannot take A's channel, nor B's channel A's project
    const theirProject = (await other.post('/v2/projects', { name: 'theirs' })).body.data;
    const theirChannel = (await other.post('/v2/channels', { name: 'theirs', type: 'ios' })).body.data;
    expect((await other.post(`/v2/projects/${theirProject.id}/channels/${channel.id}`)).body).toEqual({
      status: 404,
      message: 'channel not found',
    });
    expect((await other.post(`/v2/projects/${project.id}/channels/${theirChannel.id}`)).body).toEqual({
      status: 404,
      message: 'project not found',
    });
    expect((await other.post('/v2/projects', { name: 'x', channelIds: [channel.id] })).body.message).toBe(
      'bad channelIds',
    );
    expect((await other.patch(`/v2/projects/${theirProject.id}`, { channelIDs: [channel.id] })).body.message).toBe(
      'bad channelIds',
    );

    expect((await admin.get(`/v2/projects/${project.id}`)).body.data).toEqual(project);
    expect((await admin.get(`/v2/channels/${channel.id}`)).body.data.projectIds).toEqual([project.id]);
  });
});

describe('gateways', () => {
  it('creates, lists, gets, renames and deletes gateways', async () => {
    const created = await admin.post('/v2/gateways', { name: 'Edge 1' });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      id: ULID,
      organizationId: ULID,
      name: 'Edge 1',
      createdAt: ISO,
      updatedAt: ISO,
      syncedAt: null,
    });
    const gateway = created.body.data;
    expect((await member.get('/v2/gateways')).body).toEqual({ data: [gateway], meta: { count: 1 } });
    expect((await member.get(`/v2/gateways/${gateway.id}`)).body.data).toEqual(gateway);
    const patched = await admin.patch(`/v2/gateways/${gateway.id}`, { ...gateway, name: 'Edge One' });
    expect(patched.body.data).toMatchObject({ id: gateway.id, name: 'Edge One' });
    expect((await admin.patch(`/v2/gateways/${gateway.id}`, {})).body.data.name).toBe('Edge One');
    expect((await admin.delete(`/v2/gateways/${gateway.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/gateways/${gateway.id}`)).status).toBe(404);
  });

  it('validates the body and names the field', async () => {
    expect((await admin.post('/v2/gateways', {})).body.error).toContain('name:');
    expect((await admin.post('/v2/gateways', { name: 'x', os: 'linux' })).body.error).toContain(
      'Unrecognized key: "os"',
    );
    const gateway = (await admin.post('/v2/gateways', { name: 'valid' })).body.data;
    const res = await admin.patch(`/v2/gateways/${gateway.id}`, { name: '   ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('name:');
  });

  it('guards writes by role and keeps other organizations out', async () => {
    const gateway = (await admin.post('/v2/gateways', { name: 'guarded' })).body.data;
    await expectWriteGuards('POST', '/v2/gateways', { name: 'x' });
    await expectWriteGuards('PATCH', `/v2/gateways/${gateway.id}`, { name: 'x' });
    await expectWriteGuards('DELETE', `/v2/gateways/${gateway.id}`);
    expect((await anon.get('/v2/gateways')).status).toBe(401);

    expect((await other.get(`/v2/gateways/${gateway.id}`)).body).toEqual({ status: 404, message: 'gateway not found' });
    expect((await other.patch(`/v2/gateways/${gateway.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await other.delete(`/v2/gateways/${gateway.id}`)).status).toBe(404);
    expect((await other.get('/v2/gateways')).body.data.map((g: { id: string }) => g.id)).not.toContain(gateway.id);
    expect((await admin.get(`/v2/gateways/${gateway.id}`)).body.data).toEqual(gateway);
  });
});

describe('OpenAPI', () => {
  it('documents every route of the area', async () => {
    const doc = (await anon.get('/openapi.json')).body;
    for (const path of [
      '/v2/channels',
      '/v2/channels/{channel}',
      '/v2/channels/{channel}/api-keys',
      '/v2/channels/{channel}/api-keys/{apiKey}',
      '/v2/channels/{channel}/api-keys/{apiKey}/enable',
      '/v2/channels/{channel}/api-keys/{apiKey}/disable',
      '/v2/schemas',
      '/v2/schemas/{schema}',
      '/v2/projects',
      '/v2/projects/{project}',
      '/v2/projects/{project}/channels',
      '/v2/projects/{project}/channels/{channel}',
      '/v2/gateways',
      '/v2/gateways/{gateway}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
