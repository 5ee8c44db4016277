// Applies pending migrations at start-up, in version order, each once. They
// run in one transaction under an advisory lock: servers starting at once
// against one database wait for each other, and a failing migration leaves
// the schema as it was.
import type { Sql } from 'postgres';
import type { Logger } from '../log.js';
import { MIGRATIONS, type Migration } from './migrations.js';

const LOCK_KEY = 0x5e45e; // arbitrary, constant for this application

export async function migrate(sql: Sql, log: Logger, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await sql`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version     integer PRIMARY KEY,
      name        text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`;
  const applied: number[] = [];
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCK_KEY})`;
    const done = new Set(
      (await tx<{ version: number }[]>`SELECT version FROM schema_migrations`).map((r) => r.version),
    );
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      if (migration.sql.trim()) await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
      applied.push(migration.version);
      log.info('applied migration', { version: migration.version, name: migration.name });
    }
  });
  return applied;
}
