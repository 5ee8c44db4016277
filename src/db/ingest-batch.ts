// The one-statement commit of an ingested batch: the events' INSERT, the
// device states, throttles and queued actions as data-modifying CTEs (all of
// them run, in one snapshot, atomically; one statement is one transaction).
import type { PendingQuery, Row, Sql } from 'postgres';
import { notifyActionJobsExpression } from './action-jobs.js';

export interface BatchStatementParts {
  /** the events' and their keys' INSERTs as WITH entries, `stored` first (fail with 23505 if an event was stored before) */
  insert: PendingQuery<Row[]>;
  /** the device states' UPDATE, each row only at its expected version (see updateDeviceStates) */
  updateDevices: PendingQuery<Array<{ id: string; version: string }>>;
  /** how many devices that UPDATE must change */
  devices: number;
  /** the throttles' upsert, when a rule fired */
  throttles?: PendingQuery<Row[]> | undefined;
  /** the actions' insert, when some were queued */
  jobs?: PendingQuery<Row[]> | undefined;
  /** how many actions were queued: the action runners are notified when any */
  jobCount: number;
}

/**
 * A whole batch in one statement. Its final row checks, with
 * `ingest_expect` (SQLSTATE 40001), that every device was still at its
 * expected version, and returns the devices' new versions.
 */
export function batchStatement(
  tx: Sql,
  p: BatchStatementParts,
): PendingQuery<[{ ids: string[] | null; versions: string[] | null }]> {
  const parts = [p.insert, tx`, updated AS (${p.updateDevices})`];
  if (p.throttles) parts.push(tx`, throttled AS (${p.throttles})`);
  if (p.jobs) parts.push(tx`, queued AS (${p.jobs})`);
  return tx`
    WITH ${parts}
    SELECT
      ingest_expect((SELECT count(*) FROM updated) = ${p.devices}, 'a device changed since this server read it') AS same_devices,
      ${notifyActionJobsExpression(tx, p.jobCount)} AS notified,
      (SELECT array_agg(id) FROM updated) AS ids,
      (SELECT array_agg(version) FROM updated) AS versions`;
}
