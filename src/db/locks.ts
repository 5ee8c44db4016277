// Transaction-scoped advisory locks: work that several servers starting at
// once must do one at a time.
import type { Queryable } from './database.js';

/** First-start bootstrap (the first organization, configured keys): held until the transaction ends. */
const BOOTSTRAP_LOCK = 0x5e45f;

export async function lockBootstrap(tx: Queryable): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`;
}
