// Rule conditions without a server: every input form into the one tree, the
// expression generator and its parser (operators, errors with positions),
// the round trips tree → string → tree and tree → Gen B → tree over
// generated trees, evaluation helpers, and action validation.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { isSealed, Secrets, UnopenableSecretError } from '../../src/platform/secrets.js';
import {
  actionsSchema,
  prepareActions,
  presentActions,
  SECRET_MASK,
  webhookOrigin,
} from '../../src/platform/rules/actions.js';
import { webhookTarget } from '../../src/platform/rules/action-runner.js';
import {
  compareValues,
  countDetections,
  evaluateCondition,
  objectHolds,
  scheduleHolds,
} from '../../src/platform/rules/evaluate.js';
import { generateExpression, parseExpression } from '../../src/platform/rules/expression.js';
import { conditionsObjectOf, parseConditionsObject, parseLogicalCondition } from '../../src/platform/rules/inputs.js';
import {
  ATTRIBUTE_OPERATORS,
  COMPARISON_OPERATORS,
  normalise,
  type ObjectCondition,
  type Condition,
  type LandmarkConditionType,
} from '../../src/platform/rules/model.js';
import { conditionError, syntaxError } from '../helpers/rule-errors.js';

const L1 = '01CRQZWCEJ31SM9RCHWA3NQ3TH';
const L2 = '01CRQZWD01K2WAEXK3ATDXYRC9';
const CH = '01CRQZWB0ZH5RY9A5JXHJ5YW5Q';
const POS = 'event.location.position';

describe('Gen B conditionsObject', () => {
  it('parses the published example (array root, nested and, schedule, matchAttribute with channel)', () => {
    const parsed = parseConditionsObject([
      {
        type: 'and',
        items: [
          { type: 'schedule', date: { from: '2018-09-05T06:11:24.000Z' }, timeOfDay: { from: 1, to: 100 } },
          {
            type: 'and',
            items: [
              {
                type: 'matchAttribute',
                channelId: 'someid',
                attribute: 'event.name',
                operator: '==',
                value: 'monster',
                description: 'When event (event.name) …',
              },
            ],
          },
        ],
      },
    ]);
    expect(parsed.tree).toEqual({
      type: 'and',
      items: [
        { type: 'schedule', date: { from: Date.parse('2018-09-05T06:11:24.000Z') }, timeOfDay: { from: 1, to: 100 } },
        { type: 'matchAttribute', attribute: 'event.name', operator: '==', value: 'monster', channelId: 'someid' },
      ],
    });
    expect(generateExpression(parsed.tree)).toBe(
      "(date('>=', '2018-09-05T06:11:24.000Z') && timeOfDay('between', 1, 100)) && (event.channelId == 'someid' && event.name == 'monster')",
    );
  });

  it('parses the four landmark leaves, or, not, and an array as a conjunction', () => {
    const types: LandmarkConditionType[] = ['enterLandmark', 'exitLandmark', 'insideLandmark', 'outsideLandmark'];
    for (const type of types) {
      expect(parseConditionsObject({ type, ids: [L1, L2], channelId: CH }).tree).toEqual({
        type,
        ids: [L1, L2],
        attribute: POS,
        channelId: CH,
      });
    }
    const tree = parseConditionsObject([
      {
        type: 'or',
        items: [
          { type: 'insideLandmark', ids: [L1] },
          { type: 'not', items: [{ type: 'outsideLandmark', ids: [L2] }] },
        ],
      },
      { type: 'matchAttribute', attribute: 'data.tempF', operator: '>=', value: 70 },
    ]).tree;
    expect(tree).toEqual({
      type: 'and',
      items: [
        {
          type: 'or',
          items: [
            { type: 'insideLandmark', ids: [L1], attribute: POS },
            { type: 'not', item: { type: 'outsideLandmark', ids: [L2], attribute: POS } },
          ],
        },
        { type: 'matchAttribute', attribute: 'event.data.tempF', operator: '>=', value: 70 },
      ],
    });
    expect(parseConditionsObject([]).tree).toBeNull();
    expect(parseConditionsObject(null).tree).toBeNull();
  });

  it('parses the SDK spelling: landmark with trigger, attribute, schedule with minutesOfDay and timezone', () => {
    expect(parseConditionsObject({ type: 'landmark', trigger: 'exit', ids: [L1] }).tree).toEqual({
      type: 'exitLandmark',
      ids: [L1],
      attribute: POS,
    });
    expect(
      parseConditionsObject({ type: 'attribute', attribute: 'event.x', operator: '===', value: true }).tree,
    ).toEqual({
      type: 'matchAttribute',
      attribute: 'event.x',
      operator: '==',
      value: true,
    });
    const schedule = parseConditionsObject({
      type: 'schedule',
      timezone: 'Europe/Paris',
      weekDays: [5, 1, 1],
      minutesOfDay: { from: 60, to: 120 },
      date: { to: 1538403490032 },
    });
    expect(schedule).toEqual({
      tree: { type: 'schedule', date: { to: 1538403490032 }, weekDays: [1, 5], timeOfDay: { from: 3600, to: 7200 } },
      timezone: 'Europe/Paris',
    });
  });

  it('names the offending node and field', () => {
    expect(conditionError(() => parseConditionsObject({ type: 'and', items: [{ type: 'bogus' }] })).message).toMatch(
      /^conditionsObject\.items\.0\.type: unknown condition type "bogus"/,
    );
    expect(conditionError(() => parseConditionsObject({ type: 'enterLandmark', ids: [] })).message).toBe(
      'conditionsObject.ids: must name at least one landmark',
    );
    expect(
      conditionError(() =>
        parseConditionsObject({ type: 'matchAttribute', attribute: 'event.x', operator: '~=', value: 1 }),
      ).message,
    ).toMatch(/^conditionsObject\.operator: must be one of/);
    expect(
      conditionError(() =>
        parseConditionsObject({ type: 'matchAttribute', attribute: 'event..x', operator: '==', value: 1 }),
      ).message,
    ).toMatch(/^conditionsObject\.attribute: must be a path/);
    expect(
      conditionError(() =>
        parseConditionsObject({ type: 'matchAttribute', attribute: 'event.x', operator: '==', value: { a: 1 } }),
      ).message,
    ).toMatch(/^conditionsObject\.value:/);
    expect(
      conditionError(() => parseConditionsObject({ type: 'insideLandmark', ids: [L1], extra: 1 })).message,
    ).toMatch(/^conditionsObject: Unrecognized key: "extra"/);
    expect(
      conditionError(() =>
        parseConditionsObject({
          type: 'not',
          items: [
            { type: 'insideLandmark', ids: [L1] },
            { type: 'insideLandmark', ids: [L2] },
          ],
        }),
      ).message,
    ).toBe('conditionsObject.items: not takes exactly one condition');
    expect(conditionError(() => parseConditionsObject({ type: 'schedule', weekDays: [7] })).message).toMatch(
      /^conditionsObject\.weekDays\.0:/,
    );
    expect(
      conditionError(() => parseConditionsObject({ type: 'schedule', date: { from: '2018-09-05T06:11' } })).message,
    ).toMatch(/^conditionsObject\.date\.from: must be epoch milliseconds or an ISO 8601 date/);
    expect(conditionError(() => parseConditionsObject({ type: 'schedule', timezone: 'Mars/Olympus' })).message).toBe(
      'conditionsObject.timezone: unknown time zone "Mars/Olympus"',
    );
    let deep: unknown = { type: 'insideLandmark', ids: [L1] };
    for (let i = 0; i < 40; i++) deep = { type: 'not', items: [deep] };
    expect(conditionError(() => parseConditionsObject(deep)).message).toMatch(/nested deeper than 32 levels/);
  });
});

describe('Gen A logicalCondition', () => {
  it('parses every predicate type', () => {
    const { tree, timezone } = parseLogicalCondition({
      and: [
        { type: 'enter landmark', landmarkId: L1 },
        { type: 'exit landmark', landmarkId: L1 },
        { type: 'inside landmark', landmarkId: L2 },
        { type: 'outside landmark', landmarkId: L2 },
        { or: [{ type: 'always true' }, { type: 'always false' }] },
        { not: [{ type: 'event occurred after', moment: '2018-01-01T00:00:00Z' }] },
        { type: 'event occurred before', moment: '2019-01-01T00:00:00Z' },
        {
          type: 'event occurred between times of day',
          startInSecondsSinceMidnight: 79200,
          endInSecondsSinceMidnight: 21600,
          timeZone: 'America/New_York',
        },
        { type: 'event occurred on day of week', dayOfWeek: 0, timeZone: 'America/New_York' },
        { type: 'event free form', predicate: 'data.tempF == 67' },
        { type: 'event free form', predicate: "deviceId == '01ABC'" },
        { type: 'event free form', predicate: 'properties.type != "ios"' },
        { type: 'event free form', predicate: 'event.powers.0.batteryLevel < -1.5e2' },
      ],
    });
    expect(timezone).toBe('America/New_York');
    expect(tree).toEqual({
      type: 'and',
      items: [
        { type: 'enterLandmark', ids: [L1], attribute: POS },
        { type: 'exitLandmark', ids: [L1], attribute: POS },
        { type: 'insideLandmark', ids: [L2], attribute: POS },
        { type: 'outsideLandmark', ids: [L2], attribute: POS },
        {
          type: 'or',
          items: [
            { type: 'and', items: [] },
            { type: 'or', items: [] },
          ],
        },
        { type: 'not', item: { type: 'schedule', date: { from: Date.parse('2018-01-01T00:00:00Z') } } },
        { type: 'schedule', date: { to: Date.parse('2019-01-01T00:00:00Z') } },
        { type: 'schedule', timeOfDay: { from: 79200, to: 21600 } },
        { type: 'schedule', weekDays: [0] },
        { type: 'matchAttribute', attribute: 'event.data.tempF', operator: '==', value: 67 },
        { type: 'matchAttribute', attribute: 'event.deviceId', operator: '==', value: '01ABC' },
        { type: 'matchAttribute', attribute: 'event.properties.type', operator: '!=', value: 'ios' },
        { type: 'matchAttribute', attribute: 'event.powers.0.batteryLevel', operator: '<', value: -150 },
      ],
    });
    expect(parseLogicalCondition({ type: 'always true' }).tree).toEqual({ type: 'and', items: [] });
    expect(generateExpression(parseLogicalCondition({ type: 'always false' }).tree)).toBe('false');
  });

  it('refuses free-form predicates that are not "path op literal", with the position', () => {
    const cases: Array<[string, RegExp]> = [
      ['data.a == 1 && data.b == 2', /at position 12: expected end of predicate/],
      ['foo(1) == 2', /at position 3: unexpected character|at position 3: expected a comparison operator/],
      ['data.a', /at position 6: expected a comparison operator/],
      ['data.a == other.b', /at position 10: expected a string, number, true or false/],
      ["data.a == 'open", /at position 10: unterminated string/],
    ];
    for (const [predicate, pattern] of cases) {
      const error = conditionError(() => parseLogicalCondition({ type: 'event free form', predicate }));
      expect(error.where).toBe('logicalCondition.predicate');
      expect(error.message).toMatch(pattern);
      expect(error.message).toMatch(/only "path operator literal" predicates are supported/);
    }
  });

  it('refuses unknown predicates, tag predicates, conflicting time zones, not with two items', () => {
    expect(conditionError(() => parseLogicalCondition({ or: [{ type: 'teleported' }] })).message).toMatch(
      /^logicalCondition\.or\.0\.type: unknown predicate type "teleported"/,
    );
    expect(
      conditionError(() => parseLogicalCondition({ type: 'landmark has all tags', landmark_id: L1, tags: ['a'] }))
        .message,
    ).toMatch(/is not supported/);
    expect(
      conditionError(() =>
        parseLogicalCondition({
          and: [
            { type: 'event occurred on day of week', dayOfWeek: 1, timeZone: 'Europe/Paris' },
            { type: 'event occurred on day of week', dayOfWeek: 2, timeZone: 'Asia/Tokyo' },
          ],
        }),
      ).message,
    ).toMatch(/^logicalCondition\.and\.1\.timeZone: time zone "Asia\/Tokyo" differs from "Europe\/Paris"/);
    expect(
      conditionError(() => parseLogicalCondition({ not: [{ type: 'always true' }, { type: 'always false' }] })).message,
    ).toBe('logicalCondition.not: not takes exactly one condition');
    expect(conditionError(() => parseLogicalCondition({ type: 'enter landmark' })).message).toMatch(
      /^logicalCondition\.landmarkId:/,
    );
  });
});

describe('the expression string', () => {
  it('generates the documented style for a channel-scoped landmark leaf', () => {
    const tree: Condition = { type: 'enterLandmark', ids: [L1], attribute: POS, channelId: CH };
    expect(generateExpression(tree)).toBe(
      `event.channelId == '${CH}' && enterLandmark(('${L1}'), event.location.position)`,
    );
    expect(parseExpression(generateExpression(tree))).toEqual(tree);
  });

  it('parses every operator and literal kind', () => {
    for (const op of ATTRIBUTE_OPERATORS) {
      const source = op === 'contains' ? "contains(event.tags, 'red')" : `event.data.tempF ${op} 5`;
      const tree = parseExpression(source);
      expect(tree).toEqual({
        type: 'matchAttribute',
        attribute: op === 'contains' ? 'event.tags' : 'event.data.tempF',
        operator: op,
        value: op === 'contains' ? 'red' : 5,
      });
      expect(generateExpression(tree)).toBe(source);
    }
    expect(parseExpression("event.name == 'it\\'s a \\\\ test'")).toMatchObject({ value: "it's a \\ test" });
    expect(parseExpression('event.ok == false')).toMatchObject({ value: false });
    expect(parseExpression('event.x >= -0.25e-3')).toMatchObject({ value: -0.00025 });
  });

  it('gives && precedence over ||, and ! binds tightest', () => {
    const a = 'event.a == 1';
    const b = 'event.b == 2';
    const c = 'event.c == 3';
    const leaf = (x: string, v: number) => ({
      type: 'matchAttribute',
      attribute: `event.${x}`,
      operator: '==',
      value: v,
    });
    expect(parseExpression(`${a} || ${b} && ${c}`)).toEqual({
      type: 'or',
      items: [leaf('a', 1), { type: 'and', items: [leaf('b', 2), leaf('c', 3)] }],
    });
    expect(parseExpression(`!${a} && (${b} || ${c})`)).toEqual({
      type: 'and',
      items: [
        { type: 'not', item: leaf('a', 1) },
        { type: 'or', items: [leaf('b', 2), leaf('c', 3)] },
      ],
    });
    expect(parseExpression(`((${a}))`)).toEqual(leaf('a', 1));
    expect(parseExpression('true')).toEqual({ type: 'and', items: [] });
    expect(parseExpression('')).toBeNull();
  });

  it('parses landmark functions with several ids and any position attribute', () => {
    expect(parseExpression(`outsideLandmark(('${L1}', '${L2}'), event.payload.location)`)).toEqual({
      type: 'outsideLandmark',
      ids: [L1, L2],
      attribute: 'event.payload.location',
    });
  });

  it('merges the schedule calls of one && chain into one schedule leaf', () => {
    const tree = parseExpression(
      "event.a == 1 && weekDay((1, 3)) && date('<=', '2030-01-01T00:00:00.000Z') && timeOfDay('>=', 3600) && timeOfDay('<=', 7200)",
    );
    expect(tree).toEqual({
      type: 'and',
      items: [
        { type: 'matchAttribute', attribute: 'event.a', operator: '==', value: 1 },
        {
          type: 'schedule',
          date: { to: Date.parse('2030-01-01T00:00:00.000Z') },
          weekDays: [1, 3],
          timeOfDay: { from: 3600, to: 7200 },
        },
      ],
    });
    expect(generateExpression(tree)).toBe(
      "event.a == 1 && (date('<=', '2030-01-01T00:00:00.000Z') && weekDay((1, 3)) && timeOfDay('between', 3600, 7200))",
    );
    expect(parseExpression("(timeOfDay('>=', 10)) && (weekDay((2)))")).toEqual({
      type: 'and',
      items: [
        { type: 'schedule', timeOfDay: { from: 10 } },
        { type: 'schedule', weekDays: [2] },
      ],
    });
  });

  it('refuses anything else with the position of the failure', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['event.x ==', 10, /expected a string, number, true or false, found end of input/],
      ['foo == 1', 0, /'foo' is not an attribute path/],
      ['event.x == 1 &&', 15, /expected a condition/],
      ['event.x === 1', 10, /unexpected character '='/],
      ["event.x == 'abc", 11, /unterminated string/],
      ['(event.x == 1', 13, /expected '\)'/],
      ['event.x == 1)', 12, /expected &&, \|\| or end of input/],
      ['eval(1)', 0, /unknown function 'eval'/],
      ['event.x == 1 ; drop', 13, /unexpected character ';'/],
      ["timeOfDay('>=', 90000)", 16, /seconds after midnight must be an integer from 0 to 86400/],
      ["timeOfDay('>=', 10) && timeOfDay('>=', 20)", 23, /timeOfDay\('>='\) given twice/],
      ["timeOfDay('>=', 7200) && timeOfDay('<=', 3600)", 25, /never holds; write timeOfDay\('between', 7200, 3600\)/],
      ["date('>', '2018-01-01')", 5, /date takes '>=' or '<='/],
      ["date('>=', '2018-01-01T10:00')", 11, /not an ISO 8601 date with a time zone/],
      ["enterLandmark('x', event.location.position)", 14, /expected '\('/],
      ["event.name == 'a\\nb'", 16, /unknown escape/],
    ];
    for (const [source, position, pattern] of cases) {
      const error = syntaxError(source);
      expect({ source, position: error.position }).toEqual({ source, position });
      expect(error.message).toMatch(pattern);
      expect(error.message).toMatch(new RegExp(`^conditions: at position ${position}: `));
    }
    expect(syntaxError('!'.repeat(40) + 'event.x == 1').message).toMatch(/nested deeper than 32 levels/);
  });

  it('folds event.channelId == … before a leaf into the leaf, in the tree and the string alike', () => {
    const chan = {
      type: 'matchAttribute',
      attribute: 'event.channelId',
      operator: '==',
      value: CH,
    } satisfies Condition;
    const inside = { type: 'insideLandmark', ids: [L1], attribute: POS } satisfies Condition;
    expect(normalise({ type: 'and', items: [chan, inside] })).toEqual({ ...inside, channelId: CH });
    const orTree: Condition = {
      type: 'or',
      items: [
        { ...inside, channelId: CH },
        { type: 'matchAttribute', attribute: 'event.a', operator: '<', value: 2 },
      ],
    };
    expect(generateExpression(orTree)).toBe(
      `(event.channelId == '${CH}' && insideLandmark(('${L1}'), event.location.position)) || event.a < 2`,
    );
    expect(parseExpression(generateExpression(orTree))).toEqual(orTree);
    // a channel test before a channel-scoped leaf stays a test of its own
    const twice: Condition = {
      type: 'and',
      items: [
        { ...chan, value: 'other' },
        { ...inside, channelId: CH },
      ],
    };
    expect(normalise(twice)).toEqual(twice);
    expect(parseExpression(generateExpression(twice))).toEqual(twice);
  });
});

// ---------------------------------------------------------------- round trips over generated trees

function prng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function treeGenerator(random: () => number) {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const strings = ['', 'a', "it's", 'back\\slash', 'ünïcødé ✓', 'x y', "'", '\\', 'new\nline', '&& ||', '01HX'];
  const numbers = [0, -0, 1, -1, 2.5, -1e-7, 1.5e21, 123456789, Number.MAX_SAFE_INTEGER, 0.1 + 0.2];
  const paths = [
    'event.channelId',
    'event.data.tempF',
    'event.attributes.x',
    'event.powers.0.batteryLevel',
    'event.name',
    'event.$a._b',
  ];
  const ids = [L1, L2, "o'dd", 'x'];
  const channel = () => (random() < 0.3 ? pick([CH, 'someid', "ch'x"]) : undefined);
  const literal = () => (random() < 0.4 ? pick(strings) : random() < 0.7 ? pick(numbers) : random() < 0.5);
  const labels = ['cone', 'traffic cone', "it's", 'ünïcødé ✓'];
  const places = ['left', "it's", 'ünïcødé ✓', 'loading_dock'];
  const objectLeaf = (): Condition => {
    const label = random() < 0.5 ? { label: pick(labels) } : {};
    switch (int(4)) {
      case 0:
        return { type: 'entered', zone: pick(places), ...label };
      case 1:
        return {
          type: 'crossed',
          line: pick(places),
          ...(random() < 0.5 ? { direction: pick(['in', 'out'] as const) } : {}),
          ...label,
        };
      case 2:
        return { type: 'dwell', zone: pick(places), ...label, seconds: pick([1, 2.5, 30, 86_400]) };
      default:
        return {
          type: 'inZone',
          zone: pick(places),
          ...label,
          operator: pick(COMPARISON_OPERATORS),
          value: pick(numbers),
        };
    }
  };
  const leaf = (): Condition => {
    const k = int(5);
    if (k === 4) return objectLeaf();
    if (k === 3) {
      const c: Condition = {
        type: 'detections',
        label: pick(labels),
        operator: pick(COMPARISON_OPERATORS),
        value: pick(numbers),
      };
      if (random() < 0.5) c.zone = pick(['', 'left', 'loading_dock']);
      if (random() < 0.5) c.minScore = pick([0, 0.25, 0.5, 1]);
      return c;
    }
    if (k === 0) {
      const c: Condition = {
        type: pick(['enterLandmark', 'exitLandmark', 'insideLandmark', 'outsideLandmark'] as const),
        ids: Array.from({ length: 1 + int(3) }, () => pick(ids)),
        attribute: random() < 0.8 ? POS : pick(paths),
      };
      const ch = channel();
      return ch === undefined ? c : { ...c, channelId: ch };
    }
    if (k === 1) {
      const c: Condition = {
        type: 'matchAttribute',
        attribute: pick(paths),
        operator: pick(ATTRIBUTE_OPERATORS),
        value: literal(),
      };
      const ch = channel();
      return ch === undefined ? c : { ...c, channelId: ch };
    }
    const s: Condition = { type: 'schedule' };
    if (random() < 0.5)
      s.date = {
        ...(random() < 0.7 ? { from: int(2_000_000_000_000) } : {}),
        ...(random() < 0.7 ? { to: int(4_000_000_000_000) } : {}),
      };
    if (random() < 0.5) s.weekDays = Array.from({ length: 1 + int(4) }, () => int(7));
    if (random() < 0.5)
      s.timeOfDay = {
        ...(random() < 0.7 ? { from: int(86_401) } : {}),
        ...(random() < 0.7 ? { to: int(86_401) } : {}),
      };
    return s;
  };
  const tree = (depth: number): Condition => {
    const r = random();
    if (depth <= 0 || r < 0.35) return leaf();
    if (r < 0.43) return { type: 'not', item: tree(depth - 1) };
    if (r < 0.47) {
      const held: Condition = { type: 'for', item: tree(depth - 1) };
      if (random() < 0.7) held.seconds = pick([0.5, 2, 30, 86_400]);
      if (!held.seconds || random() < 0.3) held.events = 1 + int(5);
      return held;
    }
    if (r < 0.5) return { type: 'becomes', to: random() < 0.5, item: tree(depth - 1) };
    return { type: r < 0.75 ? 'and' : 'or', items: Array.from({ length: int(5) }, () => tree(depth - 1)) };
  };
  return tree;
}

describe('round trips', () => {
  it('tree → string → tree is the identity on normalised trees (2000 generated trees)', () => {
    const tree = treeGenerator(prng(20240601));
    for (let i = 0; i < 2000; i++) {
      const t = normalise(tree(4));
      expect(normalise(t)).toEqual(t);
      const source = generateExpression(t);
      let back: Condition | null;
      try {
        back = parseExpression(source);
      } catch (error) {
        throw new Error(`${(error as Error).message}\nsource: ${source}`);
      }
      expect(back, source).toEqual(t);
    }
  });

  it('tree → Gen B JSON → tree is the identity too', () => {
    const tree = treeGenerator(prng(7));
    for (let i = 0; i < 1000; i++) {
      const t = normalise(tree(4));
      const json = JSON.parse(JSON.stringify(conditionsObjectOf(t)));
      expect(parseConditionsObject(json).tree).toEqual(t);
    }
  });
});

describe('evaluation helpers', () => {
  it('reads schedules in the rule time zone, windows across midnight included', () => {
    // 2024-01-15 is a Monday; 23:30 in New York is 04:30 UTC on Tuesday
    const t = new Date('2024-01-16T04:30:00Z');
    expect(scheduleHolds({ type: 'schedule', weekDays: [1] }, t, 'America/New_York')).toBe(true);
    expect(scheduleHolds({ type: 'schedule', weekDays: [1] }, t, 'UTC')).toBe(false);
    expect(
      scheduleHolds({ type: 'schedule', timeOfDay: { from: 22 * 3600, to: 6 * 3600 } }, t, 'America/New_York'),
    ).toBe(true);
    expect(
      scheduleHolds({ type: 'schedule', timeOfDay: { from: 6 * 3600, to: 22 * 3600 } }, t, 'America/New_York'),
    ).toBe(false);
    expect(scheduleHolds({ type: 'schedule', date: { from: t.getTime(), to: t.getTime() } }, t, 'UTC')).toBe(true);
    expect(scheduleHolds({ type: 'schedule', date: { to: t.getTime() - 1 } }, t, 'UTC')).toBe(false);
  });

  it('compares by type and evaluates a tree with the channel scope', () => {
    expect(compareValues('==', 5, 5)).toBe(true);
    expect(compareValues('==', '5', 5)).toBe(false);
    expect(compareValues('<', 'a', 'b')).toBe(true);
    expect(compareValues('>', undefined, 1)).toBe(false);
    expect(compareValues('!=', undefined, 1)).toBe(true);
    expect(compareValues('contains', ['a', 'b'], 'b')).toBe(true);
    expect(compareValues('contains', 'abc', 'bc')).toBe(true);
    const tree = parseExpression(
      `event.channelId == '${CH}' && event.data.tempF > 70 || insideLandmark(('${L1}'), event.location.position)`,
    )!;
    const ctx = (channelId: string, tempF: number, inside: boolean) => ({
      time: new Date(),
      timezone: 'UTC',
      channelId,
      value: (path: string) => (path === 'event.data.tempF' ? tempF : undefined),
      landmark: () => inside,
      detections: () => 0,
      objectEvent: () => undefined,
      memory: () => ({}),
    });
    expect(evaluateCondition(tree, ctx(CH, 71, false))).toBe(true);
    expect(evaluateCondition(tree, ctx('other', 71, false))).toBe(false);
    expect(evaluateCondition(tree, ctx('other', 0, true))).toBe(true);
  });
});

describe('detections conditions', () => {
  const frame = {
    detections: {
      'traffic cone': [
        { type: 'rectangle', score: 0.9, zones: ['left'] },
        { type: 'rectangle', score: 0.4, zones: ['left', 'dock'] },
        { type: 'rectangle', score: 0.8, zones: [] },
      ],
      circle: [{ type: 'rectangle', score: 0.7, zones: ['dock'] }],
    },
  };

  it('parses the expression, Gen B and its SDK fields into one leaf, and writes both back', () => {
    const leaf = { type: 'detections', label: 'traffic cone', zone: 'left', minScore: 0.5, operator: '>=', value: 2 };
    expect(parseExpression("detections('traffic cone', 'left', 0.5) >= 2")).toEqual(leaf);
    expect(parseConditionsObject([leaf]).tree).toEqual(leaf);
    expect(generateExpression(leaf as Condition)).toBe("detections('traffic cone', 'left', 0.5) >= 2");
    expect(conditionsObjectOf(leaf as Condition)).toEqual([
      {
        ...leaf,
        description: "When the frame's detections of traffic cone in zone left scoring at least 0.5 is at least 2",
      },
    ]);
    // No zone ('' is the whole image) and no minimum score are left out.
    expect(parseExpression("detections('cone') > 0")).toEqual({
      type: 'detections',
      label: 'cone',
      operator: '>',
      value: 0,
    });
    expect(parseExpression("detections('cone', '', 0) > 0")).toEqual({
      type: 'detections',
      label: 'cone',
      operator: '>',
      value: 0,
    });
    expect(generateExpression({ type: 'detections', label: 'cone', minScore: 0.3, operator: '==', value: 1 })).toBe(
      "detections('cone', '', 0.3) == 1",
    );
  });

  it('refuses a detections call without its comparison, a score outside 0-1, and a bad Gen B field', () => {
    expect(syntaxError("detections('cone')").message).toMatch(/comparison operator/);
    expect(syntaxError("detections('cone', 'a', 2) > 1").message).toMatch(/minimum score/);
    expect(syntaxError("detections('cone') > 'many'").message).toMatch(/number of detections/);
    expect(
      conditionError(() =>
        parseConditionsObject([{ type: 'detections', label: 'cone', operator: 'contains', value: 1 }]),
      ).message,
    ).toContain('conditionsObject.0.operator');
    expect(
      conditionError(() => parseConditionsObject([{ type: 'detections', label: '', operator: '>', value: 1 }])).message,
    ).toContain('conditionsObject.0.label');
  });

  it("counts a frame's detections of a label, by zone and score; none in an event that is no frame", () => {
    expect(countDetections(frame, 'traffic cone', undefined, undefined)).toBe(3);
    expect(countDetections(frame, 'traffic cone', 'left', undefined)).toBe(2);
    expect(countDetections(frame, 'traffic cone', 'left', 0.5)).toBe(1);
    expect(countDetections(frame, 'traffic cone', undefined, 0.5)).toBe(2);
    expect(countDetections(frame, 'circle', 'left', undefined)).toBe(0);
    expect(countDetections(frame, 'toString', undefined, undefined)).toBe(0); // not an inherited property
    expect(countDetections({ locations: [] }, 'circle', undefined, undefined)).toBe(0);
    expect(countDetections({ detections: 'no' }, 'circle', undefined, undefined)).toBe(0);
  });

  it('evaluates through the context, combined with other conditions', () => {
    const tree = parseExpression("detections('traffic cone', 'left') >= 2 && event.data.armed == true")!;
    const ctx = (count: number, armed: boolean) => ({
      time: new Date(),
      timezone: 'UTC',
      channelId: CH,
      value: (path: string) => (path === 'event.data.armed' ? armed : undefined),
      landmark: () => false,
      detections: (label: string, zone: string | undefined) =>
        label === 'traffic cone' && zone === 'left' ? count : 0,
      objectEvent: () => undefined,
      memory: () => ({}),
    });
    expect(evaluateCondition(tree, ctx(2, true))).toBe(true);
    expect(evaluateCondition(tree, ctx(1, true))).toBe(false);
    expect(evaluateCondition(tree, ctx(2, false))).toBe(false);
  });
});

describe('object conditions', () => {
  const start = {
    type: 'object.start',
    label: 'person',
    entered: ['dock'],
    crossed: [{ line: 'gate', direction: 'in' }],
    dwelled: [{ zone: 'dock', seconds: 30 }],
    inZone: { dock: { person: 2, car: 1 }, yard: {} },
  };

  it('parse from the expression and Gen B into one leaf each, and write both back', () => {
    const cases: Array<[string, Condition, string]> = [
      ["entered('dock')", { type: 'entered', zone: 'dock' }, 'When an object enters zone dock'],
      [
        "crossed('gate', 'in', 'person')",
        { type: 'crossed', line: 'gate', direction: 'in', label: 'person' },
        'When an object of person crosses line gate in',
      ],
      [
        "dwell('dock', 'person') >= 30",
        { type: 'dwell', zone: 'dock', label: 'person', seconds: 30 },
        'When an object of person has stayed in zone dock for 30 s',
      ],
      [
        "inZone('dock') >= 3",
        { type: 'inZone', zone: 'dock', operator: '>=', value: 3 },
        'When the objects in zone dock is at least 3',
      ],
    ];
    for (const [source, leaf, description] of cases) {
      expect(parseExpression(source)).toEqual(leaf);
      expect(generateExpression(leaf)).toBe(source);
      expect(conditionsObjectOf(leaf)).toEqual([{ ...leaf, description }]);
      expect(parseConditionsObject([{ ...leaf, description }]).tree).toEqual(leaf);
    }
    // '' is any label, any direction
    expect(parseExpression("crossed('gate', '', '')")).toEqual({ type: 'crossed', line: 'gate' });
    expect(parseExpression("crossed('gate', '', 'car')")).toEqual({ type: 'crossed', line: 'gate', label: 'car' });
  });

  it('refuse what they cannot mean, saying why', () => {
    expect(() => parseExpression("dwell('dock') > 30")).toThrow("dwell(…) takes '>=' only");
    expect(() => parseExpression("dwell('dock') >= 0")).toThrow('seconds must be above 0');
    expect(() => parseExpression("crossed('gate', 'up')")).toThrow("a crossing's direction is 'in', 'out' or ''");
    expect(() => parseExpression("inZone('dock')")).toThrow('a comparison operator after inZone');
    expect(() => parseConditionsObject([{ type: 'dwell', zone: 'dock', seconds: -1 }])).toThrow(
      'conditionsObject.0.seconds',
    );
    expect(() => parseConditionsObject([{ type: 'crossed', line: 'gate', direction: 'sideways' }])).toThrow(
      'conditionsObject.0.direction',
    );
  });

  it('hold on the object event that tells it, of the label asked, and on no other event', () => {
    const holds = (source: string, event: Record<string, unknown> | undefined) =>
      objectHolds(parseExpression(source) as ObjectCondition, event);
    expect(holds("entered('dock')", start)).toBe(true);
    expect(holds("entered('dock', 'person')", start)).toBe(true);
    expect(holds("entered('dock', 'car')", start)).toBe(false);
    expect(holds("entered('yard')", start)).toBe(false);
    expect(holds("crossed('gate')", start)).toBe(true);
    expect(holds("crossed('gate', 'in')", start)).toBe(true);
    expect(holds("crossed('gate', 'out')", start)).toBe(false);
    expect(holds("dwell('dock') >= 30", start)).toBe(true);
    // the mark of another rule's seconds is not this one's moment
    expect(holds("dwell('dock') >= 10", start)).toBe(false);
    expect(holds("inZone('dock') >= 3", start)).toBe(true);
    expect(holds("inZone('dock', 'person') >= 3", start)).toBe(false);
    expect(holds("inZone('yard') == 0", start)).toBe(true);
    // an event that is no object event (a frame, a device's own) holds none, whatever its payload says
    for (const source of ["entered('dock')", "inZone('yard') == 0", "dwell('dock') >= 30"])
      expect(holds(source, undefined)).toBe(false);
    expect(holds("entered('dock')", { entered: 'dock', label: 'person' })).toBe(false);
  });
});

describe('for and becomes: conditions that remember', () => {
  const cone = "detections('traffic cone', 'A') >= 1";

  it('parse in every form and write back', () => {
    const tree = {
      type: 'becomes',
      to: true,
      item: {
        type: 'for',
        seconds: 2,
        item: { type: 'detections', label: 'traffic cone', zone: 'A', operator: '>=', value: 1 },
      },
    };
    expect(parseExpression(`becomesTrue(heldFor(2, 0, ${cone}))`)).toEqual(tree);
    expect(generateExpression(tree as Condition)).toBe(`becomesTrue(heldFor(2, 0, ${cone}))`);
    const genB = conditionsObjectOf(tree as Condition);
    expect(genB).toEqual([
      {
        type: 'becomes',
        to: true,
        items: [
          {
            type: 'for',
            seconds: 2,
            items: [expect.objectContaining({ type: 'detections', label: 'traffic cone', zone: 'A' })],
          },
        ],
      },
    ]);
    expect(parseConditionsObject(JSON.parse(JSON.stringify(genB))).tree).toEqual(tree);
    expect(parseExpression(`heldFor(0, 3, ${cone} || event.data.x == 1)`)).toMatchObject({
      type: 'for',
      events: 3,
      item: { type: 'or' },
    });
    expect(parseExpression(`becomesFalse(${cone})`)).toMatchObject({ type: 'becomes', to: false });
  });

  it('refuses one that asks for nothing, or out of bounds, or with two conditions', () => {
    expect(syntaxError(`heldFor(0, 0, ${cone})`).message).toMatch(/seconds or events/);
    expect(syntaxError(`heldFor(2, 1.5, ${cone})`).message).toMatch(/events must be an integer/);
    expect(syntaxError(`heldFor(90000, 0, ${cone})`).message).toMatch(/seconds must be from 0 to 86400/);
    expect(
      conditionError(() => parseConditionsObject([{ type: 'for', items: [{ type: 'schedule', weekDays: [1] }] }]))
        .message,
    ).toMatch(/seconds or events/);
    expect(conditionError(() => parseConditionsObject([{ type: 'becomes', to: true, items: [] }])).message).toContain(
      'conditionsObject.0.items',
    );
  });

  /** Evaluates `source` on a sequence of (seconds, cone seen?) events of one device, with one memory; the events it held on. */
  function run(source: string, events: Array<[number, boolean]>): number[] {
    const tree = parseExpression(source)!;
    const memory = new Map<object, object>();
    return events
      .filter(
        ([seconds, seen]) =>
          evaluateCondition(
            tree,
            {
              time: new Date(1_800_000_000_000 + seconds * 1000),
              timezone: 'UTC',
              channelId: CH,
              value: (path) => (path === 'event.data.armed' ? true : undefined),
              landmark: () => false,
              detections: () => (seen ? 1 : 0),
              objectEvent: () => undefined,
              memory: (node) => {
                if (!memory.has(node)) memory.set(node, {});
                return memory.get(node)!;
              },
            },
            true,
          ), // whole, as the engine evaluates a rule that remembers
      )
      .map(([seconds]) => seconds);
  }

  const stay: Array<[number, boolean]> = [
    [0, false],
    [1, true],
    [2, true],
    [3.1, true],
    [4, true],
    [5, false], // it leaves
    [6, true],
    [7, true],
    [8.5, true],
    [9, true],
  ];

  it('holds once the condition has held for the seconds, and starts again after a break', () => {
    expect(run(`heldFor(2, 0, ${cone})`, stay)).toEqual([3.1, 4, 8.5, 9]);
  });

  it('fires once per stay when it becomes true, not before the dwell, not on every frame', () => {
    expect(run(`becomesTrue(heldFor(2, 0, ${cone}))`, stay)).toEqual([3.1, 8.5]);
    expect(run(`becomesFalse(${cone})`, stay)).toEqual([5]);
    expect(run(`becomesTrue(${cone})`, stay)).toEqual([1, 6]);
  });

  it('counts events in a row, and both bounds when given', () => {
    expect(run(`heldFor(0, 3, ${cone})`, stay)).toEqual([3.1, 4, 8.5, 9]);
    expect(run(`heldFor(1, 4, ${cone})`, stay)).toEqual([4, 9]); // at 8.5: 2.5 s, but 3 events
    expect(run(`heldFor(2.5, 2, ${cone})`, stay)).toEqual([4, 8.5, 9]); // at 3.1: 3 events, but 2.1 s
  });

  it('remembers even where an && chain is already false, so a dwell never skips an event', () => {
    // The dwell runs on every event: once the other side turns true, it counts from the stay's start.
    const tree = `(event.data.late == true || ${cone}) && heldFor(2, 0, ${cone})`;
    expect(run(tree, stay)).toEqual([3.1, 4, 8.5, 9]);
    const onlyLate = `event.data.late == true && heldFor(2, 0, ${cone})`;
    expect(run(onlyLate, stay)).toEqual([]);
  });
});

describe('actions', () => {
  const parse = (actions: unknown) => actionsSchema.safeParse(actions);

  it('validates each type and names the offending field', () => {
    expect(parse([{ type: 'push', subject: 'Hi', message: 'there', title: 't' }]).success).toBe(true);
    expect(parse([{ type: 'email', subject: 's', body: 'b', recipients: { emails: ['a@example.com'] } }]).success).toBe(
      true,
    );
    expect(
      parse([{ type: 'sms', message: 'hello world', recipients: { reflect: true, telephoneNumbers: ['12342323'] } }])
        .success,
    ).toBe(true);
    expect(
      parse([{ type: 'update device state add tags', deviceIds: 'triggering device', tags: ['hot'] }]).success,
    ).toBe(true);
    expect(parse([{ type: 'update landmark state remove tags', landmarkIds: [L1], tags: ['x'] }]).success).toBe(true);
    const issues = (actions: unknown) => parse(actions).error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues([{ type: 'email', subject: 's', message: 'm', recipients: { emails: [] } }])).toEqual([
      '0.recipients.emails: must name at least one address',
    ]);
    expect(issues([{ type: 'webhook', method: 'post', url: 'ftp://example.com' }])).toEqual([
      '0.url: must be an http or https URL',
    ]);
    expect(issues([{ type: 'webhook', method: 'TRACE', url: 'https://example.com' }])[0]).toMatch(/^0\.method:/);
    expect(issues([{ type: 'sms', message: 'm', recipients: {} }])).toEqual([
      '0.recipients.telephoneNumbers: must name at least one telephone number (or reflect to the triggering device)',
    ]);
    expect(issues([{ type: 'teleport' }])[0]).toMatch(/^0\.type:/);
    expect(issues([{ type: 'push', message: 'm' }])[0]).toMatch(/^0\.subject:/);
  });

  it('keeps webhook templates out of the URL before its path, where a value could change the host', () => {
    const issues = (url: string) =>
      parse([{ type: 'webhook', method: 'post', url }]).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ??
      [];
    const refused = '0.url: templates ({{…}}) may only be in the path and query, not in the scheme, user, host or port';
    expect(issues('http://{{rule.name}}@hooks.example.com/in')).toEqual([refused]);
    expect(issues('http://user:{{device.id}}@hooks.example.com/in')).toEqual([refused]);
    // (a placeholder in the host does not even make a URL)
    expect(issues('https://{{device.id}}.hooks.example.com/in')).toContain(refused);
    expect(issues('https://hooks.example.com:{{rule.id}}/in')).toContain(refused);
    expect(issues('https://hooks.example.com/in/{{device.id}}?rule={{rule.name}}')).toEqual([]);
    expect(webhookOrigin('https://hooks.example.com/in/{{device.id}}')).toBe('https://hooks.example.com');
  });

  it('sends a webhook only to the origin its template names, whatever the values render to', () => {
    const context = { device: { id: 'evil.example.com/x' }, rule: { name: '@evil.example.com' } };
    expect(webhookTarget('https://hooks.example.com/in/{{device.id}}?r={{rule.name}}', context).origin).toBe(
      'https://hooks.example.com',
    );
    // An action stored before templates were kept out of the host is refused at delivery.
    expect(() =>
      webhookTarget('http://{{rule.name}}hooks.example.com/in', { rule: { name: 'x@evil.example.com/' } }),
    ).toThrow(
      'blocked: the URL has a template before its path (user, host or port); templates may only be in the path and query',
    );
  });

  it('normalises webhook headers and email body, gives ids, keeps masked secrets of the same action', () => {
    const secrets = new Secrets(randomBytes(32));
    const input = parse([
      {
        type: 'webhook',
        method: 'put',
        url: 'https://example.com/hook',
        headers: [{ header: 'Content-Type', value: 'text/json' }],
        password: 'pw',
        secret: 'a-secret-of-16-chars',
        body: { a: 1 },
      },
      { type: 'email', subject: 's', body: 'text', recipients: { emails: ['A@Example.com'] } },
    ]).data!;
    const saved = prepareActions(secrets, input);
    expect(saved[0]).toMatchObject({ type: 'webhook', method: 'PUT', body: '{"a":1}' });
    // secrets and header values are kept sealed (AES-256-GCM), and open to what was sent
    const hook = saved[0] as Record<string, any>;
    for (const sealed of [hook.password, hook.secret, hook.headers['Content-Type']])
      expect(isSealed(sealed)).toBe(true);
    expect([
      secrets.open(hook.password),
      secrets.open(hook.secret),
      secrets.open(hook.headers['Content-Type']),
    ]).toEqual(['pw', 'a-secret-of-16-chars', 'text/json']);
    expect(saved[1]).toMatchObject({ type: 'email', message: 'text', recipients: { emails: ['a@example.com'] } });
    expect(saved[1]).not.toHaveProperty('body');
    expect(saved[0]!.id).toMatch(/^[0-9A-Z]{26}$/);
    const shown = presentActions(saved);
    expect(shown[0]).toMatchObject({
      password: SECRET_MASK,
      secret: SECRET_MASK,
      headers: { 'Content-Type': SECRET_MASK },
    });
    const again = prepareActions(secrets, parse(shown).data!, saved);
    expect(again[0]).toMatchObject({
      id: saved[0]!.id,
      password: hook.password,
      secret: hook.secret,
      headers: hook.headers,
    });
    // a new path on the same origin keeps them too
    expect(
      prepareActions(secrets, parse([{ ...shown[0], url: 'https://example.com/other' }]).data!, saved)[0],
    ).toMatchObject({ password: hook.password });
    const stranger = parse([{ ...shown[0], id: undefined }]).data!;
    let detail: string | undefined;
    try {
      prepareActions(secrets, stranger, saved);
    } catch (error) {
      detail = ApiError.from(error)!.detail;
    }
    expect(detail).toMatch(/^actions\.0\.password: "\*{8}" stands for the stored value/);
  });

  it('refuses a masked secret or header when the webhook URL moves to another origin', () => {
    const secrets = new Secrets(randomBytes(32));
    const saved = prepareActions(
      secrets,
      parse([
        {
          type: 'webhook',
          method: 'post',
          url: 'https://hooks.example.com/a',
          password: 'pw',
          headers: { 'X-Token': 't' },
        },
      ]).data!,
    );
    const shown = presentActions(saved)[0]!;
    const refused = (changes: Record<string, unknown>) => {
      try {
        prepareActions(secrets, parse([{ ...shown, ...changes }]).data!, saved);
      } catch (error) {
        return {
          status: ApiError.from(error)!.status,
          message: ApiError.from(error)!.message,
          detail: ApiError.from(error)!.detail,
        };
      }
      return undefined;
    };
    for (const url of [
      'https://attacker.example.net/a',
      'http://hooks.example.com/a',
      'https://hooks.example.com:8443/a',
    ]) {
      expect(refused({ url, headers: { 'X-Token': 'new' } })).toMatchObject({
        status: 400,
        message: 'send the secret again when the URL changes',
        detail: expect.stringMatching(/^actions\.0\.password:/),
      });
      expect(refused({ url, password: 'new' })).toMatchObject({
        status: 400,
        message: 'send the secret again when the URL changes',
        detail: expect.stringMatching(/^actions\.0\.headers\.X-Token:/),
      });
      expect(refused({ url, password: 'new', headers: { 'X-Token': 'new' } })).toBeUndefined();
    }
  });

  it('says by its type, not its text, that a stored secret cannot be opened (the action runner gives up on it at once)', () => {
    const sealed = new Secrets(randomBytes(32)).seal('a-secret-of-16-chars');
    const other = new Secrets(randomBytes(32));
    expect(() => other.open(sealed)).toThrow(UnopenableSecretError);
    expect(() => other.open(sealed.slice(0, 20))).toThrow(UnopenableSecretError);
  });

  it('seals with the key it is given, so that two servers in one process each keep their own', () => {
    const first = new Secrets(randomBytes(32));
    const second = new Secrets(randomBytes(32));
    const sealed = [first.seal('first server'), second.seal('second server')];
    expect([first.open(sealed[0]!), second.open(sealed[1]!)]).toEqual(['first server', 'second server']);
    expect(() => first.open(sealed[1]!)).toThrow(UnopenableSecretError);
    expect(() => new Secrets(randomBytes(16))).toThrow('the secrets key must be 32 bytes');
  });
});
