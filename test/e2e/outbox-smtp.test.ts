// With SMTP_URL set, outbox email is delivered over SMTP (to a minimal SMTP
// server run by the test) and marked sent; a refused delivery is retried.
import { createServer, type Server, type Socket } from 'node:net';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { waitFor, type TestServer } from '../helpers/server.js';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** Just enough SMTP for nodemailer: EHLO, MAIL, RCPT, DATA, QUIT. `refuse` answers DATA with 451. */
function smtpServer(mails: Mail[], state: { refuse: number }): Server {
  return createServer((socket: Socket) => {
    let mail: Mail = { from: '', to: [], data: '' };
    let inData = false;
    let buffer = '';
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 test-smtp ready');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let end: number;
      while ((end = inData ? buffer.indexOf('\r\n.\r\n') : buffer.indexOf('\r\n')) >= 0) {
        if (inData) {
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          if (state.refuse > 0) {
            state.refuse--;
            say('451 try again later');
          } else {
            mails.push(mail);
            say('250 queued');
          }
          mail = { from: '', to: [], data: '' };
          continue;
        }
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 test-smtp');
        else if (verb === 'MAIL') (mail.from = line), say('250 ok');
        else if (verb === 'RCPT') mail.to.push(line), say('250 ok');
        else if (verb === 'DATA') (inData = true), say('354 go ahead');
        else if (verb === 'QUIT') say('221 bye'), socket.end();
        else say('250 ok');
      }
    });
  });
}

let server: TestServer;
let sql: postgres.Sql;
let smtp: Server;
const mails: Mail[] = [];
const state = { refuse: 0 };
let database: Platform['database'];

beforeAll(async () => {
  smtp = smtpServer(mails, state);
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.address() as { port: number }).port;
  ({ database, server, sql } = await startPlatform({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'noreply@sense.test',
    PUBLIC_URL: 'https://sense.test',
  }));
});

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  smtp?.close();
});

describe('SMTP delivery', () => {
  it('sends the verification email over SMTP and marks it sent', async () => {
    const api = new Api(server.url);
    expect(
      (
        await api.post('/v2/signup', {
          email: 'smtp@example.com',
          password: 'smtp-password',
          name: 'S',
          organizationName: 'S',
        })
      ).status,
    ).toBe(204);
    const mail = await waitFor(
      async () => mails.find((m) => m.to.some((t) => t.includes('smtp@example.com'))),
      15_000,
      'the email',
    );
    expect(mail.from).toContain('noreply@sense.test');
    expect(mail.data).toContain('Subject: Verify your email address');
    // The body is quoted-printable: undo soft line breaks and =XX escapes.
    const body = mail.data
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(body).toMatch(/https:\/\/sense\.test\/verify-email\?token=[\w-]+/);
    await waitFor(
      async () => (await sql`SELECT sent_at FROM outbox_emails WHERE to_address = 'smtp@example.com'`)[0]?.sentAt,
      10_000,
      'sent_at',
    );
    expect(server.stderr()).not.toMatch(/token=[\w-]{20,}/); // the link never reaches the log
  });

  it('retries a refused delivery', async () => {
    state.refuse = 1;
    const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
    await admin.post('/v2/users/invite', { emails: ['retry@example.com'] });
    await waitFor(
      async () =>
        (await sql`SELECT last_error FROM outbox_emails WHERE to_address = 'retry@example.com'`)[0]?.lastError,
      15_000,
      'the refusal',
    );
    const [row] =
      await sql`SELECT attempts, sent_at, last_error FROM outbox_emails WHERE to_address = 'retry@example.com'`;
    expect(row).toMatchObject({ attempts: 1, sentAt: null, lastError: expect.stringContaining('451') });
    expect(mails.some((m) => m.to.some((t) => t.includes('retry@example.com')))).toBe(false);
  });
});
