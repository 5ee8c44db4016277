// Encryption at rest for what was stored before it: at start-up, the webhook
// secrets still in plain text (password, HMAC secret, header values) in rules
// and in their queued or finished jobs are sealed in place. Until then (and
// if it fails) Secrets.open reads plain values as they are, so nothing breaks;
// sealed values are left alone, so a second run, or a second server, changes
// nothing.
import type { Queryable } from '../../db/database.js';
import { replaceJobAction, replaceRuleActions, rulesWithWebhooks, webhookJobs } from '../../db/webhook-secrets.js';
import { isSealed, type Secrets } from '../secrets.js';

/** The action with its plain secrets sealed; undefined when there was nothing to seal. */
function sealWebhookAction(action: Record<string, unknown>, secrets: Secrets): Record<string, unknown> | undefined {
  if (action.type !== 'webhook') return undefined;
  let changed = false;
  const seal = (value: unknown): unknown => {
    if (typeof value !== 'string' || isSealed(value)) return value;
    changed = true;
    return secrets.seal(value);
  };
  const out = { ...action };
  for (const key of ['password', 'secret']) if (out[key] !== undefined) out[key] = seal(out[key]);
  if (out.headers && typeof out.headers === 'object' && !Array.isArray(out.headers)) {
    out.headers = Object.fromEntries(
      Object.entries(out.headers as Record<string, unknown>).map(([name, value]) => [name, seal(value)]),
    );
  }
  return changed ? out : undefined;
}

/** Seals the plain secrets of every stored webhook action; returns how many rows changed. */
export async function sealStoredWebhookSecrets(sql: Queryable, secrets: Secrets): Promise<number> {
  let changed = 0;
  for (const rule of await rulesWithWebhooks(sql)) {
    const actions = JSON.parse(rule.actions) as Array<Record<string, unknown>>;
    let any = false;
    const sealed = actions.map((a) => {
      const s = sealWebhookAction(a, secrets);
      if (s) any = true;
      return s ?? a;
    });
    if (any && (await replaceRuleActions(sql, rule.id, rule.actions, sealed))) changed++;
  }
  for (const job of await webhookJobs(sql)) {
    const sealed = sealWebhookAction(JSON.parse(job.actions) as Record<string, unknown>, secrets);
    if (sealed && (await replaceJobAction(sql, job.id, job.actions, sealed))) changed++;
  }
  return changed;
}
