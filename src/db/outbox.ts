// Queries of the email outbox, and of the SMS outbox rule actions write to.
import type { Queryable } from './database.js';

export interface OutboxEmailRow {
  id: string;
  organizationId: string | null;
  kind: string;
  toAddress: string;
  subject: string;
  body: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}

export async function insertOutboxEmail(
  sql: Queryable,
  email: Pick<OutboxEmailRow, 'id' | 'kind' | 'toAddress' | 'subject' | 'body'> & { organizationId?: string | null },
): Promise<void> {
  await sql`INSERT INTO outbox_emails ${sql(email as Record<string, unknown>)}`;
  await sql`SELECT pg_notify('outbox_emails', ${email.id})`;
}

export async function listOutboxEmails(sql: Queryable, limit: number): Promise<OutboxEmailRow[]> {
  return sql<OutboxEmailRow[]>`SELECT * FROM outbox_emails ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
}

export async function findOutboxEmail(sql: Queryable, id: string): Promise<OutboxEmailRow | undefined> {
  const [row] = await sql<OutboxEmailRow[]>`SELECT * FROM outbox_emails WHERE id = ${id}`;
  return row;
}

/** Claims due emails for sending (rows locked so concurrent senders skip them). */
export async function claimDueEmails(sql: Queryable, limit: number): Promise<OutboxEmailRow[]> {
  return sql<OutboxEmailRow[]>`
    UPDATE outbox_emails SET attempts = attempts + 1, next_attempt_at = now() + interval '5 minutes'
    WHERE id IN (
      SELECT id FROM outbox_emails WHERE sent_at IS NULL AND next_attempt_at <= now() AND attempts < 10
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ) RETURNING *`;
}

export async function markEmailSent(sql: Queryable, id: string): Promise<void> {
  await sql`UPDATE outbox_emails SET sent_at = now(), last_error = NULL WHERE id = ${id}`;
}

export async function markEmailFailed(
  sql: Queryable,
  id: string,
  error: string,
  retryInSeconds: number,
): Promise<void> {
  await sql`
    UPDATE outbox_emails SET last_error = ${error}, next_attempt_at = now() + make_interval(secs => ${retryInSeconds})
    WHERE id = ${id}`;
}

/** An SMS for an operator or a gateway to send (the default SMS sender of rule actions). */
export async function insertOutboxSms(
  sql: Queryable,
  sms: { id: string; organizationId: string; toNumber: string; body: string },
): Promise<void> {
  await sql`INSERT INTO outbox_sms (id, organization_id, to_number, body) VALUES (${sms.id}, ${sms.organizationId}, ${sms.toNumber}, ${sms.body})`;
}
