// npm run admin -- reset-password [--email <address>] [--password <new password>]
// Sets a user's password from the server's machine, e.g. the bootstrap
// admin's when the one printed at first start is lost (ADMIN_PASSWORD only
// applies on the first start). Ends the user's sessions. Without
// --password, a password is generated and printed once.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { findUserByEmail } from '../db/accounts.js';
import { openDatabase } from '../db/database.js';
import { replacePassword } from '../platform/accounts.js';
import { generatePassword } from '../platform/passwords.js';
import { runCli, toolLogger } from './run.js';

const USAGE =
  'Usage: npm run admin -- reset-password [--email <address>] [--password <new password, 8 to 200 characters>]\n';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals[0] !== 'reset-password' || positionals.length !== 1) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const password = values.password ?? generatePassword();
  if (password.length < 8 || password.length > 200) {
    process.stderr.write(`error: the password must be 8 to 200 characters\n${USAGE}`);
    return 2;
  }
  const log = toolLogger();
  const config = loadConfig();
  const email = (values.email ?? config.adminEmail).toLowerCase();
  const database = await openDatabase(config, 'tool', log);
  try {
    const done = await database.sql.begin(async (tx) => {
      const user = await findUserByEmail(tx, email);
      return user ? replacePassword(tx, user.id, password) : undefined;
    });
    if (!done) throw new Error(`no user ${email}`);
    process.stdout.write(
      `password of ${email} set${values.password ? '' : `: ${password}`}; their earlier sessions have ended\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
