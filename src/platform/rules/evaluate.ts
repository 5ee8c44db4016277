// What a condition tree means, as pure functions the rules engine can use:
// the engine supplies what needs state (landmark geometry and the device's
// previous position, the event's values); schedules and comparisons are
// decided here, once, for every input form.
import type {
  AttributeOperator,
  Condition,
  LandmarkTrigger,
  Literal,
  ObjectCondition,
  ScheduleCondition,
  StatefulCondition,
} from './model.js';
import { isLandmark, triggerOf } from './model.js';

/** The part of a frame's event (ingest/frames.ts, FramePayload) a detections condition reads. */
interface FrameDetection {
  score?: unknown;
  zones?: unknown;
  children?: unknown;
}

/** Whether a detection's `children` (child label → the child stage's detections inside it) hold one of `label`. */
export function hasChild(children: unknown, label: string): boolean {
  if (typeof children !== 'object' || children === null || !Object.hasOwn(children, label)) return false;
  const list = (children as Record<string, unknown>)[label];
  return Array.isArray(list) && list.length > 0;
}

/**
 * How many of a frame's detections of `label` hold: scoring at least
 * `minScore`, lying in `zone` when one is named, holding a child detection
 * of `child` (in its `children`, the answer of the version's child stages)
 * when one is named. `payload.detections` is the predict answer by label,
 * each detection with the zones it lies in; anything else (an event that is
 * no frame) counts none.
 */
export function countDetections(
  payload: Record<string, unknown>,
  label: string,
  zone: string | undefined,
  minScore: number | undefined,
  child?: string,
): number {
  const byLabel = payload.detections;
  if (typeof byLabel !== 'object' || byLabel === null || !Object.hasOwn(byLabel, label)) return 0;
  const list = (byLabel as Record<string, unknown>)[label];
  if (!Array.isArray(list)) return 0;
  let count = 0;
  for (const item of list as FrameDetection[]) {
    if (typeof item !== 'object' || item === null) continue;
    if (minScore !== undefined && !(typeof item.score === 'number' && item.score >= minScore)) continue;
    if (zone !== undefined && !(Array.isArray(item.zones) && item.zones.includes(zone))) continue;
    if (child !== undefined && !hasChild(item.children, child)) continue;
    count++;
  }
  return count;
}

/**
 * Whether an object condition holds for an object event's payload
 * (ingest/streams/camera-stream.ts): the server wrote it, but it is read
 * as unknown all the same. Any other event (undefined) holds none.
 */
export function objectHolds(c: ObjectCondition, event: Record<string, unknown> | undefined): boolean {
  if (!event) return false;
  if (c.type === 'inZone') {
    const zones = event.inZone;
    const byLabel =
      typeof zones === 'object' && zones !== null ? (zones as Record<string, unknown>)[c.zone] : undefined;
    let count = 0;
    if (typeof byLabel === 'object' && byLabel !== null) {
      for (const [label, n] of Object.entries(byLabel)) {
        if (typeof n === 'number' && (c.label === undefined || label === c.label)) count += n;
      }
    }
    return compareValues(c.operator, count, c.value);
  }
  if (c.label !== undefined && event.label !== c.label) return false;
  const list = (key: string): unknown[] => (Array.isArray(event[key]) ? (event[key] as unknown[]) : []);
  const entry = (item: unknown) => (typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {});
  switch (c.type) {
    case 'entered':
      return list('entered').includes(c.zone);
    case 'crossed':
      return list('crossed').some(
        (item) => entry(item).line === c.line && (c.direction === undefined || entry(item).direction === c.direction),
      );
    case 'dwell':
      return list('dwelled').some((item) => entry(item).zone === c.zone && entry(item).seconds === c.seconds);
  }
}

export interface EvaluationContext {
  /** when the event happened (the engine picks serverReceivedAt or clientSentAt) */
  time: Date;
  /** the rule's time zone (LoadedRule.timezone) */
  timezone: string;
  /** the event's channel */
  channelId: string;
  /** the value at an attribute path such as `event.data.tempF`; undefined when absent */
  value(path: string): unknown;
  /** enter/exit: crossed since the device's previous position; inside/outside: now inside any / outside all */
  landmark(trigger: LandmarkTrigger, ids: readonly string[], attribute: string): boolean;
  /** a camera frame's detections of `label` (in `zone`, scoring at least `minScore`, with a child detection of `child`); 0 for an event that is no frame */
  detections(label: string, zone: string | undefined, minScore: number | undefined, child?: string): number;
  /** an object event's payload (a streaming camera's); undefined for any other event */
  objectEvent(): Record<string, unknown> | undefined;
  /** what a stateful node of the rule being evaluated remembers of this device's earlier events (changed in place) */
  memory(node: StatefulCondition): NodeMemory;
}

/** What a stateful node (for, becomes) remembers, per rule and device, between events. */
export interface NodeMemory {
  /** for: when its condition began to hold without a break (epoch ms) */
  since?: number;
  /** for: on how many events in a row it has held */
  count?: number;
  /** becomes: what its condition was on the device's previous event */
  last?: boolean;
}

/**
 * Whether `c` holds for the event. `whole`: every part is evaluated, with
 * no short cut past an and/or's decided result. A rule with a node that
 * remembers (for, becomes) is evaluated so, so that its memory sees every event.
 */
export function evaluateCondition(c: Condition, ctx: EvaluationContext, whole = false): boolean {
  switch (c.type) {
    case 'and':
      if (whole) return c.items.map((i) => evaluateCondition(i, ctx, true)).every(Boolean);
      return c.items.every((i) => evaluateCondition(i, ctx));
    case 'or':
      if (whole) return c.items.map((i) => evaluateCondition(i, ctx, true)).some(Boolean);
      return c.items.some((i) => evaluateCondition(i, ctx));
    case 'for': {
      const holds = evaluateCondition(c.item, ctx, whole);
      const memory = ctx.memory(c);
      if (!holds) {
        delete memory.since;
        delete memory.count;
        return false;
      }
      const now = ctx.time.getTime();
      // An event older than the run's start (a late or reordered one) starts it again.
      if (memory.since === undefined || now < memory.since) {
        memory.since = now;
        memory.count = 0;
      }
      memory.count = (memory.count ?? 0) + 1;
      return (
        (c.seconds === undefined || now - memory.since >= c.seconds * 1000) &&
        (c.events === undefined || memory.count >= c.events)
      );
    }
    case 'becomes': {
      const now = evaluateCondition(c.item, ctx, whole);
      const memory = ctx.memory(c);
      const before = memory.last ?? false;
      memory.last = now;
      return c.to ? now && !before : before && !now;
    }
    case 'not':
      return !evaluateCondition(c.item, ctx, whole);
    case 'schedule':
      return scheduleHolds(c, ctx.time, ctx.timezone);
    case 'matchAttribute':
      if (c.channelId !== undefined && c.channelId !== ctx.channelId) return false;
      return compareValues(c.operator, ctx.value(c.attribute), c.value);
    case 'detections':
      return compareValues(c.operator, ctx.detections(c.label, c.zone, c.minScore, c.child), c.value);
    case 'entered':
    case 'crossed':
    case 'dwell':
    case 'inZone':
      return objectHolds(c, ctx.objectEvent());
    default:
      if (!isLandmark(c)) return false;
      if (c.channelId !== undefined && c.channelId !== ctx.channelId) return false;
      return ctx.landmark(triggerOf(c.type), c.ids, c.attribute);
  }
}

/**
 * `==`/`!=`: same type and value (a numeric string is not a number);
 * ordering: both numbers, or both strings (code-unit order); `contains`: a
 * string containing the value's text, or an array with an element equal to it.
 * A missing value matches only `!=`.
 */
export function compareValues(op: AttributeOperator, actual: unknown, expected: Literal): boolean {
  switch (op) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case 'contains':
      if (typeof actual === 'string') return actual.includes(String(expected));
      return Array.isArray(actual) && actual.some((e) => e === expected);
    default: {
      const comparable =
        (typeof actual === 'number' && typeof expected === 'number') ||
        (typeof actual === 'string' && typeof expected === 'string');
      if (!comparable) return false;
      const a = actual as number | string;
      const b = expected as number | string;
      return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    }
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Week day (0 = Sunday) and seconds after midnight of an instant in a time zone. */
function localTime(time: Date, timezone: string): { weekDay: number; secondsOfDay: number } {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timezone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(time).map((p) => [p.type, p.value]));
  return {
    weekDay: WEEKDAYS[parts.weekday!] ?? 0,
    secondsOfDay: Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second),
  };
}

/** Every present part holds; bounds inclusive; a time-of-day window with from > to spans midnight. */
export function scheduleHolds(s: ScheduleCondition, time: Date, timezone: string): boolean {
  const ms = time.getTime();
  if (s.date?.from !== undefined && ms < s.date.from) return false;
  if (s.date?.to !== undefined && ms > s.date.to) return false;
  if (!s.weekDays && !s.timeOfDay) return true;
  const local = localTime(time, timezone);
  if (s.weekDays && !s.weekDays.includes(local.weekDay)) return false;
  const t = s.timeOfDay;
  if (t) {
    const from = t.from ?? 0;
    const to = t.to ?? 86_400;
    const inside =
      from <= to
        ? local.secondsOfDay >= from && local.secondsOfDay <= to
        : local.secondsOfDay >= from || local.secondsOfDay <= to;
    if (!inside) return false;
  }
  return true;
}
