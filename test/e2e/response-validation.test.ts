// RESPONSE_VALIDATION is a setting of one server, carried in its HttpContext
// like ACCESS_LOG and CORS_ORIGINS: two servers in one process, one checking
// its answers against their declared schemas and one not, each answer the
// same wrong body their own way. A real uWS server over loopback, with one
// declared endpoint whose answer its schema refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Authenticators, defineEndpoint, endpointRoutes } from '../../src/http/api.js';
import type { HttpContext } from '../../src/http/context.js';
import { InFlight } from '../../src/http/draining.js';
import { HttpServer } from '../../src/http/server.js';
import { loadUws } from '../../src/http/uws.js';
import { BodyBudget } from '../../src/lib/body-budget.js';
import { createServerMetrics } from '../../src/observability/metrics.js';
import { testLog } from '../helpers/log.js';

const wrongAnswer = defineEndpoint({
  method: 'get',
  path: '/v2/count',
  summary: 'a count, answered as a word',
  tag: 'health',
  auth: 'none',
  responses: { 200: { description: 'the count', schema: z.object({ count: z.number() }) } },
  handler: () => ({ status: 200, body: { count: 'many' } }),
});

/** An unauthenticated endpoint asks no authenticator. */
const noAuthenticators = {} as Authenticators;

const servers: HttpServer[] = [];

async function serve(responseValidation: boolean): Promise<number> {
  const ctx: HttpContext = {
    log: testLog,
    metrics: createServerMetrics(),
    inFlight: new InFlight(),
    trustedProxies: 0,
    accessLog: false,
    cors: undefined,
    responseValidation,
  };
  const server = new HttpServer(loadUws(testLog), ctx);
  servers.push(server);
  const bodies = { budget: new BodyBudget(1024 * 1024), strangers: new BodyBudget(1024 * 1024), holdMs: 0 };
  return server.listen(
    { host: '127.0.0.1', port: 0, tls: undefined },
    endpointRoutes(wrongAnswer, noAuthenticators, bodies),
  );
}

let checking: number;
let trusting: number;

beforeAll(async () => {
  checking = await serve(true);
  trusting = await serve(false);
});

afterAll(() => Promise.all(servers.map((server) => server.stop(5000))));

describe('RESPONSE_VALIDATION, per server', () => {
  it('answers a body its schema refuses 500 where it is on, and as it is where it is off, in one process', async () => {
    const checked = await fetch(`http://127.0.0.1:${checking}/v2/count`);
    expect(checked.status).toBe(500);
    expect(await checked.json()).toMatchObject({ message: 'internal server error' });
    const trusted = await fetch(`http://127.0.0.1:${trusting}/v2/count`);
    expect(trusted.status).toBe(200);
    expect(await trusted.json()).toEqual({ count: 'many' });
  });
});
