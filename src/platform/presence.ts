// Presence: which devices are connected, over what, since when. The MQTT
// front end reports each connection its CONNACK accepted and each that
// closed; this replica records them (db/device-connections.ts) under its
// replica id, so that a connection counts only while this server's
// heartbeat does (replicas.ts): a killed server's rows are never read as
// connected, and go with its replica row when the others sweep it.
import type { Sql } from 'postgres';
import * as db from '../db/device-connections.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import { STALE_SECONDS } from './replicas.js';

export type { DeviceConnection } from '../db/device-connections.js';

/** A connection as the front end reports it. */
export interface OpenedConnection {
  deviceId: string;
  organizationId: string;
  clientId: string;
  /** 3 (3.1), 4 (3.1.1) or 5 */
  protocolVersion: number;
}

/** One connection's row and its writes, each run after the one before (a removal never overtakes its insert). */
interface Tracked {
  row: db.DeviceConnectionRow;
  writes: Promise<void>;
}

/** This replica's open connections, written to the database as they open and close. */
export class DevicePresence {
  private readonly open = new Map<string, Tracked>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly sql: Sql,
    private readonly replicaId: string,
    private readonly log: Logger,
  ) {}

  /**
   * Records a connection, not awaited (the CONNACK does not wait for the
   * database); the function returned removes it once it has closed.
   */
  connected(connection: OpenedConnection): () => void {
    const row: db.DeviceConnectionRow = {
      id: newId(),
      ...connection,
      replicaId: this.replicaId,
      protocol: 'mqtt',
      connectedAt: new Date(),
    };
    const tracked: Tracked = { row, writes: Promise.resolve() };
    this.open.set(row.id, tracked);
    this.write(tracked, 'record', () => db.insertDeviceConnection(this.sql, row));
    return () => {
      if (!this.open.delete(row.id)) return;
      this.write(tracked, 'remove', () => db.deleteDeviceConnection(this.sql, row.organizationId, row.id));
    };
  }

  /**
   * The open connections recorded again: the others had removed this
   * replica (its heartbeat stopped too long) and its rows with it.
   */
  recordAgain(): void {
    for (const tracked of this.open.values())
      this.write(tracked, 'record', () => db.insertDeviceConnection(this.sql, tracked.row));
  }

  /** Resolves once every write begun has ended (shutdown: before the database closes). */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  private write(tracked: Tracked, what: 'record' | 'remove', run: () => Promise<void>): void {
    const { row } = tracked;
    const done = tracked.writes.then(run).catch((error: unknown) =>
      // presence is wrong until the device reconnects; its messages are not affected
      this.log.warn(`device connection: could not ${what} it`, { deviceId: row.deviceId, error: error as Error }),
    );
    tracked.writes = done;
    this.writing.add(done);
    void done.finally(() => this.writing.delete(done));
  }
}

/** The live connection of each of the organization's devices that has one (one query for them all). */
export function deviceConnections(
  sql: Sql,
  organizationId: string,
  deviceIds: readonly string[],
): Promise<Map<string, db.DeviceConnection>> {
  return db.liveDeviceConnections(sql, organizationId, deviceIds, STALE_SECONDS);
}
