// Rule evaluation alone, in process: 1,000 landmark rules watching 10,000
// landmarks (10 each: enter, exit, and inside-with-an-attribute) and 10
// attribute-only rules; 32 devices walking or driving through a city
// (a random walk of up to ~100 m between events). Part of `npm run bench -- ingest`; run
// on its own with: node --import tsx bench/rule-evaluation.ts
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { IncomingEvent } from '../src/ingest/event-writer.js';
import { evaluateBatch, type EngineDevice } from '../src/platform/rules/batch.js';
import { organizationRules } from '../src/platform/rules/compiled.js';
import type { Shape } from '../src/lib/geometry.js';
import type { LoadedRule } from '../src/platform/rules/index.js';
import { engineDevice } from '../test/helpers/loaded-rules.js';

/** Rule evaluation alone: 10,000 landmarks, rules watching them, events moving through a city. */
export function measureRuleEvaluation(): {
  microsecondsPerEvent: number;
  landmarks: number;
  rules: number;
  evaluations: number;
} {
  const landmarks: Array<{ id: string; shape: Shape }> = [];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 10_000; i++) {
    const lat = 48.7 + random() * 0.3;
    const lon = 2.2 + random() * 0.3;
    landmarks.push({
      id: `L${i}`,
      shape: { type: 'circle', center: { lat, lon }, radius: 50 + random() * 500 } as Shape,
    });
  }
  const rule = (r: number, condition: unknown): LoadedRule =>
    ({
      id: `R${r}`,
      organizationId: 'O',
      projectId: 'P',
      name: `rule ${r}`,
      type: 'cloud',
      condition,
      timezone: 'UTC',
      actions: [],
      throttleInSeconds: 0,
      channelIds: [],
      projectChannelIds: ['C'],
      gatewayIds: [],
      properties: {},
      updatedAt: new Date(),
    }) as LoadedRule;
  const rules: LoadedRule[] = [];
  for (let r = 0; r < 1000; r++) {
    const ids = landmarks.slice(r * 10, r * 10 + 10).map((l) => l.id);
    const battery = { type: 'matchAttribute', attribute: 'event.powers.0.batteryLife', operator: '<', value: 30 };
    rules.push(
      rule(
        r,
        r % 10 < 4
          ? { type: 'enterLandmark', ids, attribute: 'event.location.position' }
          : r % 10 < 7
            ? { type: 'exitLandmark', ids, attribute: 'event.location.position' }
            : { type: 'and', items: [{ type: 'insideLandmark', ids, attribute: 'event.location.position' }, battery] },
      ),
    );
  }
  for (let r = 0; r < 10; r++)
    rules.push(
      rule(1000 + r, { type: 'matchAttribute', attribute: 'event.attributes.app', operator: '==', value: `app${r}` }),
    );
  const organizations = new Map([['O', organizationRules(rules, landmarks)]]);
  const deviceMap = new Map<string, EngineDevice>();
  for (let d = 0; d < 32; d++) deviceMap.set(`D${d}`, engineDevice(`D${d}`));
  const positions = Array.from({ length: 32 }, () => ({ lat: 48.7 + random() * 0.3, lon: 2.2 + random() * 0.3 }));
  const events: IncomingEvent[] = Array.from({ length: 50_000 }, (_, i) => {
    const p = positions[i % 32]!;
    p.lat = Math.min(49, Math.max(48.7, p.lat + (random() - 0.5) * 0.0018));
    p.lon = Math.min(2.5, Math.max(2.2, p.lon + (random() - 0.5) * 0.0027));
    return {
      id: `E${i}`,
      organizationId: 'O',
      channelId: 'C',
      deviceId: `D${i % 32}`,
      source: 'mobile',
      serverReceivedAt: new Date(),
      clientSentAt: null,
      payload: {
        locations: [{ latitude: p.lat, longitude: p.lon }],
        powers: [{ batteryLife: 50 }],
        attributes: { app: 'app3' },
      },
      dedupKey: String(i),
    };
  });
  const stats = { evaluated: 0, fired: 0, throttled: 0 };
  evaluateBatch(events.slice(0, 5000), organizations, deviceMap, new Map(), stats); // warm up
  const started = performance.now();
  for (let i = 0; i < events.length; i += 500)
    evaluateBatch(events.slice(i, i + 500), organizations, deviceMap, new Map(), stats);
  const elapsed = performance.now() - started;
  return {
    microsecondsPerEvent: (elapsed * 1000) / events.length,
    landmarks: landmarks.length,
    rules: rules.length,
    evaluations: stats.evaluated,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = measureRuleEvaluation();
  process.stdout.write(
    `${r.microsecondsPerEvent.toFixed(2)} µs per event (${r.rules} rules, ${r.landmarks} landmarks, ${r.evaluations} evaluations)\n`,
  );
}
