// This server as one replica among those sharing the database: a row with a
// heartbeat, removed at shutdown, or by the others once its heartbeat stops
// (a killed or partitioned server), with the version statuses it reported.
// A version's answer counts the live replicas that serve it, and a device's
// connections count while their replica lives (presence.ts).
import { hostname } from 'node:os';
import type { Sql } from 'postgres';
import type { VersionStatus } from '../db/model-versions.js';
import { deleteReplica, replicaHeartbeat, versionReplicaCounts, type ReplicaCounts } from '../db/replicas.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';

const HEARTBEAT_MS = 5_000;
/** Four missed heartbeats: long enough for a GC pause or a database failover, short enough for a status to catch up with a lost replica. */
export const STALE_SECONDS = 20;

export class Replica {
  readonly id = newId();
  private timer: NodeJS.Timeout | undefined;

  /**
   * `onRejoin` runs when the others had removed this replica (its heartbeat
   * stopped for longer than STALE_SECONDS) and it registered again: the
   * version statuses it reported, and the device connections it recorded,
   * went with its row.
   */
  constructor(
    private readonly sql: Sql,
    private readonly onRejoin: () => void,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await replicaHeartbeat(this.sql, this.id, hostname(), STALE_SECONDS);
    this.log.info('registered as a replica', { replica: this.id });
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      if (await replicaHeartbeat(this.sql, this.id, hostname(), STALE_SECONDS)) {
        this.log.warn('registered again as a replica after missing heartbeats', { replica: this.id });
        this.onRejoin();
      }
    } catch (error) {
      this.log.warn('replica heartbeat failed', { replica: this.id, error: error as Error });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await deleteReplica(this.sql, this.id);
  }
}

/** How many live replicas serve each version; this replica (`self`) counted by its live statuses. */
export function replicaCounts(
  sql: Sql,
  versionIds: readonly string[],
  self: { id: string; statuses: ReadonlyArray<VersionStatus | null> },
): Promise<Map<string, ReplicaCounts>> {
  return versionReplicaCounts(sql, versionIds, STALE_SECONDS, self);
}
