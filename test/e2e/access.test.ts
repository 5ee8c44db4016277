// Who may read what the server says about itself: /metrics (it names every
// organization's model versions) and the client address throttles key on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress, clientAddress, isLoopback } from '../../src/http/client-address.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('client addresses', () => {
  it('writes addresses canonically, IPv4-mapped IPv6 as IPv4', () => {
    expect(canonicalAddress('127.0.0.1')).toBe('127.0.0.1');
    // as uWS writes peers of a dual-stack listener
    expect(canonicalAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(canonicalAddress('0000:0000:0000:0000:0000:ffff:c633:6402')).toBe('198.51.100.2');
    expect(canonicalAddress('0000:0000:0000:0000:0000:0000:0000:0001')).toBe('::1');
    expect(canonicalAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
  });

  it('knows loopback from the rest', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.1', '::', '2001:db8::1', '1127.0.0.1', ''])
      expect(isLoopback(address)).toBe(false);
  });

  it('believes as many X-Forwarded-For entries as there are trusted proxies, counted from the end', () => {
    expect(clientAddress('10.0.0.5', '203.0.113.9', 0)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', undefined, 1)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', 'forged, 203.0.113.9', 1)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.5', 'forged, 203.0.113.9, 10.0.0.4', 2)).toBe('203.0.113.9');
    expect(clientAddress('10.0.0.5', '203.0.113.9', 3)).toBe('203.0.113.9');
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => server.stop());

  it('answers a scraper on this host, not a request a proxy on this host relays', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    const relays: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ];
    for (const header of relays) {
      const relayed = await fetch(`${server.url}/metrics`, { headers: header });
      expect(relayed.status, JSON.stringify(header)).toBe(403);
      expect(((await relayed.json()) as { error: string }).error).toBe(
        'metrics are served to this host only, not through a proxy; set METRICS_TOKEN to scrape them over the network',
      );
    }
  });

  it("counts the domain errors it answers by their code, not the front end's own refusals", async () => {
    const errorsByCode = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Object.fromEntries(
        [...text.matchAll(/^errors_total\{code="([A-Z0-9_]+)"\} (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
      );
    };
    const before = await errorsByCode();
    const refused = await fetch(`${server.url}/v1/models/no-such-version/predict`, { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ status: 401, message: 'Invalid or missing API key.' });
    expect((await fetch(`${server.url}/v1/no-such-route`)).status).toBe(404);
    expect(await errorsByCode()).toEqual({ ...before, UNAUTHENTICATED: (before.UNAUTHENTICATED ?? 0) + 1 });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
  });
  afterAll(() => server.stop());

  it('wants the bearer token, even from this host', async () => {
    const bare = await fetch(`${server.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({
      status: 401,
      message: 'authentication required',
      error: 'metrics need "Authorization: Bearer <METRICS_TOKEN>"',
    });
    expect(
      (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-012345678' } })).status,
    ).toBe(401);
    const ok = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-0123456789' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('http_requests_total');
  });
});
