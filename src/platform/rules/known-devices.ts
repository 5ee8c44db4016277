// What the rules engine (rules-engine.ts) remembers of each device between
// batches, so that the common batch (devices it has seen, events that are
// new) is evaluated without reading anything and committed in one round
// trip, and the protocol that keeps it true. The event writer
// (ingest/event-writer.ts) drives it through the engine: `ahead` for a batch
// planned from memory, `read` for one planned from rows read under lock,
// `committed` once its transaction committed; the action runner
// (action-runner.ts, ActionRunnerOptions.onDevicesChanged, wired in app.ts) calls
// `changed`. Nothing else reads or writes an entry.
//
// An entry is the device row as this server last wrote it, the row version
// it wrote (PostgreSQL's xmin system column, which changes with every
// update of the row; Npgsql and EF Core use it the same way as an
// optimistic-concurrency token) and when each rule last fired for it.
//
// Invariants (test/unit/known-devices.test.ts):
// 1. What is remembered is only what a committed transaction wrote or read:
//    an entry enters the memory through `committed` alone, at the version
//    the commit wrote (the device-state UPDATE's) or, for a device it did
//    not update, the version read under lock, with the throttles of the
//    rules that fired in it.
// 2. A batch planned ahead is planned on every one of its devices
//    remembered, or on none: `ahead` lends all or answers undefined and
//    takes nothing.
// 3. A batch that does not commit leaves no trace. Its rules are evaluated
//    on the remembered objects themselves (no copy per batch), so `ahead`
//    takes its devices out of the memory until `committed` puts them back:
//    a statement that failed, an evaluation that threw, an outcome never
//    told, each leaves those devices unknown, read again (locked) at their
//    next batch. Forgetting on failure needs no call.
// 4. An entry is trusted only as far as PostgreSQL confirms it: a batch
//    planned ahead carries the version each device was remembered at
//    (`expectedVersions`), and its statement fails unless every row is
//    still at it. A device changed meanwhile (by the management API,
//    another server) fails the batch, which is retried the locked way and
//    refreshes the entry: a stale entry costs a retry, never a wrong commit.
// 5. Devices this server's own actions change (tags) are forgotten
//    (`changed`) before the action commits: a rule firing for every device
//    of a fleet would otherwise fail a whole batch per device, and each
//    failed statement is work thrown away.
// 6. The memory is bounded (`capacity` entries); the least recently
//    committed go first.
//
// The event writer never has two batches of one device in flight, so a
// device is lent to one batch at a time.
import type { EngineDeviceRow } from '../../db/device-state.js';
import type { RuleThrottleRow } from '../../db/rule-throttle.js';
import { throttleKey, type EngineDevice, type FiredRule } from './batch.js';

export interface KnownDevice {
  device: EngineDevice;
  /** xmin of the row as last read or written, as text */
  version: string;
  /** `${ruleId}:${deviceId}` → when the rule last fired for this device (ms) */
  throttles: Map<string, number>;
}

/** A batch's devices, as its rules are evaluated on them (evaluateBatch updates `devices` and `throttles` in place). */
export interface BatchDevices {
  /** by device: what `committed` remembers once the batch commits */
  entries: Map<string, KnownDevice>;
  /** by device: each entry's device */
  devices: Map<string, EngineDevice>;
  /** throttleKey → when the rule last fired (ms), for every device of the batch */
  throttles: Map<string, number>;
  /** lent by `ahead`: the version each device must still be at; undefined for rows read under lock */
  expectedVersions: Map<string, string> | undefined;
}

/** Entries kept at most; the least recently used go first. ~1 KB each. */
const DEFAULT_CAPACITY = 50_000;

export class KnownDevices {
  private readonly entries = new Map<string, KnownDevice>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /**
   * The batch's devices lent from memory, with the versions they must still
   * be at; undefined, nothing taken, when one of them is not remembered.
   * They are out of the memory until `committed` puts them back.
   */
  ahead(batch: readonly { deviceId: string }[]): BatchDevices | undefined {
    const entries = new Map<string, KnownDevice>();
    for (const event of batch) {
      if (entries.has(event.deviceId)) continue;
      const entry = this.entries.get(event.deviceId);
      if (!entry) return undefined;
      entries.set(event.deviceId, entry);
    }
    const devices = new Map<string, EngineDevice>();
    const throttles = new Map<string, number>();
    const expectedVersions = new Map<string, string>();
    for (const [id, entry] of entries) {
      this.entries.delete(id);
      devices.set(id, entry.device);
      expectedVersions.set(id, entry.version);
      for (const [key, at] of entry.throttles) throttles.set(key, at);
    }
    return { entries, devices, throttles, expectedVersions };
  }

  /** The devices' rows and throttles read under lock, as a batch's devices: remembered once it commits. */
  read(deviceRows: readonly EngineDeviceRow[], throttleRows: readonly RuleThrottleRow[]): BatchDevices {
    const entries = new Map<string, KnownDevice>();
    const devices = new Map<string, EngineDevice>();
    for (const { version, ...row } of deviceRows) {
      const device = row as EngineDevice;
      entries.set(device.id, { device, version, throttles: new Map() });
      devices.set(device.id, device);
    }
    const throttles = new Map<string, number>();
    for (const t of throttleRows) {
      const key = throttleKey(t.ruleId, t.deviceId);
      throttles.set(key, t.lastFiredAt.getTime());
      entries.get(t.deviceId)?.throttles.set(key, t.lastFiredAt.getTime());
    }
    return { entries, devices, throttles, expectedVersions: undefined };
  }

  /**
   * A batch committed: each of its devices (`entries`, from `ahead` or
   * `read`) is remembered at the row version it was written at (`versions`,
   * from the device-state UPDATE) or read at, with the rules that fired for it.
   */
  committed(
    entries: ReadonlyMap<string, KnownDevice>,
    fired: ReadonlyMap<string, FiredRule>,
    versions: ReadonlyMap<string, string>,
  ): void {
    for (const [key, f] of fired) entries.get(f.deviceId)?.throttles.set(key, f.at.getTime());
    for (const [id, entry] of entries) {
      entry.version = versions.get(id) ?? entry.version;
      // Re-inserted at the end: a Map iterates in insertion order, so the
      // first key is always the least recently committed.
      this.entries.delete(id);
      this.entries.set(id, entry);
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
  }

  /** Devices this server's actions changed: their next batch reads them again. */
  changed(deviceIds: Iterable<string>): void {
    for (const id of deviceIds) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
