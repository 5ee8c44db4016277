// The rules engine of ingestion: for every new event, the enabled cloud
// rules of the projects that include its channel are evaluated against the
// event and the device's state (which landmarks it was inside). Its answer
// to a batch is a plan, plain data (RulesPlan): the device states to save,
// the throttles of the rules that fired, the action jobs to queue and, for
// a batch evaluated from memory, the row versions the devices must still be
// at. The event writer (ingest/event-writer.ts) owns every statement of the
// commit: it writes the plan in the same transaction as the events, so an
// acknowledged event has fired its rules exactly once, crash or not, and
// then tells the engine what committed (committed).
//
// Each organization's evaluation is timed and charged to a budget of its own
// (budget.ts): past it, its events are stored with their rules left out,
// counted (eventsOverBudget) and logged, so that no tenant's rules hold the
// event loop from the others.
//
// Per organization, rules (parsed trees) compiled with a spatial index of
// their landmarks (compiled.ts) are kept in memory and reloaded when
// PostgreSQL notifies a change. Device state is remembered from the last
// commit and trusted only as far as PostgreSQL confirms it, by KnownDevices
// (known-devices.ts: the memory, its protocol and invariants); otherwise the
// writer reads it once per batch (locked), so several servers can share
// devices.
import type { Sql } from 'postgres';
import type { DevicePatches, EngineDeviceRow } from '../../db/device-state.js';
import { listLandmarkShapes } from '../../db/landmarks.js';
import type { RuleThrottleRow } from '../../db/rule-throttle.js';
import type { Logger } from '../../log.js';
import {
  evaluateBatch,
  type ActionJob,
  type FiredRule,
  type OverBudget,
  type RuleEvent,
  type RuleStats,
} from './batch.js';
import { EvaluationBudget } from './budget.js';
import { organizationRules, type OrganizationRules } from './compiled.js';
import { KnownDevices, type BatchDevices, type KnownDevice } from './known-devices.js';
import { landmarkIds, objectLeaves } from './model.js';
import type { RuleService } from './rule-service.js';

/** What a batch's rules change: written by the event writer in the batch's commit. */
export interface RulesPlan {
  /** per device: last-seen time and the state to merge (db/device-state.ts) */
  patches: DevicePatches;
  /** per rule and device: when it fired (db/rule-throttle.ts) */
  fired: Map<string, FiredRule>;
  /** fired actions to queue (db/action-jobs.ts) */
  jobs: ActionJob[];
  /**
   * A plan made from memory (planAhead): the row version (xmin) each device
   * of the batch must still be at for the plan to hold. Undefined for a plan
   * made from rows read under lock (planFromRows): nothing to check.
   */
  expectedVersions: ReadonlyMap<string, string> | undefined;
  /** rules evaluated, fired and throttled in this batch (counted into the engine's stats once it commits) */
  stats: RuleStats;
  /** the batch's devices as evaluated: what the engine remembers once the plan commits */
  devices: ReadonlyMap<string, KnownDevice>;
  /** by organization: events whose rules its time budget left out (reported once the plan commits) */
  overBudget: ReadonlyMap<string, OverBudget>;
}

export interface RulesEngineOptions {
  /** milliseconds of rule evaluation per second each organization may use (RULE_EVALUATION_MS_PER_SECOND) */
  evaluationMsPerSecond: number;
}

/** Safety net under NOTIFY: rules and landmarks are reloaded at least this often. */
const MAX_CACHE_AGE_MS = 60_000;

/** An organization over its evaluation budget is logged at most this often (its events are counted all the same). */
const OVER_BUDGET_LOG_INTERVAL_MS = 10_000;

function addStats(into: RuleStats, from: RuleStats): void {
  into.evaluated += from.evaluated;
  into.fired += from.fired;
  into.throttled += from.throttled;
}

export class RulesEngine {
  private readonly organizations = new Map<string, Promise<OrganizationRules>>();
  private unlisten: Array<() => Promise<void>> = [];
  readonly stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
  /** committed events whose rules were left out, their organization's evaluation budget spent */
  eventsOverBudget = 0;
  private readonly budget: EvaluationBudget;
  /** per organization: when it was last logged over budget, and what was left out since */
  private readonly overBudgetReports = new Map<string, { loggedAt: number; events: number }>();

  constructor(
    private readonly sql: Sql,
    private readonly rules: RuleService,
    options: RulesEngineOptions,
    private readonly log: Logger,
    /** devices as this server last committed them, shared with the action runner's onDevicesChanged (app.ts) */
    private readonly known = new KnownDevices(),
  ) {
    this.budget = new EvaluationBudget(options.evaluationMsPerSecond);
  }

  async start(): Promise<void> {
    const forget = (organizationId: string) => this.organizations.delete(organizationId);
    for (const channel of ['rules', 'landmarks']) {
      const { unlisten } = await this.sql.listen(channel, forget);
      this.unlisten.push(unlisten);
    }
  }

  async stop(): Promise<void> {
    for (const unlisten of this.unlisten) await unlisten().catch(() => {});
  }

  /**
   * The seconds in a zone the organization's enabled rules ask of objects
   * (their dwell conditions), zone → seconds ascending, for the rules seeing
   * `channelId`: a streaming camera of that channel tells each object's
   * reaching them (vision/object-lifecycle.ts setDwellMarks).
   */
  async dwellMarks(organizationId: string, channelId: string): Promise<Map<string, number[]>> {
    const organization = await this.rulesOf(organizationId);
    const channel = organization.byChannel.get(channelId);
    const marks = new Map<string, Set<number>>();
    const rules = channel ? [...channel.always, ...[...channel.byLandmark.values()].flat()] : [];
    for (const rule of rules) {
      for (const leaf of objectLeaves(rule.condition)) {
        if (leaf.type !== 'dwell') continue;
        const { zone, seconds } = leaf;
        let zoneMarks = marks.get(zone);
        if (!zoneMarks) marks.set(zone, (zoneMarks = new Set()));
        zoneMarks.add(seconds);
      }
    }
    return new Map([...marks].map(([zone, seconds]) => [zone, [...seconds].sort((a, b) => a - b)]));
  }

  private rulesOf(organizationId: string): Promise<OrganizationRules> {
    const cached = this.organizations.get(organizationId);
    if (cached) return cached.then((o) => (Date.now() - o.loadedAt > MAX_CACHE_AGE_MS ? this.load(organizationId) : o));
    return this.load(organizationId);
  }

  private load(organizationId: string): Promise<OrganizationRules> {
    const loading = (async () => {
      const rules = await this.rules.loadEnabled(organizationId, (id, error) =>
        this.log.warn('rule skipped: unreadable conditions', { id, error }),
      );
      const needsLandmarks = rules.some((r) => r.condition !== null && landmarkIds(r.condition).length > 0);
      return organizationRules(rules, needsLandmarks ? await listLandmarkShapes(this.sql, organizationId) : []);
    })();
    this.organizations.set(organizationId, loading);
    loading.catch(() => this.organizations.delete(organizationId));
    return loading;
  }

  private async organizationsOf(events: readonly RuleEvent[]): Promise<Map<string, OrganizationRules>> {
    const organizations = new Map<string, OrganizationRules>();
    for (const organizationId of new Set(events.map((e) => e.organizationId))) {
      organizations.set(organizationId, await this.rulesOf(organizationId));
    }
    return organizations;
  }

  /**
   * The batch evaluated from what this server remembers, assuming every
   * event is new; undefined when a device of the batch is not remembered
   * (the writer then reads the devices, locked, and asks planFromRows).
   * Evaluated on the remembered objects themselves, lent by the memory
   * until the plan is committed: a plan that never commits leaves no trace.
   */
  planAhead(batch: readonly RuleEvent[]): Promise<RulesPlan | undefined> {
    const lent = this.known.ahead(batch);
    return lent ? this.plan(batch, lent) : Promise.resolve(undefined);
  }

  /**
   * The batch's new events (retries of stored events left out) evaluated
   * on the devices' rows and throttles the writer read inside its
   * transaction, the rows locked.
   */
  planFromRows(
    events: readonly RuleEvent[],
    deviceRows: readonly EngineDeviceRow[],
    throttleRows: readonly RuleThrottleRow[],
  ): Promise<RulesPlan> {
    const read = this.known.read(deviceRows, throttleRows);
    if (events.length > 0) return this.plan(events, read);
    const stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
    return Promise.resolve({
      patches: new Map(),
      fired: new Map(),
      jobs: [],
      expectedVersions: undefined,
      stats,
      devices: read.entries,
      overBudget: new Map(),
    });
  }

  /** The events evaluated on the batch's devices (from memory or read), in place. */
  private async plan(events: readonly RuleEvent[], batch: BatchDevices): Promise<RulesPlan> {
    const organizations = await this.organizationsOf(events);
    const stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
    const { patches, fired, jobs, overBudget } = evaluateBatch(
      events,
      organizations,
      batch.devices,
      batch.throttles,
      stats,
      this.budget,
    );
    return {
      patches,
      fired,
      jobs,
      expectedVersions: batch.expectedVersions,
      stats,
      devices: batch.entries,
      overBudget,
    };
  }

  /**
   * The plan committed: its devices are remembered (KnownDevices.committed)
   * at the row versions it wrote (`versions`, from the device-state UPDATE),
   * and its counts added.
   */
  committed(plan: RulesPlan, versions: ReadonlyMap<string, string>): void {
    addStats(this.stats, plan.stats);
    for (const [organizationId, over] of plan.overBudget) this.reportOverBudget(organizationId, over);
    this.known.committed(plan.devices, plan.fired, versions);
  }

  /** Counts an organization's events stored without their rules, and logs it (at most every OVER_BUDGET_LOG_INTERVAL_MS per organization). */
  private reportOverBudget(organizationId: string, over: OverBudget): void {
    this.eventsOverBudget += over.events;
    const now = Date.now();
    const report = this.overBudgetReports.get(organizationId) ?? { loggedAt: 0, events: 0 };
    report.events += over.events;
    this.overBudgetReports.set(organizationId, report);
    if (now - report.loggedAt < OVER_BUDGET_LOG_INTERVAL_MS) return;
    this.log.warn('rule evaluation over its time budget: events stored with their rules left out', {
      organizationId,
      events: report.events,
      ruleId: over.ruleId ?? null,
    });
    report.loggedAt = now;
    report.events = 0;
  }
}
