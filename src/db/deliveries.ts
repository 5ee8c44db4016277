// The delivery log of rule actions: every webhook attempt (action_deliveries)
// with its outcome, status code and a short reason, never a response body,
// and each step of an mqtt command (db/device-commands.ts writes those);
// and what a rule's actions did, read back for the management API.
import type { Queryable } from './database.js';

export interface NewActionDelivery {
  id: string;
  jobId: string;
  organizationId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  outcome: 'success' | 'retry' | 'failure';
  statusCode: number | null;
  error: string | null;
  /** method, URL and headers as sent (secret header values masked) */
  request: { method: string; url: string; headers: Record<string, string> };
}

export async function insertActionDelivery(sql: Queryable, d: NewActionDelivery): Promise<void> {
  await sql`
      INSERT INTO action_deliveries (id, job_id, organization_id, attempt, started_at, duration_ms, outcome, status_code, error, request, response)
      VALUES (${d.id}, ${d.jobId}, ${d.organizationId}, ${d.attempt}, ${d.startedAt}, ${d.durationMs}, ${d.outcome},
              ${d.statusCode}, ${d.error}, ${sql.json(d.request)}, NULL)`;
}

export async function ruleInOrganization(sql: Queryable, organizationId: string, ruleId: string): Promise<boolean> {
  const [rule] = await sql`SELECT id FROM rules WHERE id = ${ruleId} AND organization_id = ${organizationId}`;
  return rule !== undefined;
}

/** A fired action of a rule, as the delivery log shows it. */
export type RuleJobRow = Record<string, unknown> & { id: string };

/** The rule's newest jobs first. */
export async function listRuleJobs(
  sql: Queryable,
  organizationId: string,
  ruleId: string,
  limit: number,
): Promise<RuleJobRow[]> {
  return sql<RuleJobRow[]>`
          SELECT id, action_id, type, device_id, event_id, status, attempts, last_error, created_at, finished_at
          FROM action_jobs WHERE organization_id = ${organizationId} AND rule_id = ${ruleId}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
}

/** One webhook attempt, or mqtt command step, of a job. */
export type DeliveryAttemptRow = Record<string, unknown> & { jobId: string };

/** The attempts of the jobs, in attempt order. */
export async function listJobDeliveries(sql: Queryable, jobIds: string[]): Promise<DeliveryAttemptRow[]> {
  return sql<DeliveryAttemptRow[]>`
              SELECT job_id, attempt, started_at, duration_ms, outcome, status_code, error, request
              FROM action_deliveries WHERE job_id = ANY(${jobIds}) ORDER BY attempt, started_at`;
}
