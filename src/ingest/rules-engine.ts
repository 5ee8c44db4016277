// The rules engine, run inside each group commit (see event-writer.ts): for
// every new event, the enabled cloud rules of the projects that include its
// channel are evaluated against the event and the device's state (which
// landmarks it was inside). Fired actions are queued in the same commit,
// device state and throttles are saved in it, so an acknowledged event has
// fired its rules exactly once, crash or not.
//
// Per organization, rules (parsed trees) and a spatial index of landmarks
// are kept in memory and reloaded when PostgreSQL notifies a change. Device
// state is remembered from the last commit (known-devices.ts) and trusted
// only as far as PostgreSQL confirms it; otherwise it is read once per batch
// (locked), so several servers can share devices.
import type { PendingQuery, Row, Sql } from 'postgres';
import { insertActionJobs, notifyActionJobs, type NewActionJob } from '../db/action-jobs.js';
import { lockEngineDevices, saveDeviceStates, updateDeviceStates, type EngineDeviceRow } from '../db/device-state.js';
import { batchStatement } from '../db/ingest-batch.js';
import { newId } from '../ids.js';
import { listLandmarkShapes } from '../db/landmarks.js';
import { listRuleThrottles, upsertRuleThrottles } from '../db/rule-throttle.js';
import { log } from '../log.js';
import type { Shape } from '../lib/geometry.js';
import { LandmarkIndex } from '../lib/landmark-index.js';
import { evaluateCondition, landmarkIds, loadEnabledRules, type Condition, type EvaluationContext, type LoadedRule } from '../platform/rules/index.js';
import { eventLocation, type LastLocation } from './device-state.js';
import type { AheadWork, EventProcessor, IncomingEvent, ProcessorWork } from './event-writer.js';
import { KnownDevices, type KnownDevice } from './known-devices.js';

export interface ChannelRules {
  /** rules that may hold whatever landmarks the device is near: always evaluated */
  always: LoadedRule[];
  /** rules that can only hold when the device is (or was) inside one of their landmarks, by landmark */
  byLandmark: Map<string, LoadedRule[]>;
}

export interface OrganizationRules {
  /** enabled cloud rules that see a channel's events */
  byChannel: Map<string, ChannelRules>;
  landmarks: LandmarkIndex<{ id: string }>;
  /** the landmarks any rule refers to: only these are tracked in device state */
  watched: Set<string>;
  loadedAt: number;
}

/** A fired action to queue: the row db/action-jobs.ts inserts. */
export type ActionJob = NewActionJob;

/** A Set per landmark-id list of a condition tree, made once (the trees live as long as the rule set). */
const idSets = new WeakMap<readonly string[], Set<string>>();
function idSet(ids: readonly string[]): Set<string> {
  let set = idSets.get(ids);
  if (!set) idSets.set(ids, (set = new Set(ids)));
  return set;
}

const NO_RULES: readonly LoadedRule[] = [];

/** The rules that may hold for this event: the unindexed ones, then those of the landmarks around the device (each once). */
function candidates(channel: ChannelRules | undefined, before: ReadonlySet<string>, after: ReadonlySet<string>): readonly LoadedRule[] {
  if (!channel) return NO_RULES;
  if (before.size === 0 && after.size === 0) return channel.always;
  let picked: Set<LoadedRule> | undefined;
  for (const ids of [before, after]) {
    for (const id of ids) {
      const rules = channel.byLandmark.get(id);
      if (!rules) continue;
      picked ??= new Set(channel.always);
      for (const rule of rules) picked.add(rule);
    }
  }
  return picked ? [...picked] : channel.always;
}

function some(set: ReadonlySet<string>, test: (id: string) => boolean): boolean {
  for (const id of set) if (test(id)) return true;
  return false;
}

/** Safety net under NOTIFY: rules and landmarks are reloaded at least this often. */
const MAX_CACHE_AGE_MS = 60_000;

/** The value at a path like `event.data.tempF`, `event.locations.0.latitude` or `event.channelId`. */
export function valueAt(event: IncomingEvent, path: string): unknown {
  const parts = path.split('.');
  let i = parts[0] === 'event' ? 1 : 0;
  if (parts[i] === 'payload') i++;
  const first = parts[i];
  let value: unknown = event.payload;
  if (first !== undefined && !(first in event.payload)) {
    // Envelope fields, when the payload has none of that name.
    const envelope = envelopeField(event, first);
    if (envelope !== undefined) return i + 1 === parts.length ? envelope : undefined;
  }
  for (; i < parts.length; i++) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[parts[i]!];
  }
  return value;
}

function envelopeField(event: IncomingEvent, name: string): unknown {
  switch (name) {
    case 'id':
      return event.id;
    case 'channelId':
      return event.channelId;
    case 'deviceId':
      return event.deviceId;
    case 'organizationId':
      return event.organizationId;
    case 'source':
      return event.source;
    case 'serverReceivedAt':
      return event.serverReceivedAt.getTime();
    default:
      return undefined;
  }
}

/** A device as rules see it: its row without the version, its state typed. */
export type EngineDevice = Omit<EngineDeviceRow, 'state' | 'version'> & {
  state: { inside?: string[]; lastLocation?: LastLocation; configuration?: unknown };
};

export interface BatchOutcome {
  /** per device: last-seen time and the state to merge */
  patches: Map<string, { seenAt: Date; patch: Record<string, unknown> }>;
  /** per rule and device: when it last fired */
  fired: Map<string, { ruleId: string; deviceId: string; at: Date }>;
  jobs: ActionJob[];
}

/**
 * Evaluates events in order against their organizations' rules, updating
 * `devices` (state) and `throttles` in place. No I/O: the engine loads what
 * it needs before and saves the outcome after, inside the commit.
 */
export function evaluateBatch(
  events: IncomingEvent[],
  organizations: ReadonlyMap<string, OrganizationRules>,
  devices: ReadonlyMap<string, EngineDevice>,
  throttles: Map<string, number>,
  stats = { evaluated: 0, fired: 0, throttled: 0 },
): BatchOutcome {
  const fired = new Map<string, { ruleId: string; deviceId: string; at: Date }>();
  const jobs: ActionJob[] = [];
  const patches = new Map<string, { seenAt: Date; patch: Record<string, unknown> }>();

  for (const event of events) {
    const device = devices.get(event.deviceId);
    const organization = organizations.get(event.organizationId);
    if (!device || !organization) continue; // deleted meanwhile: the event is kept, nothing to evaluate
    const channel = organization.byChannel.get(event.channelId);
    const location = eventLocation(event);
    const before = new Set(device.state.inside ?? []);
    let after = before;
    if (location) {
      after = new Set();
      organization.landmarks.forEachContaining(location.latitude, location.longitude, (l) => after.add(l.id));
      device.state.inside = [...after];
      device.state.lastLocation = location;
    }
    const patch = patches.get(device.id) ?? { seenAt: event.serverReceivedAt, patch: {} };
    patch.seenAt = event.serverReceivedAt;
    if (location) Object.assign(patch.patch, { inside: device.state.inside, lastLocation: location });
    patches.set(device.id, patch);

    const time = event.clientSentAt ?? event.serverReceivedAt;
    const knowsLocation = device.state.lastLocation !== undefined;
    // One context per event (rules only change its time zone); attribute
    // values are looked up once per path however many rules ask.
    const values = new Map<string, unknown>();
    const evaluation: EvaluationContext = {
      time,
      timezone: 'UTC',
      channelId: event.channelId,
      value: (path) => {
        if (values.has(path)) return values.get(path);
        const value = valueAt(event, path);
        values.set(path, value);
        return value;
      },
        // The sets around the device (inside before and after) hold a few
        // landmarks; a rule may name thousands: walk the small side.
        landmark: (trigger, ids) => {
          const named = idSet(ids);
          switch (trigger) {
            case 'enter':
              return location !== undefined && some(after, (id) => named.has(id) && !before.has(id));
            case 'exit':
              return location !== undefined && some(before, (id) => named.has(id) && !after.has(id));
            case 'inside':
              return some(after, (id) => named.has(id));
            case 'outside':
              return knowsLocation && !some(after, (id) => named.has(id));
          }
        },
    };
    for (const rule of candidates(channel, before, after)) {
      stats.evaluated++;
      evaluation.timezone = rule.timezone;
      if (!evaluateCondition(rule.condition!, evaluation)) continue;
      const key = throttleKey(rule.id, device.id);
      const last = throttles.get(key);
      if (rule.throttleInSeconds > 0 && last !== undefined && time.getTime() - last < rule.throttleInSeconds * 1000) {
        stats.throttled++;
        continue;
      }
      throttles.set(key, time.getTime());
      fired.set(key, { ruleId: rule.id, deviceId: device.id, at: time });
      stats.fired++;
      if (rule.actions.length === 0) continue;
      const context = {
        rule: { id: rule.id, name: rule.name, projectId: rule.projectId },
        device: { id: device.id, name: device.name, model: device.model, type: device.type, tags: device.tags, properties: device.properties, attributes: device.attributes, location: device.state.lastLocation ?? null },
        event: { id: event.id, channelId: event.channelId, serverReceivedAt: event.serverReceivedAt.toISOString(), clientSentAt: event.clientSentAt?.toISOString() ?? null, payload: event.payload },
        landmarks: { entered: [...after].filter((id) => !before.has(id)), exited: [...before].filter((id) => !after.has(id)), inside: [...after] },
      };
      for (const action of rule.actions) {
        jobs.push({
          id: newId(),
          organizationId: event.organizationId,
          ruleId: rule.id,
          actionId: action.id,
          deviceId: device.id,
          eventId: event.id,
          type: action.type,
          action: action as unknown as Record<string, unknown>,
          context,
        });
      }
    }
  }
  return { patches, fired, jobs };
}

/**
 * Landmarks one of which the device must be inside (now or before the
 * event) for the condition to hold, or undefined when it may hold anyway.
 * enter/exit/inside need one of their own; `and` needs what its most
 * selective item needs; `or` needs what all its items need.
 */
export function necessaryLandmarks(c: Condition): Set<string> | undefined {
  switch (c.type) {
    case 'enterLandmark':
    case 'exitLandmark':
    case 'insideLandmark':
      return new Set(c.ids);
    case 'and': {
      let best: Set<string> | undefined;
      for (const item of c.items) {
        const need = necessaryLandmarks(item);
        if (need && (!best || need.size < best.size)) best = need;
      }
      return best;
    }
    case 'or': {
      if (c.items.length === 0) return new Set();
      const union = new Set<string>();
      for (const item of c.items) {
        const need = necessaryLandmarks(item);
        if (!need) return undefined;
        for (const id of need) union.add(id);
      }
      return union;
    }
    default:
      return undefined;
  }
}

/** Builds an organization's rule set: rules by channel (indexed by landmark) and the index of the landmarks they watch. */
export function organizationRules(rules: LoadedRule[], landmarks: Array<{ id: string; shape: Shape }>): OrganizationRules {
  const byChannel = new Map<string, ChannelRules>();
  const watched = new Set<string>();
  for (const rule of rules) {
    if (rule.type !== 'cloud' || rule.condition === null) continue;
    const need = necessaryLandmarks(rule.condition);
    for (const channelId of new Set([...rule.channelIds, ...rule.projectChannelIds])) {
      let channel = byChannel.get(channelId);
      if (!channel) byChannel.set(channelId, (channel = { always: [], byLandmark: new Map() }));
      if (!need) channel.always.push(rule);
      else for (const id of need) channel.byLandmark.set(id, [...(channel.byLandmark.get(id) ?? []), rule]);
    }
    for (const id of landmarkIds(rule.condition)) watched.add(id);
  }
  const index = LandmarkIndex.of(landmarks.filter((l) => watched.has(l.id)).map((l) => ({ item: { id: l.id }, shape: l.shape })));
  return { byChannel, landmarks: index, watched, loadedAt: Date.now() };
}

/** How throttles (when a rule last fired for a device) are keyed in memory. */
function throttleKey(ruleId: string, deviceId: string): string {
  return `${ruleId}:${deviceId}`;
}

/** Fired throttles and queued actions (with the wake-up of the action runners) as statements of their own. */
function writeFired(tx: Sql, fired: BatchOutcome['fired'], jobs: ActionJob[]): Array<Promise<unknown>> {
  const writes: Array<Promise<unknown>> = [];
  if (fired.size) writes.push(upsertRuleThrottles(tx, [...fired.values()]));
  if (jobs.length) writes.push(insertActionJobs(tx, jobs), notifyActionJobs(tx, jobs.length));
  return writes;
}

/**
 * A whole batch in one statement (db/ingest-batch.ts): the events' INSERT,
 * which fails if an event was stored before, and the outcome's writes; its
 * final row checks that every device is still at its remembered version.
 */
function oneStatement(
  tx: Sql,
  insert: PendingQuery<Row[]>,
  outcome: BatchOutcome,
  expected: ReadonlyMap<string, string>,
): PendingQuery<[{ ids: string[] | null; versions: string[] | null }]> {
  return batchStatement(tx, {
    insert,
    updateDevices: updateDeviceStates(tx, outcome.patches, expected),
    devices: outcome.patches.size,
    throttles: outcome.fired.size ? upsertRuleThrottles(tx, [...outcome.fired.values()]) : undefined,
    jobs: outcome.jobs.length ? insertActionJobs(tx, outcome.jobs) : undefined,
    jobCount: outcome.jobs.length,
  });
}

type Stats = RulesEngine['stats'];

function addStats(into: Stats, from: Stats): void {
  into.evaluated += from.evaluated;
  into.fired += from.fired;
  into.throttled += from.throttled;
}

export class RulesEngine implements EventProcessor {
  private readonly organizations = new Map<string, Promise<OrganizationRules>>();
  private unlisten: Array<() => Promise<void>> = [];
  /** devices as this server last committed them: see known-devices.ts */
  private readonly known = new KnownDevices();
  readonly stats = { evaluated: 0, fired: 0, throttled: 0 };

  constructor(private readonly sql: Sql) {}

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

  private rulesOf(organizationId: string): Promise<OrganizationRules> {
    const cached = this.organizations.get(organizationId);
    if (cached) return cached.then((o) => (Date.now() - o.loadedAt > MAX_CACHE_AGE_MS ? this.load(organizationId) : o));
    return this.load(organizationId);
  }

  private load(organizationId: string): Promise<OrganizationRules> {
    const loading = (async () => {
      const rules = await loadEnabledRules(this.sql, organizationId, (id, error) => log.warn('rule skipped: unreadable conditions', { id, error }));
      const needsLandmarks = rules.some((r) => r.condition !== null && landmarkIds(r.condition).length > 0);
      return organizationRules(rules, needsLandmarks ? await listLandmarkShapes(this.sql, organizationId) : []);
    })();
    this.organizations.set(organizationId, loading);
    loading.catch(() => this.organizations.delete(organizationId));
    return loading;
  }

  private async organizationsOf(events: IncomingEvent[]): Promise<Map<string, OrganizationRules>> {
    const organizations = new Map<string, OrganizationRules>();
    for (const organizationId of new Set(events.map((e) => e.organizationId))) {
      organizations.set(organizationId, await this.rulesOf(organizationId));
    }
    return organizations;
  }

  /**
   * What a committed batch leaves in memory: each device at the row version
   * it was written (or read) at, with the rules that fired for it.
   */
  private remember(entries: ReadonlyMap<string, KnownDevice>, versions: ReadonlyMap<string, string>, fired: BatchOutcome['fired']): void {
    for (const [key, f] of fired) entries.get(f.deviceId)?.throttles.set(key, f.at.getTime());
    for (const [id, entry] of entries) {
      entry.version = versions.get(id) ?? entry.version;
      this.known.set(id, entry);
    }
  }

  /** Devices changed elsewhere: their next batch reads them again. */
  forgetDevices(deviceIds: Iterable<string>): void {
    this.known.forget(deviceIds);
  }

  async evaluateAhead(batch: IncomingEvent[]): Promise<AheadWork | undefined> {
    const deviceIds = new Set(batch.map((e) => e.deviceId));
    const entries = new Map<string, KnownDevice>();
    for (const id of deviceIds) {
      const entry = this.known.get(id);
      if (!entry) return undefined;
      entries.set(id, entry);
    }
    const organizations = await this.organizationsOf(batch);
    const devices = new Map([...entries].map(([id, e]) => [id, e.device]));
    const throttles = new Map<string, number>();
    for (const entry of entries.values()) for (const [key, at] of entry.throttles) throttles.set(key, at);
    const expected = new Map([...entries].map(([id, e]) => [id, e.version]));
    const stats = { evaluated: 0, fired: 0, throttled: 0 };
    // Evaluated on the remembered objects themselves: forget() drops them if the commit fails.
    const outcome = evaluateBatch(batch, organizations, devices, throttles, stats);
    return {
      statement: (tx, insert) => {
        let versions = new Map<string, string>();
        const run = oneStatement(tx, insert, outcome, expected).then(([r]) => {
          versions = new Map((r.ids ?? []).map((id, i) => [id, r.versions![i]!]));
        });
        return {
          run,
          committed: () => {
            addStats(this.stats, stats);
            this.remember(entries, versions, outcome.fired);
          },
        };
      },
      forget: () => this.known.forget(deviceIds),
    };
  }

  async process(tx: Sql, batch: IncomingEvent[], stored: Promise<Set<string>>): Promise<ProcessorWork> {
    const deviceIds = [...new Set(batch.map((e) => e.deviceId))];
    // Sent at once, pipelined behind the events' INSERT. Devices are locked:
    // a concurrent batch of another server for the same device waits, so
    // enter/exit see one order.
    const [deviceRows, throttleRows, fresh] = await Promise.all([
      lockEngineDevices<EngineDevice & { version: string }>(tx, deviceIds),
      listRuleThrottles(tx, deviceIds),
      stored,
    ]);
    const entries = new Map<string, KnownDevice>();
    for (const { version, ...device } of deviceRows) entries.set(device.id, { device, version, throttles: new Map() });
    const throttles = new Map<string, number>();
    for (const t of throttleRows) {
      const key = throttleKey(t.ruleId, t.deviceId);
      throttles.set(key, t.lastFiredAt.getTime());
      entries.get(t.deviceId)?.throttles.set(key, t.lastFiredAt.getTime());
    }

    const events = fresh.size === batch.length ? batch : batch.filter((e) => fresh.has(e.id));
    if (events.length === 0) return { writes: [], committed: () => this.remember(entries, new Map(), new Map()) };
    const organizations = await this.organizationsOf(events);
    const devices = new Map([...entries.values()].map((e) => [e.device.id, e.device]));
    const { patches, fired, jobs } = evaluateBatch(events, organizations, devices, throttles, this.stats);

    let versions = new Map<string, string>();
    const writes = [saveDeviceStates(tx, patches).then((v) => (versions = v)), ...writeFired(tx, fired, jobs)];
    // Not awaited: the writer sends COMMIT right behind them (one round trip).
    return { writes, committed: () => this.remember(entries, versions, fired) };
  }
}
