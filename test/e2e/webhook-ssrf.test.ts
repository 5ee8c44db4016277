// Rule webhooks with the default settings cannot reach internal addresses:
// a hostile tenant's webhook to loopback (by IP, by a name that resolves to
// it, by an IPv4-mapped IPv6 form) is refused after DNS resolution, recorded
// as one failed delivery with the reason, not retried, and the listener on
// loopback receives nothing. (rules-engine.test.ts delivers to the same kind
// of listener with WEBHOOK_ALLOWED_HOSTS set.)
import { createServer, type Server } from 'node:http';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];
let listener: Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  listener = createServer((req, res) => {
    hits.push(req.url!);
    res.end('internal secret data');
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  port = (listener.address() as { port: number }).port;
  ({ database, server, sql, admin } = await startPlatform({ ACTION_RETRY_BASE_MS: '50' }));
});

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  listener?.close();
});

describe('webhooks to internal addresses', () => {
  it('are refused with the default settings, as a failed delivery with its reason', async () => {
    const channel = (await admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'p', channelIds: [channel.id] })).body.data.id;
    const urls = [
      `http://127.0.0.1:${port}/ip`,
      `http://localhost:${port}/name`,
      `http://[::ffff:127.0.0.1]:${port}/mapped`,
      `http://169.254.169.254/latest/meta-data/`,
    ];
    const created = await admin.post('/v2/rules', {
      projectId: project,
      name: 'ssrf',
      conditionsObject: [{ type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'yes' }],
      actions: urls.map((url) => ({ type: 'webhook', method: 'GET', url, retries: 3 })),
    });
    expect(created.status).toBe(200);
    // warned of at save, each as the guard will refuse it at every fire
    expect(created.body.data.warnings).toEqual(
      urls.map((url, i) => ({
        code: 'webhook_blocked',
        field: `actions.${i}.url`,
        message: expect.stringMatching(
          new RegExp(
            `^the webhook to ${new URL(url).origin.replace(/[.[\]]/g, '\\$&')} will be blocked each time the rule fires: .* is an internal address \\(.+\\); WEBHOOK_ALLOWED_HOSTS can allow it$`,
          ),
        ),
      })),
    );
    expect(created.body.data.warnings[1].message).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), which is an internal address \(loopback\)/,
    );
    const ruleId = created.body.data.id;
    const device = (await (
      await fetch(`${server.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      })
    ).json()) as { token: string };
    const sent = await fetch(`${server.url}/v1/mobile/events`, {
      method: 'POST',
      headers: { authorization: device.token, 'content-type': 'application/json' },
      body: JSON.stringify({ timestamp: 1_700_000_000_000, attributes: { go: 'yes' } }),
    });
    expect(sent.status).toBe(204);
    const jobs = await waitFor(
      async () => {
        const rows = await sql<
          { status: string; attempts: number }[]
        >`SELECT status, attempts FROM action_jobs WHERE rule_id = ${ruleId}`;
        return rows.length === urls.length && rows.every((j) => j.status !== 'pending') ? rows : undefined;
      },
      15_000,
      'settled jobs',
    );
    // permanent: failed at the first attempt, no retries
    expect(jobs).toEqual(urls.map(() => ({ status: 'failed', attempts: 1 })));
    expect(hits).toEqual([]);
    const log = await admin.get(`/v2/rules/${ruleId}/deliveries`);
    const deliveries = log.body.data.flatMap((j: { deliveries: object[] }) => j.deliveries);
    expect(deliveries).toHaveLength(urls.length);
    for (const d of deliveries) {
      expect(d).toMatchObject({
        outcome: 'failure',
        statusCode: null,
        error: expect.stringMatching(/^blocked: .* is an internal address \(.+\); WEBHOOK_ALLOWED_HOSTS can allow it$/),
      });
      expect(d).not.toHaveProperty('response');
    }
    expect(deliveries.map((d: { error: string }) => d.error).join('\n')).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), which is an internal address \(loopback\)/,
    );
  });
});
