// What the rules engine (engine.ts) remembers of each device between
// batches, so that the common batch (devices it has seen, events that are
// new) is evaluated without reading anything and committed in one round trip.
//
// An entry is the device row as this server last wrote it, the row version
// it wrote (PostgreSQL's xmin system column, which changes with every
// update of the row; Npgsql and EF Core use it the same way as an
// optimistic-concurrency token) and when each rule last fired for it. It is
// trusted only as far as PostgreSQL confirms it: the batch's device update
// matches on that version, so a device changed meanwhile (by the management
// API, another server) fails the transaction and the batch is retried the
// locked way, which refreshes the entry. This server's own actions that tag
// devices forget the entries instead (runner.ts,
// ActionRunnerOptions.onDevicesChanged): a rule firing for every device of a
// fleet would otherwise fail a whole batch per device, and each failed
// statement is work thrown away.
import type { EngineDevice } from './batch.js';

export interface KnownDevice {
  device: EngineDevice;
  /** xmin of the row as last read or written, as text */
  version: string;
  /** `${ruleId}:${deviceId}` → when the rule last fired for this device (ms) */
  throttles: Map<string, number>;
}

/** Entries kept at most; the least recently used go first. ~1 KB each. */
const DEFAULT_CAPACITY = 50_000;

export class KnownDevices {
  private readonly entries = new Map<string, KnownDevice>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get(deviceId: string): KnownDevice | undefined {
    return this.entries.get(deviceId);
  }

  set(deviceId: string, entry: KnownDevice): void {
    // Re-inserted at the end: a Map iterates in insertion order, so the
    // first key is always the least recently written.
    this.entries.delete(deviceId);
    this.entries.set(deviceId, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
