// Rules that see a detection's children (what a version's child stages
// answered inside it: a circle's colour), without a server: the Gen B
// `child` of a detections leaf and the expression's fourth argument, both
// parsed into one leaf and written back; the leaf evaluated on a frame's
// event (a parent with and without the child label, in a zone, above a
// score); the frame's event keeping each detection's children and counting
// them (childCounts, zoneChildCounts) where attribute paths read them; and
// the warning of a child label no model has.
import { describe, expect, it } from 'vitest';
import { framePayload, type DetectionsByLabel, type FramePayload } from '../../src/ingest/frames.js';
import type { ImageZone } from '../../src/lib/image-zones.js';
import { evaluateBatch, valueAt, type EngineDevice, type RuleEvent } from '../../src/platform/rules/batch.js';
import { organizationRules } from '../../src/platform/rules/compiled.js';
import { countDetections, evaluateCondition, type EvaluationContext } from '../../src/platform/rules/evaluate.js';
import { generateExpression, parseExpression } from '../../src/platform/rules/expression.js';
import { conditionsObjectOf, parseConditionsObject } from '../../src/platform/rules/inputs.js';
import { COMPARISON_OPERATORS, normalise, type Condition } from '../../src/platform/rules/model.js';
import { vocabularyWarnings } from '../../src/platform/rules/warnings.js';
import { engineDevice, loadedRule } from '../helpers/loaded-rules.js';
import { conditionError, syntaxError } from '../helpers/rule-errors.js';

/** The left half of the image. */
const GATE: ImageZone = {
  name: 'gate',
  polygon: [
    [0, 0],
    [0.5, 0],
    [0.5, 1],
    [0, 1],
  ],
};
const YARD: ImageZone = {
  name: 'yard',
  polygon: [
    [0.5, 0],
    [1, 0],
    [1, 1],
    [0.5, 1],
  ],
};

/** A colour classifier's answer on a crop: one class. */
const colour = (label: string, score = 0.95) => ({ [label]: [{ type: 'class', data: {}, score, children: {} }] });

/** A box of the whole image's fractions, with its score and children. */
const box = (x1: number, y1: number, x2: number, y2: number, score: number, children: DetectionsByLabel = {}) => ({
  type: 'rectangle',
  data: { min: [x1, y1], max: [x2, y2] },
  score,
  children,
});

/**
 * The predict answer of a pipeline: a red circle in the gate (0.9), a red
 * circle in the yard (0.6), a blue circle in the gate (0.8), a circle whose
 * colour was not run (no children), and a blue square in the yard.
 */
const ANSWER: DetectionsByLabel = {
  circle: [
    box(0.1, 0.1, 0.2, 0.2, 0.9, colour('red')),
    box(0.7, 0.1, 0.8, 0.2, 0.6, colour('red')),
    box(0.1, 0.6, 0.2, 0.7, 0.8, colour('blue', 0.7)),
    box(0.3, 0.3, 0.4, 0.4, 0.5),
  ],
  square: [box(0.6, 0.6, 0.8, 0.8, 0.85, colour('blue'))],
};

/** A frame's event payload as rules read it. */
const asEvent = (p: FramePayload) => p as unknown as Record<string, unknown>;
const payload = () => asEvent(framePayload('pipeline', 'frame-1', ANSWER, [GATE, YARD]));

describe('a detections leaf with a child label', () => {
  it('parses from Gen B and from the expression (the fourth argument) into one leaf, and writes both back', () => {
    const leaf = {
      type: 'detections',
      label: 'circle',
      zone: 'gate',
      minScore: 0.5,
      child: 'red',
      operator: '>=',
      value: 1,
    } satisfies Condition;
    const source = "detections('circle', 'gate', 0.5, 'red') >= 1";
    expect(parseConditionsObject([leaf]).tree).toEqual(leaf);
    expect(parseExpression(source)).toEqual(leaf);
    expect(generateExpression(leaf)).toBe(source);
    expect(conditionsObjectOf(leaf)).toEqual([
      {
        ...leaf,
        description:
          "When the frame's detections of circle in zone gate scoring at least 0.5 with a child detection of red is at least 1",
      },
    ]);
  });

  it("writes any zone as '' and any score as 0 before a child, and reads them back as not asked", () => {
    const leaf: Condition = { type: 'detections', label: 'circle', child: 'red', operator: '>=', value: 1 };
    expect(generateExpression(leaf)).toBe("detections('circle', '', 0, 'red') >= 1");
    expect(parseExpression("detections('circle', '', 0, 'red') >= 1")).toEqual(leaf);
    expect(parseConditionsObject([{ ...leaf, zone: '', minScore: 0 }]).tree).toEqual(leaf);
    expect(conditionsObjectOf(leaf)[0]!.description).toBe(
      "When the frame's detections of circle with a child detection of red is at least 1",
    );
    // A zone and no score; a score and no zone.
    const zoned: Condition = { ...leaf, zone: 'gate' };
    expect(generateExpression(zoned)).toBe("detections('circle', 'gate', 0, 'red') >= 1");
    expect(parseExpression(generateExpression(zoned))).toEqual(zoned);
    const scored: Condition = { ...leaf, minScore: 0.25 };
    expect(generateExpression(scored)).toBe("detections('circle', '', 0.25, 'red') >= 1");
    expect(parseExpression(generateExpression(scored))).toEqual(scored);
  });

  it("takes an empty child ('' or absent) as none asked, and leaves the expression without a child as it was", () => {
    const plain: Condition = { type: 'detections', label: 'circle', operator: '>=', value: 1 };
    expect(parseExpression("detections('circle', '', 0, '') >= 1")).toEqual(plain);
    expect(parseConditionsObject([{ ...plain, child: '' }]).tree).toEqual(plain);
    expect(parseConditionsObject([{ ...plain, child: null }]).tree).toEqual(plain);
    expect(normalise({ ...plain, child: '' })).toEqual(plain);
    expect(generateExpression(plain)).toBe("detections('circle') >= 1");
    expect(generateExpression({ ...plain, zone: 'gate', minScore: 0.5 })).toBe(
      "detections('circle', 'gate', 0.5) >= 1",
    );
  });

  it('refuses a child that is not a label, saying what it expected and where', () => {
    const number = syntaxError("detections('circle', '', 0, 1) >= 1");
    expect(number.message).toMatch(/child label/);
    expect(number.position).toBe("detections('circle', '', 0, ".length);
    expect(syntaxError("detections('circle', '', 0, 'red', 'x') >= 1").message).toMatch(/expected '\)'/);
    // The child comes after the score: a zone and a child alone are a zone and a score.
    expect(syntaxError("detections('circle', 'gate', 'red') >= 1").message).toMatch(/minimum score/);
    expect(
      conditionError(() =>
        parseConditionsObject([{ type: 'detections', label: 'circle', child: 3, operator: '>=', value: 1 }]),
      ).message,
    ).toContain('conditionsObject.0.child');
  });

  it('round-trips through the expression and Gen B over every combination of zone, score and child', () => {
    for (const label of ['circle', 'traffic cone', "it's"])
      for (const zone of [undefined, '', 'gate', 'ünïcødé ✓'])
        for (const minScore of [undefined, 0, 0.5, 1])
          for (const child of [undefined, '', 'red', "o'range", 'x y'])
            for (const operator of COMPARISON_OPERATORS) {
              const leaf = normalise({
                type: 'detections',
                label,
                ...(zone !== undefined && { zone }),
                ...(minScore !== undefined && { minScore }),
                ...(child !== undefined && { child }),
                operator,
                value: 2,
              });
              const source = generateExpression(leaf);
              expect(parseExpression(source), source).toEqual(leaf);
              expect(parseConditionsObject(JSON.parse(JSON.stringify(conditionsObjectOf(leaf)))).tree).toEqual(leaf);
            }
  });
});

describe("a frame's event with children", () => {
  it('keeps each detection’s children as the predict answer gives them, beside its zones', () => {
    const event = payload();
    expect(event.detections).toEqual({
      circle: [
        { ...ANSWER.circle![0], zones: ['gate'] },
        { ...ANSWER.circle![1], zones: ['yard'] },
        { ...ANSWER.circle![2], zones: ['gate'] },
        { ...ANSWER.circle![3], zones: ['gate'] },
      ],
      square: [{ ...ANSWER.square![0], zones: ['yard'] }],
    });
    expect((event.detections as DetectionsByLabel).circle![0]!.children).toEqual(colour('red'));
  });

  it('counts each parent label with each child label, in all and by zone, without changing counts and zoneCounts', () => {
    const event = payload();
    expect(event.counts).toEqual({ circle: 4, square: 1 });
    expect(event.zoneCounts).toEqual({ gate: { circle: 3 }, yard: { circle: 1, square: 1 } });
    expect(event.childCounts).toEqual({ circle: { red: 2, blue: 1 }, square: { blue: 1 } });
    expect(event.zoneChildCounts).toEqual({
      gate: { circle: { red: 1, blue: 1 } },
      yard: { circle: { red: 1 }, square: { blue: 1 } },
    });
  });

  it('counts a detection once per child label however many child detections of it it holds', () => {
    const twice = { circle: [box(0.1, 0.1, 0.2, 0.2, 0.9, { red: [...colour('red').red!, ...colour('red').red!] })] };
    expect(framePayload('v', undefined, twice, [GATE]).childCounts).toEqual({ circle: { red: 1 } });
    // An empty list of a child label is no child of it.
    const none = { circle: [box(0.1, 0.1, 0.2, 0.2, 0.9, { red: [] })] };
    expect(framePayload('v', undefined, none, [GATE]).childCounts).toBeUndefined();
  });

  it('carries no child counts when no detection has a child (the event of a version without stages is as before)', () => {
    const plain = {
      circle: [box(0.1, 0.1, 0.2, 0.2, 0.9)],
      square: [{ type: 'rectangle', data: { min: [0, 0], max: [1, 1] } }],
    };
    const event = framePayload('v', undefined, plain, [GATE]);
    expect(event).not.toHaveProperty('childCounts');
    expect(event).not.toHaveProperty('zoneChildCounts');
    expect(event.counts).toEqual({ circle: 1, square: 1 });
  });

  it('is read by attribute paths: event.childCounts.<label>.<child> and event.zoneChildCounts.<zone>.<label>.<child>', () => {
    const event: RuleEvent = {
      id: 'e',
      organizationId: 'o',
      channelId: 'c',
      deviceId: 'd',
      source: 'iot',
      serverReceivedAt: new Date(),
      clientSentAt: null,
      payload: payload(),
      camera: true,
    };
    expect(valueAt(event, 'event.childCounts.circle.red')).toBe(2);
    expect(valueAt(event, 'event.zoneChildCounts.gate.circle.blue')).toBe(1);
    expect(valueAt(event, 'event.zoneChildCounts.yard.circle.blue')).toBeUndefined();
    expect(valueAt(event, 'event.counts.circle')).toBe(4);
    const counted = parseExpression('event.zoneChildCounts.gate.circle.red >= 1')!;
    expect(counted).toEqual({
      type: 'matchAttribute',
      attribute: 'event.zoneChildCounts.gate.circle.red',
      operator: '>=',
      value: 1,
    });
  });
});

describe('evaluating a detections leaf with a child', () => {
  it('counts only the detections of the label holding a child detection of the child label', () => {
    const frame = payload();
    expect(countDetections(frame, 'circle', undefined, undefined)).toBe(4);
    expect(countDetections(frame, 'circle', undefined, undefined, 'red')).toBe(2);
    expect(countDetections(frame, 'circle', undefined, undefined, 'blue')).toBe(1);
    expect(countDetections(frame, 'circle', undefined, undefined, 'green')).toBe(0);
    // With a zone, and a minimum score (the parent's own).
    expect(countDetections(frame, 'circle', 'gate', undefined, 'red')).toBe(1);
    expect(countDetections(frame, 'circle', 'yard', undefined, 'red')).toBe(1);
    expect(countDetections(frame, 'circle', 'yard', undefined, 'blue')).toBe(0);
    expect(countDetections(frame, 'circle', undefined, 0.7, 'red')).toBe(1);
    expect(countDetections(frame, 'circle', 'yard', 0.7, 'red')).toBe(0);
    expect(countDetections(frame, 'circle', undefined, 0.75, 'blue')).toBe(1); // the circle's 0.8, not its colour's 0.7
    // Another parent label's children do not count for this one; children that are not a child's are none.
    expect(countDetections(frame, 'square', undefined, undefined, 'red')).toBe(0);
    expect(countDetections(frame, 'square', undefined, undefined, 'blue')).toBe(1);
    expect(countDetections(frame, 'circle', undefined, undefined, 'toString')).toBe(0);
    const odd = {
      detections: {
        circle: [
          { score: 1, children: 'red' },
          { score: 1, children: { red: 'x' } },
        ],
      },
    };
    expect(countDetections(odd, 'circle', undefined, undefined, 'red')).toBe(0);
    expect(countDetections(odd, 'circle', undefined, undefined)).toBe(2);
  });

  it('evaluates through the context: a parent with the child holds, one without it does not', () => {
    const frame = payload();
    const ctx = (event: Record<string, unknown>): EvaluationContext => ({
      time: new Date(),
      timezone: 'UTC',
      channelId: 'c',
      value: () => undefined,
      landmark: () => false,
      detections: (label, zone, minScore, child) => countDetections(event, label, zone, minScore, child),
      objectEvent: () => undefined,
      memory: () => ({}),
    });
    const holds = (source: string, event = frame) => evaluateCondition(parseExpression(source)!, ctx(event));
    expect(holds("detections('circle', 'gate', 0, 'red') >= 1")).toBe(true);
    expect(holds("detections('circle', '', 0, 'red') == 2")).toBe(true);
    expect(holds("detections('circle', 'yard', 0, 'blue') >= 1")).toBe(false);
    expect(holds("detections('circle', 'gate', 0.85, 'red') >= 1")).toBe(true);
    expect(holds("detections('circle', 'gate', 0.95, 'red') >= 1")).toBe(false);
    expect(holds("detections('circle', '', 0, 'green') == 0")).toBe(true);
    // The same frame without children: the parent alone never holds a child condition.
    const bare = asEvent(framePayload('v', undefined, { circle: [box(0.1, 0.1, 0.2, 0.2, 0.9)] }, [GATE]));
    expect(holds("detections('circle', 'gate') >= 1", bare)).toBe(true);
    expect(holds("detections('circle', 'gate', 0, 'red') >= 1", bare)).toBe(false);
  });

  it("fires rules in the engine's batch on a camera frame's event only, a red circle's and not a blue one's", () => {
    const ORG = 'org-1';
    const CHANNEL = 'channel-1';
    const red = loadedRule(ORG, CHANNEL, [
      { type: 'detections', label: 'circle', zone: 'gate', child: 'red', operator: '>=', value: 1 },
    ]);
    const redAnywhere = loadedRule(ORG, CHANNEL, null, {
      condition: parseExpression("detections('circle', '', 0, 'red') >= 2"),
    });
    const green = loadedRule(ORG, CHANNEL, [
      { type: 'detections', label: 'circle', child: 'green', operator: '>=', value: 1 },
    ]);
    const counted = loadedRule(ORG, CHANNEL, null, {
      condition: parseExpression('event.zoneChildCounts.yard.square.blue == 1'),
    });
    const rules = new Map([[ORG, organizationRules([red, redAnywhere, green, counted], [])]]);
    const camera: EngineDevice = engineDevice('camera-1', { name: 'camera' });
    const event = (id: string, eventPayload: Record<string, unknown>, isFrame: boolean): RuleEvent => ({
      id,
      organizationId: ORG,
      channelId: CHANNEL,
      deviceId: camera.id,
      source: 'iot',
      serverReceivedAt: new Date('2026-03-09T12:00:00Z'),
      clientSentAt: null,
      payload: eventPayload,
      ...(isFrame && { camera: true }),
    });
    const frame = event('frame', payload(), true);
    // An IoT event that carries the same payload is the client's own: no detections.
    const forged = event('forged', payload(), false);
    const { jobs } = evaluateBatch([frame, forged], rules, new Map([[camera.id, camera]]), new Map());
    expect(jobs.map((j) => `${j.ruleId}@${j.eventId}`).sort()).toEqual(
      [`${red.id}@frame`, `${redAnywhere.id}@frame`, `${counted.id}@frame`, `${counted.id}@forged`].sort(),
    );
  });
});

describe('warnings', () => {
  it('names a child label no model has as a child label, with the near matches', () => {
    const tree = parseExpression("detections('circle', '', 0, 'rde') >= 1")!;
    const warnings = vocabularyWarnings(tree, { zones: undefined, labels: ['circle', 'red', 'green'] });
    expect(warnings).toEqual([
      {
        code: 'unknown_label',
        message: 'child label "rde" is not a label of any model this organization can run; did you mean "red"?',
        suggestions: ['red'],
      },
    ]);
    expect(
      vocabularyWarnings(parseExpression("detections('circle', '', 0, 'red') >= 1"), {
        zones: undefined,
        labels: ['circle', 'red'],
      }),
    ).toEqual([]);
  });
});
