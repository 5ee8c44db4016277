// npm run bench -- ingest [--devices 32] [--batch 50] [--duration 10] [--reps 3] [--quick]
// Durable ingestion throughput and acknowledgement latency of the server on
// embedded PostgreSQL: single events and batches, JSON and protobuf, from
// N concurrent devices (one keep-alive connection each). An event counts
// only when acknowledged (204 = committed); the harness checks that the
// database holds exactly what was acknowledged. Rules are active (a rule on
// the devices' channel), and rule evaluation over 10,000 landmarks is
// measured on its own, in process.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ingress } from '../src/ingest/proto/ingress.js';
import { ADMIN, Api, serverSql } from '../test/helpers/api.js';
import { ROOT, startServer } from '../test/helpers/server.js';
import { buildRequest, runLoad, type LoadResult } from './load-generator.js';
import { stat, type Stat } from './report.js';
import { measureRuleEvaluation } from './rule-evaluation.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'ingest'),
  options: {
    devices: { type: 'string', default: '32' },
    batch: { type: 'string', default: '50' },
    duration: { type: 'string' },
    warmup: { type: 'string', default: '1' },
    reps: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const devices = Number(values.devices);
const batchSize = Number(values.batch);
const durationMs = Number(values.duration ?? (values.quick ? 3 : 10)) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const reps = Number(values.reps ?? (values.quick ? 1 : 3));
const say = (text: string) => process.stderr.write(`[bench ingest] ${text}\n`);

interface Scenario {
  name: string;
  path: string;
  encoding: 'json' | 'protobuf';
  eventsPerRequest: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'protobuf batch', path: '/v1/mobile/events/batch', encoding: 'protobuf', eventsPerRequest: batchSize },
  { name: 'json single', path: '/v1/mobile/events', encoding: 'json', eventsPerRequest: 1 },
  { name: 'json batch', path: '/v1/mobile/events/batch', encoding: 'json', eventsPerRequest: batchSize },
  { name: 'protobuf single', path: '/v1/mobile/events', encoding: 'protobuf', eventsPerRequest: 1 },
];

/** A mobile event without client timestamp, so every copy is a new event (no idempotency match). */
function event(i: number) {
  return { locations: [{ latitude: 48.85 + (i % 100) / 10_000, longitude: 2.35, accuracy: 5 }], powers: [{ charging: false, batteryLife: 80 }], attributes: { app: 'bench' } };
}

function body(scenario: Scenario): Buffer {
  if (scenario.eventsPerRequest === 1) {
    return scenario.encoding === 'json' ? Buffer.from(JSON.stringify(event(0))) : Buffer.from(ingress.Event.encode(ingress.Event.fromObject(event(0))).finish());
  }
  const events = Array.from({ length: scenario.eventsPerRequest }, (_, i) => event(i));
  return scenario.encoding === 'json'
    ? Buffer.from(JSON.stringify({ events }))
    : Buffer.from(ingress.MobileEvents.encode(ingress.MobileEvents.fromObject({ events })).finish());
}

async function main(): Promise<void> {
  const server = await startServer({
    modelsDir: '/nonexistent',
    env: { ADMIN_PASSWORD: ADMIN.password, DEVICE_EVENT_RATE: '1000000', DEVICE_EVENT_BURST: '1000000', LOG_LEVEL: 'info' },
  });
  const sql = await serverSql(server);
  const results: Record<string, { eventsPerSecond: Stat; requestsPerSecond: Stat; p50: Stat; p99: Stat; errors: number; acknowledged: number; stored: number }> = {};
  let ceiling: Stat;
  try {
    const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
    const channel = (await admin.post('/v2/channels', { name: 'bench', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'bench', channelIds: [channel.id] })).body.data;
    const landmark = (await admin.post('/v2/landmarks', { projectId: project.id, name: 'centre', model: { type: 'circle', geometry: { center: { lat: 48.855, lon: 2.35 }, radius: 300 } } })).body.data;
    await admin.post('/v2/rules', {
      projectId: project.id,
      name: 'enter centre',
      throttleInSeconds: 60,
      conditionsObject: [{ type: 'enterLandmark', ids: [landmark.id] }],
      actions: [{ type: 'update device state add tags', deviceIds: 'triggering device', tags: ['visited'] }],
    });
    const tokens: string[] = [];
    for (let d = 0; d < devices; d++) {
      const res = await fetch(`${server.url}/v1/registration`, { method: 'POST', body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }) });
      tokens.push(((await res.json()) as { token: string }).token);
    }

    const ceilingRuns: number[] = [];
    for (let r = 0; r < reps; r++) {
      ceilingRuns.push((await runLoad({ host: '127.0.0.1', port: server.port, request: buildRequest('GET', '/v2/health/live', {}), connections: 64, durationMs: 3000, warmupMs: 500 })).rps);
    }
    ceiling = stat(ceilingRuns);
    say(`load generator ceiling: ${ceiling.median.toFixed(0)} req/s`);

    const stored = async () => Number((await sql`SELECT count(*)::int AS n FROM events`)[0]!.n);
    for (const scenario of SCENARIOS) {
      const payload = body(scenario);
      const requests = tokens.map((token) =>
        buildRequest('POST', scenario.path, { Authorization: `Bearer ${token}`, 'Content-Type': scenario.encoding === 'json' ? 'application/json' : 'application/protobuf' }, payload),
      );
      const runs: LoadResult[] = [];
      let acknowledged = 0;
      let storedEvents = 0;
      for (let r = 0; r < reps; r++) {
        const before = await stored();
        const run = await runLoad({ host: '127.0.0.1', port: server.port, request: requests, connections: devices, durationMs, warmupMs });
        await new Promise((resolve) => setTimeout(resolve, 200));
        acknowledged += run.succeededTotal * scenario.eventsPerRequest;
        storedEvents += (await stored()) - before;
        runs.push(run);
        say(`${scenario.name}: ${(run.rps * scenario.eventsPerRequest).toFixed(0)} events/s, p99 ${run.p99.toFixed(1)} ms, errors ${run.errors}`);
      }
      results[scenario.name] = {
        eventsPerSecond: stat(runs.map((r) => r.rps * scenario.eventsPerRequest)),
        requestsPerSecond: stat(runs.map((r) => r.rps)),
        p50: stat(runs.map((r) => r.p50)),
        p99: stat(runs.map((r) => r.p99)),
        errors: runs.reduce((n, r) => n + r.errors, 0),
        acknowledged,
        stored: storedEvents,
      };
    }
  } finally {
    await sql.end();
    await server.stop();
  }

  say('rule evaluation over 10,000 landmarks, in process ...');
  const rules = measureRuleEvaluation();
  say(`  ${rules.microsecondsPerEvent.toFixed(2)} µs per event`);

  const created = new Date().toISOString();
  const report = {
    created,
    command: `npm run bench -- ingest ${process.argv.slice(2).filter((a) => a !== 'ingest').join(' ')}`.trim(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, database: 'embedded PostgreSQL 18' },
    devices,
    batchSize,
    durationSeconds: durationMs / 1000,
    repetitions: reps,
    generator_ceiling: ceiling!,
    ingest: results,
    rule_evaluation: rules,
  };
  const f = (s: Stat, d = 0) => `${s.median.toFixed(d)} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
  const md = [
    `# Ingestion benchmark ${created}`,
    '',
    `Command: \`${report.command}\``,
    '',
    `Machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}, ${report.machine.database}. ${devices} devices, one keep-alive connection each, closed loop; batches of ${batchSize}; ${reps} × ${durationMs / 1000} s, medians with (min–max). An event counts when its request was answered 204 (committed). Load generator ceiling on a trivial endpoint: ${f(ceiling!)} req/s.`,
    '',
    '| scenario | durable events/s | requests/s | p50 ack ms | p99 ack ms | errors | acknowledged = stored |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(results).map(
      ([name, r]) => `| ${name} | ${f(r.eventsPerSecond)} | ${f(r.requestsPerSecond)} | ${r.p50.median.toFixed(1)} | ${f(r.p99, 1)} | ${r.errors} | ${r.acknowledged} = ${r.stored} ${r.acknowledged === r.stored ? '✓' : '✗'} |`,
    ),
    '',
    `Rule evaluation alone (in process): ${rules.rules} rules watching ${rules.landmarks} landmarks, 50,000 events of 32 moving devices: **${rules.microsecondsPerEvent.toFixed(2)} µs per event** (${rules.evaluations} rule evaluations).`,
    '',
  ].join('\n');
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const base = join(dir, `${values.quick ? 'quick-' : ''}ingest-${created.replace(/[:.]/g, '-')}`);
  await writeFile(`${base}.json`, JSON.stringify(report, null, 2) + '\n');
  await writeFile(`${base}.md`, md);
  if (!values.quick) {
    await copyFile(`${base}.json`, join(dir, 'latest-ingest.json'));
    await copyFile(`${base}.md`, join(dir, 'latest-ingest.md'));
  }
  process.stdout.write(md + '\n');
  process.stdout.write(`${base}.json\n`);
}

main().catch((error) => {
  process.stderr.write(`bench ingest failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
