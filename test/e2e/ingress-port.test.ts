// INGRESS_PORT: the ingestion API on a port of its own, the rest on PORT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';

let platform: Platform;
let ingress: string;

beforeAll(async () => {
  platform = await startPlatform({ INGRESS_PORT: '0' });
  const port = /ingestion listening host=\S+ port=(\d+)/.exec(platform.server.stderr())![1];
  ingress = `http://127.0.0.1:${port}`;
});

afterAll(() => stopPlatform(platform));

describe('INGRESS_PORT', () => {
  it('serves registration and events there, and not on the main port', async () => {
    const channel = (await platform.admin.post('/v2/channels', { name: 'c', type: 'ios' })).body.data;
    const body = JSON.stringify({ apiKey: channel.apiKeys[0].apiKey });
    const registered = await fetch(`${ingress}/v1/registration`, { method: 'POST', body });
    expect(registered.status).toBe(200);
    const { token } = (await registered.json()) as { token: string };
    expect(
      (await fetch(`${ingress}/v1/mobile/events`, { method: 'POST', headers: { authorization: token }, body: '{}' }))
        .status,
    ).toBe(204);
    expect((await fetch(`${platform.server.url}/v1/registration`, { method: 'POST', body })).status).toBe(404);
    expect((await fetch(`${ingress}/v2/users/me`)).status).toBe(404);
    expect((await fetch(`${ingress}/v2/health/live`)).status).toBe(200);
  });
});
