// Whether the database answers (readiness).
import type { Queryable } from './database.js';

/** Resolves true once the database answers a trivial query, false if it fails (no time limit here). */
export function databaseAnswers(sql: Queryable): Promise<boolean> {
  return sql`SELECT 1`.then(
    () => true,
    () => false,
  );
}
