// Reads and conditional writes of stored rule actions, for sealing the
// webhook secrets that were stored in plain text before encryption at rest
// (platform/rules/seal-stored.ts). Across organizations: it runs once at
// start-up, not on a tenant's behalf.
//
// jsonb is read as text (see rules.ts: the camelCase transform would rename
// keys inside it). Each write only applies when the value is still the one
// read, so a rule saved meanwhile is not overwritten with its old actions;
// the comparison is of the text forms (a text parameter compared with a
// jsonb column would be typed jsonb, and a string sent as a JSON string).
import type { Queryable } from './database.js';

export interface StoredActions {
  id: string;
  actions: string;
}

/** Rules whose actions hold a webhook. */
export async function rulesWithWebhooks(sql: Queryable): Promise<StoredActions[]> {
  return sql<StoredActions[]>`
    SELECT id, actions::text AS actions FROM rules WHERE jsonb_path_exists(actions, '$[*] ? (@.type == "webhook")')`;
}

export async function replaceRuleActions(
  sql: Queryable,
  id: string,
  before: string,
  after: unknown[],
): Promise<boolean> {
  const result =
    await sql`UPDATE rules SET actions = ${sql.json(after as never)} WHERE id = ${id} AND actions::text = ${before}`;
  return result.count > 0;
}

/** Webhook jobs (their action is a copy of the rule's, secrets included). */
export async function webhookJobs(sql: Queryable): Promise<StoredActions[]> {
  return sql<StoredActions[]>`SELECT id, action::text AS actions FROM action_jobs WHERE type = 'webhook'`;
}

export async function replaceJobAction(sql: Queryable, id: string, before: string, after: unknown): Promise<boolean> {
  const result =
    await sql`UPDATE action_jobs SET action = ${sql.json(after as never)} WHERE id = ${id} AND action::text = ${before}`;
  return result.count > 0;
}
