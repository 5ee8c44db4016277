// /v2 devices: create, read, update, delete, search, alias look-up, and
// registerDevice (the ingestion API's way in); validation, roles and
// organization isolation.
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeviceAliases, registerDevice } from '../../src/db/devices.js';
import { Api } from '../helpers/api.js';
import { waitFor } from '../helpers/server.js';
import { startInProcessPlatform, stopInProcessPlatform, type InProcessServer } from '../helpers/in-process.js';
import { rowMaker, type RowMaker } from '../helpers/rows.js';
import { twoTenants } from '../helpers/tenants.js';

let server: InProcessServer;
let sql: postgres.Sql;
let anon: Api;
let admin: Api;
let member: Api;
let other: Api; // admin of another organization
let rows: RowMaker;
let orgA: string;
let orgB: string;
let channelA: string;
let channelA2: string;
let channelB: string;
let projectA: string;

beforeAll(async () => {
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
  }));
  ({
    a: { organizationId: orgA, member },
    b: { organizationId: orgB, admin: other },
  } = await twoTenants({ anon, admin, sql }));
  expect(orgB).not.toBe(orgA);

  // channels and projects are another area's endpoints: rows are made directly
  rows = rowMaker(sql);
  channelA = await rows.channel(orgA, { name: 'phones', type: 'android' });
  channelA2 = await rows.channel(orgA, { name: 'sensors', type: 'android' });
  channelB = await rows.channel(orgB, { name: 'theirs', type: 'android' });
  projectA = await rows.project(orgA, { name: 'project A', channelIds: [channelA2] });
});

afterAll(() => stopInProcessPlatform({ sql, server }));

describe('create, read, update, delete', () => {
  it('creates a device in a channel of the organization and reads it back', async () => {
    const res = await admin.post('/v2/devices', {
      channelId: channelA,
      name: 'Front door',
      model: 'X1',
      type: 'iot',
      tags: ['door', 'door', 'north'],
    });
    expect(res.status).toBe(200);
    const device = res.body.data;
    expect(Object.keys(device).sort()).toEqual(
      [
        'attributes',
        'channelId',
        'createdAt',
        'id',
        'model',
        'name',
        'organizationId',
        'properties',
        'sensors',
        'tags',
        'type',
        'updatedAt',
        'lastSeenAt',
        'lastLocation',
        'insideLandmarkIds',
        'camera',
        'connection',
      ].sort(),
    );
    // no event yet: never seen, nowhere; no vision profile: no camera; no connection open (MQTT)
    expect(device).toMatchObject({
      lastSeenAt: null,
      lastLocation: null,
      insideLandmarkIds: [],
      camera: false,
      connection: null,
    });
    expect(device).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'Front door',
      model: 'X1',
      type: 'iot',
      sensors: [],
      channelId: channelA,
      organizationId: orgA,
      tags: ['door', 'north'],
      properties: {},
      attributes: {},
    });
    expect(new Date(device.createdAt).toISOString()).toBe(device.createdAt);
    const read = await member.get(`/v2/devices/${device.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: device });
    // ids are accepted in lower case too
    expect((await admin.get(`/v2/devices/${device.id.toLowerCase()}`)).body.data.id).toBe(device.id);
  });

  it('says whether a device is a camera (has a vision profile), so that a client need not ask for a profile it lacks', async () => {
    const { id } = (await admin.post('/v2/devices', { channelId: channelA, name: 'gate camera' })).body.data;
    expect((await admin.get(`/v2/devices/${id}`)).body.data.camera).toBe(false);
    // the profile as PUT /v2/devices/:device/vision stores it (this server runs no model to name)
    await sql`INSERT INTO device_vision (device_id, organization_id, model_version_id) VALUES (${id}, ${orgA}, 'some-version')`;
    expect((await member.get(`/v2/devices/${id}`)).body.data.camera).toBe(true);
    const found = await admin.post('/v2/devices/search', { filter: { ids: [id] } });
    expect(found.body.data.map((d: { camera: boolean }) => d.camera)).toEqual([true]);
    expect((await admin.patch(`/v2/devices/${id}`, { name: 'gate camera 2' })).body.data.camera).toBe(true);
    await sql`DELETE FROM device_vision WHERE device_id = ${id}`;
    expect((await admin.get(`/v2/devices/${id}`)).body.data.camera).toBe(false);
  });

  it('creates a device with only a channel', async () => {
    const res = await admin.post('/v2/devices', { channelId: channelA });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: null, model: null, type: null, tags: [] });
  });

  it('updates name, model, type and tags; null clears; unknown fields are refused', async () => {
    const { id, updatedAt } = (
      await admin.post('/v2/devices', { channelId: channelA, name: 'old', model: 'm', tags: ['a'] })
    ).body.data;
    const res = await admin.patch(`/v2/devices/${id}`, { name: 'new', model: null, type: 'gateway', tags: ['b', 'c'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id,
      name: 'new',
      model: null,
      type: 'gateway',
      tags: ['b', 'c'],
      channelId: channelA,
    });
    expect(new Date(res.body.data.updatedAt).getTime()).toBeGreaterThan(new Date(updatedAt).getTime());
    // an empty body changes nothing
    expect((await admin.patch(`/v2/devices/${id}`, {})).body.data).toMatchObject({ name: 'new', tags: ['b', 'c'] });
    const bad = await admin.patch(`/v2/devices/${id}`, { channelId: channelA2, name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Unrecognized key: "channelId"');
    expect(bad.body.error).toContain('name:');
  });

  it('deletes a device (204), then answers 404', async () => {
    const { id } = (await admin.post('/v2/devices', { channelId: channelA })).body.data;
    expect((await admin.delete(`/v2/devices/${id}`)).status).toBe(204);
    expect((await admin.get(`/v2/devices/${id}`)).body).toEqual({ status: 404, message: 'device not found' });
    expect((await admin.delete(`/v2/devices/${id}`)).status).toBe(404);
    expect((await admin.patch(`/v2/devices/${id}`, { name: 'x' })).status).toBe(404);
  });

  it('validates bodies and path ids, naming the field', async () => {
    const missing = await admin.post('/v2/devices', { name: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 400, message: 'invalid request body' });
    expect(missing.body.error).toContain('channelId:');
    const bad = await admin.post('/v2/devices', { channelId: 'nope', tags: 'x', serial: 1 });
    expect(bad.body.error).toContain('channelId: must be a ULID');
    expect(bad.body.error).toContain('tags:');
    expect(bad.body.error).toContain('Unrecognized key: "serial"');
    const unknownChannel = await admin.post('/v2/devices', { channelId: ulid() });
    expect(unknownChannel.body).toEqual({
      status: 400,
      message: 'invalid request body',
      error: 'channelId: no such channel in this organization',
    });
    const path = await admin.get('/v2/devices/not-an-id');
    expect(path.status).toBe(400);
    expect(path.body.error).toContain('device: must be a ULID');
  });
});

describe('authentication and roles', () => {
  it('answers 401 without a token on every route', async () => {
    const id = ulid();
    for (const res of [
      await anon.post('/v2/devices', { channelId: channelA }),
      await anon.get(`/v2/devices/${id}`),
      await anon.patch(`/v2/devices/${id}`, { name: 'x' }),
      await anon.delete(`/v2/devices/${id}`),
      await anon.post('/v2/devices/search', {}),
      await anon.post('/v2/devices/alias-lookup', { type: 'tel', value: '1' }),
    ]) {
      expect(res.status).toBe(401);
    }
  });

  it('lets members read but not write', async () => {
    const { id } = (await admin.post('/v2/devices', { channelId: channelA, name: 'kept' })).body.data;
    const create = await member.post('/v2/devices', { channelId: channelA });
    expect(create.body).toEqual({ status: 403, message: 'forbidden', error: 'the member role may not devices write' });
    expect((await member.patch(`/v2/devices/${id}`, { name: 'changed' })).status).toBe(403);
    expect((await member.delete(`/v2/devices/${id}`)).status).toBe(403);
    expect((await member.get(`/v2/devices/${id}`)).body.data.name).toBe('kept');
    expect((await member.post('/v2/devices/search', {})).status).toBe(200);
  });
});

describe('organization isolation', () => {
  it("never shows or changes another organization's device", async () => {
    const mine = (await admin.post('/v2/devices', { channelId: channelA, name: 'private', tags: ['secret'] })).body
      .data;
    expect((await other.get(`/v2/devices/${mine.id}`)).status).toBe(404);
    expect((await other.patch(`/v2/devices/${mine.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await other.delete(`/v2/devices/${mine.id}`)).status).toBe(404);
    expect((await admin.get(`/v2/devices/${mine.id}`)).body.data).toEqual(mine);

    // their searches do not see it, even scoped to my channel
    const search = await other.post('/v2/devices/search', { filter: { tags: ['secret'] } });
    expect(search.body).toEqual({ data: [], meta: { filteredTotal: 0, total: 0 } });
    expect((await other.post('/v2/devices/search', { channelId: channelA })).body.meta.total).toBe(0);
    // nor can they create a device in my channel
    expect((await other.post('/v2/devices', { channelId: channelA })).body.error).toBe(
      'channelId: no such channel in this organization',
    );
    // their own channel works for them, and not for me
    const theirs = await other.post('/v2/devices', { channelId: channelB, name: 'theirs' });
    expect(theirs.status).toBe(200);
    expect((await admin.get(`/v2/devices/${theirs.body.data.id}`)).status).toBe(404);
    expect((await admin.post('/v2/devices', { channelId: channelB })).status).toBe(400);
  });
});

describe('search', () => {
  const made: Record<string, string> = {};
  beforeAll(async () => {
    // a fresh channel so the counts below are exact
    const channel = await rows.channel(orgA, { name: 'search', type: 'android' });
    await sql`INSERT INTO project_channels (project_id, channel_id) VALUES (${projectA}, ${channel})`;
    for (const [name, tags] of [
      ['Alpha sensor', ['red', 'blue']],
      ['beta SENSOR', ['blue']],
      ['gamma', ['green']],
      ['100% delta', []],
    ] as const) {
      made[name] = (await admin.post('/v2/devices', { channelId: channel, name, tags })).body.data.id;
    }
    made.channel = channel;
  });

  it('scopes by channel, filters by tags (any of) and name (substring, case-insensitive), counts both', async () => {
    const all = await admin.post('/v2/devices/search', { channelId: made.channel });
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ filteredTotal: 4, total: 4 });
    // default sort: newest first
    expect(all.body.data.map((d: { name: string }) => d.name)).toEqual([
      '100% delta',
      'gamma',
      'beta SENSOR',
      'Alpha sensor',
    ]);

    const tagged = await admin.post('/v2/devices/search', {
      channelId: made.channel,
      filter: { tags: ['red', 'green'] },
    });
    expect(tagged.body.meta).toEqual({ filteredTotal: 2, total: 4 });
    expect(tagged.body.data.map((d: { name: string }) => d.name).sort()).toEqual(['Alpha sensor', 'gamma']);

    const named = await admin.post('/v2/devices/search', {
      channelId: made.channel,
      filter: { name: 'sensor', tags: ['blue'] },
      sort: { field: 'name', order: 'asc' },
    });
    expect(named.body.data.map((d: { name: string }) => d.name)).toEqual(['Alpha sensor', 'beta SENSOR']);
    // LIKE wildcards are taken literally
    expect(
      (await admin.post('/v2/devices/search', { channelId: made.channel, filter: { name: '0%' } })).body.data.map(
        (d: { name: string }) => d.name,
      ),
    ).toEqual(['100% delta']);
    expect(
      (await admin.post('/v2/devices/search', { channelId: made.channel, filter: { name: '_' } })).body.meta
        .filteredTotal,
    ).toBe(0);
  });

  it('pages with limit and offset, sorts, scopes by project', async () => {
    const page = await admin.post('/v2/devices/search', {
      channelId: made.channel,
      limit: 2,
      offset: 1,
      sort: { field: 'createdAt', order: 'asc' },
    });
    expect(page.body.data.map((d: { name: string }) => d.name)).toEqual(['beta SENSOR', 'gamma']);
    expect(page.body.meta).toEqual({ filteredTotal: 4, total: 4 });
    const beyond = await admin.post('/v2/devices/search', { channelId: made.channel, offset: 10 });
    expect(beyond.body).toEqual({ data: [], meta: { filteredTotal: 4, total: 4 } });
    // the project has this channel (4 devices) and channelA2 (none)
    const project = await admin.post('/v2/devices/search', { projectId: projectA, limit: 100 });
    expect(project.body.meta.total).toBe(4);
    const org = await admin.post('/v2/devices/search', { limit: 1 });
    expect(org.body.data).toHaveLength(1);
    expect(org.body.meta.total).toBeGreaterThan(4);
  });

  it('validates the search body', async () => {
    const res = await admin.post('/v2/devices/search', {
      limit: 0,
      sort: { field: 'color' },
      filter: { colour: 'red' },
      extra: true,
    });
    expect(res.status).toBe(400);
    for (const part of ['limit:', 'sort.field:', 'filter: Unrecognized key: "colour"', 'Unrecognized key: "extra"'])
      expect(res.body.error).toContain(part);
  });
});

describe('what ingestion keeps of a device', () => {
  it('shows when it was last seen, its last location and the watched landmarks that location is inside', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'trackers', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'yard watch', channelIds: [channel.id] })).body.data;
    const yard = (
      await admin.post('/v2/landmarks', {
        projectId: project.id,
        name: 'yard',
        model: { type: 'circle', geometry: { center: { lat: 48.2, lon: 16.37 }, radius: 200 } },
      })
    ).body.data;
    // the rules engine keeps track of the landmarks its rules watch
    const rule = await admin.post('/v2/rules', {
      projectId: project.id,
      name: 'in the yard',
      conditionsObject: [{ type: 'insideLandmark', ids: [yard.id] }],
    });
    expect(rule.status).toBe(200);
    const registered = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey, properties: { model: 'Pixel 8' } }),
    });
    const { token, deviceId } = (await registered.json()) as { token: string; deviceId: string };
    const send = async () => {
      const sent = await fetch(`${server.url}/v1/mobile/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({
          timestamp: 1_700_000_000_000,
          locations: [{ timestamp: 1_700_000_000_000, latitude: 48.2001, longitude: 16.3702, accuracy: 8 }],
        }),
      });
      expect(sent.status).toBe(204);
      return (await member.get(`/v2/devices/${deviceId}`)).body.data;
    };
    expect((await send()).lastLocation).toEqual({
      latitude: 48.2001,
      longitude: 16.3702,
      accuracy: 8,
      timestamp: 1_700_000_000_000,
    });
    // the new rule reaches the engine by NOTIFY, perhaps after the first event
    const device = await waitFor(
      async () => {
        const read = await send();
        return read.insideLandmarkIds.length > 0 && read;
      },
      10_000,
      'the rules engine to place the device in the yard',
    );
    expect(device.insideLandmarkIds).toEqual([yard.id]);
    expect(Date.now() - new Date(device.lastSeenAt).getTime()).toBeLessThan(60_000);
    // the search answers the same
    const [found] = (await admin.post('/v2/devices/search', { channelId: channel.id })).body.data;
    expect(found).toEqual(device);
  });
});

describe('registration and aliases', () => {
  it('registers a device with properties, sensors and aliases in one go; alias-lookup finds it', async () => {
    const device = await registerDevice(sql, {
      organizationId: orgA,
      channelId: channelA,
      properties: {
        manufacturer: 'Apple',
        model: 'iPhone X',
        os: 'iOS',
        os_version: '11.0.0',
        type: 'iOS',
        nested: { snake_key: 1 },
      },
      sensors: ['location', 'wifi', 'location'],
      aliases: { phone_number: '+1 (555) 010-0000', imei: ' 490154203237518 ' },
    });
    expect(device).toMatchObject({
      organizationId: orgA,
      channelId: channelA,
      model: 'iPhone X',
      type: 'iOS',
      name: null,
      sensors: ['location', 'wifi'],
    });
    expect(await listDeviceAliases(sql, orgA, device.id)).toEqual([
      { type: 'imei', value: '490154203237518' },
      { type: 'tel', value: '+15550100000' },
    ]);
    // keys of user data come back as sent (no camelCase renaming)
    const read = await admin.get(`/v2/devices/${device.id}`);
    expect(read.body.data.properties).toEqual({
      manufacturer: 'Apple',
      model: 'iPhone X',
      os: 'iOS',
      os_version: '11.0.0',
      type: 'iOS',
      nested: { snake_key: 1 },
    });

    const lookup = await member.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550100000' });
    expect(lookup.status).toBe(200);
    expect(lookup.body).toEqual({ data: device.id });
    // phone numbers are compared without punctuation, and phone_number means tel
    expect(
      (await admin.post('/v2/devices/alias-lookup', { type: 'phone_number', value: '+1 555-010-0000' })).body.data,
    ).toBe(device.id);
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'imei', value: '490154203237518' })).body.data).toBe(
      device.id,
    );
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'tel', value: '+19999999999' })).body).toEqual({
      status: 404,
      message: 'device not found',
    });
    // another organization cannot find it
    expect((await other.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550100000' })).status).toBe(404);
    const bad = await admin.post('/v2/devices/alias-lookup', { type: 'tel' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('value:');
  });

  it('moves an alias to the device that registers with it again', async () => {
    const first = await registerDevice(sql, {
      organizationId: orgA,
      channelId: channelA,
      properties: {},
      sensors: [],
      aliases: [{ type: 'tel', value: '+15550111111' }],
    });
    const second = await registerDevice(sql, {
      organizationId: orgA,
      channelId: channelA,
      properties: { name: 'new phone' },
      sensors: [],
      aliases: { phone: '+1 555 011 1111' },
    });
    expect(second.name).toBe('new phone');
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550111111' })).body.data).toBe(
      second.id,
    );
    expect((await admin.get(`/v2/devices/${first.id}`)).status).toBe(200); // the old device stays
    expect(await listDeviceAliases(sql, orgA, first.id)).toEqual([]);
    // the same alias value in another organization is a different alias
    const theirs = await registerDevice(sql, {
      organizationId: orgB,
      channelId: channelB,
      properties: {},
      sensors: [],
      aliases: { tel: '+15550111111' },
    });
    expect((await other.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550111111' })).body.data).toBe(
      theirs.id,
    );
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550111111' })).body.data).toBe(
      second.id,
    );
  });

  it('is one transaction: a failing alias leaves no device behind', async () => {
    const [{ count: before }] = await sql<
      [{ count: number }]
    >`SELECT count(*)::int AS count FROM devices WHERE organization_id = ${orgA}`;
    await expect(
      registerDevice(sql, {
        organizationId: orgA,
        channelId: channelA,
        properties: {},
        sensors: [],
        aliases: { tel: '+15550122222', bad: 'nul\u0000byte' },
      }),
    ).rejects.toThrow();
    const [{ count: after }] = await sql<
      [{ count: number }]
    >`SELECT count(*)::int AS count FROM devices WHERE organization_id = ${orgA}`;
    expect(after).toBe(before);
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550122222' })).status).toBe(404);
    // inside a caller's transaction it uses a savepoint
    await sql.begin(async (tx) => {
      const device = await registerDevice(tx, {
        organizationId: orgA,
        channelId: channelA,
        properties: {},
        sensors: [],
        aliases: { tel: '+15550133333' },
      });
      expect(device.id).toMatch(/^[0-9A-Z]{26}$/);
    });
    expect((await admin.post('/v2/devices/alias-lookup', { type: 'tel', value: '+15550133333' })).status).toBe(200);
  });
});
