// The one condition model of rules: a tree that every accepted input form
// (Gen B conditionsObject and its SDK spelling, Gen A logicalCondition, the
// `conditions` expression string) is parsed into, and that the expression
// string and the stored Gen B JSON are generated from. The rules engine
// evaluates this tree; it never parses strings per event.
//
// Canonical form (see normalise): every parser returns normalised trees, and
// for a normalised tree t, parseExpression(generateExpression(t)) deep-equals t.

/** Which side of a landmark boundary a leaf asks about. */
export type LandmarkTrigger = 'enter' | 'exit' | 'inside' | 'outside';
export type LandmarkConditionType = 'enterLandmark' | 'exitLandmark' | 'insideLandmark' | 'outsideLandmark';

export const LANDMARK_TYPES: Readonly<Record<LandmarkTrigger, LandmarkConditionType>> = {
  enter: 'enterLandmark',
  exit: 'exitLandmark',
  inside: 'insideLandmark',
  outside: 'outsideLandmark',
};

export const COMPARISON_OPERATORS = ['==', '!=', '<', '<=', '>', '>='] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export type AttributeOperator = ComparisonOperator | 'contains';
export const ATTRIBUTE_OPERATORS: readonly AttributeOperator[] = [...COMPARISON_OPERATORS, 'contains'];

export type Literal = string | number | boolean;

/** All items hold; with no items: always true. */
export interface AndCondition {
  type: 'and';
  items: Condition[];
}

/** Any item holds; with no items: always false. */
export interface OrCondition {
  type: 'or';
  items: Condition[];
}

interface NotCondition {
  type: 'not';
  item: Condition;
}

/**
 * enter/exit: the device crossed into / out of any of the landmarks since its
 * previous location; inside/outside: its current location is inside any /
 * outside all of them.
 */
export interface LandmarkCondition {
  type: LandmarkConditionType;
  /** landmark ids of the rule's project; at least one */
  ids: string[];
  /** where the event's position is read, `event.location.position` by default */
  attribute: string;
  /** only events of this channel match */
  channelId?: string;
}

/**
 * `attribute` is a path into the event, `event.<segment>(.<segment>)*`
 * (segments are identifiers or array indexes). `contains`: the value at the
 * path is a string containing `value` or an array with an element equal to it.
 */
export interface AttributeCondition {
  type: 'matchAttribute';
  attribute: string;
  operator: AttributeOperator;
  value: Literal;
  channelId?: string;
}

/**
 * When the event happened, in the rule's timezone (`properties.timezone`,
 * UTC by default). Every present part must hold; bounds are inclusive.
 */
export interface ScheduleCondition {
  type: 'schedule';
  /** epoch milliseconds */
  date?: { from?: number; to?: number };
  /** 0 = Sunday … 6 = Saturday; sorted, distinct, non-empty */
  weekDays?: number[];
  /** seconds after local midnight, 0–86400; from > to: a window across midnight */
  timeOfDay?: { from?: number; to?: number };
}

/**
 * What a camera saw in a frame (ingest/frames.ts): how many detections of
 * `label` the frame's event holds, only those scoring at least `minScore`,
 * given a `zone`, lying in that zone of the image and, given a `child`,
 * holding at least one detection of that label in their `children` (what
 * the version's child stages answered inside them: a circle whose colour
 * is red), compared with `value`. An event that is no frame holds none.
 */
export interface DetectionsCondition {
  type: 'detections';
  label: string;
  zone?: string;
  minScore?: number;
  /** a child stage's label: only the detections with a child detection of it count */
  child?: string;
  operator: ComparisonOperator;
  value: number;
}

/**
 * What a streaming camera's tracked objects did (its object events,
 * ingest/streams/camera-stream.ts); each holds on the one object event that
 * tells it, of an object of `label` (any label when absent), and never on
 * another event:
 * - entered: the object entered `zone` (after the zone's inertia);
 * - crossed: it crossed `line`, in `direction` (either when absent);
 * - dwell: it has stayed in `zone` `seconds` (the event of the moment it
 *   reached them: once per object and visit, whatever it does after);
 * - inZone: how many objects the camera follows inside `zone` now, counted
 *   per object, compared with `value`.
 */
export type ObjectCondition =
  | { type: 'entered'; zone: string; label?: string }
  | { type: 'crossed'; line: string; direction?: 'in' | 'out'; label?: string }
  | { type: 'dwell'; zone: string; label?: string; seconds: number }
  | { type: 'inZone'; zone: string; label?: string; operator: ComparisonOperator; value: number };

export const OBJECT_CONDITION_TYPES = ['entered', 'crossed', 'dwell', 'inZone'] as const;

function isObjectCondition(c: Condition): c is ObjectCondition {
  return (OBJECT_CONDITION_TYPES as readonly string[]).includes(c.type);
}

type LeafCondition = LandmarkCondition | AttributeCondition | ScheduleCondition | DetectionsCondition | ObjectCondition;
/**
 * Holds once `item` has held on every event of the device, without a
 * break, for at least `seconds` (by the events' times) and for at least
 * `events` events in a row (each when given; at least one is). A dwell or a
 * debounce: "3 people in the zone for 30 s", "3 frames in a row".
 */
export interface ForCondition {
  type: 'for';
  seconds?: number;
  events?: number;
  item: Condition;
}

/**
 * Holds on the one event where `item` turns `to` (true: from false, or on the
 * device's first event for the rule; false: from true): a rule built on it
 * fires once when the loading zone fills, not on every frame while it is full.
 */
interface BecomesCondition {
  type: 'becomes';
  to: boolean;
  item: Condition;
}

/** Bounds of a ForCondition: a day, and a thousand events in a row. */
export const MAX_HELD_SECONDS = 86_400;
export const MAX_HELD_EVENTS = 1000;

/** Conditions that remember, per rule and device, what they saw on the device's earlier events. */
export type StatefulCondition = ForCondition | BecomesCondition;

export type Condition = AndCondition | OrCondition | NotCondition | StatefulCondition | LeafCondition;

/** The conditions directly inside a node. */
function childrenOf(c: Condition): readonly Condition[] {
  if (c.type === 'and' || c.type === 'or') return c.items;
  if (c.type === 'not' || c.type === 'for' || c.type === 'becomes') return [c.item];
  return [];
}

const statefulKeys = new WeakMap<Condition, ReadonlyMap<StatefulCondition, string>>();

/**
 * The key each stateful node of a (loaded, not changing) tree keeps its
 * memory under, by its position in a pre-order walk: "0", "1", …; empty
 * for a tree without one. Computed once per tree.
 */
export function statefulNodes(tree: Condition): ReadonlyMap<StatefulCondition, string> {
  let keys = statefulKeys.get(tree);
  if (!keys) {
    const found = new Map<StatefulCondition, string>();
    const walk = (n: Condition) => {
      if (n.type === 'for' || n.type === 'becomes') found.set(n, String(found.size));
      childrenOf(n).forEach(walk);
    };
    walk(tree);
    statefulKeys.set(tree, (keys = found));
  }
  return keys;
}

export const DEFAULT_POSITION_ATTRIBUTE = 'event.location.position';
export const SECONDS_PER_DAY = 86_400;

/**
 * Bounds that keep parsing, storing and evaluating a rule cheap; and, since
 * every event is evaluated against all of its organization's rules, caps
 * on what one organization's rules hold in all (all its rules, enabled or
 * not: enabling one must not get past them).
 */
export const LIMITS = {
  depth: 32,
  nodes: 500,
  idsPerLeaf: 100,
  stringLength: 1024,
  expressionLength: 16_384,
  rulesPerOrganization: 1000,
  nodesPerOrganization: 20_000,
} as const;

/** `event.a.b`, `event.powers.0.batteryLevel` */
export const ATTRIBUTE_PATH = /^event(\.([A-Za-z_$][A-Za-z0-9_$]*|\d+))+$/;
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const TRUE: AndCondition = { type: 'and', items: [] };
export const FALSE: OrCondition = { type: 'or', items: [] };

export function isLandmark(c: Condition): c is LandmarkCondition {
  return (
    c.type === 'enterLandmark' ||
    c.type === 'exitLandmark' ||
    c.type === 'insideLandmark' ||
    c.type === 'outsideLandmark'
  );
}

export function triggerOf(type: LandmarkConditionType): LandmarkTrigger {
  return type.slice(0, -'Landmark'.length) as LandmarkTrigger;
}

/** `event.channelId == '<string>'` with no channel of its own: what a channel-scoped leaf expands to. */
function isChannelTest(c: Condition): c is AttributeCondition & { value: string } {
  return (
    c.type === 'matchAttribute' &&
    c.attribute === 'event.channelId' &&
    c.operator === '==' &&
    typeof c.value === 'string' &&
    c.channelId === undefined
  );
}

function takesChannel(c: Condition): c is LandmarkCondition | AttributeCondition {
  return (isLandmark(c) || c.type === 'matchAttribute') && c.channelId === undefined;
}

/**
 * The canonical form of a tree:
 * - an and/or of one item is that item;
 * - in an and, `event.channelId == 'c'` directly followed by a landmark or
 *   attribute leaf without a channel becomes that leaf with channelId c (the
 *   same meaning: the expression of a channel-scoped leaf is exactly that);
 * - a detections leaf's empty zone or child, and a minimum score of 0, left out (any);
 * - landmark ids distinct, in first-seen order; week days sorted, distinct;
 *   empty schedule parts dropped, and a schedule with none is `true`;
 * - -0 is 0.
 */
export function normalise(c: Condition): Condition {
  switch (c.type) {
    case 'and':
    case 'or': {
      let items = c.items.map(normalise);
      if (c.type === 'and') items = foldChannels(items);
      return items.length === 1 ? items[0]! : { type: c.type, items };
    }
    case 'not':
      return { type: 'not', item: normalise(c.item) };
    case 'for': {
      const out: ForCondition = { type: 'for', item: normalise(c.item) };
      if (c.seconds !== undefined && c.seconds > 0) out.seconds = c.seconds;
      if (c.events !== undefined && c.events > 0) out.events = c.events;
      return out;
    }
    case 'becomes':
      return { type: 'becomes', to: c.to, item: normalise(c.item) };
    case 'matchAttribute': {
      const out: AttributeCondition = {
        type: 'matchAttribute',
        attribute: c.attribute,
        operator: c.operator,
        value: Object.is(c.value, -0) ? 0 : c.value,
      };
      if (c.channelId !== undefined) out.channelId = c.channelId;
      return out;
    }
    case 'schedule':
      return normaliseSchedule(c);
    case 'entered':
    case 'crossed':
    case 'dwell':
    case 'inZone':
      return normaliseObject(c);
    case 'detections': {
      const out: DetectionsCondition = {
        type: 'detections',
        label: c.label,
        operator: c.operator,
        value: Object.is(c.value, -0) ? 0 : c.value,
      };
      if (c.zone !== undefined && c.zone !== '') out.zone = c.zone;
      if (c.minScore !== undefined && c.minScore > 0) out.minScore = c.minScore;
      if (c.child !== undefined && c.child !== '') out.child = c.child;
      return out;
    }
    default: {
      const out: LandmarkCondition = { type: c.type, ids: [...new Set(c.ids)], attribute: c.attribute };
      if (c.channelId !== undefined) out.channelId = c.channelId;
      return out;
    }
  }
}

/** An object leaf with its keys in one order, an empty label or direction dropped (any), -0 as 0. */
function normaliseObject(c: ObjectCondition): ObjectCondition {
  const label = c.label === undefined || c.label === '' ? {} : { label: c.label };
  const zero = (n: number) => (Object.is(n, -0) ? 0 : n);
  switch (c.type) {
    case 'entered':
      return { type: 'entered', zone: c.zone, ...label };
    case 'crossed':
      return { type: 'crossed', line: c.line, ...(c.direction && { direction: c.direction }), ...label };
    case 'dwell':
      return { type: 'dwell', zone: c.zone, ...label, seconds: zero(c.seconds) };
    case 'inZone':
      return { type: 'inZone', zone: c.zone, ...label, operator: c.operator, value: zero(c.value) };
  }
}

function foldChannels(items: Condition[]): Condition[] {
  const out: Condition[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const next = items[i + 1];
    if (isChannelTest(item) && next && takesChannel(next)) {
      out.push({ ...next, channelId: item.value });
      i++;
    } else {
      out.push(item);
    }
  }
  return out;
}

function normaliseSchedule(c: ScheduleCondition): Condition {
  const out: ScheduleCondition = { type: 'schedule' };
  if (c.date && (c.date.from !== undefined || c.date.to !== undefined)) {
    out.date = {};
    if (c.date.from !== undefined) out.date.from = c.date.from;
    if (c.date.to !== undefined) out.date.to = c.date.to;
  }
  if (c.weekDays && c.weekDays.length) out.weekDays = [...new Set(c.weekDays)].sort((a, b) => a - b);
  if (c.timeOfDay && (c.timeOfDay.from !== undefined || c.timeOfDay.to !== undefined)) {
    out.timeOfDay = {};
    if (c.timeOfDay.from !== undefined) out.timeOfDay.from = c.timeOfDay.from;
    if (c.timeOfDay.to !== undefined) out.timeOfDay.to = c.timeOfDay.to;
  }
  return out.date || out.weekDays || out.timeOfDay ? out : { type: 'and', items: [] };
}

/** Every landmark id the tree refers to, distinct. */
export function landmarkIds(c: Condition | null): string[] {
  const ids = new Set<string>();
  const walk = (n: Condition) => {
    if (n.type === 'and' || n.type === 'or') n.items.forEach(walk);
    else if (n.type === 'not' || n.type === 'for' || n.type === 'becomes') walk(n.item);
    else if (isLandmark(n)) n.ids.forEach((id) => ids.add(id));
  };
  if (c) walk(c);
  return [...ids];
}

/** The object leaves of a tree (entered, crossed, dwell, inZone), in pre-order. */
export function objectLeaves(c: Condition | null): ObjectCondition[] {
  const out: ObjectCondition[] = [];
  const walk = (n: Condition) => {
    if (isObjectCondition(n)) out.push(n);
    childrenOf(n).forEach(walk);
  };
  if (c) walk(c);
  return out;
}

/** Depth (a leaf is 1) and node count. */
export function measure(c: Condition): { depth: number; nodes: number } {
  if (c.type === 'and' || c.type === 'or') {
    let depth = 0;
    let nodes = 1;
    for (const item of c.items) {
      const m = measure(item);
      depth = Math.max(depth, m.depth);
      nodes += m.nodes;
    }
    return { depth: depth + 1, nodes };
  }
  if (c.type === 'not' || c.type === 'for' || c.type === 'becomes') {
    const m = measure(c.item);
    return { depth: m.depth + 1, nodes: m.nodes + 1 };
  }
  return { depth: 1, nodes: 1 };
}
