// Parsing of the object forms of conditions into the condition tree, and the
// Gen B JSON form the API returns (docs/CONTRACT.md#v2-rules):
//
// - Gen B `conditionsObject`: a node or an array of nodes (an array is their
//   conjunction); nodes {type: "and"|"or", items}, {type: "not", items: [one]}
//   (our addition: Gen B had no negation; docs/CONTRACT.md#diff-rule-forms), the landmark leaves
//   {type: "enterLandmark"|"exitLandmark"|"insideLandmark"|"outsideLandmark",
//   ids, attribute?, channelId?}, {type: "matchAttribute", attribute, operator,
//   value, channelId?}, {type: "schedule", date{from,to}, weekDays,
//   timeOfDay{from,to}}; and the SDK spelling {type: "landmark", trigger, ids},
//   {type: "attribute", …}, schedules with minutesOfDay{from,to} and timezone.
// - Gen A `logicalCondition`: {"and"|"or"|"not": [node…]} and predicates by
//   `type` ("enter landmark", "event occurred between times of day", …).
//
// Timezones named inside conditions (Gen A predicates, SDK schedules) are
// collected: a rule has one timezone, its `properties.timezone`.
import { z } from 'zod';
import { ConditionError } from './errors.js';
import { MAX_DATE_MS, isoDate, parseFreeForm } from './expression.js';
import {
  ATTRIBUTE_OPERATORS,
  ATTRIBUTE_PATH,
  COMPARISON_OPERATORS,
  DEFAULT_POSITION_ATTRIBUTE,
  FALSE,
  LANDMARK_TYPES,
  LIMITS,
  MAX_HELD_EVENTS,
  MAX_HELD_SECONDS,
  OBJECT_CONDITION_TYPES,
  SECONDS_PER_DAY,
  TRUE,
  measure,
  normalise,
  type AttributeCondition,
  type AttributeOperator,
  type ComparisonOperator,
  type Condition,
  type DetectionsCondition,
  type ForCondition,
  type LandmarkCondition,
  type LandmarkConditionType,
  type ObjectCondition,
  type ScheduleCondition,
} from './model.js';

export interface ParsedConditions {
  /** null: the rule has no conditions */
  tree: Condition | null;
  /** a timezone named inside the conditions, if any */
  timezone?: string;
}

interface Context {
  timezone?: { value: string; where: string };
}

const MAX_ITEMS = 100;

export function isValidTimezone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function useTimezone(ctx: Context, value: string | null | undefined, where: string): void {
  if (value === undefined || value === null || value === '') return;
  if (!isValidTimezone(value)) throw new ConditionError(where, `unknown time zone "${value}"`);
  if (ctx.timezone && ctx.timezone.value !== value) {
    throw new ConditionError(
      where,
      `time zone "${value}" differs from "${ctx.timezone.value}" (${ctx.timezone.where}); a rule has one time zone`,
    );
  }
  ctx.timezone ??= { value, where };
}

function check<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ConditionError([where, ...issue.path.map(String)].join('.'), issue.message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finish(tree: Condition | null, ctx: Context, where: string): ParsedConditions {
  if (tree) {
    tree = normalise(tree);
    if (measure(tree).nodes > LIMITS.nodes) throw new ConditionError(where, `more than ${LIMITS.nodes} conditions`);
  }
  return ctx.timezone ? { tree, timezone: ctx.timezone.value } : { tree };
}

// ---------------------------------------------------------------- field schemas

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** `event.data.tempF`; a path without `event.` is taken as a path into the event. */
const attributePath = z
  .string()
  .trim()
  .max(256)
  .transform((s) => (s.startsWith('event.') ? s : `event.${s}`))
  .refine(
    (s) => ATTRIBUTE_PATH.test(s),
    'must be a path like event.data.tempF (identifiers and array indexes separated by dots)',
  );

const channelId = optional(z.string().trim().max(64)).transform((s) => (s === '' ? undefined : s));
const landmarkId = z.string().trim().min(1).max(64);
const landmarkIds = z.array(landmarkId).min(1, 'must name at least one landmark').max(LIMITS.idsPerLeaf);
const description = optional(z.string().max(2000));

const dateValue = z.union([z.number(), z.string().max(40)]).transform((v, ctx) => {
  const ms =
    typeof v === 'number'
      ? v
      : /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(v)
        ? Date.parse(v)
        : /^\d{1,16}$/.test(v)
          ? Number(v)
          : NaN;
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_DATE_MS) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be epoch milliseconds or an ISO 8601 date with a time zone (1970–9999)',
    });
    return z.NEVER;
  }
  return ms;
});

const secondsOfDay = z.number().int().min(0).max(SECONDS_PER_DAY);
const weekDay = z.number().int().min(0).max(6);

const operator = z
  .string()
  .transform((op) => (op === '===' ? '==' : op === '!==' ? '!=' : op))
  .refine(
    (op) => (ATTRIBUTE_OPERATORS as readonly string[]).includes(op),
    `must be one of ${ATTRIBUTE_OPERATORS.join(' ')}`,
  )
  .transform((op) => op as AttributeOperator);

const literalValue = z.union(
  [z.string().max(LIMITS.stringLength), z.number().refine(Number.isFinite, 'must be finite'), z.boolean()],
  {
    error: 'must be a string, a number or a boolean',
  },
);

// ---------------------------------------------------------------- Gen B

const landmarkLeaf = z
  .object({ type: z.string(), ids: landmarkIds, attribute: optional(attributePath), channelId, description })
  .strict();
const sdkLandmarkLeaf = landmarkLeaf.extend({ trigger: z.enum(['enter', 'exit', 'inside', 'outside']) }).strict();
const attributeLeaf = z
  .object({ type: z.string(), attribute: attributePath, operator, value: literalValue, channelId, description })
  .strict();
const range = <T extends z.ZodType>(v: T) => optional(z.object({ from: optional(v), to: optional(v) }).strict());
const scheduleLeaf = z
  .object({
    type: z.string(),
    date: range(dateValue),
    weekDays: optional(z.array(weekDay).max(7)),
    timeOfDay: range(secondsOfDay),
    minutesOfDay: range(
      z
        .number()
        .int()
        .min(0)
        .max(SECONDS_PER_DAY / 60),
    ),
    timezone: optional(z.string()),
    description,
  })
  .strict();
const compound = z.object({ type: z.string(), items: z.array(z.unknown()).max(MAX_ITEMS), description }).strict();
const heldFor = z
  .object({
    type: z.string(),
    seconds: optional(z.number().min(0).max(MAX_HELD_SECONDS)),
    events: optional(z.number().int().min(0).max(MAX_HELD_EVENTS)),
    items: z.array(z.unknown()).max(MAX_ITEMS),
    description,
  })
  .strict();
const becomes = z
  .object({ type: z.string(), to: z.boolean(), items: z.array(z.unknown()).max(MAX_ITEMS), description })
  .strict();
const detectionsLeaf = z
  .object({
    type: z.string(),
    label: z.string().min(1).max(LIMITS.stringLength),
    zone: optional(z.string().max(64)),
    minScore: optional(z.number().min(0).max(1)),
    child: optional(z.string().max(LIMITS.stringLength)),
    operator: z
      .string()
      .refine(
        (op) => (COMPARISON_OPERATORS as readonly string[]).includes(op),
        `must be one of ${COMPARISON_OPERATORS.join(' ')}`,
      )
      .transform((op) => op as ComparisonOperator),
    value: z.number().refine(Number.isFinite, 'must be finite'),
    description,
  })
  .strict();

const comparisonOperator = z
  .string()
  .refine(
    (op) => (COMPARISON_OPERATORS as readonly string[]).includes(op),
    `must be one of ${COMPARISON_OPERATORS.join(' ')}`,
  )
  .transform((op) => op as ComparisonOperator);
const placeName = z.string().min(1).max(64);
const objectLabel = optional(z.string().max(LIMITS.stringLength));
const objectLeaves = {
  entered: z.object({ type: z.string(), zone: placeName, label: objectLabel, description }).strict(),
  crossed: z
    .object({
      type: z.string(),
      line: placeName,
      direction: optional(z.enum(['in', 'out'])),
      label: objectLabel,
      description,
    })
    .strict(),
  dwell: z
    .object({
      type: z.string(),
      zone: placeName,
      label: objectLabel,
      seconds: z.number().gt(0).max(MAX_HELD_SECONDS),
      description,
    })
    .strict(),
  inZone: z
    .object({
      type: z.string(),
      zone: placeName,
      label: objectLabel,
      operator: comparisonOperator,
      value: z.number().refine(Number.isFinite, 'must be finite'),
      description,
    })
    .strict(),
};

const GEN_B_TYPES = [
  'and',
  'or',
  'not',
  'for',
  'becomes',
  ...Object.values(LANDMARK_TYPES),
  'landmark',
  'matchAttribute',
  'attribute',
  'schedule',
  'detections',
  ...OBJECT_CONDITION_TYPES,
];

function landmark(type: LandmarkConditionType, leaf: z.infer<typeof landmarkLeaf>): LandmarkCondition {
  const out: LandmarkCondition = { type, ids: leaf.ids, attribute: leaf.attribute ?? DEFAULT_POSITION_ATTRIBUTE };
  if (leaf.channelId !== undefined) out.channelId = leaf.channelId;
  return out;
}

function genBNode(value: unknown, where: string, depth: number, ctx: Context): Condition {
  if (depth > LIMITS.depth) throw new ConditionError(where, `nested deeper than ${LIMITS.depth} levels`);
  if (!isObject(value) || typeof value.type !== 'string')
    throw new ConditionError(where, 'must be a condition object with a "type"');
  const type = value.type;
  switch (type) {
    case 'and':
    case 'or': {
      const node = check(compound, value, where);
      return { type, items: node.items.map((item, i) => genBNode(item, `${where}.items.${i}`, depth + 1, ctx)) };
    }
    case 'not': {
      const node = check(compound, value, where);
      if (node.items.length !== 1) throw new ConditionError(`${where}.items`, 'not takes exactly one condition');
      return { type: 'not', item: genBNode(node.items[0], `${where}.items.0`, depth + 1, ctx) };
    }
    case 'for': {
      const node = check(heldFor, value, where);
      if (node.items.length !== 1) throw new ConditionError(`${where}.items`, 'for takes exactly one condition');
      if (!(node.seconds ?? 0) && !(node.events ?? 0))
        throw new ConditionError(where, 'for needs seconds or events (or both) above 0');
      const out: ForCondition = { type: 'for', item: genBNode(node.items[0], `${where}.items.0`, depth + 1, ctx) };
      if (node.seconds !== undefined) out.seconds = node.seconds;
      if (node.events !== undefined) out.events = node.events;
      return out;
    }
    case 'becomes': {
      const node = check(becomes, value, where);
      if (node.items.length !== 1) throw new ConditionError(`${where}.items`, 'becomes takes exactly one condition');
      return { type: 'becomes', to: node.to, item: genBNode(node.items[0], `${where}.items.0`, depth + 1, ctx) };
    }
    case 'enterLandmark':
    case 'exitLandmark':
    case 'insideLandmark':
    case 'outsideLandmark':
      return landmark(type, check(landmarkLeaf, value, where));
    case 'landmark': {
      const leaf = check(sdkLandmarkLeaf, value, where);
      return landmark(LANDMARK_TYPES[leaf.trigger], leaf);
    }
    case 'matchAttribute':
    case 'attribute': {
      const leaf = check(attributeLeaf, value, where);
      const out: AttributeCondition = {
        type: 'matchAttribute',
        attribute: leaf.attribute,
        operator: leaf.operator,
        value: leaf.value,
      };
      if (leaf.channelId !== undefined) out.channelId = leaf.channelId;
      return out;
    }
    case 'schedule': {
      const leaf = check(scheduleLeaf, value, where);
      useTimezone(ctx, leaf.timezone, `${where}.timezone`);
      if (leaf.timeOfDay && leaf.minutesOfDay)
        throw new ConditionError(where, 'give timeOfDay (seconds) or minutesOfDay, not both');
      const out: ScheduleCondition = { type: 'schedule' };
      if (leaf.date) out.date = stripUndefined(leaf.date);
      if (leaf.weekDays) out.weekDays = leaf.weekDays;
      if (leaf.timeOfDay) out.timeOfDay = stripUndefined(leaf.timeOfDay);
      if (leaf.minutesOfDay) {
        out.timeOfDay = stripUndefined({
          from: leaf.minutesOfDay.from === undefined ? undefined : leaf.minutesOfDay.from * 60,
          to: leaf.minutesOfDay.to === undefined ? undefined : leaf.minutesOfDay.to * 60,
        });
      }
      return out;
    }
    case 'detections': {
      const leaf = check(detectionsLeaf, value, where);
      const out: DetectionsCondition = {
        type: 'detections',
        label: leaf.label,
        operator: leaf.operator,
        value: leaf.value,
      };
      if (leaf.zone !== undefined) out.zone = leaf.zone;
      if (leaf.minScore !== undefined) out.minScore = leaf.minScore;
      if (leaf.child !== undefined) out.child = leaf.child;
      return out;
    }
    case 'entered':
    case 'crossed':
    case 'dwell':
    case 'inZone': {
      const schema: z.ZodType<Record<string, unknown>> = objectLeaves[type];
      const { description: _description, ...leaf } = check(schema, value, where);
      return stripUndefined(leaf) as unknown as ObjectCondition;
    }
    default:
      throw new ConditionError(`${where}.type`, `unknown condition type "${type}" (one of ${GEN_B_TYPES.join(', ')})`);
  }
}

function stripUndefined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}

/** Gen B `conditionsObject` (a node, or an array of nodes: their conjunction; [] or null: no conditions). */
export function parseConditionsObject(value: unknown, where = 'conditionsObject'): ParsedConditions {
  const ctx: Context = {};
  if (value === null || value === undefined) return { tree: null };
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) throw new ConditionError(where, `more than ${MAX_ITEMS} conditions`);
    const items = value.map((item, i) => genBNode(item, `${where}.${i}`, 1, ctx));
    return finish(items.length === 0 ? null : items.length === 1 ? items[0]! : { type: 'and', items }, ctx, where);
  }
  return finish(genBNode(value, where, 1, ctx), ctx, where);
}

// ---------------------------------------------------------------- Gen A

const GEN_A_PREDICATES = [
  'always true',
  'always false',
  'enter landmark',
  'exit landmark',
  'inside landmark',
  'outside landmark',
  'event occurred after',
  'event occurred before',
  'event occurred between times of day',
  'event occurred on day of week',
  'event free form',
];

const typeOnly = z.object({ type: z.string() }).strict();
const landmarkPredicate = z.object({ type: z.string(), landmarkId }).strict();
const momentPredicate = z.object({ type: z.string(), moment: dateValue }).strict();
const timeZone = optional(z.string());
const timesOfDayPredicate = z
  .object({
    type: z.string(),
    startInSecondsSinceMidnight: secondsOfDay,
    endInSecondsSinceMidnight: secondsOfDay,
    timeZone,
  })
  .strict();
const dayOfWeekPredicate = z.object({ type: z.string(), dayOfWeek: weekDay, timeZone }).strict();
const freeFormPredicate = z.object({ type: z.string(), predicate: z.string().max(LIMITS.stringLength) }).strict();

function genANode(value: unknown, where: string, depth: number, ctx: Context): Condition {
  if (depth > LIMITS.depth) throw new ConditionError(where, `nested deeper than ${LIMITS.depth} levels`);
  if (!isObject(value))
    throw new ConditionError(where, 'must be an object: {"and"|"or"|"not": [...]} or a predicate {"type": ...}');
  const keys = Object.keys(value);
  if (keys.length === 1 && (keys[0] === 'and' || keys[0] === 'or' || keys[0] === 'not')) {
    const op = keys[0];
    const raw = value[op];
    const items = Array.isArray(raw) ? raw : [raw];
    if (items.length > MAX_ITEMS) throw new ConditionError(`${where}.${op}`, `more than ${MAX_ITEMS} conditions`);
    const parsed = items.map((item, i) => genANode(item, `${where}.${op}.${i}`, depth + 1, ctx));
    if (op !== 'not') return { type: op, items: parsed };
    if (parsed.length !== 1) throw new ConditionError(`${where}.not`, 'not takes exactly one condition');
    return { type: 'not', item: parsed[0]! };
  }
  if (typeof value.type !== 'string') {
    throw new ConditionError(where, 'must be {"and"|"or"|"not": [...]} or a predicate with a "type"');
  }
  const type = value.type;
  switch (type) {
    case 'always true':
      check(typeOnly, value, where);
      return TRUE;
    case 'always false':
      check(typeOnly, value, where);
      return FALSE;
    case 'enter landmark':
    case 'exit landmark':
    case 'inside landmark':
    case 'outside landmark': {
      const p = check(landmarkPredicate, value, where);
      return {
        type: LANDMARK_TYPES[type.split(' ')[0] as keyof typeof LANDMARK_TYPES],
        ids: [p.landmarkId],
        attribute: DEFAULT_POSITION_ATTRIBUTE,
      };
    }
    case 'event occurred after':
      return { type: 'schedule', date: { from: check(momentPredicate, value, where).moment } };
    case 'event occurred before':
      return { type: 'schedule', date: { to: check(momentPredicate, value, where).moment } };
    case 'event occurred between times of day': {
      const p = check(timesOfDayPredicate, value, where);
      useTimezone(ctx, p.timeZone, `${where}.timeZone`);
      return { type: 'schedule', timeOfDay: { from: p.startInSecondsSinceMidnight, to: p.endInSecondsSinceMidnight } };
    }
    case 'event occurred on day of week': {
      const p = check(dayOfWeekPredicate, value, where);
      useTimezone(ctx, p.timeZone, `${where}.timeZone`);
      return { type: 'schedule', weekDays: [p.dayOfWeek] };
    }
    case 'event free form':
      return parseFreeForm(check(freeFormPredicate, value, where).predicate, `${where}.predicate`);
    case 'landmark has all tags':
    case 'landmark has any tags':
      throw new ConditionError(
        `${where}.type`,
        `"${type}" is not supported: landmark tags are not part of rule conditions`,
      );
    default:
      throw new ConditionError(
        `${where}.type`,
        `unknown predicate type "${type}" (one of ${GEN_A_PREDICATES.map((t) => `"${t}"`).join(', ')})`,
      );
  }
}

/** Gen A `logicalCondition`; null: no conditions. */
export function parseLogicalCondition(value: unknown, where = 'logicalCondition'): ParsedConditions {
  if (value === null || value === undefined) return { tree: null };
  const ctx: Context = {};
  return finish(genANode(value, where, 1, ctx), ctx, where);
}

// ---------------------------------------------------------------- Gen B output

export type GenBNode = Record<string, unknown> & { type: string };

const OPERATOR_WORDS: Record<AttributeOperator, string> = {
  '==': 'is equal to',
  '!=': 'is not equal to',
  '<': 'is less than',
  '<=': 'is at most',
  '>': 'is greater than',
  '>=': 'is at least',
  contains: 'contains',
};

/** A tree in the Gen B JSON form (what GET returns, and what parseConditionsObject reads back). */
function toConditionsObject(c: Condition): GenBNode {
  switch (c.type) {
    case 'and':
    case 'or':
      return { type: c.type, items: c.items.map(toConditionsObject) };
    case 'not':
      return { type: 'not', items: [toConditionsObject(c.item)] };
    case 'for':
      return {
        type: 'for',
        ...(c.seconds === undefined ? {} : { seconds: c.seconds }),
        ...(c.events === undefined ? {} : { events: c.events }),
        items: [toConditionsObject(c.item)],
      };
    case 'becomes':
      return { type: 'becomes', to: c.to, items: [toConditionsObject(c.item)] };
    case 'matchAttribute': {
      const where = c.channelId === undefined ? '' : ` from channel ${c.channelId}`;
      return {
        type: 'matchAttribute',
        ...(c.channelId === undefined ? {} : { channelId: c.channelId }),
        attribute: c.attribute,
        operator: c.operator,
        value: c.value,
        description: `When event (${c.attribute})${where} ${OPERATOR_WORDS[c.operator]} ${String(c.value)}`,
      };
    }
    case 'schedule': {
      const out: GenBNode = { type: 'schedule' };
      if (c.date) {
        out.date = {
          ...(c.date.from === undefined ? {} : { from: isoDate(c.date.from) }),
          ...(c.date.to === undefined ? {} : { to: isoDate(c.date.to) }),
        };
      }
      if (c.weekDays) out.weekDays = c.weekDays;
      if (c.timeOfDay) out.timeOfDay = { ...c.timeOfDay };
      return out;
    }
    case 'detections': {
      const filters = [
        c.zone === undefined ? '' : ` in zone ${c.zone}`,
        c.minScore === undefined ? '' : ` scoring at least ${c.minScore}`,
        c.child === undefined ? '' : ` with a child detection of ${c.child}`,
      ].join('');
      return {
        type: 'detections',
        label: c.label,
        ...(c.zone === undefined ? {} : { zone: c.zone }),
        ...(c.minScore === undefined ? {} : { minScore: c.minScore }),
        ...(c.child === undefined ? {} : { child: c.child }),
        operator: c.operator,
        value: c.value,
        description: `When the frame's detections of ${c.label}${filters} ${OPERATOR_WORDS[c.operator]} ${c.value}`,
      };
    }
    case 'entered':
    case 'crossed':
    case 'dwell':
    case 'inZone':
      return { ...c, description: describeObject(c) };
    default:
      return {
        type: c.type,
        ids: c.ids,
        attribute: c.attribute,
        ...(c.channelId === undefined ? {} : { channelId: c.channelId }),
      };
  }
}

/** The stored and returned `conditionsObject`: [root] as in the published examples, [] without conditions. */
export function conditionsObjectOf(tree: Condition | null): GenBNode[] {
  return tree ? [toConditionsObject(tree)] : [];
}

/** The sentence a Gen B object leaf carries. */
function describeObject(c: ObjectCondition): string {
  const what = c.label === undefined ? 'an object' : `an object of ${c.label}`;
  switch (c.type) {
    case 'entered':
      return `When ${what} enters zone ${c.zone}`;
    case 'crossed':
      return `When ${what} crosses line ${c.line}${c.direction === undefined ? '' : ` ${c.direction}`}`;
    case 'dwell':
      return `When ${what} has stayed in zone ${c.zone} for ${c.seconds} s`;
    case 'inZone':
      return `When the objects${c.label === undefined ? '' : ` of ${c.label}`} in zone ${c.zone} ${OPERATOR_WORDS[c.operator]} ${c.value}`;
  }
}
