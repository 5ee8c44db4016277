// The rules engine's memory of devices (src/platform/rules/known-devices.ts)
// without a database: each invariant written at the top of that file, held
// through its protocol (ahead, read, committed, changed) the way the event
// writer and the action runner drive it.
import { describe, expect, it } from 'vitest';
import type { FiredRule } from '../../src/platform/rules/batch.js';
import { throttleKey } from '../../src/platform/rules/batch.js';
import { KnownDevices, type BatchDevices } from '../../src/platform/rules/known-devices.js';

/** A device's row as the locked read returns it (db/device-state.ts, not imported: no database here). */
type EngineDeviceRow = Parameters<KnownDevices['read']>[0][number];

function row(id: string, version: string, state: Record<string, unknown> = {}): EngineDeviceRow {
  return {
    id,
    name: `device ${id}`,
    model: null,
    type: null,
    tags: [],
    properties: {},
    attributes: {},
    state,
    version,
  };
}

/** A batch's events as the cache sees them: one per device named. */
const batch = (...deviceIds: string[]) => deviceIds.map((deviceId) => ({ deviceId }));

const noFired = new Map<string, FiredRule>();

/** Devices read under lock and committed at the versions read: what the locked way leaves behind. */
function remember(known: KnownDevices, ...rows: EngineDeviceRow[]): void {
  known.committed(known.read(rows, []).entries, noFired, new Map());
}

describe('what is remembered is only what a committed transaction read or wrote', () => {
  it('remembers nothing from rows read until their batch commits', () => {
    const known = new KnownDevices();
    const read = known.read([row('a', '10')], []);
    expect(known.ahead(batch('a'))).toBeUndefined();
    expect(known.size).toBe(0);
    known.committed(read.entries, noFired, new Map());
    expect(known.ahead(batch('a'))?.expectedVersions).toEqual(new Map([['a', '10']]));
  });

  it('remembers each device at the version its commit wrote, or at the version read for one it did not update', () => {
    const known = new KnownDevices();
    const read = known.read([row('a', '10'), row('b', '20')], []);
    known.committed(read.entries, noFired, new Map([['a', '11']]));
    expect(known.ahead(batch('a', 'b'))?.expectedVersions).toEqual(
      new Map([
        ['a', '11'],
        ['b', '20'],
      ]),
    );
  });

  it('remembers the state the batch evaluated, and the rules that fired, once it commits', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10', { inside: ['park'] }));
    const lent = known.ahead(batch('a'))!;
    // What evaluateBatch does to a batch's devices and throttles.
    lent.devices.get('a')!.state.inside = [];
    const key = throttleKey('rule-1', 'a');
    lent.throttles.set(key, 5_000);
    known.committed(
      lent.entries,
      new Map([[key, { ruleId: 'rule-1', deviceId: 'a', at: new Date(5_000) }]]),
      new Map([['a', '12']]),
    );
    const next = known.ahead(batch('a'))!;
    expect(next.devices.get('a')!.state.inside).toEqual([]);
    expect(next.throttles).toEqual(new Map([[key, 5_000]]));
    expect(next.expectedVersions).toEqual(new Map([['a', '12']]));
  });

  it('keeps the throttles read under lock with the device they belong to', () => {
    const known = new KnownDevices();
    const key = throttleKey('rule-1', 'a');
    const read = known.read(
      [row('a', '10'), row('b', '20')],
      [{ ruleId: 'rule-1', deviceId: 'a', lastFiredAt: new Date(7_000) }],
    );
    expect(read.throttles).toEqual(new Map([[key, 7_000]]));
    expect(read.expectedVersions).toBeUndefined();
    known.committed(read.entries, noFired, new Map());
    expect(known.ahead(batch('a'))!.throttles).toEqual(new Map([[key, 7_000]]));
    expect(known.ahead(batch('b'))!.throttles).toEqual(new Map());
  });
});

describe('a batch planned ahead is planned on every device remembered, or not at all', () => {
  it('lends nothing when a device of the batch is not remembered, and keeps the others', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10'));
    expect(known.ahead(batch('a', 'stranger'))).toBeUndefined();
    expect(known.size).toBe(1);
    expect(known.ahead(batch('a'))?.expectedVersions).toEqual(new Map([['a', '10']]));
  });

  it('lends each device once however many of the batch are its events, with the version it must still be at', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10'), row('b', '20'));
    const lent: BatchDevices = known.ahead(batch('a', 'b', 'a', 'a'))!;
    expect([...lent.entries.keys()]).toEqual(['a', 'b']);
    expect([...lent.devices.keys()]).toEqual(['a', 'b']);
    expect(lent.expectedVersions).toEqual(
      new Map([
        ['a', '10'],
        ['b', '20'],
      ]),
    );
  });
});

describe('a batch that does not commit leaves no trace', () => {
  it('holds no device of a batch planned ahead until it commits: a failed batch reads its devices again', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10', { inside: ['park'] }), row('b', '20'));
    const lent = known.ahead(batch('a'))!;
    lent.devices.get('a')!.state.inside = [];
    // Its statement failed: committed is never called.
    expect(known.ahead(batch('a'))).toBeUndefined();
    expect(known.size).toBe(1);
    // The locked way then reads the row again; what commits is what it read.
    remember(known, row('a', '13', { inside: ['park'] }));
    expect(known.ahead(batch('a'))!.devices.get('a')!.state.inside).toEqual(['park']);
  });

  it('keeps the devices of other batches while one fails', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10'), row('b', '20'));
    known.ahead(batch('a'));
    expect(known.ahead(batch('b'))?.expectedVersions).toEqual(new Map([['b', '20']]));
  });
});

describe("devices this server's actions change are read again", () => {
  it('forgets the devices an action changed, and only those', () => {
    const known = new KnownDevices();
    remember(known, row('a', '10'), row('b', '20'), row('c', '30'));
    known.changed(['a', 'c']);
    expect(known.ahead(batch('a'))).toBeUndefined();
    expect(known.ahead(batch('c'))).toBeUndefined();
    expect(known.ahead(batch('b'))?.expectedVersions).toEqual(new Map([['b', '20']]));
  });
});

describe('the memory is bounded', () => {
  it('drops the least recently committed device past its capacity', () => {
    const known = new KnownDevices(2);
    remember(known, row('a', '10'), row('b', '20'));
    remember(known, row('a', '11'));
    remember(known, row('c', '30'));
    expect(known.size).toBe(2);
    expect(known.ahead(batch('b'))).toBeUndefined();
    expect(known.ahead(batch('a'))?.expectedVersions).toEqual(new Map([['a', '11']]));
    expect(known.ahead(batch('c'))?.expectedVersions).toEqual(new Map([['c', '30']]));
  });
});
