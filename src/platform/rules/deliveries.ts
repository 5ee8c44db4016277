// What a rule's actions did: each fired action (a job) with its status and,
// for webhooks, every delivery attempt: its outcome, status code and a short
// reason. Never a response body: with a webhook aimed at an internal
// service, that body would be the service's data shown to the tenant.
import type { Sql } from 'postgres';
import {
  listJobDeliveries,
  listRuleJobs,
  ruleInOrganization,
  type DeliveryAttemptRow,
  type RuleJobRow,
} from '../../db/deliveries.js';
import { notFound } from '../../errors.js';

export type RuleDelivery = RuleJobRow & { deliveries: Array<Omit<DeliveryAttemptRow, 'jobId'>> };

/** What the actions of an organization's rules did. */
export class RuleDeliveryService {
  constructor(private readonly sql: Sql) {}

  /** The rule's newest `limit` jobs, each with its attempts in order; 404 when the rule is not the organization's. */
  async list(organizationId: string, ruleId: string, limit: number): Promise<RuleDelivery[]> {
    if (!(await ruleInOrganization(this.sql, organizationId, ruleId))) throw notFound('rule not found');
    const jobs = await listRuleJobs(this.sql, organizationId, ruleId, limit);
    const attempts = jobs.length
      ? await listJobDeliveries(
          this.sql,
          jobs.map((j) => j.id),
        )
      : [];
    return jobs.map((j) => ({
      ...j,
      deliveries: attempts.filter((a) => a.jobId === j.id).map(({ jobId: _j, ...a }) => a),
    }));
  }
}
