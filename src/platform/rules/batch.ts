// Evaluation of a batch of events, without I/O: for every event, in order,
// its position → the landmarks containing it (the compiled index,
// compiled.ts) → enter/exit against the device's previous state →
// candidate rules → conditions (evaluate.ts) → throttle → action jobs. What
// it returns is data the event writer turns into statements of the commit
// (device patches, fired throttles, typed jobs); the engine (rules-engine.ts)
// feeds it the devices and throttles, remembered or read.
import type { NewActionJob } from '../../db/action-jobs.js';
import type { DevicePatches, EngineDeviceRow } from '../../db/device-state.js';
import { newId } from '../../ids.js';
import { performance } from 'node:perf_hooks';
import type { RuleAction } from './actions.js';
import { EvaluationOverrun, type EvaluationBudget } from './budget.js';
import { candidates, type OrganizationRules } from './compiled.js';
import { countDetections, evaluateCondition, type EvaluationContext, type NodeMemory } from './evaluate.js';
import { eventLocation, type LastLocation } from './location.js';
import { statefulNodes, type LandmarkTrigger, type StatefulCondition } from './model.js';
import type { LoadedRule } from './rule-service.js';

/** An ingested event as rules see it (ingest's IncomingEvent is one, with its idempotency key). */
export interface RuleEvent {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  source: 'mobile' | 'iot';
  serverReceivedAt: Date;
  clientSentAt: Date | null;
  payload: Record<string, unknown>;
  /**
   * true for the event of a camera's frame (ingest/frames.ts), whose
   * `detections` the server wrote from the model's answer: the only events
   * a detections condition counts. Any other event's payload is the
   * client's, of any size, and holds no detections.
   */
  camera?: boolean;
  /**
   * true for a streaming camera's object event (ingest/streams/camera-stream.ts),
   * whose payload the server wrote: the only events object conditions read.
   */
  object?: boolean;
}

/** A device as rules see it: its row without the version, its state typed. */
export type EngineDevice = Omit<EngineDeviceRow, 'state' | 'version'> & {
  state: {
    inside?: string[];
    lastLocation?: LastLocation;
    configuration?: unknown;
    /** rule memory key (compiled.ts memoryKey) → stateful node key (model.ts statefulNodes) → what it remembers of this device's events */
    ruleMemory?: Record<string, Record<string, NodeMemory>>;
  };
};

/** What a stateful node of a rule remembers of a device, made on first use; kept in the device's state. */
function nodeMemory(device: EngineDevice, rule: LoadedRule, ruleKey: string, node: StatefulCondition): NodeMemory {
  const key = statefulNodes(rule.condition!).get(node)!;
  const byRule = (device.state.ruleMemory ??= {});
  const mine = (byRule[ruleKey] ??= {});
  return (mine[key] ??= {});
}

/**
 * Drops what a device remembers for rules that no longer remember under
 * that key (deleted, changed, disabled); true when something was dropped.
 */
function forgetStaleMemory(memory: Record<string, unknown>, keys: ReadonlySet<string>): boolean {
  let dropped = false;
  for (const key in memory) {
    if (keys.has(key)) continue;
    delete memory[key];
    dropped = true;
  }
  return dropped;
}

/** What a fired action's templates and webhook body see (`{{device.id}}`, `{{landmarks.entered.0}}`). */
export type ActionContext = {
  rule: { id: string; name: string; projectId: string };
  device: {
    id: string;
    name: string | null;
    model: string | null;
    type: string | null;
    tags: string[];
    properties: Record<string, unknown>;
    attributes: Record<string, unknown>;
    location: LastLocation | null;
  };
  event: {
    id: string;
    channelId: string;
    serverReceivedAt: string;
    clientSentAt: string | null;
    payload: Record<string, unknown>;
  };
  landmarks: { entered: string[]; exited: string[]; inside: string[] };
};

/** A fired action to queue (the row db/action-jobs.ts inserts), its action typed by the rule model. */
export type ActionJob = Omit<NewActionJob, 'type' | 'action' | 'context'> & {
  type: RuleAction['type'];
  action: RuleAction;
  context: ActionContext;
};

/** A rule that fired for a device: its throttle's new time (db/rule-throttle.ts). */
export interface FiredRule {
  ruleId: string;
  deviceId: string;
  at: Date;
}

export interface RuleStats {
  evaluated: number;
  fired: number;
  throttled: number;
}

/** An organization's events of a batch whose rules were left out or stopped once its time budget (budget.ts) was spent. */
export interface OverBudget {
  events: number;
  /** the rule being evaluated when the time ran out, if one was */
  ruleId: string | undefined;
}

export interface BatchOutcome {
  /** per device: last-seen time and the state to merge */
  patches: DevicePatches;
  /** per rule and device (throttleKey): when it last fired */
  fired: Map<string, FiredRule>;
  jobs: ActionJob[];
  /** by organization: what its time budget left out (empty without a budget, or when none ran out) */
  overBudget: Map<string, OverBudget>;
}

/** How throttles (when a rule last fired for a device) are keyed in memory. */
export function throttleKey(ruleId: string, deviceId: string): string {
  return `${ruleId}:${deviceId}`;
}

/** A Set per landmark-id list of a condition tree, made once (the trees live as long as the rule set). */
const idSets = new WeakMap<readonly string[], Set<string>>();
function idSet(ids: readonly string[]): Set<string> {
  let set = idSets.get(ids);
  if (!set) idSets.set(ids, (set = new Set(ids)));
  return set;
}

function some(set: ReadonlySet<string>, test: (id: string) => boolean): boolean {
  for (const id of set) if (test(id)) return true;
  return false;
}

/** The value at a path like `event.data.tempF`, `event.locations.0.latitude` or `event.channelId`. */
export function valueAt(event: RuleEvent, path: string): unknown {
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

function envelopeField(event: RuleEvent, name: string): unknown {
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

/**
 * Units of work (a rule, or a long value a condition reads: see charge)
 * between two looks at the clock. A rule is at most LIMITS.nodes nodes,
 * each cheap once its value is read, so 16 rules are a few milliseconds at
 * worst; a long string or array counts for its length, so a condition
 * scanning one sees the clock before each scan.
 */
const WORK_PER_CLOCK_CHECK = 16; // a power of two: rules are counted with a mask

/** Work units of a value a condition may scan (contains), by its length: 0 for the short ones. */
function scanWork(value: unknown): number {
  if (typeof value === 'string') return value.length >> 12;
  return Array.isArray(value) ? value.length >> 8 : 0;
}

/**
 * One context per event, one object (no closures made per event): rules
 * change only its time zone and, for a rule that remembers, whose memory it
 * reads. Attribute values are looked up once per path however many rules
 * ask, a frame's detections counted once per label, zone, score and child.
 */
class EventContext implements EvaluationContext {
  timezone = 'UTC';
  /** the rule being evaluated, when it remembers (see memory) */
  rule: LoadedRule | undefined;
  /** and its memory key */
  memoryKey = '';
  private values: Map<string, unknown> | undefined;
  private detectionCounts: Map<string, number> | undefined;
  /** work left before the next look at the clock */
  private workBeforeClockCheck = WORK_PER_CLOCK_CHECK;

  constructor(
    private readonly event: RuleEvent,
    private readonly device: EngineDevice,
    readonly time: Date,
    private readonly located: boolean,
    private readonly knowsLocation: boolean,
    private readonly before: ReadonlySet<string>,
    private readonly after: ReadonlySet<string>,
    /** performance.now() past which the evaluation stops (EvaluationOverrun); Infinity without a budget */
    private readonly deadline: number,
  ) {}

  /** Counts work done; every WORK_PER_CLOCK_CHECK units, stops the evaluation if it is past its deadline. */
  charge(units: number): void {
    this.workBeforeClockCheck -= units;
    if (this.workBeforeClockCheck <= 0) this.checkClock();
  }

  private checkClock(): void {
    this.workBeforeClockCheck = WORK_PER_CLOCK_CHECK;
    if (performance.now() > this.deadline) throw new EvaluationOverrun();
  }

  get channelId(): string {
    return this.event.channelId;
  }

  value(path: string): unknown {
    this.values ??= new Map();
    let value: unknown;
    if (this.values.has(path)) value = this.values.get(path);
    else this.values.set(path, (value = valueAt(this.event, path)));
    // Charged on every read: each condition that reads a long value may scan it.
    const work = scanWork(value);
    if (work > 0) this.charge(work);
    return value;
  }

  detections(label: string, zone: string | undefined, minScore: number | undefined, child?: string): number {
    if (!this.event.camera) return 0;
    const key = `${label}\0${zone ?? ''}\0${minScore ?? ''}\0${child ?? ''}`;
    this.detectionCounts ??= new Map();
    let count = this.detectionCounts.get(key);
    if (count === undefined)
      this.detectionCounts.set(key, (count = countDetections(this.event.payload, label, zone, minScore, child)));
    return count;
  }

  objectEvent(): Record<string, unknown> | undefined {
    return this.event.object ? this.event.payload : undefined;
  }

  memory(node: StatefulCondition): NodeMemory {
    if (!this.rule) throw new Error('rule memory read outside a rule that remembers');
    return nodeMemory(this.device, this.rule, this.memoryKey, node);
  }

  // The sets around the device (inside before and after) hold a few
  // landmarks; a rule may name thousands: walk the small side.
  landmark(trigger: LandmarkTrigger, ids: readonly string[]): boolean {
    const named = idSet(ids);
    const { before, after } = this;
    switch (trigger) {
      case 'enter':
        return this.located && some(after, (id) => named.has(id) && !before.has(id));
      case 'exit':
        return this.located && some(before, (id) => named.has(id) && !after.has(id));
      case 'inside':
        return some(after, (id) => named.has(id));
      case 'outside':
        return this.knowsLocation && !some(after, (id) => named.has(id));
      default:
        return false;
    }
  }
}

function noteOverBudget(overBudget: Map<string, OverBudget>, organizationId: string, ruleId: string | undefined): void {
  const noted = overBudget.get(organizationId);
  if (noted) {
    noted.events++;
    noted.ruleId ??= ruleId;
  } else overBudget.set(organizationId, { events: 1, ruleId });
}

/**
 * Evaluates events in order against their organizations' rules, updating
 * `devices` (state) and `throttles` in place. No I/O: the engine gives it what
 * it remembers or what the writer read, and the writer saves the outcome in
 * the commit. With a `budget`, each organization's evaluation is timed and
 * charged to it; past what it may spend, its events' rules are left out
 * (see budget.ts) and said so in `overBudget`.
 */
export function evaluateBatch(
  events: readonly RuleEvent[],
  organizations: ReadonlyMap<string, OrganizationRules>,
  devices: ReadonlyMap<string, EngineDevice>,
  throttles: Map<string, number>,
  stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 },
  budget?: EvaluationBudget,
): BatchOutcome {
  const fired = new Map<string, FiredRule>();
  const jobs: ActionJob[] = [];
  const patches: DevicePatches = new Map();
  const overBudget = new Map<string, OverBudget>();
  // One look at the clock per evaluated event, at its end: when the event
  // before it was evaluated too, that reading is also this one's start.
  // Otherwise (events between them had no rule to evaluate, or another
  // organization's were left out) the clock is read again, so that no
  // organization is charged the others' events.
  let clock = 0;
  let evaluatedLast: number | undefined;

  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
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

    // Memory of rules gone or changed is dropped at the device's next event.
    const memory = device.state.ruleMemory;
    if (memory !== undefined && forgetStaleMemory(memory, organization.memoryKeys)) patch.patch.ruleMemory = memory;

    // Most events have no rule that may hold (an organization without rules
    // for the channel): then no evaluation context is made.
    const rules = candidates(channel, before, after);
    if (rules.length === 0) continue;
    if (budget && evaluatedLast !== index - 1) clock = performance.now();
    const bucket = budget?.refill(event.organizationId, clock);
    const allowance = bucket ? bucket.left : Infinity;
    if (allowance <= 0) {
      noteOverBudget(overBudget, event.organizationId, undefined);
      continue;
    }
    const time = event.clientSentAt ?? event.serverReceivedAt;
    const evaluation = new EventContext(
      event,
      device,
      time,
      location !== undefined,
      device.state.lastLocation !== undefined,
      before,
      after,
      clock + allowance,
    );
    let r = 0;
    try {
      for (; r < rules.length; r++) {
        const rule = rules[r]!;
        // A rule is a unit of work, charged WORK_PER_CLOCK_CHECK rules at a time (one look at the clock).
        if ((r & (WORK_PER_CLOCK_CHECK - 1)) === WORK_PER_CLOCK_CHECK - 1) evaluation.charge(WORK_PER_CLOCK_CHECK);
        stats.evaluated++;
        evaluation.timezone = rule.timezone;
        const memoryKey = organization.stateful.size > 0 ? organization.stateful.get(rule) : undefined;
        const remembers = memoryKey !== undefined;
        evaluation.rule = remembers ? rule : undefined;
        if (remembers) evaluation.memoryKey = memoryKey;
        // A rule that remembers is evaluated whole (no short cut), so its memory never skips an event.
        const holds = evaluateCondition(rule.condition!, evaluation, remembers);
        // What its stateful nodes saw is saved with the device, whether the rule fired or not.
        if (remembers) patch.patch.ruleMemory = device.state.ruleMemory;
        if (!holds) continue;
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
        const context: ActionContext = {
          rule: { id: rule.id, name: rule.name, projectId: rule.projectId },
          device: {
            id: device.id,
            name: device.name,
            model: device.model,
            type: device.type,
            tags: device.tags,
            properties: device.properties,
            attributes: device.attributes,
            location: device.state.lastLocation ?? null,
          },
          event: {
            id: event.id,
            channelId: event.channelId,
            serverReceivedAt: event.serverReceivedAt.toISOString(),
            clientSentAt: event.clientSentAt?.toISOString() ?? null,
            payload: event.payload,
          },
          landmarks: {
            entered: [...after].filter((id) => !before.has(id)),
            exited: [...before].filter((id) => !after.has(id)),
            inside: [...after],
          },
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
            action,
            context,
          });
        }
      }
    } catch (error) {
      if (!(error instanceof EvaluationOverrun)) throw error;
      // The rule stopped mid-way: what its stateful nodes saw of this event is
      // partial, so it forgets this device and starts afresh at the next one.
      const current = rules[r]!;
      const memoryKey = organization.stateful.get(current);
      if (memoryKey !== undefined && device.state.ruleMemory) {
        delete device.state.ruleMemory[memoryKey];
        patch.patch.ruleMemory = device.state.ruleMemory;
      }
      noteOverBudget(overBudget, event.organizationId, current.id);
    }
    if (bucket) {
      const now = performance.now();
      bucket.left -= now - clock;
      clock = now;
      evaluatedLast = index;
    }
  }
  return { patches, fired, jobs, overBudget };
}
