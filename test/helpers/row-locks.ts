// Transactions that hold rows, so that a commit wanting them waits: how a
// test sees what the server does while a commit is in flight (no PUBACK
// yet, other requests going by, a shutdown waiting for it).
import type postgres from 'postgres';
import { waitFor } from './server.js';

/** Resolves once another backend waits for a lock that `holder`'s transaction holds. */
export async function waitUntilBlocking(sql: postgres.Sql, holder: postgres.ReservedSql, what: string): Promise<void> {
  const [{ pid }] = await holder<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`;
  await waitFor(
    async () =>
      (
        await sql<[{ n: number }]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid}::int = ANY(pg_blocking_pids(pid))`
      )[0].n > 0,
    10_000,
    what,
  );
}

export interface HeldRow {
  /** resolves once a commit waits for the row */
  blocking(what: string): Promise<void>;
  /** commits the holding transaction, so the waiting commit goes on, and gives its connection back (once) */
  release(): Promise<void>;
}

/** Holds a device's row (FOR UPDATE in an open transaction): every commit of the device's events updates it, so waits. */
export async function holdDeviceRow(sql: postgres.Sql, deviceId: string): Promise<HeldRow> {
  const holder = await sql.reserve();
  await holder`BEGIN`;
  await holder`SELECT id FROM devices WHERE id = ${deviceId} FOR UPDATE`;
  let released = false;
  return {
    blocking: (what) => waitUntilBlocking(sql, holder, what),
    release: async () => {
      if (released) return;
      released = true;
      await holder`COMMIT`;
      holder.release();
    },
  };
}
