// /v2/rules/:rule/deliveries: what a rule's actions did: each fired action
// (a job) with its status and, for webhooks, every delivery attempt: its
// outcome, status code and a short reason. Never a response body: with a
// webhook aimed at an internal service, that body would be the service's
// data shown to the tenant.
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { idParam } from './common.js';
import type { PlatformDeps } from './index.js';
import { deliverySchema, list } from './response-schemas.js';

export function deliveriesEndpoints({ sql }: PlatformDeps): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/rules/:rule/deliveries',
      tag: 'rules',
      summary: 'the delivery log of a rule: fired actions, their status, and every webhook attempt (newest first)',
      auth: 'organization',
      action: 'rules:read',
      params: idParam('rule'),
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict(),
      responses: { 200: { description: 'the fired actions, newest first, each with its webhook attempts', schema: list(deliverySchema) } },
      async handler({ caller, params, query }) {
        const [rule] = await sql`SELECT id FROM rules WHERE id = ${params.rule} AND organization_id = ${caller.organizationId}`;
        if (!rule) throw new ApiError(404, 'rule not found');
        const jobs = await sql<Array<Record<string, unknown> & { id: string }>>`
          SELECT id, action_id, type, device_id, event_id, status, attempts, last_error, created_at, finished_at
          FROM action_jobs WHERE organization_id = ${caller.organizationId} AND rule_id = ${params.rule}
          ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`;
        const attempts = jobs.length
          ? await sql<Array<Record<string, unknown> & { jobId: string }>>`
              SELECT job_id, attempt, started_at, duration_ms, outcome, status_code, error, request
              FROM action_deliveries WHERE job_id = ANY(${jobs.map((j) => j.id)}) ORDER BY attempt`
          : [];
        const data = jobs.map((j) => ({ ...j, deliveries: attempts.filter((a) => a.jobId === j.id).map(({ jobId: _j, ...a }) => a) }));
        return respond.list(data, { count: data.length });
      },
    }),
  ];
}
