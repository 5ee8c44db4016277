// Login throttling keyed by more than the address typed: `email:<address>`
// for the account and `address:<ip>` for the client, so one client guessing
// across many accounts is slowed down too.
import type { Migration } from '../migrations.js';

export const migration010: Migration = {
  version: 10,
  name: 'login throttle: keys for accounts and client addresses',
  sql: `
    ALTER TABLE login_throttle RENAME COLUMN email TO key;
    UPDATE login_throttle SET key = 'email:' || key;
  `,
};
