// Two servers on one database: a device's rate limit and an account's login
// throttle hold for both together, not for each one apart.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, Api, serverDatabaseUrl } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { removeDir, startServer, type TestServer } from '../helpers/server.js';

const SECRET = 'shared-limits-secret-shared-limits-secret';
const LIMITS = { JWT_SECRET: SECRET, DEVICE_EVENT_RATE: '1', DEVICE_EVENT_BURST: '10' };

let platform: Platform;
let other: TestServer;

beforeAll(async () => {
  platform = await startPlatform(LIMITS);
  other = await startServer({
    modelsDir: '/nonexistent',
    databaseUrl: await serverDatabaseUrl(platform.server, platform.database?.url),
    env: { ADMIN_PASSWORD: ADMIN.password, ...LIMITS },
  });
});

afterAll(async () => {
  await other?.stop();
  if (other) await removeDir(other.dataDir);
  await stopPlatform(platform);
});

it('limits a device sending through both servers to one bucket', async () => {
  const channel = (await platform.admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  const registered = await fetch(`${platform.server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  const { token } = (await registered.json()) as { token: string };
  const statuses: number[] = [];
  const started = Date.now();
  for (let i = 0; i < 40; i++) {
    const server = i % 2 ? other : platform.server;
    const res = await fetch(`${server.url}/v1/mobile/events`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: '{}',
    });
    statuses.push(res.status);
  }
  const seconds = (Date.now() - started) / 1000;
  const admitted = statuses.filter((s) => s === 204).length;
  expect(statuses.filter((s) => s !== 204 && s !== 429)).toEqual([]);
  // The burst, and what the rate refilled while the requests were sent; each
  // server counting apart would admit the burst twice.
  expect(admitted).toBeGreaterThanOrEqual(10);
  expect(admitted).toBeLessThanOrEqual(10 + Math.floor(seconds));
  // Both servers admitted from the bucket, and both refused once it was empty.
  for (const parity of [0, 1]) {
    const own = statuses.filter((_, i) => i % 2 === parity);
    expect(own).toContain(204);
    expect(own).toContain(429);
  }
});

it('locks an account after five failed logins through both servers together', async () => {
  const apis = [platform.anon, new Api(other.url)];
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++)
    statuses.push((await apis[i % 2]!.post('/v2/login', { email: ADMIN.email, password: 'wrong-password' })).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
});
