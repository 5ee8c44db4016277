// What one event may cost the rules engine, whatever its payload and its
// organization's rules: a detections condition counts only a camera frame's
// detections, each label/zone/score once per event; each organization's
// evaluation is charged to a time budget of its own (budget.ts), and past it
// its events' rules are left out and said so, while another organization's
// events in the same batch are evaluated as usual.
import { describe, expect, it } from 'vitest';
import { evaluateBatch, type EngineDevice, type RuleEvent, type RuleStats } from '../../src/platform/rules/batch.js';
import { EvaluationBudget } from '../../src/platform/rules/budget.js';
import { organizationRules, type OrganizationRules } from '../../src/platform/rules/compiled.js';
import type { LoadedRule } from '../../src/platform/rules/rule-service.js';
import { engineDevice, loadedRule } from '../helpers/loaded-rules.js';

const CHANNEL = 'channel-1';
const rule = (organizationId: string, conditionsObject: unknown): LoadedRule =>
  loadedRule(organizationId, CHANNEL, conditionsObject);

const device = (id: string): EngineDevice => engineDevice(id);

let clock = Date.parse('2026-03-09T12:00:00Z');
function event(
  organizationId: string,
  deviceId: string,
  payload: Record<string, unknown>,
  extra: Partial<RuleEvent> = {},
): RuleEvent {
  clock += 1000;
  return {
    id: `event-${clock}`,
    organizationId,
    channelId: CHANNEL,
    deviceId,
    source: 'iot',
    serverReceivedAt: new Date(clock),
    clientSentAt: null,
    payload,
    ...extra,
  };
}

const anyPerson = { type: 'detections', label: 'person', operator: '>=', value: 1 };
const firedRules = (jobs: ReturnType<typeof evaluateBatch>['jobs']) => jobs.map((j) => j.eventId);

describe('detections conditions', () => {
  it("count a camera frame's detections, and none of an event that only says it has some", () => {
    const org = new Map([['org-1', organizationRules([rule('org-1', [anyPerson])], [])]]);
    const camera = device('camera-1');
    const posted = event('org-1', camera.id, { detections: { person: [{ score: 0.9, zones: [] }] } });
    const frame = event('org-1', camera.id, { detections: { person: [{ score: 0.9, zones: [] }] } }, { camera: true });
    const { jobs } = evaluateBatch([posted, frame], org, new Map([[camera.id, camera]]), new Map());
    expect(firedRules(jobs)).toEqual([frame.id]);
  });

  it("count a frame's detections of a label, zone and score once per event however many conditions ask", () => {
    // 50 conditions asking the same count, and 10 asking another zone; none holds, so each is evaluated.
    const same = Array.from({ length: 50 }, (_, i) => ({ ...anyPerson, value: i + 2 }));
    const inZone = Array.from({ length: 10 }, (_, i) => ({ ...anyPerson, zone: 'door', value: i + 1 }));
    const org = new Map([
      ['org-1', organizationRules([rule('org-1', { type: 'or', items: [...same, ...inZone] })], [])],
    ]);
    let reads = 0;
    const list = [{ score: 0.9, zones: ['yard'] }];
    const detections = Object.defineProperty({}, 'person', {
      enumerable: true,
      get: () => {
        reads++;
        return list;
      },
    });
    const camera = device('camera-1');
    const frame = event('org-1', camera.id, { detections }, { camera: true });
    evaluateBatch([frame], org, new Map([[camera.id, camera]]), new Map());
    expect(reads).toBe(2);
  });
});

describe("an organization's time budget", () => {
  it("leaves out its events' rules once spent, and says so, while another organization's are evaluated", () => {
    // A 1 MiB string of 'a' and needles of 500 'a' then a 'b': each contains
    // scans the whole string, without the needle being found.
    const haystack = 'a'.repeat(1 << 20);
    const scans = (n: number) => ({
      type: 'or',
      items: Array.from({ length: 50 }, (_, i) => ({
        type: 'matchAttribute',
        attribute: 'event.text',
        operator: 'contains',
        value: `${'a'.repeat(500)}b${n}-${i}`,
      })),
    });
    const heavy = Array.from({ length: 10 }, (_, n) => rule('heavy', scans(n)));
    const light = rule('light', [{ type: 'matchAttribute', attribute: 'event.on', operator: '==', value: true }]);
    const organizations = new Map<string, OrganizationRules>([
      ['heavy', organizationRules(heavy, [])],
      ['light', organizationRules([light], [])],
    ]);
    const devices = new Map([
      ['h', device('h')],
      ['l', device('l')],
    ]);
    const batch: RuleEvent[] = [];
    for (let i = 0; i < 5; i++) batch.push(event('heavy', 'h', { text: haystack }), event('light', 'l', { on: true }));
    const stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
    // 20 ms per second: 10 ms at once, a few of the heavy rules' 500 scans of an event (about a second's worth).
    const { jobs, overBudget } = evaluateBatch(
      batch,
      organizations,
      devices,
      new Map(),
      stats,
      new EvaluationBudget(20),
    );

    expect(overBudget.get('heavy')?.events).toBe(5);
    expect(heavy.map((r) => r.id)).toContain(overBudget.get('heavy')?.ruleId);
    expect(overBudget.has('light')).toBe(false);
    // The light organization's five events fired; of the heavy one's 50 rule evaluations, few were made.
    expect(jobs.map((j) => j.ruleId)).toEqual(Array(5).fill(light.id));
    expect(stats.evaluated - 5).toBeLessThan(10);
  });

  it('is refilled with time: an organization over it is evaluated again once it has waited', () => {
    const budget = new EvaluationBudget(100);
    const bucket = budget.refill('org', 0);
    expect(bucket.left).toBe(50);
    bucket.left -= 80;
    expect(budget.refill('org', 0).left).toBe(-30);
    // 100 ms per second: 0.3 s repays the 30 ms overrun, and 0.5 s more fills it (never past half a second's worth).
    expect(budget.refill('org', 300).left).toBeCloseTo(0);
    expect(budget.refill('org', 10_000).left).toBe(50);
    expect(budget.refill('other', 0).left).toBe(50);
  });
});
