// User access tokens carry the session version they were issued under;
// setting a new password bumps it, which ends every session opened before.
import type { Migration } from '../migrations.js';

export const migration012: Migration = {
  version: 12,
  name: 'users: session version',
  sql: `ALTER TABLE users ADD COLUMN session_version integer NOT NULL DEFAULT 0;`,
};
