// Group commit of ingested events. Requests hand their events to the writer
// and wait; the writer commits what is waiting in ONE transaction (one
// multi-row insert), together with what the events change: device state,
// rule throttles, fired actions (planned by the rules as plain data,
// platform/rules/rules-engine.ts; every statement of the commit is made here from
// db/ functions). A request is acknowledged only after that
// commit, so nothing acknowledged is lost, and the fixed cost of a
// transaction (its round trips, statements and WAL flush) is shared by
// every event in it.
//
// The batch size adapts to the load without a timer: an idle writer commits
// at once (after the current I/O turn, so requests parsed together commit
// together); while a transaction is in flight, what arrives waits and forms
// the next batch the moment it ends, unless enough is waiting to open
// another transaction beside it (up to maxConcurrent, devices never
// overlapping). Under light load an event waits for one commit; under heavy
// load batches grow and the cost per event falls.
//
// Requests wait by organization, and a batch takes them in turns, one
// request of each organization with any that can go, then the next round:
// an organization whose devices flood the writer fills what the others
// leave of each batch, and the others' events go in the next one rather
// than behind the whole flood.
import { performance } from 'node:perf_hooks';
import type { PendingQuery, ReservedSql, Row, Sql } from 'postgres';
import { insertActionJobs, notifyActionJobs } from '../db/action-jobs.js';
import { lockEngineDevices, saveDeviceStates, updateDeviceStates, type EngineDeviceRow } from '../db/device-state.js';
import { insertAllEvents, insertNewEvents } from '../db/events.js';
import { batchStatement } from '../db/ingest-batch.js';
import { listRuleThrottles, upsertRuleThrottles, type RuleThrottleRow } from '../db/rule-throttle.js';
import { invalid } from '../errors.js';
import type { Logger } from '../log.js';
import type { RuleEvent } from '../platform/rules/batch.js';
import type { RulesPlan } from '../platform/rules/rules-engine.js';

export interface IncomingEvent extends RuleEvent {
  dedupKey: string;
}

/**
 * What the writer asks of the rules (platform/rules/rules-engine.ts, RulesEngine):
 * a plan for each batch, plain data it writes in the batch's commit, and
 * then that it committed. No statement is made or sent by the rules. What
 * they remember of devices changes only once told a plan committed
 * (platform/rules/known-devices.ts, its invariants): a plan that fails
 * needs no word.
 */
export interface BatchRules {
  /**
   * The batch evaluated from memory, assuming every event is new, with the
   * versions its devices must still be at; undefined when the devices must
   * be read first. The writer then commits the batch in one statement; its
   * devices are remembered again only if it commits.
   */
  planAhead(events: readonly IncomingEvent[]): Promise<RulesPlan | undefined>;
  /** The batch's new events evaluated on the device rows (locked) and throttles read in the transaction. */
  planFromRows(
    events: readonly IncomingEvent[],
    devices: readonly EngineDeviceRow[],
    throttles: readonly RuleThrottleRow[],
  ): Promise<RulesPlan>;
  /** The plan committed; `versions`: each updated device's new row version. */
  committed(plan: RulesPlan, versions: ReadonlyMap<string, string>): void;
}

export interface WriterOptions {
  /** events per transaction at most */
  maxBatch: number;
  /**
   * transactions in flight at once; their devices never overlap, so each
   * device's events still commit in order
   */
  maxConcurrent: number;
  /**
   * events waiting that justify another transaction while one is in flight;
   * fewer wait for it to end, so that they share one commit
   */
  parallelBacklog: number;
}

interface Pending {
  events: IncomingEvent[];
  devices: Set<string>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** One organization's waiting requests, in arrival order. */
interface TenantQueue {
  requests: Pending[];
}

export interface WriterStats {
  commits: number;
  events: number;
  duplicates: number;
  /** batches evaluated from memory whose assumptions failed, committed again the locked way */
  retried: number;
  lastCommitMs: number;
}

/** Whether any of `devices` is in `set`. */
function anyOf(devices: ReadonlySet<string>, set: ReadonlySet<string>): boolean {
  for (const d of devices) if (set.has(d)) return true;
  return false;
}

const SERIALIZATION_FAILURE = '40001';
const UNIQUE_VIOLATION = '23505';
/**
 * The two commit strategies take their locks in opposite orders (the
 * one-statement form updates the device row before its event keys are
 * inserted; the locked form inserts the keys, then locks the devices), so a
 * retry that two servers commit at once, each its own way, can deadlock.
 * PostgreSQL rolls one of them back whole; that one is committed again.
 */
const DEADLOCK_DETECTED = '40P01';
/**
 * The writer's tuning, named once here (docs/ARCHITECTURE.md, "Tuning
 * constants", lists it): the batch bounds are its default WriterOptions.
 * Measured with `npm run bench -- ingest`: a second transaction as soon as
 * a handful of events wait beat one-at-a-time (single events: their devices
 * stop waiting out a whole commit) and did not cost batches.
 */
const EVENT_WRITER_TUNING = {
  /** events per transaction at most */
  maxBatch: 2000,
  /** transactions in flight at once */
  maxConcurrent: 4,
  /** events waiting that justify another transaction while one is in flight */
  parallelBacklog: 16,
  /** commits of one batch the locked way before a deadlock is the batch's error (each one lets the other transaction through) */
  lockedAttempts: 3,
} as const;

/**
 * Whether PostgreSQL refused a value it was given (SQLSTATE class 22, data
 * exception, or 54, program limit exceeded, such as a value nested too
 * deeply): a request's data, not the batch, the connection or the server.
 */
function isRefusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('54'));
}

export class EventWriter {
  /** the organizations with requests waiting, in the order their turns come */
  private readonly tenants = new Map<string, TenantQueue>();
  private queuedEvents = 0;
  private scheduled = false;
  private readonly flushing = new Set<Promise<void>>();
  /** devices with events in a transaction in flight */
  private readonly busy = new Set<string>();
  /**
   * The last look at the queue found every request in it waiting for a
   * device in flight: no other look can find more until a transaction ends
   * or a request of a device not in flight comes. Without it, a long queue
   * of a few devices' requests (a flood through a broker) was walked whole
   * at every turn of the event loop, to take nothing.
   */
  private allWaiting = false;
  private stopped = false;
  /**
   * Connections kept between transactions (at most maxConcurrent): taking
   * one from the pool costs a turn of the event loop on every commit. One
   * whose transaction failed goes back to the pool instead, in case it broke.
   */
  private readonly idle: ReservedSql[] = [];
  readonly stats: WriterStats = { commits: 0, events: 0, duplicates: 0, retried: 0, lastCommitMs: 0 };

  constructor(
    private readonly sql: Sql,
    private readonly rules: BatchRules,
    private readonly log: Logger,
    private readonly options: WriterOptions = EVENT_WRITER_TUNING,
  ) {}

  /** Resolves once the events are committed (retries of stored events count as committed). */
  write(events: IncomingEvent[]): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the event writer is stopped'));
    return new Promise((resolve, reject) => {
      const devices = new Set(events.map((e) => e.deviceId));
      // A request's events are one device's, or a gateway's devices of one organization.
      const organizationId = events[0]?.organizationId ?? '';
      let tenant = this.tenants.get(organizationId);
      if (!tenant) {
        tenant = { requests: [] };
        this.tenants.set(organizationId, tenant);
      }
      tenant.requests.push({ events, devices, resolve, reject });
      this.queuedEvents += events.length;
      if (this.allWaiting && !anyOf(devices, this.busy)) this.allWaiting = false;
      if (this.flushing.size === 0 || this.queuedEvents >= this.options.parallelBacklog) this.schedule();
      // else: the transaction in flight kicks the writer when it ends
    });
  }

  get backlog(): number {
    return this.queuedEvents;
  }

  /** Kicks after the current I/O turn, so that requests read in it join one batch. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.kick();
    });
  }

  private kick(): void {
    while (this.flushing.size < this.options.maxConcurrent && this.tenants.size > 0 && !this.allWaiting) {
      if (this.flushing.size > 0 && this.queuedEvents < this.options.parallelBacklog) return;
      const batch = this.takeBatch();
      if (batch.length === 0) {
        // Everything queued waits for a device in flight (so one is: nothing waits with none in flight).
        this.allWaiting = true;
        return;
      }
      const flush: Promise<void> = this.flush(batch).finally(() => {
        this.flushing.delete(flush);
        this.allWaiting = false;
        // What arrived during the commit forms the next batch at once.
        if (this.tenants.size > 0) this.kick();
      });
      this.flushing.add(flush);
    }
  }

  /**
   * Takes queued requests up to maxBatch events, the organizations in
   * turns: a round takes each one's next request that can go, and rounds go
   * on until the batch is full or none can. A request of a device that is
   * in flight waits, and so does every later request of a device that has
   * one waiting: each device's events commit in arrival order. An
   * organization's look ends where its last request was taken, so a long
   * queue costs about a batch's worth; those served go to the end of the
   * turns.
   */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const held = new Set(this.busy);
    let count = 0;
    /** each organization's look: how far it has gone, and what it passed over */
    const looks = [...this.tenants].map(([organizationId, tenant]) => ({
      organizationId,
      tenant,
      at: 0,
      passed: [] as Pending[],
      served: false,
    }));
    let open = looks.length;
    while (open > 0 && count < this.options.maxBatch) {
      for (const look of looks) {
        const { requests } = look.tenant;
        if (look.at >= requests.length) continue;
        if (count >= this.options.maxBatch) break;
        while (look.at < requests.length) {
          const pending = requests[look.at++]!;
          const full = count > 0 && count + pending.events.length > this.options.maxBatch;
          if (full || anyOf(pending.devices, held)) {
            look.passed.push(pending);
            for (const d of pending.devices) held.add(d);
            continue;
          }
          count += pending.events.length;
          batch.push(pending);
          look.served = true;
          break;
        }
        if (look.at >= requests.length) open--;
      }
    }
    for (const look of looks) {
      if (look.at === 0) continue;
      const left = look.passed.concat(look.tenant.requests.slice(look.at));
      // Served ones take their next turn after those that were not.
      if (look.served || left.length === 0) this.tenants.delete(look.organizationId);
      if (left.length > 0) {
        look.tenant.requests = left;
        this.tenants.set(look.organizationId, look.tenant);
      }
    }
    this.queuedEvents -= count;
    return batch;
  }

  /** Commits a batch taken from the queue; its devices are busy until it is done. */
  private async flush(batch: Pending[]): Promise<void> {
    const devices = new Set(batch.flatMap((p) => [...p.devices]));
    for (const d of devices) this.busy.add(d);
    try {
      await this.commitRequests(batch);
    } finally {
      for (const d of devices) this.busy.delete(d);
    }
  }

  /** Commits the requests together and answers each one. */
  private async commitRequests(batch: Pending[]): Promise<void> {
    const events = batch.flatMap((p) => p.events);
    const started = performance.now();
    let connection: ReservedSql | undefined;
    try {
      connection = this.idle.pop() ?? (await this.sql.reserve());
      const fresh = await this.commit(connection, events);
      this.stats.duplicates += events.length - fresh;
      this.stats.commits++;
      this.stats.events += events.length;
      this.stats.lastCommitMs = performance.now() - started;
      for (const p of batch) p.resolve();
      this.idle.push(connection);
    } catch (error) {
      connection?.release();
      if (isRefusedValue(error) && batch.length > 1) {
        // The decoders refuse what PostgreSQL cannot store; should a value
        // get past them, it must fail its own request only, not every one
        // batched with it. The halves commit apart, in order (a device's
        // requests keep their order), down to the request that fails
        // alone: about 2·log2(requests) more commits, only on this path.
        this.log.warn('a value PostgreSQL refused split a batch', { requests: batch.length, error: error as Error });
        const middle = Math.ceil(batch.length / 2);
        await this.commitRequests(batch.slice(0, middle));
        await this.commitRequests(batch.slice(middle));
        return;
      }
      this.log.error('event commit failed', { events: events.length, error: error as Error });
      const answer = isRefusedValue(error)
        ? invalid('event refused by the database', (error as Error).message)
        : (error as Error);
      for (const p of batch) p.reject(answer);
    }
  }

  /**
   * Commits the batch; resolves to the number of events that were new.
   * The common batch (devices the rules remember, no retried event) is one
   * statement, one round trip: the rules plan it from memory and the plan is
   * written in the same statement as the INSERT, every assumption checked
   * by PostgreSQL (SQLSTATE 23505 for a retried event, 40001 when a device
   * is no longer at its expected version). Any other batch, or one whose
   * assumptions failed, goes the locked way in two round trips: BEGIN, the
   * INSERT and the reads of the devices (locked) and their throttles
   * together, then, once the rules planned the batch from them, its writes
   * and COMMIT together.
   */
  private async commit(c: ReservedSql, events: IncomingEvent[]): Promise<number> {
    const ahead = await this.rules.planAhead(events);
    if (ahead) {
      try {
        const [result] = await oneStatement(c, insertAllEvents(c, events), ahead);
        const versions = new Map<string, string>();
        if (result.ids) for (let i = 0; i < result.ids.length; i++) versions.set(result.ids[i]!, result.versions![i]!);
        this.rules.committed(ahead, versions);
        return events.length;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code !== SERIALIZATION_FAILURE && code !== UNIQUE_VIOLATION && code !== DEADLOCK_DETECTED) throw error;
        this.stats.retried++;
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commitLocked(c, events);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === EVENT_WRITER_TUNING.lockedAttempts)
          throw error;
        this.stats.retried++;
      }
    }
  }

  /** The locked way: the devices' rows read under lock, the batch planned from them, in one transaction. */
  private async commitLocked(c: ReservedSql, events: IncomingEvent[]): Promise<number> {
    let stored!: Promise<Set<string>>;
    let plan!: RulesPlan;
    let versions: ReadonlyMap<string, string> = new Map();
    await this.transaction(c, async (issue) => {
      stored = issue(insertNewEvents(c, events)).then((rows) => new Set(rows.map((r) => r.id)));
      const deviceIds = [...new Set(events.map((e) => e.deviceId))];
      // Sent at once, pipelined behind the events' INSERT. Devices are
      // locked: a concurrent batch of another server for the same device
      // waits, so enter/exit see one order.
      const [deviceRows, throttleRows, fresh] = await Promise.all([
        lockEngineDevices(c, deviceIds),
        listRuleThrottles(c, deviceIds),
        stored,
      ]);
      plan = await this.rules.planFromRows(
        fresh.size === events.length ? events : events.filter((e) => fresh.has(e.id)),
        deviceRows,
        throttleRows,
      );
      // Not awaited: COMMIT goes right behind them (one round trip).
      const writes: Array<Promise<unknown>> = [saveDeviceStates(c, plan.patches).then((v) => (versions = v))];
      if (plan.fired.size) writes.push(upsertRuleThrottles(c, [...plan.fired.values()]));
      if (plan.jobs.length) writes.push(insertActionJobs(c, plan.jobs), notifyActionJobs(c, plan.jobs.length));
      return writes;
    });
    this.rules.committed(plan, versions);
    return (await stored).size;
  }

  /**
   * BEGIN, the body's statements, COMMIT. PostgreSQL answers COMMIT in a
   * transaction where a statement failed with a silent rollback, so every
   * statement's own result is awaited: the transaction counts as committed
   * only if all of them succeeded. The body sends its reads through
   * `issue` and returns its writes, unsent or sent but not awaited.
   */
  private async transaction(
    c: ReservedSql,
    body: (issue: <T>(statement: Promise<T>) => Promise<T>) => Promise<Array<Promise<unknown>>>,
  ): Promise<void> {
    const statements: Array<Promise<unknown>> = [];
    // Each result is awaited below; until then a failure must not count as unhandled.
    const issue = <T>(statement: Promise<T>): Promise<T> => {
      statements.push(statement);
      statement.catch(() => {});
      return statement;
    };
    try {
      void issue(c`BEGIN`);
      for (const write of await body(issue)) void issue(write);
      void issue(c`COMMIT`);
      // The first failure in statement order is the cause; the ones after
      // it only say that the transaction was aborted.
      const failed = (await Promise.allSettled(statements)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    } catch (error) {
      // Ends the transaction if COMMIT was never sent; harmless after it.
      await c`ROLLBACK`.catch(() => {});
      throw error;
    }
  }

  /** Commits what is queued, then refuses new events. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.tenants.size > 0 || this.flushing.size) {
      this.kick();
      await Promise.all(this.flushing);
    }
    for (const connection of this.idle.splice(0)) connection.release();
  }
}

/**
 * A whole batch in one statement (db/ingest-batch.ts): the events' INSERT,
 * which fails if an event was stored before, and the plan's writes; its
 * final row checks that every device is still at its expected version.
 */
function oneStatement(
  c: Sql,
  insert: PendingQuery<Row[]>,
  plan: RulesPlan,
): PendingQuery<[{ ids: string[] | null; versions: string[] | null }]> {
  return batchStatement(c, {
    insert,
    updateDevices: updateDeviceStates(c, plan.patches, plan.expectedVersions),
    devices: plan.patches.size,
    throttles: plan.fired.size ? upsertRuleThrottles(c, [...plan.fired.values()]) : undefined,
    jobs: plan.jobs.length ? insertActionJobs(c, plan.jobs) : undefined,
    jobCount: plan.jobs.length,
  });
}
