// Queries of the running replicas (heartbeats) and of each version's status
// on each of them.
import type { Queryable } from './database.js';
import type { VersionStatus } from './model-versions.js';

/**
 * Records a heartbeat, inserting the replica's row if it is missing (first
 * beat, or removed by the others after a pause longer than `staleSeconds`);
 * removes the rows of replicas silent for longer. True when the row was
 * inserted.
 */
export async function replicaHeartbeat(
  sql: Queryable,
  id: string,
  host: string,
  staleSeconds: number,
): Promise<boolean> {
  await sql`DELETE FROM replicas WHERE heartbeat_at < now() - make_interval(secs => ${staleSeconds})`;
  const [row] = await sql<Array<{ inserted: boolean }>>`
    INSERT INTO replicas (id, host) VALUES (${id}, ${host})
    ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
    RETURNING (xmax = 0) AS inserted`;
  return row!.inserted;
}

export async function deleteReplica(sql: Queryable, id: string): Promise<void> {
  await sql`DELETE FROM replicas WHERE id = ${id}`;
}

/**
 * A version's status on one replica, and as the version's own where it
 * changes (the last replica to report wins there: what a server starting
 * later reads to know that the version loaded before).
 */
export async function recordVersionStatus(
  sql: Queryable,
  replicaId: string,
  versionId: string,
  status: VersionStatus,
  reason: string | null,
): Promise<void> {
  await sql`
    WITH version AS (
      UPDATE model_versions SET status = ${status}, status_reason = ${reason}, updated_at = now()
      WHERE id = ${versionId} AND (status, status_reason) IS DISTINCT FROM (${status}::text, ${reason}::text)
    )
    INSERT INTO model_version_replicas (version_id, replica_id, status, reason)
    SELECT id, ${replicaId}, ${status}, ${reason} FROM model_versions WHERE id = ${versionId}
    ON CONFLICT (version_id, replica_id) DO UPDATE SET status = excluded.status, reason = excluded.reason, updated_at = now()`;
}

export interface ReplicaCounts {
  /** live replicas serving the version */
  active: number;
  /** live replicas that could not load it */
  failed: number;
  /** live replicas */
  total: number;
}

/**
 * For each version, how many live replicas (heartbeat within `staleSeconds`)
 * serve it. The asking replica (`self`) is counted by the statuses it holds
 * in memory (null: it does not deploy the version), not by its rows: those
 * are written just after a status changes, and an answer must not say
 * Active with no replica serving it.
 */
export async function versionReplicaCounts(
  sql: Queryable,
  versionIds: readonly string[],
  staleSeconds: number,
  self: { id: string; statuses: ReadonlyArray<VersionStatus | null> },
): Promise<Map<string, ReplicaCounts>> {
  const rows = await sql<Array<ReplicaCounts & { versionId: string }>>`
    WITH live AS (SELECT id FROM replicas WHERE heartbeat_at >= now() - make_interval(secs => ${staleSeconds})),
    self AS (SELECT EXISTS (SELECT 1 FROM live WHERE id = ${self.id}) AS live)
    SELECT v.id AS version_id,
      (count(s.replica_id) FILTER (WHERE s.status = 'Active') + CASE WHEN v.own = 'Active' AND (SELECT live FROM self) THEN 1 ELSE 0 END)::int AS active,
      (count(s.replica_id) FILTER (WHERE s.status = 'Failed') + CASE WHEN v.own = 'Failed' AND (SELECT live FROM self) THEN 1 ELSE 0 END)::int AS failed,
      (SELECT count(*) FROM live)::int AS total
    FROM unnest(${sql.array(versionIds as string[], 25)}, ${sql.array(self.statuses as string[], 25)}) AS v(id, own)
    LEFT JOIN model_version_replicas s ON s.version_id = v.id AND s.replica_id <> ${self.id} AND s.replica_id IN (SELECT id FROM live)
    GROUP BY v.id, v.own`;
  return new Map(rows.map(({ versionId, ...counts }) => [versionId, counts]));
}
