// /v2 rules against a real server: the Gen B routes, the Gen A routes under
// projects, validate-conditions; every input form of conditions, actions,
// references checked against the organization, roles, and isolation between
// organizations. Projects, channels, landmarks, devices and gateways are
// written with SQL (other areas own their endpoints).
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleService } from '../../src/platform/rules/index.js';
import { Secrets } from '../../src/platform/secrets.js';
import { Api, signUpTenant } from '../helpers/api.js';
import { startInProcessPlatform, stopInProcessPlatform, type InProcessServer } from '../helpers/in-process.js';
import { rowMaker, type RowMaker } from '../helpers/rows.js';
import { organizationOf, twoTenants } from '../helpers/tenants.js';

let server: InProcessServer;
let sql: postgres.Sql;
let anon: Api;
let admin: Api;
let member: Api;
let other: Api;
let rows: RowMaker;
const channel = (organizationId: string) => rows.channel(organizationId);
const project = (organizationId: string, channelIds: string[] = []) => rows.project(organizationId, { channelIds });
const landmark = (organizationId: string, projectId: string) => rows.landmark(organizationId, projectId);
const device = (organizationId: string, channelId: string) => rows.device(organizationId, channelId);
const gateway = (organizationId: string) => rows.gateway(organizationId);

let orgA: string;
let orgB: string;
let projectA: string;
let projectA2: string;
let projectB: string;
let channelA: string;
let channelB: string;
let landmarkA: string;
let landmarkA2: string;
let landmarkB: string;

beforeAll(async () => {
  ({ server, sql, anon, admin } = await startInProcessPlatform({
    JWT_SECRET: 'test-secret-test-secret-test-secret-1234',
  }));
  ({
    a: { organizationId: orgA, member },
    b: { organizationId: orgB, admin: other },
  } = await twoTenants({ anon, admin, sql }, { member: 'rules-member@example.com', other: 'rules-other@example.com' }));
  rows = rowMaker(sql);
  channelA = await channel(orgA);
  channelB = await channel(orgB);
  projectA = await project(orgA, [channelA]);
  projectA2 = await project(orgA);
  projectB = await project(orgB, [channelB]);
  landmarkA = await landmark(orgA, projectA);
  landmarkA2 = await landmark(orgA, projectA2);
  landmarkB = await landmark(orgB, projectB);
});

afterAll(() => stopInProcessPlatform({ sql, server }));

const genB = () => ({
  projectId: projectA,
  name: 'entering the office',
  conditionsObject: {
    type: 'and',
    items: [
      { type: 'enterLandmark', ids: [landmarkA], channelId: channelA },
      { type: 'matchAttribute', attribute: 'event.data.tempF', operator: '>', value: 70 },
      { type: 'schedule', weekDays: [1, 2, 3, 4, 5], timeOfDay: { from: 8 * 3600, to: 18 * 3600 } },
    ],
  },
  properties: { timezone: 'America/New_York' },
  throttleInSeconds: 60,
  actions: [
    { type: 'sms', message: 'hello world', recipients: { reflect: true, telephoneNumbers: ['12342323'] } },
    {
      type: 'webhook',
      method: 'post',
      url: 'https://hooks.example.com/x',
      headers: [{ header: 'Content-Type', value: 'application/json' }],
      password: 'hunter2',
      secret: 'sixteen-chars-secret',
    },
  ],
});

describe('POST /v2/rules', () => {
  it('creates a rule from conditionsObject: derives the string, stores the tree, gives actions ids, masks secrets', async () => {
    const res = await admin.post('/v2/rules', genB());
    expect(res.status).toBe(200);
    const { warnings, ...rule } = res.body.data;
    expect(warnings).toEqual([]);
    expect(rule).toMatchObject({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      projectId: projectA,
      organizationId: orgA,
      name: 'entering the office',
      description: '',
      type: 'cloud',
      enabled: true,
      generator: 'custom',
      properties: { timezone: 'America/New_York' },
      throttleInSeconds: 60,
      channelIds: [],
      gatewayIds: [],
      conditionsAndActions: [],
    });
    expect(rule.conditions).toBe(
      `(event.channelId == '${channelA}' && enterLandmark(('${landmarkA}'), event.location.position)) && event.data.tempF > 70 && (weekDay((1, 2, 3, 4, 5)) && timeOfDay('between', 28800, 64800))`,
    );
    expect(rule.conditionsObject).toEqual([
      {
        type: 'and',
        items: [
          { type: 'enterLandmark', ids: [landmarkA], attribute: 'event.location.position', channelId: channelA },
          {
            type: 'matchAttribute',
            attribute: 'event.data.tempF',
            operator: '>',
            value: 70,
            description: 'When event (event.data.tempF) is greater than 70',
          },
          { type: 'schedule', weekDays: [1, 2, 3, 4, 5], timeOfDay: { from: 28800, to: 64800 } },
        ],
      },
    ]);
    expect(rule.actions).toHaveLength(2);
    expect(rule.actions[1]).toMatchObject({
      type: 'webhook',
      method: 'POST',
      headers: { 'Content-Type': '********' },
      password: '********',
      secret: '********',
    });
    for (const a of rule.actions) expect(a.id).toMatch(/^[0-9A-Z]{26}$/);
    const [row] = await sql<
      { actions: string; conditionTree: string }[]
    >`SELECT actions::text AS actions, condition_tree::text AS condition_tree FROM rules WHERE id = ${rule.id}`;
    expect(JSON.parse(row!.actions)[1]).toMatchObject({
      password: expect.stringMatching(/^enc:v1:/),
      secret: expect.stringMatching(/^enc:v1:/),
    });
    expect(row!.actions).not.toMatch(/hunter2|sixteen-chars-secret|application\/json/);
    expect(JSON.parse(row!.conditionTree).type).toBe('and');
    const got = await admin.get(`/v2/rules/${rule.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(rule);
  });

  it('accepts only the conditions string ("advanced" rules) and derives conditionsObject', async () => {
    const conditions = `insideLandmark(('${landmarkA}'), event.location.position) || !(event.data.kind == 'test')`;
    const res = await admin.post('/v2/rules', { projectId: projectA, name: 'advanced', conditions });
    expect(res.status).toBe(200);
    expect(res.body.data.conditions).toBe(conditions);
    expect(res.body.data.conditionsObject).toEqual([
      {
        type: 'or',
        items: [
          { type: 'insideLandmark', ids: [landmarkA], attribute: 'event.location.position' },
          {
            type: 'not',
            items: [
              {
                type: 'matchAttribute',
                attribute: 'event.data.kind',
                operator: '==',
                value: 'test',
                description: 'When event (event.data.kind) is equal to test',
              },
            ],
          },
        ],
      },
    ]);
  });

  it('accepts Gen A logicalCondition and takes its time zone into properties', async () => {
    const res = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'gen a',
      logicalCondition: {
        and: [
          { type: 'exit landmark', landmarkId: landmarkA },
          { type: 'event occurred on day of week', dayOfWeek: 6, timeZone: 'Europe/Paris' },
          { type: 'event free form', predicate: 'data.tempF >= 67' },
        ],
      },
      actions: [{ type: 'push', subject: 'Bye', message: 'see you' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.properties).toEqual({ timezone: 'Europe/Paris' });
    expect(res.body.data.conditions).toBe(
      `exitLandmark(('${landmarkA}'), event.location.position) && (weekDay((6))) && event.data.tempF >= 67`,
    );
  });

  it('validates the body and names the field', async () => {
    const missing = await admin.post('/v2/rules', { projectId: projectA });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('invalid request body');
    expect(missing.body.error).toContain('name:');
    const extra = await admin.post('/v2/rules', { projectId: projectA, name: 'x', colour: 'red' });
    expect(extra.body.error).toContain('Unrecognized key: "colour"');
    const throttle = await admin.post('/v2/rules', { projectId: projectA, name: 'x', throttleInSeconds: -1 });
    expect(throttle.status).toBe(400);
    expect(throttle.body.error).toContain('throttleInSeconds:');
    const action = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      actions: [{ type: 'webhook', method: 'POST', url: 'file:///etc/passwd' }],
    });
    expect(action.status).toBe(400);
    expect(action.body.error).toContain('actions.0.url: must be an http or https URL');
    const tz = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      properties: { timezone: 'Nowhere/City' },
    });
    expect(tz.body).toMatchObject({ status: 400, error: 'properties.timezone: unknown time zone "Nowhere/City"' });
  });

  it('refuses conditions it cannot convert, with the field and the position', async () => {
    const bad = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      conditions: 'event.x == 1 && eval(2)',
    });
    expect(bad.body).toEqual({
      status: 400,
      message: 'failed to convert to valid conditions',
      error: "conditions: at position 16: unknown function 'eval'",
    });
    const node = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      conditionsObject: { type: 'or', items: [{ type: 'nearLandmark', ids: [landmarkA] }] },
    });
    expect(node.status).toBe(400);
    expect(node.body.error).toMatch(/^conditionsObject\.items\.0\.type: unknown condition type "nearLandmark"/);
    const both = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      conditionsObject: [],
      logicalCondition: { type: 'always true' },
    });
    expect(both.body.error).toBe('logicalCondition: give conditionsObject or logicalCondition, not both');
  });

  it('refuses landmarks outside the rule project, and channels, gateways, devices outside the organization', async () => {
    const otherProject = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      conditions: `insideLandmark(('${landmarkA2}'), event.location.position)`,
    });
    expect(otherProject.status).toBe(400);
    expect(otherProject.body.error).toBe(`landmark ids: no landmark ${landmarkA2} in project ${projectA}`);
    const foreign = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      conditionsObject: { type: 'insideLandmark', ids: [landmarkA, landmarkB] },
    });
    expect(foreign.body.error).toBe(`landmark ids: no landmark ${landmarkB} in project ${projectA}`);
    const channels = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      channelIds: [channelA, channelB],
    });
    expect(channels.body).toMatchObject({
      status: 400,
      error: `channelIds: no channel ${channelB} in this organization`,
    });
    const gw = await admin.post('/v2/rules', { projectId: projectA, name: 'x', gatewayIds: [await gateway(orgB)] });
    expect(gw.status).toBe(400);
    expect(gw.body.error).toMatch(/^gatewayIds: no gateway/);
    const deviceB = await device(orgB, channelB);
    const tags = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'x',
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device', deviceB], tags: ['x'] }],
    });
    expect(tags.body.error).toBe(`action deviceIds: no device ${deviceB} in this organization`);
    const ok = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'tags',
      channelIds: [channelA],
      gatewayIds: [await gateway(orgA)],
      actions: [
        {
          type: 'update device state add tags',
          deviceIds: ['triggering device', await device(orgA, channelA)],
          tags: ['seen'],
        },
        { type: 'update landmark state remove tags', landmarkIds: [landmarkA2], tags: ['busy'] },
      ],
    });
    expect(ok.status).toBe(200);
  });

  it('answers a project of another organization with the documented 401', async () => {
    const res = await admin.post('/v2/rules', { projectId: projectB, name: 'x' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('you dont have access to this project');
    const none = await admin.post('/v2/rules', { projectId: ulid(), name: 'x' });
    expect(none.status).toBe(401);
  });
});

describe('roles and authentication', () => {
  it('needs a token; members read and validate but may not write', async () => {
    expect((await anon.get('/v2/rules')).status).toBe(401);
    expect((await anon.post('/v2/rules', genB())).status).toBe(401);
    const created = (await admin.post('/v2/rules', genB())).body.data;
    expect((await member.get('/v2/rules')).status).toBe(200);
    expect((await member.get(`/v2/rules/${created.id}`)).status).toBe(200);
    expect((await member.post('/v2/rules/validate-conditions', { conditions: 'true' })).status).toBe(200);
    const write = await member.post('/v2/rules', genB());
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ status: 403, message: 'forbidden', error: 'the member role may not rules write' });
    expect((await member.patch(`/v2/rules/${created.id}`, { name: 'mine' })).status).toBe(403);
    expect((await member.delete(`/v2/rules/${created.id}`)).status).toBe(403);
    expect((await member.post(`/v2/projects/${projectA}/rules`, { name: 'x' })).status).toBe(403);
    expect((await member.delete(`/v2/projects/${projectA}/rules/${created.id}`)).status).toBe(403);
    expect((await admin.get(`/v2/rules/${created.id}`)).body.data.name).toBe(created.name);
  });
});

describe('another organization', () => {
  it('cannot see, change or delete a rule, and lists only its own', async () => {
    const { warnings: _, ...rule } = (await admin.post('/v2/rules', genB())).body.data;
    expect((await other.get(`/v2/rules/${rule.id}`)).status).toBe(404);
    const patch = await other.patch(`/v2/rules/${rule.id}`, { name: 'stolen', enabled: false });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual({ status: 404, message: 'rule not found' });
    expect((await other.delete(`/v2/rules/${rule.id}`)).status).toBe(404);
    expect((await other.get(`/v2/projects/${projectA}/rules/${rule.id}`)).status).toBe(404);
    expect((await other.delete(`/v2/projects/${projectA}/rules/${rule.id}`)).status).toBe(404);
    expect((await other.get(`/v2/projects/${projectA}/rules`)).status).toBe(404);
    expect((await other.post(`/v2/projects/${projectA}/rules`, { name: 'x' })).status).toBe(404);
    const after = await admin.get(`/v2/rules/${rule.id}`);
    expect(after.body.data).toEqual(rule);
    const list = await other.get('/v2/rules');
    expect(
      list.body.data.map((r: { organizationId: string }) => r.organizationId).every((o: string) => o === orgB),
    ).toBe(true);
    expect((await other.get(`/v2/rules?projectId=${projectA}`)).status).toBe(404);
    // and org B's own rule cannot use org A's landmarks
    const own = await other.post('/v2/rules', {
      projectId: projectB,
      name: 'b',
      conditionsObject: { type: 'insideLandmark', ids: [landmarkA] },
    });
    expect(own.status).toBe(400);
  });
});

describe('GET, PATCH, DELETE /v2/rules/:rule', () => {
  it('lists with a project filter', async () => {
    const rule = (await admin.post('/v2/rules', { projectId: projectA2, name: 'in project 2' })).body.data;
    const list = await admin.get(`/v2/rules?projectId=${projectA2}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([rule.id]);
    expect(list.body.meta).toEqual({ count: 1 });
    expect((await admin.get('/v2/rules?projectId=nope')).status).toBe(400);
    expect((await admin.get('/v2/rules/not-a-ulid')).status).toBe(400);
    expect((await admin.get(`/v2/rules/${ulid()}`)).status).toBe(404);
  });

  it('refuses masked secrets and header values when the webhook URL moves to another origin', async () => {
    const rule = (await admin.post('/v2/rules', genB())).body.data;
    const hook = rule.actions[1];
    // a member reads the rule, but neither the secrets nor the header values
    const read = (await member.get(`/v2/rules/${rule.id}`)).body.data.actions[1];
    expect(read).toMatchObject({ password: '********', secret: '********', headers: { 'Content-Type': '********' } });
    const [before] = await sql<{ actions: string }[]>`SELECT actions::text AS actions FROM rules WHERE id = ${rule.id}`;
    for (const url of [
      'https://attacker.example.net/x',
      'http://hooks.example.com/x',
      'https://hooks.example.com:444/x',
    ]) {
      const moved = await admin.patch(`/v2/rules/${rule.id}`, { actions: [{ ...hook, url }] });
      expect(moved.status).toBe(400);
      expect(moved.body).toEqual({
        status: 400,
        message: 'send the secret again when the URL changes',
        error: expect.stringMatching(/^actions\.0\.(password|secret|headers\.Content-Type):/),
      });
      // one masked header is enough to refuse
      const header = await admin.patch(`/v2/rules/${rule.id}`, {
        actions: [{ ...hook, url, password: 'new-pw', secret: 'a-new-secret-16-chars' }],
      });
      expect(header.body).toMatchObject({
        status: 400,
        message: 'send the secret again when the URL changes',
        error: expect.stringMatching(/^actions\.0\.headers\.Content-Type:/),
      });
    }
    const [after] = await sql<{ actions: string }[]>`SELECT actions::text AS actions FROM rules WHERE id = ${rule.id}`;
    expect(after!.actions).toBe(before!.actions);
    // the same origin (another path) keeps them; new values with a new origin are taken
    expect(
      (await admin.patch(`/v2/rules/${rule.id}`, { actions: [{ ...hook, url: 'https://hooks.example.com/other' }] }))
        .status,
    ).toBe(200);
    const resent = await admin.patch(`/v2/rules/${rule.id}`, {
      actions: [
        {
          ...hook,
          url: 'https://elsewhere.example.net/x',
          password: 'new-pw',
          secret: 'a-new-secret-16-chars',
          headers: { 'Content-Type': 'text/plain' },
        },
      ],
    });
    expect(resent.status).toBe(200);
  });

  it('changes only the fields given; conditions in any form replace the tree; masked secrets are kept', async () => {
    const rule = (await admin.post('/v2/rules', genB())).body.data;
    const renamed = await admin.patch(`/v2/rules/${rule.id}`, { name: 'renamed', enabled: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({
      name: 'renamed',
      enabled: false,
      conditions: rule.conditions,
      actions: rule.actions,
    });
    const advanced = await admin.patch(`/v2/rules/${rule.id}`, { conditions: 'event.data.tempF < 32' });
    expect(advanced.body.data.conditionsObject).toEqual([
      {
        type: 'matchAttribute',
        attribute: 'event.data.tempF',
        operator: '<',
        value: 32,
        description: 'When event (event.data.tempF) is less than 32',
      },
    ]);
    // send back what was read, with one more action
    const actions = [
      ...rule.actions,
      { type: 'email', subject: 'cold', message: 'brr', recipients: { emails: ['ops@example.com'] } },
    ];
    const more = await admin.patch(`/v2/rules/${rule.id}`, { actions });
    expect(more.status).toBe(200);
    expect(more.body.data.actions.slice(0, 2)).toEqual(rule.actions);
    const [row] = await sql<{ actions: string }[]>`SELECT actions::text AS actions FROM rules WHERE id = ${rule.id}`;
    expect(JSON.parse(row!.actions)[1]).toMatchObject({
      password: expect.stringMatching(/^enc:v1:/),
      secret: expect.stringMatching(/^enc:v1:/),
    });
    expect(row!.actions).not.toMatch(/hunter2|sixteen-chars-secret|application\/json/);
    const cleared = await admin.patch(`/v2/rules/${rule.id}`, { conditionsObject: [] });
    expect(cleared.body.data).toMatchObject({ conditions: '', conditionsObject: [] });
    const bad = await admin.patch(`/v2/rules/${rule.id}`, { conditions: '(event.x == 1' });
    expect(bad.body).toEqual({
      status: 400,
      message: 'failed to convert to valid conditions',
      error: "conditions: at position 13: expected ')', found end of input",
    });
  });

  it('re-checks landmarks when the rule moves to another project', async () => {
    const rule = (await admin.post('/v2/rules', genB())).body.data;
    const moved = await admin.patch(`/v2/rules/${rule.id}`, { projectId: projectA2 });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toBe(`landmark ids: no landmark ${landmarkA} in project ${projectA2}`);
    const foreign = await admin.patch(`/v2/rules/${rule.id}`, { projectId: projectB });
    expect(foreign.status).toBe(401);
    expect((await admin.get(`/v2/rules/${rule.id}`)).body.data.projectId).toBe(projectA);
  });

  it('deletes', async () => {
    const rule = (await admin.post('/v2/rules', { projectId: projectA, name: 'short lived' })).body.data;
    expect((await admin.delete(`/v2/rules/${rule.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/rules/${rule.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/rules/${rule.id}`)).status).toBe(404);
  });
});

describe('POST /v2/rules/validate-conditions', () => {
  it('answers the derived forms of a string or an object', async () => {
    const fromString = await admin.post('/v2/rules/validate-conditions', {
      conditions: "event.a == 'x' && (timeOfDay('>=', 60))",
    });
    expect(fromString.status).toBe(200);
    expect(fromString.body.data).toEqual({
      valid: true,
      conditions: "event.a == 'x' && (timeOfDay('>=', 60))",
      conditionsObject: [
        {
          type: 'and',
          items: [
            {
              type: 'matchAttribute',
              attribute: 'event.a',
              operator: '==',
              value: 'x',
              description: 'When event (event.a) is equal to x',
            },
            { type: 'schedule', timeOfDay: { from: 60 } },
          ],
        },
      ],
      warnings: [],
    });
    const fromObject = await admin.post('/v2/rules/validate-conditions', {
      conditionsObject: { type: 'landmark', trigger: 'inside', ids: [landmarkA] },
      conditions: `insideLandmark(('${landmarkA}'), event.location.position)`,
      projectId: projectA,
    });
    expect(fromObject.body.data).toMatchObject({
      valid: true,
      conditions: `insideLandmark(('${landmarkA}'), event.location.position)`,
      matches: true,
    });
    const differs = await admin.post('/v2/rules/validate-conditions', {
      conditionsObject: { type: 'insideLandmark', ids: [landmarkA] },
      conditions: 'false',
    });
    expect(differs.body.data.matches).toBe(false);
  });

  it('answers 400 with the reason', async () => {
    const res = await admin.post('/v2/rules/validate-conditions', { conditions: "event.a == 'x' ||" });
    expect(res.body).toEqual({
      status: 400,
      message: 'failed to convert to valid conditions',
      error: 'conditions: at position 17: expected a condition, found end of input',
    });
    const empty = await admin.post('/v2/rules/validate-conditions', {});
    expect(empty.status).toBe(400);
    const landmarks = await admin.post('/v2/rules/validate-conditions', {
      conditionsObject: { type: 'insideLandmark', ids: [landmarkB] },
      projectId: projectA,
    });
    expect(landmarks.body.error).toBe(`landmark ids: no landmark ${landmarkB} in project ${projectA}`);
    const project = await other.post('/v2/rules/validate-conditions', { conditions: 'true', projectId: projectA });
    expect(project.status).toBe(401);
  });
});

describe('zones, labels and webhooks that would never work: warnings, and the rule vocabulary', () => {
  const ZONES = (names: string[]) =>
    JSON.stringify(
      names.map((name) => ({
        name,
        polygon: [
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      })),
    );
  /** A model of the organization with one version: its labels, public or not (as the bundled demo models are). */
  async function modelVersion(organizationId: string, labels: string[], isPublic = false) {
    const modelId = ulid();
    await sql`INSERT INTO models (id, organization_id, name) VALUES (${modelId}, ${organizationId}, ${`m-${modelId}`})`;
    await sql`INSERT INTO model_versions (id, model_id, organization_id, version, directory, config, public, status)
              VALUES (${ulid()}, ${modelId}, ${organizationId}, 1, ${`/nonexistent/${modelId}`}, ${JSON.stringify({ name: 'm', labels })}::text::jsonb, ${isPublic}, 'Failed')`;
  }
  async function camera(organizationId: string, channelId: string, zones: string[], lines: string[] = []) {
    const deviceId = await device(organizationId, channelId);
    const lineJson = JSON.stringify(
      lines.map((name) => ({
        name,
        line: [
          [0.5, 0],
          [0.5, 1],
        ],
      })),
    );
    await sql`INSERT INTO device_vision (device_id, organization_id, model_version_id, zones, lines) VALUES (${deviceId}, ${organizationId}, ${ulid()}, ${ZONES(zones)}::text::jsonb, ${lineJson}::text::jsonb)`;
  }
  let cameraProject: string;
  beforeAll(async () => {
    const cameras = await channel(orgA);
    cameraProject = await project(orgA, [cameras]);
    await camera(orgA, cameras, ['left_half', 'right_half'], ['gate']);
    await camera(orgA, cameras, ['left_half', 'loading bay']);
    await camera(orgA, channelA, ['elsewhere']); // another project's camera
    await camera(orgB, channelB, ['b_zone']);
    await modelVersion(orgA, ['person', 'traffic cone']);
    await modelVersion(orgB, ['bicycle', 'person'], true); // public: every organization can run it
    await modelVersion(orgB, ['secret label']);
  });
  const detections = (label: string, zone?: string) => ({
    type: 'detections',
    label,
    ...(zone !== undefined && { zone }),
    operator: '>=',
    value: 1,
  });
  const typoWarnings = [
    {
      code: 'unknown_label',
      message:
        'label "trafic cone" is not a label of any model this organization can run; did you mean "traffic cone"?',
      suggestions: ['traffic cone'],
    },
    {
      code: 'unknown_zone',
      message: 'zone "left_hlaf" is not a zone of any camera in this project; did you mean "left_half"?',
      suggestions: ['left_half'],
    },
  ];

  it("answers the project's zones and the labels the organization can run, sorted and distinct; 404 for another's project", async () => {
    const res = await member.get(`/v2/projects/${cameraProject}/rule-vocabulary`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        zones: ['left_half', 'loading bay', 'right_half'],
        lines: ['gate'],
        labels: ['bicycle', 'person', 'traffic cone'],
      },
    });
    expect((await admin.get(`/v2/projects/${projectA2}/rule-vocabulary`)).body.data.zones).toEqual([]);
    const foreign = await other.get(`/v2/projects/${cameraProject}/rule-vocabulary`);
    expect(foreign.body).toEqual({ status: 404, message: 'project not found' });
    expect((await anon.get(`/v2/projects/${cameraProject}/rule-vocabulary`)).status).toBe(401);
  });

  it('validate-conditions answers valid, with warnings naming the near matches', async () => {
    const conditionsObject = [
      {
        type: 'and',
        items: [detections('trafic cone', 'left_hlaf'), detections('person', 'loading bay'), detections('trafic cone')],
      },
    ];
    const res = await member.post('/v2/rules/validate-conditions', { conditionsObject, projectId: cameraProject });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ valid: true, warnings: typoWarnings });
    // without a project, zones are not known: only labels are checked
    expect((await member.post('/v2/rules/validate-conditions', { conditionsObject })).body.data.warnings).toEqual([
      typoWarnings[0],
    ]);
    // the same from the expression string; a name far from every known one has no suggestion
    const far = await member.post('/v2/rules/validate-conditions', {
      conditions: "detections('giraffe', 'left_half') >= 1",
      projectId: cameraProject,
    });
    expect(far.body.data.warnings).toEqual([
      {
        code: 'unknown_label',
        message: 'label "giraffe" is not a label of any model this organization can run',
        suggestions: [],
      },
    ]);
    const right = await member.post('/v2/rules/validate-conditions', {
      conditionsObject: [detections('traffic cone', 'left_half')],
      projectId: cameraProject,
    });
    expect(right.body.data.warnings).toEqual([]);
    // another organization's private labels and cameras are not known here
    const secret = await member.post('/v2/rules/validate-conditions', {
      conditionsObject: [detections('secret label', 'b_zone')],
      projectId: cameraProject,
    });
    expect(secret.body.data.warnings.map((w: { code: string }) => w.code)).toEqual(['unknown_label', 'unknown_zone']);
  });

  it("warns of object conditions naming a line, a zone or a label the project's cameras and models do not have", async () => {
    const res = await member.post('/v2/rules/validate-conditions', {
      conditions: "crossed('gaet', 'in', 'persn') || dwell('left_hlaf') >= 5 || entered('left_half', 'person')",
      projectId: cameraProject,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.warnings).toEqual([
      {
        code: 'unknown_label',
        message: 'label "persn" is not a label of any model this organization can run; did you mean "person"?',
        suggestions: ['person'],
      },
      {
        code: 'unknown_line',
        message: 'line "gaet" is not a line of any camera in this project; did you mean "gate"?',
        suggestions: ['gate'],
      },
      typoWarnings[1],
    ]);
  });

  it('saves a rule with typos all the same, and answers its warnings on create (both routes) and PATCH', async () => {
    const body = {
      projectId: cameraProject,
      name: 'cones',
      conditionsObject: [detections('trafic cone', 'left_hlaf')],
    };
    const created = await admin.post('/v2/rules', body);
    expect(created.status).toBe(200);
    expect(created.body.data.warnings).toEqual(typoWarnings);
    expect(created.body.data.conditions).toBe("detections('trafic cone', 'left_hlaf') >= 1");
    const read = await admin.get(`/v2/rules/${created.body.data.id}`);
    expect(read.body.data).not.toHaveProperty('warnings');
    const fixed = await admin.patch(`/v2/rules/${created.body.data.id}`, {
      conditionsObject: [detections('traffic cone', 'left_half')],
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data.warnings).toEqual([]);
    const renamed = await admin.patch(`/v2/rules/${created.body.data.id}`, { name: 'cones again' });
    expect(renamed.body.data.warnings).toEqual([]);
    const nested = await admin.post(`/v2/projects/${cameraProject}/rules`, {
      name: 'nested',
      conditionsObject: [detections('person', 'left_hlaf')],
    });
    expect(nested.status).toBe(201);
    expect(nested.body.data.warnings).toEqual([typoWarnings[1]]);
    expect((await admin.post('/v2/rules', genB())).body.data.warnings).toEqual([]);
  });

  it('warns at save of a webhook to an internal address, naming WEBHOOK_ALLOWED_HOSTS', async () => {
    const res = await admin.post('/v2/rules', {
      projectId: projectA,
      name: 'hooks',
      conditions: 'true',
      actions: [
        { type: 'webhook', method: 'POST', url: 'https://hooks.example.com/in' },
        { type: 'webhook', method: 'POST', url: 'http://10.1.2.3:8080/in/{{device.id}}' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.warnings).toEqual([
      {
        code: 'webhook_blocked',
        field: 'actions.1.url',
        message:
          'the webhook to http://10.1.2.3:8080 will be blocked each time the rule fires: 10.1.2.3 is an internal address (private (RFC 1918)); WEBHOOK_ALLOWED_HOSTS can allow it',
      },
    ]);
  });
});

describe('Gen A routes under projects', () => {
  it('creates with 201, lists, reads, deletes with 204; a rule of another project is 404', async () => {
    const res = await admin.post(`/v2/projects/${projectA}/rules`, {
      name: 'gen a nested',
      throttleInSeconds: 10,
      enabled: true,
      logicalCondition: { or: [{ type: 'enter landmark', landmarkId: landmarkA }, { type: 'always false' }] },
      actions: [{ type: 'email', subject: 'In', body: 'entered', recipients: { emails: ['a@example.com'] } }],
    });
    expect(res.status).toBe(201);
    const { warnings, ...rule } = res.body.data;
    expect(warnings).toEqual([]);
    expect(rule).toMatchObject({
      projectId: projectA,
      conditions: `enterLandmark(('${landmarkA}'), event.location.position) || false`,
    });
    expect(rule.actions[0]).toMatchObject({ type: 'email', message: 'entered' });
    const list = await admin.get(`/v2/projects/${projectA}/rules`);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(rule.id);
    expect(list.body.data.every((r: { projectId: string }) => r.projectId === projectA)).toBe(true);
    expect((await admin.get(`/v2/projects/${projectA}/rules/${rule.id}`)).body.data).toEqual(rule);
    expect((await admin.get(`/v2/projects/${projectA2}/rules/${rule.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/projects/${projectA2}/rules/${rule.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/projects/${projectA}/rules/${rule.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/rules/${rule.id}`)).status).toBe(404);
    expect((await admin.post(`/v2/projects/${projectB}/rules`, { name: 'x' })).status).toBe(404);
    expect((await admin.post(`/v2/projects/${projectA}/rules`, { name: 'x', projectId: projectA })).status).toBe(400);
  });
});

describe("caps on an organization's rules", () => {
  /** A tree of exactly `nodes` condition nodes: an `or` of attribute leaves, or of `or`s of them past 101 nodes (100 items at most each). */
  const wide = (nodes: number) => {
    let next = 0;
    const leaf = () => ({ type: 'matchAttribute', attribute: 'event.data.n', operator: '==', value: next++ });
    if (nodes <= 101) return { type: 'or', items: Array.from({ length: nodes - 1 }, leaf) };
    const groups = Math.ceil((nodes - 1) / 101);
    const leaves = nodes - 1 - groups;
    return {
      type: 'or',
      items: Array.from({ length: groups }, (_, g) => ({
        type: 'or',
        items: Array.from({ length: Math.floor(leaves / groups) + (g < leaves % groups ? 1 : 0) }, leaf),
      })),
    };
  };

  it('refuses a rule that would bring the condition nodes of all its rules past 20,000, created or changed, with a 400 naming the totals', {
    timeout: 120_000,
  }, async () => {
    const tenant = await signUpTenant(anon, sql, 'rules-nodes@example.com');
    const projectId = await project(organizationOf(tenant));
    // 40 rules of 499 nodes: 19,960.
    for (let i = 0; i < 40; i++) {
      const res = await tenant.post('/v2/rules', { projectId, name: `wide ${i}`, conditionsObject: wide(499) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const over = await tenant.post('/v2/rules', { projectId, name: 'one more', conditionsObject: wide(41) });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      status: 400,
      message: 'too many conditions',
      error:
        "conditions: this rule's 41 conditions would bring this organization's rules to 20001, over the most they may hold in all (20000)",
    });
    // 40 nodes still fit; a rule grown past the cap by a change is refused too, a rename is not.
    const small = await tenant.post('/v2/rules', { projectId, name: 'small', conditionsObject: wide(40) });
    expect(small.status).toBe(200);
    const grown = await tenant.patch(`/v2/rules/${small.body.data.id}`, { conditionsObject: wide(41) });
    expect(grown.status).toBe(400);
    expect(grown.body.message).toBe('too many conditions');
    expect((await tenant.patch(`/v2/rules/${small.body.data.id}`, { name: 'renamed' })).status).toBe(200);
    // Another organization is not counted with this one.
    expect(
      (await admin.post('/v2/rules', { projectId: projectA, name: 'elsewhere', conditionsObject: wide(100) })).status,
    ).toBe(200);
  });

  it('refuses a 1001st rule with a 400', async () => {
    const tenant = await signUpTenant(anon, sql, 'rules-count@example.com');
    const organizationId = organizationOf(tenant);
    const projectId = await project(organizationId);
    // 999 rules written directly: the API would take minutes to make them.
    const ids = Array.from({ length: 999 }, () => ulid());
    await sql`
      INSERT INTO rules (id, organization_id, project_id, name)
      SELECT id, ${organizationId}, ${projectId}, 'rule ' || n FROM unnest(${ids}::text[]) WITH ORDINALITY AS t(id, n)`;
    const last = await tenant.post('/v2/rules', { projectId, name: 'the 1000th', conditions: 'event.data.n == 1' });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    const over = await tenant.post('/v2/rules', { projectId, name: 'the 1001st', conditions: 'event.data.n == 1' });
    expect(over.body).toEqual({
      status: 400,
      message: 'too many rules',
      error: 'this organization has 1000 rules, the most it may have (1000); delete one first',
    });
    expect((await tenant.get('/v2/rules')).body.data).toHaveLength(1000);
  });
});

describe('RuleService.loadEnabled (for the rules engine)', () => {
  it('loads the enabled rules of one organization with their trees, time zones and project channels', async () => {
    const org = await signUpTenant(anon, sql, 'rules-engine@example.com');
    const organizationId = organizationOf(org);
    const ch = await channel(organizationId);
    const p = await project(organizationId, [ch]);
    const lm = await landmark(organizationId, p);
    const on = (
      await org.post('/v2/rules', {
        projectId: p,
        name: 'on',
        conditionsObject: { type: 'insideLandmark', ids: [lm] },
        properties: { timezone: 'Asia/Tokyo' },
      })
    ).body.data;
    await org.post('/v2/rules', { projectId: p, name: 'off', enabled: false, conditions: 'true' });
    const bare = (await org.post('/v2/rules', { projectId: p, name: 'no conditions' })).body.data;
    // a row written by hand, without the tree: parsed once, at load
    const manual = ulid();
    await sql`INSERT INTO rules (id, organization_id, project_id, name, conditions) VALUES (${manual}, ${organizationId}, ${p}, 'manual', 'event.data.x == 1')`;
    const broken = ulid();
    await sql`INSERT INTO rules (id, organization_id, project_id, name, conditions) VALUES (${broken}, ${organizationId}, ${p}, 'broken', 'event.data.x ==')`;
    const invalid: string[] = [];
    // loading seals nothing: a key of its own will do
    const service = new RuleService(sql, new Secrets(randomBytes(32)));
    const rules = await service.loadEnabled(organizationId, (id) => invalid.push(id));
    expect(invalid).toEqual([broken]);
    expect(rules.map((r) => r.name)).toEqual(['on', 'no conditions', 'manual']);
    expect(rules[0]).toMatchObject({
      id: on.id,
      organizationId,
      projectId: p,
      type: 'cloud',
      condition: { type: 'insideLandmark', ids: [lm], attribute: 'event.location.position' },
      timezone: 'Asia/Tokyo',
      projectChannelIds: [ch],
      actions: [],
      throttleInSeconds: 0,
    });
    expect(rules[1]).toMatchObject({ id: bare.id, condition: null, timezone: 'UTC' });
    expect(rules[2]!.condition).toEqual({
      type: 'matchAttribute',
      attribute: 'event.data.x',
      operator: '==',
      value: 1,
    });
    expect((await service.loadEnabled(orgB)).every((r) => r.organizationId === orgB)).toBe(true);
  });
});
