// Outgoing email goes through an outbox table, written in the same
// transaction as the change that causes it (signup, invitation, password
// reset), so nothing is sent for a change that rolled back and nothing is
// lost when the process stops. With SMTP_URL set, a sender delivers it with
// retries; otherwise an operator reads it with `npm run outbox`. Bodies are
// sealed at rest with the secrets key (platform/secrets.ts): they carry
// one-time tokens (verification, invitation and reset links) and device data.
import nodemailer from 'nodemailer';
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import type { Queryable } from '../db/database.js';
import {
  claimDueEmails,
  insertOutboxEmail,
  markEmailFailed,
  markEmailSent,
  type OutboxEmailRow,
} from '../db/outbox.js';
import type { Logger } from '../log.js';
import type { Secrets } from './secrets.js';

export interface Email {
  kind: string;
  to: string;
  subject: string;
  body: string;
  organizationId?: string | null;
}

/** Queues an email in `sql`'s transaction, its body sealed with `secrets`. */
export async function enqueueEmail(sql: Queryable, secrets: Secrets, email: Email): Promise<string> {
  const id = newId();
  await insertOutboxEmail(sql, {
    id,
    kind: email.kind,
    toAddress: email.to,
    subject: email.subject,
    body: secrets.seal(email.body),
    organizationId: email.organizationId ?? null,
  });
  return id;
}

/** Where delivered email goes; SMTP in production. It is given the body opened. */
export interface MailTransport {
  send(email: OutboxEmailRow): Promise<void>;
}

export function smtpTransport(url: string, from: string): MailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    async send(email) {
      await transport.sendMail({ from, to: email.toAddress, subject: email.subject, text: email.body });
    },
  };
}

export class OutboxSender {
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly sql: Sql,
    private readonly transport: MailTransport,
    /** what the bodies were sealed with */
    private readonly secrets: Secrets,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    const { unlisten } = await this.sql.listen('outbox_emails', () => this.kick());
    this.unlisten = unlisten;
    this.timer = setInterval(() => this.kick(), 30_000);
    this.timer.unref();
    this.kick();
  }

  private kick(): void {
    if (this.stopped) return;
    this.running = this.running
      .then(() => this.drain())
      .catch((error) => this.log.warn('outbox sender error', { error: error as Error }));
  }

  private async drain(): Promise<void> {
    for (let batch = await claimDueEmails(this.sql, 20); batch.length > 0; batch = await claimDueEmails(this.sql, 20)) {
      for (const email of batch) {
        try {
          await this.transport.send({ ...email, body: this.secrets.open(email.body) });
          await markEmailSent(this.sql, email.id);
          this.log.info('email sent', { id: email.id, kind: email.kind });
        } catch (error) {
          const retryIn = Math.min(3600, 30 * 2 ** (email.attempts - 1));
          await markEmailFailed(this.sql, email.id, (error as Error).message, retryIn);
          this.log.warn('email delivery failed; will retry', {
            id: email.id,
            kind: email.kind,
            retryInSeconds: retryIn,
            error: error as Error,
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    await this.running;
  }
}
