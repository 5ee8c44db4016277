// The durable queue of fired actions (action_jobs): jobs queued inside the
// ingestion commit (planned by the rules engine, inserted by the event
// writer), claimed with SKIP LOCKED by the action runners (several servers
// share the work), and finished or retried.
import type { PendingQuery, Row, Sql } from 'postgres';
import { arrayLiteral, jsonElements } from './array-literal.js';
import type { Queryable } from './database.js';

/** A job as a runner claims it. */
export interface ActionJobRow {
  id: string;
  organizationId: string;
  ruleId: string | null;
  actionId: string;
  deviceId: string | null;
  eventId: string | null;
  type: string;
  action: Record<string, unknown>;
  context: Record<string, unknown>;
  attempts: number;
}

/** A job as the rules engine queues it. */
export interface NewActionJob {
  id: string;
  organizationId: string;
  ruleId: string;
  actionId: string;
  deviceId: string;
  eventId: string;
  type: string;
  action: Record<string, unknown>;
  context: Record<string, unknown>;
}

/**
 * The insert of fired actions into the queue; not run here: a statement of
 * its own in the locked commit, or a part (CTE) of the one-statement commit.
 */
export function insertActionJobs(tx: Sql, jobs: readonly NewActionJob[]): PendingQuery<Row[]> {
  return tx`
    INSERT INTO action_jobs (id, organization_id, rule_id, action_id, device_id, event_id, type, action, context)
    SELECT id, org, rule, action_id, device, event, type, j.value->'action', j.value->'context' FROM unnest(
      ${arrayLiteral(jobs.map((j) => j.id))}::text::text[], ${arrayLiteral(jobs.map((j) => j.organizationId))}::text::text[],
      ${arrayLiteral(jobs.map((j) => j.ruleId))}::text::text[], ${arrayLiteral(jobs.map((j) => j.actionId))}::text::text[],
      ${arrayLiteral(jobs.map((j) => j.deviceId))}::text::text[], ${arrayLiteral(jobs.map((j) => j.eventId))}::text::text[],
      ${arrayLiteral(jobs.map((j) => j.type))}::text::text[]
    ) WITH ORDINALITY AS u(id, org, rule, action_id, device, event, type, n)
    JOIN ${jsonElements(
      tx,
      jobs.map((job) => ({ action: job.action, context: job.context })),
    )} USING (n)`;
}

/** The wake-up of the action runners (NOTIFY action_jobs) as a statement of its own; not run here. */
export function notifyActionJobs(tx: Sql, count: number): PendingQuery<Row[]> {
  return tx`SELECT pg_notify('action_jobs', ${String(count)})`;
}

/** The same wake-up as an expression, for a column of a larger statement (NULL when nothing was queued). */
export function notifyActionJobsExpression(tx: Sql, count: number): PendingQuery<Row[]> {
  return count ? tx`pg_notify('action_jobs', ${String(count)})` : tx`NULL`;
}

/**
 * Claims up to `limit` due jobs: each one's attempts counted and its next
 * attempt pushed `leaseSeconds` ahead (the lease: a runner that dies lets
 * another take the job then). Rows locked by another runner are skipped.
 */
export async function claimDueActionJobs(sql: Queryable, limit: number, leaseSeconds: number): Promise<ActionJobRow[]> {
  return sql<ActionJobRow[]>`
      UPDATE action_jobs SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
      WHERE id IN (
        SELECT id FROM action_jobs WHERE status = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) RETURNING id, organization_id, rule_id, action_id, device_id, event_id, type, action, context, attempts`;
}

export async function markActionJobSucceeded(sql: Queryable, id: string): Promise<void> {
  await sql`UPDATE action_jobs SET status = 'succeeded', finished_at = now(), last_error = NULL WHERE id = ${id}`;
}

/**
 * Marks a job succeeded only if it is still pending, locking its row until
 * the transaction ends; false when another runner finished it meanwhile.
 */
export async function completePendingActionJob(tx: Queryable, id: string): Promise<boolean> {
  const [claimed] = await tx`
            UPDATE action_jobs SET status = 'succeeded', finished_at = now(), last_error = NULL
            WHERE id = ${id} AND status = 'pending' RETURNING id`;
  return claimed !== undefined;
}

export async function retryActionJobLater(
  sql: Queryable,
  id: string,
  error: string,
  delaySeconds: number,
): Promise<void> {
  await sql`
          UPDATE action_jobs SET last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${delaySeconds}) WHERE id = ${id}`;
}

export async function markActionJobFailed(sql: Queryable, id: string, error: string): Promise<void> {
  await sql`UPDATE action_jobs SET status = 'failed', finished_at = now(), last_error = ${error} WHERE id = ${id}`;
}
