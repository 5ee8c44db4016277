// npm run outbox -- [list] | show <id>
// Reads the email outbox: what the server sent (with SMTP_URL) or would
// send. Verification, invitation and reset links are in the bodies, sealed
// at rest with the secrets key (SECRETS_KEY or DATA_DIR/secrets-key, as the
// server's): this is an operator's tool, the only place those tokens appear
// in clear.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { findOutboxEmail, listOutboxEmails } from '../db/outbox.js';
import { loadSecretsKey, Secrets } from '../platform/secrets.js';
import { runCli, toolLogger } from './run.js';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { limit: { type: 'string', default: '20' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command = 'list', id] = positionals;
  if (values.help || !['list', 'show'].includes(command) || (command === 'show' && !id)) {
    process.stdout.write('Usage: npm run outbox -- [list [--limit N]] | show <id>\n');
    return values.help ? 0 : 2;
  }
  const log = toolLogger();
  const config = loadConfig();
  const secrets = new Secrets(await loadSecretsKey(config.secretsKey, config.dataDir));
  const database = await openDatabase(config, 'tool', log);
  try {
    if (command === 'show') {
      const email = await findOutboxEmail(database.sql, id!);
      if (!email) throw new Error(`no email ${id}`);
      process.stdout.write(
        `To: ${email.toAddress}\nSubject: ${email.subject}\nQueued: ${email.createdAt.toISOString()}\n` +
          `Sent: ${email.sentAt?.toISOString() ?? 'no'}${email.lastError ? ` (last error: ${email.lastError})` : ''}\n\n${secrets.open(email.body)}`,
      );
      return 0;
    }
    const emails = await listOutboxEmails(database.sql, Number(values.limit));
    if (emails.length === 0) process.stdout.write('the outbox is empty: no email was queued\n');
    for (const e of emails) {
      process.stdout.write(
        `${e.id}  ${e.createdAt.toISOString()}  ${e.sentAt ? 'sent  ' : 'queued'}  ${e.kind.padEnd(15)} ${e.toAddress}  ${e.subject}\n`,
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
