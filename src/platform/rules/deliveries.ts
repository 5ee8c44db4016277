// What a rule's actions did: each fired action (a job) with its status and,
// for webhooks, every delivery attempt: its outcome, status code and a short
// reason. Never a response body: with a webhook aimed at an internal
// service, that body would be the service's data shown to the tenant.
import { listJobDeliveries, listRuleJobs, ruleInOrganization, type DeliveryAttemptRow, type RuleJobRow } from '../../db/deliveries.js';
import type { Queryable } from '../../db/database.js';
import { notFound } from '../../errors.js';

export type RuleDelivery = RuleJobRow & { deliveries: Array<Omit<DeliveryAttemptRow, 'jobId'>> };

/** The rule's newest `limit` jobs, each with its attempts in order; 404 when the rule is not the organization's. */
export async function ruleDeliveries(sql: Queryable, organizationId: string, ruleId: string, limit: number): Promise<RuleDelivery[]> {
  if (!(await ruleInOrganization(sql, organizationId, ruleId))) throw notFound('rule not found');
  const jobs = await listRuleJobs(sql, organizationId, ruleId, limit);
  const attempts = jobs.length ? await listJobDeliveries(sql, jobs.map((j) => j.id)) : [];
  return jobs.map((j) => ({ ...j, deliveries: attempts.filter((a) => a.jobId === j.id).map(({ jobId: _j, ...a }) => a) }));
}
