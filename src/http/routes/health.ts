// Liveness, readiness and Prometheus metrics.
import type { Sql } from 'postgres';
import { databaseAnswers } from '../../db/health.js';
import { ApiError } from '../../errors.js';
import type { InferenceService } from '../../inference/service.js';
import type { Registry } from '../../observability/metrics.js';
import { timingSafeEqual } from 'node:crypto';
import { isLoopback, type Reply, type Request, type Route } from '../server.js';

export const API_VERSION = '2.0.0';

async function databaseAnswersWithin(sql: Sql, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([databaseAnswers(sql), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /metrics names every organization's model versions, so it is not public:
 * with METRICS_TOKEN set it wants that bearer token (Prometheus'
 * `authorization` setting); without, only clients on this host (the peer
 * address, whatever a proxy says) may read it.
 */
function checkMetricsAccess(req: Request, token: string | undefined): void {
  if (token === undefined) {
    if (!isLoopback(req.peerAddress)) {
      throw new ApiError(403, 'forbidden', 'metrics are served to this host only; set METRICS_TOKEN to scrape them over the network');
    }
    return;
  }
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const expected = Buffer.from(token);
  const given = Buffer.from(sent);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(401, 'authentication required', 'metrics need "Authorization: Bearer <METRICS_TOKEN>"');
  }
}

export function healthRoutes(deps: { sql: Sql; inference: InferenceService; registry: Registry; metricsToken: string | undefined }): Route[] {
  const version = (_req: unknown, reply: Reply) => reply.json(200, { name: 'sense-inference-server', version: API_VERSION });
  return [
    // The original API's root answered its version (GET "" in sense-api.openapi.json).
    { method: 'get', path: '/', handler: version },
    { method: 'get', path: '/v2', handler: version },
    {
      method: 'get',
      path: '/v2/health/live',
      handler: (_req, reply) => reply.json(200, { status: 'ok' }),
    },
    {
      method: 'get',
      path: '/v2/health/ready',
      async handler(_req, reply) {
        const database = await databaseAnswersWithin(deps.sql, 2000);
        const model = deps.inference.hasActiveVersion();
        if (database && model) {
          reply.json(200, { status: 'ready', database: 'ok', activeModelVersion: true });
          return;
        }
        const problems = [database ? '' : 'database does not answer', model ? '' : 'no model version is Active yet'];
        throw new ApiError(503, 'not ready', problems.filter(Boolean).join('; '), { 'Retry-After': '1' });
      },
    },
    {
      method: 'get',
      path: '/metrics',
      handler: (req, reply) => {
        checkMetricsAccess(req, deps.metricsToken);
        reply.send(200, deps.registry.render(), 'text/plain; version=0.0.4; charset=utf-8');
      },
    },
  ];
}
