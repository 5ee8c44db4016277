// evaluateBatch (src/platform/rules/batch.ts) without a database: a batch of
// events, in order, against an organization's compiled rules and the
// devices' remembered state: landmark enter/exit/inside/outside across the
// events of one batch, attribute conditions, channels, throttles, the jobs
// and their context, device patches, stats.
import { describe, expect, it } from 'vitest';
import type { RuleAction } from '../../src/platform/rules/actions.js';
import {
  evaluateBatch,
  throttleKey,
  valueAt,
  type EngineDevice,
  type RuleEvent,
  type RuleStats,
} from '../../src/platform/rules/batch.js';
import { memoryKey, organizationRules, type OrganizationRules } from '../../src/platform/rules/compiled.js';
import { parseConditionsObject } from '../../src/platform/rules/inputs.js';
import type { LoadedRule } from '../../src/platform/rules/rule-service.js';
import { engineDevice, loadedRule } from '../helpers/loaded-rules.js';

const ORG = 'org-1';
const CHANNEL = 'channel-1';
const OTHER_CHANNEL = 'channel-2';
const PARK = { lat: 48.8566, lon: 2.3522 };
const FAR = { lat: 48.87, lon: 2.3522 }; // ~1.5 km north of the park
const PARK_ID = 'landmark-park';

const rule = (conditionsObject: unknown[], extra: Partial<LoadedRule> = {}): LoadedRule =>
  loadedRule(ORG, CHANNEL, conditionsObject, extra);

function compile(rules: LoadedRule[]): Map<string, OrganizationRules> {
  const landmarks = [{ id: PARK_ID, shape: { type: 'circle' as const, center: PARK, radius: 200 } }];
  return new Map([[ORG, organizationRules(rules, landmarks)]]);
}

function device(id = 'device-1', state: EngineDevice['state'] = {}): EngineDevice {
  return engineDevice(id, { name: 'phone', state });
}

let clock = Date.parse('2026-03-09T12:00:00Z');
function event(payload: Record<string, unknown>, extra: Partial<RuleEvent> = {}): RuleEvent {
  clock += 60_000;
  return {
    id: `event-${clock}`,
    organizationId: ORG,
    channelId: CHANNEL,
    deviceId: 'device-1',
    source: 'iot',
    serverReceivedAt: new Date(clock),
    clientSentAt: null,
    payload,
    ...extra,
  };
}
const at = (point: { lat: number; lon: number }, extra: Record<string, unknown> = {}) =>
  event({ latitude: point.lat, longitude: point.lon, ...extra });

/** Which rules fired for which events, in order. */
const firings = (jobs: ReturnType<typeof evaluateBatch>['jobs']) => jobs.map((j) => `${j.ruleId}@${j.eventId}`);

describe('evaluateBatch', () => {
  it('fires enter, exit, inside and outside from the state each earlier event of the batch left', () => {
    const enter = rule([{ type: 'enterLandmark', ids: [PARK_ID] }]);
    const exit = rule([{ type: 'exitLandmark', ids: [PARK_ID] }]);
    const inside = rule([{ type: 'insideLandmark', ids: [PARK_ID] }]);
    const outside = rule([{ type: 'outsideLandmark', ids: [PARK_ID] }]);
    const phone = device();
    const walk = [at(FAR), at(PARK), at(PARK), at(FAR)];
    const { jobs, patches } = evaluateBatch(
      walk,
      compile([enter, exit, inside, outside]),
      new Map([[phone.id, phone]]),
      new Map(),
    );
    const fired = (r: LoadedRule) => jobs.filter((j) => j.ruleId === r.id).map((j) => j.eventId);
    expect(fired(enter)).toEqual([walk[1]!.id]); // once, not on the second event inside
    expect(fired(inside)).toEqual([walk[1]!.id, walk[2]!.id]);
    expect(fired(exit)).toEqual([walk[3]!.id]);
    expect(fired(outside)).toEqual([walk[0]!.id, walk[3]!.id]);
    // the device's state is updated in place, and the patch carries the last of the batch
    expect(phone.state.inside).toEqual([]);
    expect(phone.state.lastLocation).toMatchObject({ latitude: FAR.lat, longitude: FAR.lon });
    expect(patches.get(phone.id)).toEqual({
      seenAt: walk[3]!.serverReceivedAt,
      patch: { inside: [], lastLocation: phone.state.lastLocation },
    });
  });

  it('starts from the remembered state: a device already inside does not enter again, and leaving is an exit', () => {
    const enter = rule([{ type: 'enterLandmark', ids: [PARK_ID] }]);
    const exit = rule([{ type: 'exitLandmark', ids: [PARK_ID] }]);
    const phone = device('device-1', { inside: [PARK_ID], lastLocation: { latitude: PARK.lat, longitude: PARK.lon } });
    const batch = [at(PARK), at(FAR)];
    const { jobs } = evaluateBatch(batch, compile([enter, exit]), new Map([[phone.id, phone]]), new Map());
    expect(firings(jobs)).toEqual([`${exit.id}@${batch[1]!.id}`]);
  });

  it('does not judge outside for a device whose location is unknown, nor enter/exit for an event without one', () => {
    const outside = rule([{ type: 'outsideLandmark', ids: [PARK_ID] }]);
    const exit = rule([{ type: 'exitLandmark', ids: [PARK_ID] }]);
    const phone = device('device-1', { inside: [PARK_ID] }); // inside, but no location remembered
    const { jobs } = evaluateBatch(
      [event({ battery: 3 })],
      compile([outside, exit]),
      new Map([[phone.id, phone]]),
      new Map(),
    );
    expect(jobs).toEqual([]);
    expect(phone.state.inside).toEqual([PARK_ID]); // no location: the state is left as it was
  });

  it('matches attribute conditions, and/or trees, and envelope fields', () => {
    const hot = rule([{ type: 'matchAttribute', attribute: 'event.data.tempF', operator: '>', value: 90 }]);
    const either = rule([
      {
        type: 'or',
        items: [
          { type: 'matchAttribute', attribute: 'event.data.kind', operator: '==', value: 'a' },
          { type: 'matchAttribute', attribute: 'event.data.kind', operator: '==', value: 'b' },
        ],
      },
    ]);
    const both = rule([
      {
        type: 'and',
        items: [
          { type: 'matchAttribute', attribute: 'event.data.tempF', operator: '>', value: 90 },
          { type: 'matchAttribute', attribute: 'event.data.kind', operator: '==', value: 'b' },
        ],
      },
    ]);
    const phone = device();
    const batch = [
      event({ data: { tempF: 95, kind: 'a' } }),
      event({ data: { tempF: 70, kind: 'b' } }),
      event({ data: { tempF: 99, kind: 'b' } }),
      event({ data: { kind: 'c' } }),
    ];
    const { jobs } = evaluateBatch(batch, compile([hot, either, both]), new Map([[phone.id, phone]]), new Map());
    const [e1, e2, e3] = batch.map((e) => e.id);
    expect(new Set(firings(jobs))).toEqual(
      new Set([
        `${hot.id}@${e1}`,
        `${either.id}@${e1}`,
        `${either.id}@${e2}`,
        `${hot.id}@${e3}`,
        `${either.id}@${e3}`,
        `${both.id}@${e3}`,
      ]),
    );
    expect(jobs).toHaveLength(6);
  });

  it('evaluates only the rules of the event’s channel (its own or its project’s), and skips unknown devices and organizations', () => {
    const mine = rule([{ type: 'matchAttribute', attribute: 'event.data.go', operator: '==', value: 'yes' }]);
    const viaProject = rule([{ type: 'matchAttribute', attribute: 'event.data.go', operator: '==', value: 'yes' }], {
      channelIds: [],
      projectChannelIds: [OTHER_CHANNEL],
    });
    const phone = device();
    const batch = [
      event({ data: { go: 'yes' } }),
      event({ data: { go: 'yes' } }, { channelId: OTHER_CHANNEL }),
      event({ data: { go: 'yes' } }, { deviceId: 'deleted-device' }),
      event({ data: { go: 'yes' } }, { organizationId: 'another-org' }),
    ];
    const stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
    const { jobs, patches } = evaluateBatch(
      batch,
      compile([mine, viaProject]),
      new Map([[phone.id, phone]]),
      new Map(),
      stats,
    );
    expect(firings(jobs)).toEqual([`${mine.id}@${batch[0]!.id}`, `${viaProject.id}@${batch[1]!.id}`]);
    expect(stats).toEqual({ evaluated: 2, fired: 2, throttled: 0 });
    expect([...patches.keys()]).toEqual([phone.id]); // nothing for the unknown device
  });

  it('throttles a rule per device by the event time, starting from the throttles given, and records when it fired', () => {
    const throttled = rule([{ type: 'matchAttribute', attribute: 'event.data.t', operator: '==', value: 1 }], {
      throttleInSeconds: 150,
    });
    const [a, b] = [device('device-a'), device('device-b')];
    // each event is a minute after the one before
    const batch = [
      event({ data: { t: 1 } }, { deviceId: a.id }), // fires
      event({ data: { t: 1 } }, { deviceId: b.id }), // fires: another device
      event({ data: { t: 1 } }, { deviceId: a.id }), // 2 min after a's: throttled
      event({ data: { t: 1 } }, { deviceId: a.id }), // 3 min after: fires again
    ];
    const throttles = new Map<string, number>();
    const stats: RuleStats = { evaluated: 0, fired: 0, throttled: 0 };
    const { jobs, fired } = evaluateBatch(
      batch,
      compile([throttled]),
      new Map([
        [a.id, a],
        [b.id, b],
      ]),
      throttles,
      stats,
    );
    expect(jobs.map((j) => j.eventId)).toEqual([batch[0]!.id, batch[1]!.id, batch[3]!.id]);
    expect(stats).toEqual({ evaluated: 4, fired: 3, throttled: 1 });
    expect(throttles.get(throttleKey(throttled.id, a.id))).toBe(batch[3]!.serverReceivedAt.getTime());
    expect(fired.get(throttleKey(throttled.id, a.id))).toEqual({
      ruleId: throttled.id,
      deviceId: a.id,
      at: batch[3]!.serverReceivedAt,
    });

    // A throttle remembered from an earlier batch holds too; the client's time counts when it sent one.
    const next = event(
      { data: { t: 1 } },
      { deviceId: b.id, clientSentAt: new Date(batch[1]!.serverReceivedAt.getTime() + 60_000) },
    );
    expect(evaluateBatch([next], compile([throttled]), new Map([[b.id, b]]), throttles).jobs).toEqual([]);
  });

  it('makes one job per action with the context its templates see, and none for a rule without actions', () => {
    const twoActions = rule([{ type: 'enterLandmark', ids: [PARK_ID] }], {
      actions: [
        { id: 'first', type: 'push', subject: 'a', message: 'a' } as RuleAction,
        { id: 'second', type: 'push', subject: 'b', message: 'b' } as RuleAction,
      ],
    });
    const silent = rule([{ type: 'enterLandmark', ids: [PARK_ID] }], { actions: [] });
    const phone = device();
    phone.tags = ['vip'];
    const entering = at(PARK, { battery: 50 });
    const { jobs, fired } = evaluateBatch(
      [at(FAR), entering],
      compile([twoActions, silent]),
      new Map([[phone.id, phone]]),
      new Map(),
    );
    expect(jobs.map((j) => [j.ruleId, j.actionId, j.type])).toEqual([
      [twoActions.id, 'first', 'push'],
      [twoActions.id, 'second', 'push'],
    ]);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(2);
    expect(jobs[0]!.context).toMatchObject({
      rule: { id: twoActions.id, name: twoActions.name, projectId: 'project-1' },
      device: { id: phone.id, tags: ['vip'], location: { latitude: PARK.lat, longitude: PARK.lon } },
      event: {
        id: entering.id,
        channelId: CHANNEL,
        serverReceivedAt: entering.serverReceivedAt.toISOString(),
        clientSentAt: null,
        payload: { battery: 50 },
      },
      landmarks: { entered: [PARK_ID], exited: [], inside: [PARK_ID] },
    });
    // the rule without actions still fired (its throttle is kept)
    expect(fired.has(throttleKey(silent.id, phone.id))).toBe(true);
  });
});

describe('valueAt', () => {
  const e = event(
    { data: { tempF: 71 }, locations: [{ latitude: 1 }], channelId: 'from-the-payload' },
    { channelId: CHANNEL, deviceId: 'device-9' },
  );

  it('reads payload paths with or without event. and payload. in front, array indexes included', () => {
    expect(valueAt(e, 'event.data.tempF')).toBe(71);
    expect(valueAt(e, 'event.payload.data.tempF')).toBe(71);
    expect(valueAt(e, 'data.tempF')).toBe(71);
    expect(valueAt(e, 'event.locations.0.latitude')).toBe(1);
    expect(valueAt(e, 'event.data.tempF.deeper')).toBeUndefined();
    expect(valueAt(e, 'event.nothing.here')).toBeUndefined();
  });

  it('falls back to envelope fields only when the payload has none of that name', () => {
    expect(valueAt(e, 'event.deviceId')).toBe('device-9');
    expect(valueAt(e, 'event.serverReceivedAt')).toBe(e.serverReceivedAt.getTime());
    expect(valueAt(e, 'event.channelId')).toBe('from-the-payload');
    expect(valueAt(e, 'event.deviceId.more')).toBeUndefined();
  });
});

describe("rules' memory in device state", () => {
  // Held for 3 events in a row: each event with armed = true counts.
  const dwell = [
    {
      type: 'for',
      events: 3,
      items: [{ type: 'matchAttribute', attribute: 'event.data.armed', operator: '==', value: true }],
    },
  ];
  const armed = () => event({ data: { armed: true } });

  it('is kept under the rule and its conditions: a renamed rule keeps it, one whose conditions changed starts afresh', () => {
    const held = rule(dwell);
    const camera = device('device-1', {});
    const devices = new Map([[camera.id, camera]]);
    const first = evaluateBatch([armed(), armed()], compile([held]), devices, new Map());
    expect(first.jobs).toHaveLength(0);
    expect(Object.keys(camera.state.ruleMemory!)).toEqual([memoryKey(held)]);
    expect(first.patches.get(camera.id)!.patch.ruleMemory).toBe(camera.state.ruleMemory);

    // Renamed (saved again, same conditions): the third event in a row holds, as the rule that counted the first two.
    const renamed = { ...held, name: 'renamed', updatedAt: new Date(5_000) };
    expect(memoryKey(renamed)).toBe(memoryKey(held));
    expect(evaluateBatch([armed()], compile([renamed]), devices, new Map()).jobs).toHaveLength(1);

    // Its conditions changed: what its former conditions counted is not its own.
    const changed = {
      ...held,
      condition: parseConditionsObject([{ ...dwell[0], events: 2 }]).tree,
      updatedAt: new Date(9_000),
    };
    expect(memoryKey(changed)).not.toBe(memoryKey(held));
    const after = evaluateBatch([armed()], compile([changed]), devices, new Map());
    expect(after.jobs).toHaveLength(0);
    expect(Object.keys(camera.state.ruleMemory!)).toEqual([memoryKey(changed)]);
    expect(evaluateBatch([armed()], compile([changed]), devices, new Map()).jobs).toHaveLength(1);
  });

  it('is keyed on the canonical conditions, whatever form or key order they were read in', () => {
    const fromObject = rule(dwell);
    const reordered = {
      ...fromObject,
      condition: JSON.parse(JSON.stringify(fromObject.condition), (_, v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    };
    expect(memoryKey(reordered)).toBe(memoryKey(fromObject));
  });

  it("is dropped at the device's next event once its rule is deleted, even with no rule left to evaluate", () => {
    const held = rule(dwell);
    const other = rule([{ type: 'matchAttribute', attribute: 'event.data.armed', operator: '==', value: true }]);
    const camera = device('device-1', {});
    const devices = new Map([[camera.id, camera]]);
    evaluateBatch([armed()], compile([held, other]), devices, new Map());
    expect(Object.keys(camera.state.ruleMemory!)).toEqual([memoryKey(held)]);

    const { patches, jobs } = evaluateBatch([armed()], compile([other]), devices, new Map());
    expect(jobs.map((j) => j.ruleId)).toEqual([other.id]);
    expect(camera.state.ruleMemory).toEqual({});
    expect(patches.get(camera.id)!.patch.ruleMemory).toEqual({});
    // With nothing left to drop, the memory is not written again.
    expect(evaluateBatch([armed()], compile([]), devices, new Map()).patches.get(camera.id)!.patch).not.toHaveProperty(
      'ruleMemory',
    );
  });
});
