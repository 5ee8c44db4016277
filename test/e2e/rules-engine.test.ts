// Rules on ingested events, end to end: a device walks into a landmark in a
// protobuf batch, the event is stored once, the rule fires once, a local
// webhook receiver gets the signed request; every condition type and every
// action type, throttling, schedules in a time zone, retries after failures.
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingress } from '../../src/ingest/generated/ingress.js';
import { ADMIN, outboxBody, serverDatabaseUrl, type Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** statuses the receiver answers with, in order; 200 once exhausted */
let script: number[] = [];
let channel: { id: string; key: string };
let project: string;

const PARK = { lat: 48.8566, lon: 2.3522 }; // a 200 m circle around this point
const FAR = { lat: 48.87, lon: 2.3522 }; // ~1.5 km north

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.statusCode = script.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  // The receiver is on loopback, which webhooks may only reach when allowed.
  ({ database, server, sql, admin } = await startPlatform({
    ACTION_RETRY_BASE_MS: '50',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  }));
  const created = (await admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  channel = { id: created.id, key: created.apiKeys[0].apiKey };
  project = (await admin.post('/v2/projects', { name: 'city', channelIds: [channel.id] })).body.data.id;
});

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  receiver?.close();
});

beforeEach(async () => {
  received.length = 0;
  script = [];
  await sql`DELETE FROM rules`;
});

async function landmark(name: string, center = PARK, radius = 200): Promise<string> {
  const res = await admin.post('/v2/landmarks', {
    projectId: project,
    name,
    model: { type: 'circle', geometry: { center, radius } },
  });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await admin.post('/v2/rules', { projectId: project, name: 'r', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

async function register(): Promise<{ token: string; deviceId: string }> {
  const res = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.key, aliases: { tel: '+15550123' } }),
  });
  return (await res.json()) as { token: string; deviceId: string };
}

// Client times must lie between 2000 and a day ahead (lib/client-time.ts): T is one, 2023-11-14T22:13:20Z.
const T = 1_700_000_000_000;
let clock = T;
function at(point: { lat: number; lon: number }, extra: Record<string, unknown> = {}) {
  clock += 60_000;
  return { timestamp: clock, locations: [{ timestamp: clock, latitude: point.lat, longitude: point.lon }], ...extra };
}

async function sendBatch(token: string, events: object[], to: TestServer = server): Promise<number> {
  const res = await fetch(`${to.url}/v1/mobile/events/batch`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/protobuf' },
    body: ingress.MobileEvents.encode(ingress.MobileEvents.fromObject({ events })).finish(),
  });
  return res.status;
}

async function sendJson(token: string, event: object, to: TestServer = server): Promise<void> {
  const res = await fetch(`${to.url}/v1/mobile/events`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
  expect(res.status, res.status === 204 ? '' : to.stderr().slice(-2000)).toBe(204);
}

const jobsOf = (ruleId: string) =>
  sql<
    { status: string; attempts: number; type: string }[]
  >`SELECT status, attempts, type FROM action_jobs WHERE rule_id = ${ruleId}`;
const settled = (ruleId: string, count: number) =>
  waitFor(
    async () => {
      const jobs = await jobsOf(ruleId);
      return jobs.length === count && jobs.every((j) => j.status !== 'pending') ? jobs : undefined;
    },
    15_000,
    `${count} settled jobs`,
  );

/**
 * Resolves once this server's rules engine has read the organization's
 * rules as committed now (it hears of changes through NOTIFY): a probe rule
 * created now fires only from rules read after it was committed, so after
 * every earlier change.
 */
async function rulesReloaded(): Promise<void> {
  const probe = await rule({
    conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.probe', operator: '==', value: 'yes' }],
    actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['probe'] }],
  });
  const device = await register();
  let n = 0;
  await waitFor(
    async () => {
      await sendJson(device.token, { timestamp: T + ++n, attributes: { probe: 'yes' } });
      return (await jobsOf(probe)).length > 0;
    },
    15_000,
    'the rules engine to hear of a new rule',
  );
}

describe('a device walking into a landmark', () => {
  it('stores the batch once, fires once, and the webhook receiver gets the signed request', async () => {
    const park = await landmark('park');
    const secret = 'a-signing-secret-of-some-length';
    const ruleId = await rule({
      conditionsObject: [
        { type: 'and', items: [{ type: 'enterLandmark', ids: [park], attribute: 'event.location.position' }] },
      ],
      actions: [
        {
          type: 'webhook',
          method: 'POST',
          url: `${receiverUrl}/hook/{{device.id}}`,
          headers: { 'X-Landmark': '{{landmarks.entered.0}}' },
          secret,
          body: '{"device": "{{device.id}}", "battery": {{event.payload.powers.0.batteryLife}}}',
        },
      ],
    });
    const device = await register();
    const walk = [at(FAR), at(FAR), at(PARK, { powers: [{ batteryLife: 77 }] }), at(PARK), at(PARK)];
    expect(await sendBatch(device.token, walk)).toBe(204);
    expect(await sendBatch(device.token, walk)).toBe(204); // a retry of the whole batch
    expect(await settled(ruleId, 1)).toEqual([{ status: 'succeeded', attempts: 1, type: 'webhook' }]);

    const stored = await sql`SELECT count(*)::int AS n FROM events WHERE device_id = ${device.deviceId}`;
    expect(stored[0]!.n).toBe(5);
    expect(received).toHaveLength(1);
    const hook = received[0]!;
    expect(hook.url).toBe(`/hook/${device.deviceId}`);
    expect(hook.headers['x-landmark']).toBe(park);
    expect(JSON.parse(hook.body)).toEqual({ device: device.deviceId, battery: 77 });
    const expected = `sha256=${createHmac('sha256', secret).update(`${hook.headers['x-sense-timestamp']}.${hook.body}`).digest('hex')}`;
    expect(hook.headers['x-sense-signature']).toBe(expected);
    // the signing secret and the header values are stored encrypted, in the rule and in its job
    const [stored2] =
      await sql`SELECT (SELECT actions::text FROM rules WHERE id = ${ruleId}) AS rule, (SELECT string_agg(action::text, '') FROM action_jobs WHERE rule_id = ${ruleId}) AS job`;
    expect(stored2!.rule).toContain('"secret": "enc:v1:');
    for (const text of [stored2!.rule, stored2!.job]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('landmarks.entered');
    }

    const search = await admin.post('/v2/events', {
      deviceId: device.deviceId,
      sort: { field: 'serverReceivedAt', order: 'asc' },
    });
    expect(search.body.data.map((e: { payload: { timestamp: number } }) => e.payload.timestamp)).toEqual(
      walk.map((e) => e.timestamp),
    );
    const log = await admin.get(`/v2/rules/${ruleId}/deliveries`);
    expect(log.body.data[0]).toMatchObject({
      status: 'succeeded',
      deliveries: [{ attempt: 1, outcome: 'success', statusCode: 200 }],
    });
    expect(JSON.stringify(log.body)).not.toContain(secret);
  });

  it('fires exit when leaving, inside/outside on every matching event', async () => {
    const park = await landmark('park2');
    const exitRule = await rule({
      conditionsObject: [{ type: 'exitLandmark', ids: [park] }],
      actions: [{ type: 'push', subject: 'bye', message: 'left {{landmarks.exited.0}}' }],
    });
    const insideRule = await rule({
      conditionsObject: [{ type: 'insideLandmark', ids: [park] }],
      actions: [{ type: 'push', subject: 'in', message: 'in' }],
    });
    const outsideRule = await rule({
      conditionsObject: [{ type: 'outsideLandmark', ids: [park] }],
      actions: [{ type: 'push', subject: 'out', message: 'out' }],
    });
    const device = await register();
    expect(await sendBatch(device.token, [at(PARK), at(PARK), at(FAR), at(FAR), at(PARK)])).toBe(204);
    expect(await settled(exitRule, 1)).toHaveLength(1);
    expect(await settled(insideRule, 3)).toHaveLength(3);
    expect(await settled(outsideRule, 2)).toHaveLength(2);
    const notes = (await (
      await fetch(`${server.url}/v1/mobile/notifications`, { headers: { authorization: device.token } })
    ).json()) as any;
    expect(notes.notifications.find((n: { subject: string }) => n.subject === 'bye')).toMatchObject({
      message: `left ${park}`,
      deviceId: device.deviceId,
    });
  });
});

describe('conditions', () => {
  it('matches attributes with each operator', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['==', 'gold', 'plan'],
      ['!=', 'bronze', 'plan'],
      ['<', 50, 'battery'],
      ['<=', 40, 'battery'],
      ['>', 10, 'battery'],
      ['>=', 40, 'battery'],
      ['contains', 'ol', 'plan'],
    ];
    const ids: string[] = [];
    for (const [operator, value, field] of cases) {
      const attribute = field === 'plan' ? 'event.attributes.plan' : 'event.powers.0.batteryLife';
      ids.push(
        await rule({
          conditionsObject: [{ type: 'matchAttribute', attribute, operator, value }],
          actions: [{ type: 'update device state add tags', deviceIds: 'triggering device', tags: [operator] }],
        }),
      );
    }
    const never = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.powers.0.batteryLife', operator: '>', value: 40 }],
      actions: [{ type: 'push', subject: 'x', message: 'x' }],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 1, attributes: { plan: 'gold' }, powers: [{ batteryLevel: 40 }] });
    for (const id of ids) await settled(id, 1);
    const [row] = await sql`SELECT tags FROM devices WHERE id = ${device.deviceId}`;
    expect([...row!.tags].sort()).toEqual(['!=', '<', '<=', '==', '>', '>=', 'contains'].sort());
    // Nothing to wait for: the jobs of every rule an event fires are committed
    // with the event, in one transaction, and the 204 came after it.
    expect(await jobsOf(never)).toEqual([]);
  });

  it('evaluates and/or trees and schedules in the rule time zone across DST', async () => {
    // Weekdays, 09:00-17:00 in New York. 2026-03-09 is the Monday after the DST change (UTC-4).
    const schedule = { type: 'schedule', weekDays: [1, 2, 3, 4, 5], timeOfDay: { from: 9 * 3600, to: 17 * 3600 } };
    const ruleId = await rule({
      properties: { timezone: 'America/New_York' },
      conditionsObject: [
        {
          type: 'and',
          items: [
            schedule,
            {
              type: 'or',
              items: [
                { type: 'matchAttribute', attribute: 'event.attributes.kind', operator: '==', value: 'a' },
                { type: 'matchAttribute', attribute: 'event.attributes.kind', operator: '==', value: 'b' },
              ],
            },
          ],
        },
      ],
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['hit'] }],
    });
    const device = await register();
    const cases: Array<[string, string, boolean]> = [
      ['2026-03-09T13:30:00Z', 'a', true], // 09:30 EDT Monday
      ['2026-03-09T12:30:00Z', 'a', false], // 08:30 EDT: before opening (would be 07:30 EST)
      ['2026-03-06T14:30:00Z', 'b', true], // 09:30 EST Friday, before the change
      ['2026-03-09T13:30:00Z', 'c', false], // neither a nor b
      ['2026-03-08T15:00:00Z', 'a', false], // Sunday
    ];
    for (const [time, kind] of cases)
      await sendJson(device.token, { timestamp: Date.parse(time), attributes: { kind } });
    await settled(ruleId, cases.filter((c) => c[2]).length);
  });
});

// Mobile event attributes are strings (a protobuf map<string, string>), so rules compare them as strings.
describe('actions', () => {
  it('retries a failing webhook with backoff, logging every attempt, then succeeds', async () => {
    script = [500, 503];
    const password = 'a-basic-auth-password';
    const ruleId = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'yes' }],
      actions: [
        {
          type: 'webhook',
          method: 'PUT',
          url: `${receiverUrl}/retry`,
          username: 'u',
          password,
          retries: 3,
          headers: { 'X-Api-Token': 'a-header-token' },
        },
      ],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 2, attributes: { go: 'yes' } });
    expect(await settled(ruleId, 1)).toEqual([{ status: 'succeeded', attempts: 3, type: 'webhook' }]);
    expect(received.map((r) => r.method)).toEqual(['PUT', 'PUT', 'PUT']);
    expect(received[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`u:${password}`).toString('base64')}`);
    expect(received[0]!.headers['x-api-token']).toBe('a-header-token');
    const [row] = await sql`SELECT actions::text AS actions FROM rules WHERE id = ${ruleId}`;
    expect(row!.actions).not.toContain(password);
    expect(row!.actions).not.toContain('a-header-token');
    expect(new Set(received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    const log = await admin.get(`/v2/rules/${ruleId}/deliveries`);
    expect(
      log.body.data[0].deliveries.map((d: { outcome: string; statusCode: number }) => [d.outcome, d.statusCode]),
    ).toEqual([
      ['retry', 500],
      ['retry', 503],
      ['success', 200],
    ]);
    expect(JSON.stringify(log.body)).not.toContain('Basic');
    // the log keeps status codes and reasons, never the receiver's body nor header values
    expect(JSON.stringify(log.body)).not.toContain('a-header-token');
    expect(log.body.data[0].deliveries[0]).not.toHaveProperty('response');
    const [bodies] = await sql`SELECT count(*)::int AS n FROM action_deliveries WHERE response IS NOT NULL`;
    expect(bodies!.n).toBe(0);
  });

  it('reads secrets stored in plain text before encryption, and seals them at start-up', async () => {
    const ruleId = await rule({
      conditionsObject: [
        { type: 'matchAttribute', attribute: 'event.attributes.legacy', operator: '==', value: 'yes' },
      ],
      actions: [
        {
          type: 'webhook',
          method: 'POST',
          url: `${receiverUrl}/legacy`,
          username: 'u',
          password: 'sealed-later',
          headers: { 'X-Legacy': 'x' },
        },
      ],
    });
    // the row as an earlier version wrote it: plain text
    await sql`UPDATE rules SET actions = jsonb_set(jsonb_set(actions, '{0,password}', '"legacy-password"'), '{0,headers,X-Legacy}', '"legacy-token"') WHERE id = ${ruleId}`;
    await rulesReloaded(); // the engine hears of the change (NOTIFY)
    const device = await register();
    await sendJson(device.token, { timestamp: T + 5, attributes: { legacy: 'yes' } });
    await settled(ruleId, 1);
    const expected = `Basic ${Buffer.from('u:legacy-password').toString('base64')}`;
    expect(received.map((r) => [r.headers.authorization, r.headers['x-legacy']])).toEqual([[expected, 'legacy-token']]);
    // a server starting with the same key seals what it finds in plain text, in the rule and in its job
    const other = await startServer({
      modelsDir: '/nonexistent',
      databaseUrl: await serverDatabaseUrl(server, database?.url),
      env: {
        ADMIN_PASSWORD: ADMIN.password,
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        SECRETS_KEY: (await readFile(join(server.dataDir, 'secrets-key'), 'utf8')).trim(),
      },
    });
    await other.stop();
    await removeDir(other.dataDir);
    const [row] =
      await sql`SELECT (SELECT actions::text FROM rules WHERE id = ${ruleId}) AS rule, (SELECT string_agg(action::text, '') FROM action_jobs WHERE rule_id = ${ruleId}) AS job`;
    for (const text of [row!.rule, row!.job]) {
      expect(text).not.toContain('legacy-password');
      expect(text).not.toContain('legacy-token');
      expect(text).toContain('enc:v1:');
    }
    // and this server still opens them, once it has read the sealed rule
    await rulesReloaded();
    received.length = 0;
    await sendJson(device.token, { timestamp: T + 6, attributes: { legacy: 'yes' } });
    await settled(ruleId, 2);
    expect(received.map((r) => [r.headers.authorization, r.headers['x-legacy']])).toEqual([[expected, 'legacy-token']]);
  });

  it("sends a JSON body with a quoted key's value and escaped strings, refuses a template it cannot read, and never logs an unrendered body as sent", async () => {
    // A camera's counts, as its frames' events carry them: the demo model's label has a space.
    const iot = (await admin.post('/v2/channels', { name: 'counters', type: 'iot' })).body.data;
    const watch = (name: string, body: string) => ({
      projectId: project,
      name,
      channelIds: [iot.id],
      conditionsObject: [{ type: 'matchAttribute', attribute: `event.${name}`, operator: '==', value: 'yes' }],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/${name}`, body }],
    });
    // The unquoted path cannot be read: refused at save, naming it and the quoting form.
    const unquoted = await admin.post(
      '/v2/rules',
      watch('cones', '{"cones": {{event.payload.zoneCounts.left_half.traffic cone}}}'),
    );
    expect(unquoted.status).toBe(400);
    expect(unquoted.body.error).toMatch(
      /^actions\.0\.body: the template "\{\{event\.payload\.zoneCounts\.left_half\.traffic cone\}\}" cannot be read: .*\{\{event\.payload\.counts\["traffic cone"\]\}\}/,
    );
    const created = await admin.post(
      '/v2/rules',
      watch(
        'cones',
        '{"cones": {{event.payload.zoneCounts.left_half["traffic cone"]}}, "all": {{event.payload.counts["traffic cone"]}}, "where": "{{event.payload.where}}", "missing": {{event.payload.nothing}}}',
      ),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // the receiver is on loopback, which WEBHOOK_ALLOWED_HOSTS allows here: no warning
    expect(created.body.data.warnings).toEqual([]);
    const ruleId: string = created.body.data.id;
    // A rule stored before templates were checked: its body cannot be rendered as JSON.
    const stale = await rule(watch('stale', '{"cones": 0}'));
    await sql`UPDATE rules SET actions = jsonb_set(actions, '{0,body}', ${JSON.stringify('{"cones": {{event.payload.zoneCounts.left_half.traffic cone}}}')}::jsonb) WHERE id = ${stale}`;
    await rulesReloaded();
    const registered = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: iot.apiKeys[0].apiKey }),
    });
    const device = (await registered.json()) as { token: string };
    const send = async (payload: object) => {
      const res = await fetch(`${server.url}/v1/iot/events`, {
        method: 'POST',
        headers: { authorization: device.token, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      expect(res.status).toBe(204);
    };
    const counts = { counts: { 'traffic cone': 3, person: 1 }, zoneCounts: { left_half: { 'traffic cone': 2 } } };
    await send({ cones: 'yes', where: 'gate "north"\\yard', ...counts });
    expect(await settled(ruleId, 1)).toEqual([{ status: 'succeeded', attempts: 1, type: 'webhook' }]);
    const hook = received.find((r) => r.url === '/cones')!;
    expect(hook.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hook.body)).toEqual({ cones: 2, all: 3, where: 'gate "north"\\yard', missing: null });

    await send({ stale: 'yes', ...counts });
    expect(await settled(stale, 1)).toEqual([{ status: 'failed', attempts: 1, type: 'webhook' }]);
    expect(received.filter((r) => r.url === '/stale')).toEqual([]);
    const log = await admin.get(`/v2/rules/${stale}/deliveries`);
    expect(log.body.data[0]).toMatchObject({
      status: 'failed',
      deliveries: [{ attempt: 1, outcome: 'failure', statusCode: null }],
    });
    expect(log.body.data[0].deliveries[0].error).toMatch(
      /^the body could not be rendered: the template "\{\{event\.payload\.zoneCounts\.left_half\.traffic cone\}\}" cannot be read/,
    );
  });

  it('gives up after the retries, and does not retry a 4xx', async () => {
    script = [400];
    const bad = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'no' }],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/bad`, retries: 3 }],
    });
    // Both rules before any event: the engine hears of a new rule through
    // NOTIFY, and an event sent the moment a rule is created may beat it.
    const down = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'down' }],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/down`, retries: 2 }],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 3, attributes: { go: 'no' } });
    expect(await settled(bad, 1)).toEqual([{ status: 'failed', attempts: 1, type: 'webhook' }]);
    script = [500, 500, 500];
    await sendJson(device.token, { timestamp: T + 4, attributes: { go: 'down' } });
    expect(await settled(down, 1)).toEqual([{ status: 'failed', attempts: 3, type: 'webhook' }]);
  });

  it('throttles a rule per device', async () => {
    const ruleId = await rule({
      throttleInSeconds: 3600,
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.t', operator: '==', value: '1' }],
      actions: [{ type: 'push', subject: 's', message: 'm' }],
    });
    const a = await register();
    const b = await register();
    for (let i = 0; i < 3; i++) {
      await sendJson(a.token, { timestamp: T + 10 + i, attributes: { t: 1 } });
      await sendJson(b.token, { timestamp: T + 10 + i, attributes: { t: 1 } });
    }
    expect(await settled(ruleId, 2)).toHaveLength(2);
  });

  it('queues email and SMS, and tags landmarks', async () => {
    const park = await landmark('tagged');
    const ruleId = await rule({
      conditionsObject: [
        { type: 'matchAttribute', attribute: 'event.attributes.notify', operator: '==', value: 'true' },
      ],
      actions: [
        {
          type: 'email',
          subject: 'Device {{device.id}}',
          message: 'kind {{event.payload.attributes.notify}}',
          recipients: { emails: ['ops@example.com'] },
        },
        {
          type: 'sms',
          message: 'alert from {{.Device.ID}}',
          recipients: { telephoneNumbers: ['+15550999'], reflect: true },
        },
        { type: 'update landmark state add tags', landmarkIds: [park], tags: ['busy'] },
      ],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 20, attributes: { notify: 'true' } });
    expect((await settled(ruleId, 3)).every((j) => j.status === 'succeeded')).toBe(true);
    const [email] = await sql`SELECT subject, body FROM outbox_emails WHERE to_address = 'ops@example.com'`;
    expect(email!.body).toMatch(/^enc:v1:/); // sealed at rest
    expect({ subject: email!.subject, body: await outboxBody(sql, 'ops@example.com') }).toEqual({
      subject: `Device ${device.deviceId}`,
      body: 'kind true',
    });
    const sms = await sql`SELECT to_number, body FROM outbox_sms ORDER BY to_number`;
    expect(sms).toEqual([
      { toNumber: '+15550123', body: `alert from ${device.deviceId}` },
      { toNumber: '+15550999', body: `alert from ${device.deviceId}` },
    ]);
    expect((await admin.get(`/v2/landmarks/${park}`)).body.data.tags).toEqual(['busy']);
  });
});

// The engine evaluates a batch from what it remembers of its devices and
// commits it in one round trip; PostgreSQL checks that nothing it assumed
// has changed (device row version, event not stored before), and a batch
// that fails the check is committed again the locked way.
describe("a rule's memory (for, becomes)", () => {
  it('survives renames: a transition fires its webhook once however often the rule is renamed while its condition holds', async () => {
    const ruleId = await rule({
      conditionsObject: [
        {
          type: 'becomes',
          to: true,
          items: [{ type: 'matchAttribute', attribute: 'event.attributes.open', operator: '==', value: 'yes' }],
        },
      ],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/door/{{device.id}}` }],
    });
    const door = await register();
    await rulesReloaded();
    const open = async (value: string) => {
      clock += 1000;
      await sendJson(door.token, { timestamp: clock, attributes: { open: value } });
    };
    await open('yes');
    for (let i = 1; i <= 5; i++) {
      expect((await admin.patch(`/v2/rules/${ruleId}`, { name: `door rule, renamed ${i}` })).status).toBe(200);
      await rulesReloaded();
      await open('yes');
    }
    // The next transition: closed, then open again.
    await open('no');
    await open('yes');
    // Every job is committed with its event: none can come later.
    expect(await jobsOf(ruleId)).toHaveLength(2);
    await settled(ruleId, 2);
    expect(received.filter((r) => r.url === `/door/${door.deviceId}`)).toHaveLength(2);
  });
});

describe('devices remembered between batches', () => {
  const retried = async (to: TestServer = server) =>
    Number(/^ingest_retried_batches_total (\d+)$/m.exec(await (await fetch(`${to.url}/metrics`)).text())?.[1]);
  const notifications = async (token: string) =>
    (
      (await (await fetch(`${server.url}/v1/mobile/notifications`, { headers: { authorization: token } })).json()) as {
        notifications: Array<{ message: string }>;
      }
    ).notifications.map((n) => n.message);

  it('sees a device changed through the management API since its last event', async () => {
    const ruleId = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.ping', operator: '==', value: '1' }],
      actions: [{ type: 'push', subject: 's', message: 'hello {{device.name}}' }],
    });
    const device = await register();
    expect((await admin.patch(`/v2/devices/${device.deviceId}`, { name: 'first' })).status).toBe(200);
    await sendJson(device.token, { timestamp: T + 1, attributes: { ping: 1 } });
    await settled(ruleId, 1);
    const before = await retried();
    expect((await admin.patch(`/v2/devices/${device.deviceId}`, { name: 'second' })).status).toBe(200);
    await sendJson(device.token, { timestamp: T + 2, attributes: { ping: 1 } });
    await settled(ruleId, 2);
    expect((await notifications(device.token)).sort()).toEqual(['hello first', 'hello second']);
    expect(await retried()).toBe(before + 1);
  });

  it("reads a device again after this server's action tagged it, without a failed batch", async () => {
    const tag = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.tagme', operator: '==', value: '1' }],
      actions: [{ type: 'update device state add tags', deviceIds: 'triggering device', tags: ['tagged'] }],
    });
    const show = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.show', operator: '==', value: '1' }],
      actions: [{ type: 'push', subject: 's', message: 'tags {{device.tags}}' }],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 1, attributes: { tagme: 1 } });
    await settled(tag, 1);
    const before = await retried();
    await sendJson(device.token, { timestamp: T + 2, attributes: { show: 1 } });
    await settled(show, 1);
    expect(await notifications(device.token)).toEqual(['tags ["tagged"]']);
    expect(await retried()).toBe(before);
  });

  it('stores a retried event of a known device once and fires for it once', async () => {
    const ruleId = await rule({
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.n', operator: '>=', value: '0' }],
      actions: [{ type: 'push', subject: 's', message: 'n={{event.payload.attributes.n}}' }],
    });
    const device = await register();
    await sendJson(device.token, { timestamp: T + 100, attributes: { n: 1 } });
    const before = await retried();
    await sendJson(device.token, { timestamp: T + 100, attributes: { n: 1 } }); // the same event again
    await sendJson(device.token, { timestamp: T + 101, attributes: { n: 2 } });
    expect(await settled(ruleId, 2)).toHaveLength(2);
    expect((await notifications(device.token)).sort()).toEqual(['n=1', 'n=2']);
    const stored = await sql`SELECT count(*)::int AS n FROM events WHERE device_id = ${device.deviceId}`;
    expect(stored[0]!.n).toBe(2);
    expect(await retried()).toBe(before + 1);
  });

  it('keeps one state per device when two servers share the database', async () => {
    const park = await landmark('shared', PARK);
    const enter = await rule({
      conditionsObject: [{ type: 'enterLandmark', ids: [park] }],
      actions: [{ type: 'push', subject: 'in', message: 'in' }],
    });
    const exit = await rule({
      conditionsObject: [{ type: 'exitLandmark', ids: [park] }],
      actions: [{ type: 'push', subject: 'out', message: 'out' }],
    });
    const other = await startServer({
      modelsDir: '/nonexistent',
      databaseUrl: await serverDatabaseUrl(server, database?.url),
      // device tokens are signed with the first server's secret
      env: {
        ADMIN_PASSWORD: ADMIN.password,
        JWT_SECRET: (await readFile(join(server.dataDir, 'jwt-secret'), 'utf8')).trim(),
      },
    });
    try {
      const device = await register();
      // Alternating servers: each one's memory of the device is stale every other event.
      const walk: Array<[{ lat: number; lon: number }, TestServer]> = [
        [FAR, server],
        [PARK, other],
        [PARK, server],
        [FAR, other],
        [FAR, server],
        [PARK, other],
        [PARK, server],
      ];
      for (const [point, to] of walk) expect(await sendBatch(device.token, [at(point)], to)).toBe(204);
      expect(await settled(enter, 2)).toHaveLength(2);
      expect(await settled(exit, 1)).toHaveLength(1);
      expect((await retried()) + (await retried(other))).toBeGreaterThan(0);
    } finally {
      await other.stop();
      await removeDir(other.dataDir);
    }
  });
});
