// /v2 landmarks: both shape spellings in and out, validation, update, delete,
// search (including "contains this point"), the Gen A routes under projects,
// roles and organization isolation.
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/api.js';
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
let projectA: string;
let projectA2: string;
let projectB: string;

const paris = { lat: 48.8566, lon: 2.3522 };
const circleModel = { type: 'circle', geometry: { center: paris, radius: 100 } };
const circleShape = { type: 'circle', radius: 100, coordinates: [paris.lon, paris.lat] };

beforeAll(async () => {
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
  }));
  ({
    a: { organizationId: orgA, member },
    b: { organizationId: orgB, admin: other },
  } = await twoTenants({ anon, admin, sql }));

  // projects are another area's endpoints: rows are made directly
  rows = rowMaker(sql);
  projectA = await rows.project(orgA, { name: 'A' });
  projectA2 = await rows.project(orgA, { name: 'A2' });
  projectB = await rows.project(orgB, { name: 'B' });
});

afterAll(() => stopInProcessPlatform({ sql, server }));

describe('create and read', () => {
  it('creates a circle from the model spelling and answers with both spellings', async () => {
    const res = await admin.post('/v2/landmarks', {
      projectId: projectA,
      name: 'Louvre',
      address: 'Rue de Rivoli',
      type: 'geometry',
      tags: ['museum', 'museum', 'paris'],
      attributes: { opening_hours: '9-18', rating: 5 },
      model: circleModel,
    });
    expect(res.status).toBe(200);
    const landmark = res.body.data;
    expect(Object.keys(landmark).sort()).toEqual(
      [
        'address',
        'attributes',
        'createdAt',
        'id',
        'model',
        'name',
        'organizationId',
        'projectId',
        'shape',
        'tags',
        'type',
        'updatedAt',
      ].sort(),
    );
    expect(landmark).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      name: 'Louvre',
      address: 'Rue de Rivoli',
      type: 'geometry',
      projectId: projectA,
      organizationId: orgA,
      tags: ['museum', 'paris'],
      attributes: { opening_hours: '9-18', rating: 5 }, // keys as sent
      model: circleModel,
      shape: circleShape,
    });
    const read = await member.get(`/v2/landmarks/${landmark.id}`);
    expect(read.body).toEqual({ data: landmark });
    // one normalised form and its bounding box are stored
    const [row] = await sql<
      [{ kind: string; geometry: unknown; minLat: number; maxLat: number; minLon: number; maxLon: number }]
    >`
      SELECT kind, geometry, min_lat, max_lat, min_lon, max_lon FROM landmarks WHERE id = ${landmark.id}`;
    expect(row.kind).toBe('circle');
    expect(row.geometry).toEqual(circleModel.geometry);
    expect(row.minLat).toBeLessThan(paris.lat);
    expect(row.maxLat).toBeCloseTo(paris.lat + 100 / 111_195, 5);
    expect(row.maxLon - paris.lon).toBeCloseTo(100 / (111_195 * Math.cos((paris.lat * Math.PI) / 180)), 5);
  });

  it('stores the same shape whichever spelling is sent', async () => {
    const inputs = [
      { model: circleModel },
      { model: { type: 'circle', geometry: { lat: paris.lat, lon: paris.lon, radius: 100 } } },
      { shape: { type: 'circle', radius: '100m', coordinates: [paris.lon, paris.lat] } },
      { shape: circleShape, model: circleModel }, // both, agreeing
    ];
    for (const input of inputs) {
      const res = await admin.post('/v2/landmarks', { projectId: projectA, name: 'same', ...input });
      expect(res.status).toBe(200);
      expect(res.body.data.model).toEqual(circleModel);
      expect(res.body.data.shape).toEqual(circleShape);
    }
    const envelope = await admin.post('/v2/landmarks', {
      projectId: projectA,
      name: 'box',
      shape: {
        type: 'envelope',
        coordinates: [
          [2.3, 48.9],
          [2.4, 48.8],
        ],
      },
    });
    expect(envelope.body.data.model).toEqual({
      type: 'rectangle',
      geometry: { nw: { lat: 48.9, lon: 2.3 }, se: { lat: 48.8, lon: 2.4 } },
    });
    const polygon = await admin.post('/v2/landmarks', {
      projectId: projectA,
      name: 'triangle',
      shape: {
        type: 'polygon',
        coordinates: [
          [
            [2.3, 48.8],
            [2.4, 48.8],
            [2.35, 48.9],
            [2.3, 48.8],
          ],
        ],
      },
    });
    expect(polygon.body.data.model).toEqual({
      type: 'polygon',
      geometry: {
        points: [
          { lat: 48.8, lon: 2.3 },
          { lat: 48.8, lon: 2.4 },
          { lat: 48.9, lon: 2.35 },
        ],
      },
    });
    expect(polygon.body.data.shape).toEqual({
      type: 'polygon',
      coordinates: [
        [
          [2.3, 48.8],
          [2.4, 48.8],
          [2.35, 48.9],
          [2.3, 48.8],
        ],
      ],
    });
  });

  it('validates, naming the offending field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ projectId: projectA, name: 'x' }, 'model: a landmark needs a shape: give model (Gen A/B) or shape (Gen C)'],
      [
        {
          projectId: projectA,
          name: 'x',
          model: { type: 'circle', geometry: { center: { lat: 95, lon: 0 }, radius: 10 } },
        },
        'model.geometry.center.lat: latitude must be between -90 and 90',
      ],
      [
        { projectId: projectA, name: 'x', model: { type: 'circle', geometry: { center: paris, radius: -1 } } },
        'model.geometry.radius: radius must be greater than 0',
      ],
      [
        { projectId: projectA, name: 'x', shape: { type: 'circle', radius: 10, coordinates: [paris.lat, 120] } },
        'shape.coordinates.1: latitude must be between -90 and 90',
      ],
      [
        {
          projectId: projectA,
          name: 'x',
          model: { type: 'rectangle', geometry: { nw: { lat: 1, lon: 0 }, se: { lat: 2, lon: 1 } } },
        },
        'model.geometry.nw.lat: the north-west corner must be north of the south-east corner',
      ],
      [
        { projectId: projectA, name: 'x', model: { type: 'polygon', geometry: { points: [paris, paris, paris] } } },
        'model.geometry.points: a polygon needs at least 3 distinct points (got 1)',
      ],
      [
        { projectId: projectA, name: 'x', model: circleModel, shape: { ...circleShape, radius: 101 } },
        'shape: model and shape describe different shapes; give only one',
      ],
      [{ projectId: projectA, name: '', model: circleModel }, 'name:'],
      [{ name: 'x', model: circleModel }, 'projectId:'],
      [{ projectId: projectA, name: 'x', model: circleModel, colour: 'red' }, 'Unrecognized key: "colour"'],
      [{ projectId: ulid(), name: 'x', model: circleModel }, 'projectId: no such project in this organization'],
      [{ projectId: projectB, name: 'x', model: circleModel }, 'projectId: no such project in this organization'],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/v2/landmarks', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('invalid request body');
      expect(res.body.error).toContain(message);
    }
    expect((await admin.get('/v2/landmarks/123')).status).toBe(400);
  });
});

describe('update and delete', () => {
  it('updates fields and the shape; a landmark as read can be sent back', async () => {
    const created = (
      await admin.post('/v2/landmarks', {
        projectId: projectA,
        name: 'old',
        address: 'somewhere',
        tags: ['a'],
        model: circleModel,
      })
    ).body.data;
    const res = await admin.patch(`/v2/landmarks/${created.id}`, {
      name: 'new',
      address: null,
      tags: ['b'],
      projectId: projectA2,
      shape: {
        type: 'envelope',
        coordinates: [
          [170, 10],
          [-170, -10],
        ],
      }, // across the antimeridian
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: created.id,
      name: 'new',
      address: null,
      tags: ['b'],
      projectId: projectA2,
      attributes: {},
      model: { type: 'rectangle', geometry: { nw: { lat: 10, lon: 170 }, se: { lat: -10, lon: -170 } } },
      shape: {
        type: 'envelope',
        coordinates: [
          [170, 10],
          [-170, -10],
        ],
      },
    });
    expect(new Date(res.body.data.updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
    const [box] = await sql`SELECT min_lon, max_lon FROM landmarks WHERE id = ${created.id}`;
    expect(box).toEqual({ minLon: 170, maxLon: -170 });

    // round trip: what GET returns is a valid PATCH body
    const read = (await admin.get(`/v2/landmarks/${created.id}`)).body.data;
    const back = await admin.patch(`/v2/landmarks/${created.id}`, { ...read, name: 'round trip' });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ ...read, name: 'round trip', updatedAt: expect.any(String) });

    const bad = await admin.patch(`/v2/landmarks/${created.id}`, { id: ulid(), projectId: projectB });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('id: cannot be changed');
    expect((await admin.patch(`/v2/landmarks/${created.id}`, { projectId: projectB })).body.error).toBe(
      'projectId: no such project in this organization',
    );
    expect(
      (await admin.patch(`/v2/landmarks/${created.id}`, { model: { type: 'circle', geometry: { center: paris } } }))
        .body.error,
    ).toContain('model.geometry.radius:');
  });

  it('deletes (204), then answers 404', async () => {
    const { id } = (await admin.post('/v2/landmarks', { projectId: projectA, name: 'gone', model: circleModel })).body
      .data;
    expect((await admin.delete(`/v2/landmarks/${id}`)).status).toBe(204);
    expect((await admin.get(`/v2/landmarks/${id}`)).body).toEqual({ status: 404, message: 'landmark not found' });
    expect((await admin.delete(`/v2/landmarks/${id}`)).status).toBe(404);
    expect((await admin.patch(`/v2/landmarks/${id}`, { name: 'x' })).status).toBe(404);
  });
});

describe('authentication, roles and isolation', () => {
  it('answers 401 without a token and 403 to members on writes', async () => {
    const { id } = (await admin.post('/v2/landmarks', { projectId: projectA, name: 'kept', model: circleModel })).body
      .data;
    for (const res of [
      await anon.post('/v2/landmarks', { projectId: projectA, name: 'x', model: circleModel }),
      await anon.get(`/v2/landmarks/${id}`),
      await anon.patch(`/v2/landmarks/${id}`, { name: 'x' }),
      await anon.delete(`/v2/landmarks/${id}`),
      await anon.post('/v2/landmarks/search', {}),
      await anon.get(`/v2/projects/${projectA}/landmarks`),
      await anon.post(`/v2/projects/${projectA}/landmarks`, { name: 'x', model: circleModel }),
    ]) {
      expect(res.status).toBe(401);
    }
    const create = await member.post('/v2/landmarks', { projectId: projectA, name: 'x', model: circleModel });
    expect(create.body).toEqual({
      status: 403,
      message: 'forbidden',
      error: 'the member role may not landmarks write',
    });
    expect((await member.patch(`/v2/landmarks/${id}`, { name: 'changed' })).status).toBe(403);
    expect((await member.delete(`/v2/landmarks/${id}`)).status).toBe(403);
    expect((await member.post(`/v2/projects/${projectA}/landmarks`, { name: 'x', model: circleModel })).status).toBe(
      403,
    );
    expect((await member.delete(`/v2/projects/${projectA}/landmarks/${id}`)).status).toBe(403);
    expect((await member.get(`/v2/landmarks/${id}`)).body.data.name).toBe('kept');
    expect((await member.get(`/v2/projects/${projectA}/landmarks/${id}`)).status).toBe(200);
  });

  it("never shows or changes another organization's landmark", async () => {
    const mine = (
      await admin.post('/v2/landmarks', { projectId: projectA, name: 'private', tags: ['secret'], model: circleModel })
    ).body.data;
    expect((await other.get(`/v2/landmarks/${mine.id}`)).status).toBe(404);
    expect((await other.patch(`/v2/landmarks/${mine.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await other.delete(`/v2/landmarks/${mine.id}`)).status).toBe(404);
    expect((await other.get(`/v2/projects/${projectA}/landmarks/${mine.id}`)).status).toBe(404);
    expect((await other.delete(`/v2/projects/${projectA}/landmarks/${mine.id}`)).status).toBe(404);
    expect((await other.get(`/v2/projects/${projectA}/landmarks`)).body).toEqual({
      status: 404,
      message: 'project not found',
    });
    expect((await other.post(`/v2/projects/${projectA}/landmarks`, { name: 'x', model: circleModel })).status).toBe(
      404,
    );
    expect((await other.post('/v2/landmarks', { projectId: projectA, name: 'x', model: circleModel })).status).toBe(
      400,
    );
    expect((await other.post('/v2/landmarks/search', { projectId: projectA })).body).toEqual({
      data: [],
      meta: { filteredTotal: 0, total: 0 },
    });
    expect((await other.post('/v2/landmarks/search', { filter: { contains: paris } })).body.meta.filteredTotal).toBe(0);
    expect((await admin.get(`/v2/landmarks/${mine.id}`)).body.data).toEqual(mine);
    // their own project works for them
    const theirs = await other.post('/v2/landmarks', { projectId: projectB, name: 'theirs', model: circleModel });
    expect(theirs.status).toBe(200);
    expect((await admin.get(`/v2/landmarks/${theirs.body.data.id}`)).status).toBe(404);
  });
});

describe('search', () => {
  let project: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    project = await rows.project(orgA, { name: 'search' });
    const bodies: Array<[string, string[], Record<string, unknown>]> = [
      [
        'Eiffel tower',
        ['sight'],
        { model: { type: 'circle', geometry: { center: { lat: 48.8584, lon: 2.2945 }, radius: 150 } } },
      ],
      [
        'Champ de Mars',
        ['park', 'sight'],
        {
          model: {
            type: 'rectangle',
            geometry: { nw: { lat: 48.8586, lon: 2.2935 }, se: { lat: 48.8515, lon: 2.3035 } },
          },
        },
      ],
      [
        'Left bank',
        ['area'],
        {
          shape: {
            type: 'polygon',
            coordinates: [
              [
                [2.28, 48.85],
                [2.36, 48.85],
                [2.36, 48.862],
                [2.28, 48.862],
                [2.28, 48.85],
              ],
            ],
          },
        },
      ],
      ['Louvre_100%', ['museum'], { model: circleModel }],
    ];
    for (const [name, tags, shape] of bodies)
      ids[name] = (await admin.post('/v2/landmarks', { projectId: project, name, tags, ...shape })).body.data.id;
  });

  const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((l) => l.name);

  it('scopes by project, filters by name, tags, type, and sorts and pages', async () => {
    const all = await admin.post('/v2/landmarks/search', { projectId: project });
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ filteredTotal: 4, total: 4 });
    expect(names(all)).toEqual(['Louvre_100%', 'Left bank', 'Champ de Mars', 'Eiffel tower']);
    expect(all.body.data[2].model.type).toBe('rectangle');

    const sights = await admin.post('/v2/landmarks/search', {
      projectId: project,
      filter: { tags: ['sight', 'museum'] },
      sort: { field: 'name', order: 'asc' },
    });
    expect(names(sights)).toEqual(['Champ de Mars', 'Eiffel tower', 'Louvre_100%']);
    expect(sights.body.meta).toEqual({ filteredTotal: 3, total: 4 });
    // Gen A: a top-level name; the filter's name must match too
    expect(names(await admin.post('/v2/landmarks/search', { projectId: project, name: 'TOWER' }))).toEqual([
      'Eiffel tower',
    ]);
    expect(
      names(await admin.post('/v2/landmarks/search', { projectId: project, name: 'e', filter: { name: 'bank' } })),
    ).toEqual(['Left bank']);
    expect(names(await admin.post('/v2/landmarks/search', { projectId: project, filter: { name: '_100%' } }))).toEqual([
      'Louvre_100%',
    ]);
    expect(
      names(await admin.post('/v2/landmarks/search', { projectId: project, filter: { type: 'polygon' } })),
    ).toEqual(['Left bank']);
    const page = await admin.post('/v2/landmarks/search', {
      projectId: project,
      limit: 2,
      offset: 1,
      sort: { field: 'createdAt', order: 'asc' },
    });
    expect(names(page)).toEqual(['Champ de Mars', 'Left bank']);
    expect(page.body.meta).toEqual({ filteredTotal: 4, total: 4 });
  });

  it('finds the landmarks containing a point', async () => {
    const at = async (lat: number, lon: number, extra: Record<string, unknown> = {}) =>
      admin.post('/v2/landmarks/search', {
        projectId: project,
        filter: { contains: { lat, lon } },
        sort: { field: 'name', order: 'asc' },
        ...extra,
      });
    // under the Eiffel tower: the circle, the park rectangle and the left-bank polygon
    expect(names(await at(48.8583, 2.2946))).toEqual(['Champ de Mars', 'Eiffel tower', 'Left bank']);
    // 160 m north-west of the tower's centre: outside its 150 m circle and the park, inside the polygon
    expect(names(await at(48.8594, 2.293))).toEqual(['Left bank']);
    // in the Louvre circle (outside the polygon: north of it)
    expect(names(await at(48.8567, 2.3523))).toEqual(['Left bank', 'Louvre_100%']);
    expect(names(await at(48.87, 2.3523))).toEqual([]);
    const paged = await at(48.8583, 2.2946, { limit: 1, offset: 1 });
    expect(names(paged)).toEqual(['Eiffel tower']);
    expect(paged.body.meta).toEqual({ filteredTotal: 3, total: 4 });
  });

  it('validates the search body', async () => {
    const res = await admin.post('/v2/landmarks/search', {
      filter: { shape: 'circle', contains: { lat: 91, lon: 0 } },
      sort: { field: 'radius' },
      offset: -1,
    });
    expect(res.status).toBe(400);
    for (const part of ['filter: Unrecognized key: "shape"', 'filter.contains.lat:', 'sort.field:', 'offset:'])
      expect(res.body.error).toContain(part);
  });
});

describe('Gen A routes under projects', () => {
  it('creates (201), lists in pages, reads and deletes (204) landmarks of a project', async () => {
    const project = await rows.project(orgA, { name: 'gen A' });
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await admin.post(`/v2/projects/${project}/landmarks`, { name: `L${i}`, model: circleModel });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        projectId: project,
        name: `L${i}`,
        model: circleModel,
        shape: circleShape,
      });
      created.push(res.body.data.id);
    }
    const first = await admin.get(`/v2/projects/${project}/landmarks?count=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((l: { id: string }) => l.id)).toEqual([created[2], created[1]]);
    expect(first.body.meta).toEqual({
      count: 2,
      nextIndex: created[1],
      nextHRef: `index=${created[1]}&count=2&sortBy=id&sortAsc=false`,
    });
    const second = await admin.get(`/v2/projects/${project}/landmarks?${first.body.meta.nextHRef}`);
    expect(second.body.data.map((l: { id: string }) => l.id)).toEqual([created[0]]);
    expect(second.body.meta).toEqual({ count: 1 });
    const ascending = await admin.get(`/v2/projects/${project}/landmarks?sortAsc=true`);
    expect(ascending.body.data.map((l: { id: string }) => l.id)).toEqual(created);
    expect((await admin.get(`/v2/projects/${project}/landmarks?count=0`)).status).toBe(400);

    expect((await admin.get(`/v2/projects/${project}/landmarks/${created[0]}`)).body.data.id).toBe(created[0]);
    // a landmark of another project is not found under this one
    expect((await admin.get(`/v2/projects/${projectA}/landmarks/${created[0]}`)).status).toBe(404);
    expect((await admin.delete(`/v2/projects/${projectA}/landmarks/${created[0]}`)).status).toBe(404);
    expect((await admin.delete(`/v2/projects/${project}/landmarks/${created[0]}`)).status).toBe(204);
    expect((await admin.get(`/v2/landmarks/${created[0]}`)).status).toBe(404);

    const mismatch = await admin.post(`/v2/projects/${project}/landmarks`, {
      projectId: projectA,
      name: 'x',
      model: circleModel,
    });
    expect(mismatch.body.error).toBe('projectId: differs from the project of the path');
    expect((await admin.post(`/v2/projects/${project}/landmarks`, { name: 'x' })).body.error).toContain(
      'model: a landmark needs a shape',
    );
    expect((await admin.post(`/v2/projects/${ulid()}/landmarks`, { name: 'x', model: circleModel })).body).toEqual({
      status: 404,
      message: 'project not found',
    });
  });
});
