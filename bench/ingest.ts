// npm run bench -- ingest [--devices 32] [--batch 50] [--duration 10] [--reps 3] [--quick]
//                         [--single-rate 10000] [--batch-rate 20000] [--scenarios "json single,protobuf batch"]
// Durable ingestion throughput and acknowledgement latency of the server on
// embedded PostgreSQL: single events and batches, JSON and protobuf, from
// N concurrent devices (one keep-alive connection each). Each scenario is
// measured twice: closed loop (every device sends as soon as its last
// request was answered: the capacity, with the queueing latency that
// saturation brings), and paced at a target load (events/s offered on a
// fixed schedule, latency counted from when each request was due: the
// acknowledgement latency a fleet sending that much sees). An event counts
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
import { removeDir, ROOT, startServer } from '../test/helpers/server.js';
import { buildRequest, runLoad, type LoadResult } from './load-generator.js';
import { sampleCpu } from './process-cpu.js';
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
    scenarios: { type: 'string' },
    'single-rate': { type: 'string', default: '10000' },
    'batch-rate': { type: 'string', default: '20000' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- ingest [options]

  --devices <n>        concurrent devices, one keep-alive connection each (default: 32)
  --batch <n>          events per batch request (default: 50)
  --duration <s>       measured seconds per figure (default: 10; --quick: 3)
  --warmup <s>         unmeasured seconds before each figure (default: 1)
  --reps <n>           repetitions; figures are medians (default: 3; --quick: 1)
  --single-rate <n>    events/s offered in the paced runs of single events (default: 10000)
  --batch-rate <n>     events/s offered in the paced runs of batches (default: 20000)
  --scenarios <list>   a subset of: protobuf batch, json single, json batch, protobuf single
  --quick              a smoke run; its report (like a subset's) is kept apart from latest-ingest
`);
  process.exit(0);
}
const devices = Number(values.devices);
const batchSize = Number(values.batch);
const durationMs = Number(values.duration ?? (values.quick ? 3 : 10)) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const reps = Number(values.reps ?? (values.quick ? 1 : 3));
const singleRate = Number(values['single-rate']);
const batchRate = Number(values['batch-rate']);
const say = (text: string) => process.stderr.write(`[bench ingest] ${text}\n`);

interface Paced {
  /** events/s offered */
  offered: number;
  /** events/s acknowledged */
  eventsPerSecond: Stat;
  p50: Stat;
  p99: Stat;
  errors: number;
}

/** CPU µs per committed event over a closed-loop run (warm-up included), where /proc is readable. */
interface CpuPerEvent {
  /** the server's own process: HTTP, decoding, rules, the writer */
  server: Stat;
  /** the PostgreSQL processes it started */
  database: Stat;
}

interface ScenarioResult {
  eventsPerSecond: Stat;
  cpuPerEvent?: CpuPerEvent;
  /** events per transaction of the group commit */
  eventsPerCommit: Stat;
  requestsPerSecond: Stat;
  p50: Stat;
  p99: Stat;
  errors: number;
  paced: Paced;
  acknowledged: number;
  stored: number;
}

interface Scenario {
  name: string;
  path: string;
  encoding: 'json' | 'protobuf';
  eventsPerRequest: number;
}

const ALL_SCENARIOS: Scenario[] = [
  { name: 'protobuf batch', path: '/v1/mobile/events/batch', encoding: 'protobuf', eventsPerRequest: batchSize },
  { name: 'json single', path: '/v1/mobile/events', encoding: 'json', eventsPerRequest: 1 },
  { name: 'json batch', path: '/v1/mobile/events/batch', encoding: 'json', eventsPerRequest: batchSize },
  { name: 'protobuf single', path: '/v1/mobile/events', encoding: 'protobuf', eventsPerRequest: 1 },
];
const wanted = values.scenarios?.split(',').map((name) => name.trim());
const SCENARIOS = wanted ? ALL_SCENARIOS.filter((s) => wanted.includes(s.name)) : ALL_SCENARIOS;
if (SCENARIOS.length === 0) throw new Error(`--scenarios names none of: ${ALL_SCENARIOS.map((s) => s.name).join(', ')}`);

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
  const results: Record<string, ScenarioResult> = {};
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
    /** Each scenario has devices of its own, so that its stored events can be counted after all the measuring. */
    const register = async () => {
      const registered: Array<{ token: string; deviceId: string }> = [];
      for (let d = 0; d < devices; d++) {
        const res = await fetch(`${server.url}/v1/registration`, { method: 'POST', body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }) });
        registered.push((await res.json()) as { token: string; deviceId: string });
      }
      return registered;
    };

    const ceilingRuns: number[] = [];
    for (let r = 0; r < reps; r++) {
      ceilingRuns.push((await runLoad({ host: '127.0.0.1', port: server.port, request: buildRequest('GET', '/v2/health/live', {}), connections: 64, durationMs: 3000, warmupMs: 500 })).rps);
    }
    ceiling = stat(ceilingRuns);
    say(`load generator ceiling: ${ceiling.median.toFixed(0)} req/s`);

    /** The event writer's counters, from /metrics: events per transaction shows how well commits are grouped. */
    const writerCounters = async () => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      return { commits: value('ingest_commits_total'), events: value('ingest_events_total') };
    };
    const devicesOf = new Map<string, string[]>();
    for (const [index, scenario] of SCENARIOS.entries()) {
      // What the previous scenario left PostgreSQL to do in the background
      // (vacuuming its millions of events, the checkpoint its WAL started)
      // is done now, not during this scenario's measurements: without this
      // the single-event scenarios, run after 50,000-events/s batches,
      // shared the machine's two cores with that backlog.
      if (index > 0) {
        const started = performance.now();
        await sql`VACUUM (ANALYZE) events, devices`;
        await sql`CHECKPOINT`;
        say(`database quiesced before ${scenario.name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      }
      const payload = body(scenario);
      const registered = await register();
      devicesOf.set(scenario.name, registered.map((d) => d.deviceId));
      const requests = registered.map(({ token }) =>
        buildRequest('POST', scenario.path, { Authorization: `Bearer ${token}`, 'Content-Type': scenario.encoding === 'json' ? 'application/json' : 'application/protobuf' }, payload),
      );
      const runs: Array<LoadResult & { eventsPerCommit: number; cpu: { server: number; database: number } | undefined }> = [];
      const pacedRuns: typeof runs = [];
      const offered = scenario.eventsPerRequest === 1 ? singleRate : batchRate;
      let acknowledged = 0;
      const measure = async (rate?: number) => {
        const commitsBefore = await writerCounters();
        const cpuBefore = sampleCpu(server.process.pid!);
        const run = await runLoad({ host: '127.0.0.1', port: server.port, request: requests, connections: devices, durationMs, warmupMs, rate });
        await new Promise((resolve) => setTimeout(resolve, 200));
        acknowledged += run.succeededTotal * scenario.eventsPerRequest;
        const cpuAfter = sampleCpu(server.process.pid!);
        const commitsAfter = await writerCounters();
        const events = commitsAfter.events - commitsBefore.events;
        const perEvent = (seconds: number) => (seconds * 1e6) / events;
        return {
          ...run,
          eventsPerCommit: events / (commitsAfter.commits - commitsBefore.commits),
          cpu: cpuBefore && cpuAfter ? { server: perEvent(cpuAfter.server - cpuBefore.server), database: perEvent(cpuAfter.database - cpuBefore.database) } : undefined,
        };
      };
      for (let r = 0; r < reps; r++) {
        const run = await measure();
        runs.push(run);
        const cpu = run.cpu ? `, CPU µs/event: server ${run.cpu.server.toFixed(1)}, PostgreSQL ${run.cpu.database.toFixed(1)}` : '';
        say(`${scenario.name}: closed loop ${(run.rps * scenario.eventsPerRequest).toFixed(0)} events/s, p99 ${run.p99.toFixed(1)} ms, errors ${run.errors}, ${run.eventsPerCommit.toFixed(1)} events/commit${cpu}`);
        const paced = await measure(offered / scenario.eventsPerRequest);
        pacedRuns.push(paced);
        say(`${scenario.name}: paced at ${offered} events/s: ${(paced.rps * scenario.eventsPerRequest).toFixed(0)} events/s, p99 ${paced.p99.toFixed(1)} ms, errors ${paced.errors}, ${paced.eventsPerCommit.toFixed(1)} events/commit`);
      }
      results[scenario.name] = {
        eventsPerSecond: stat(runs.map((r) => r.rps * scenario.eventsPerRequest)),
        requestsPerSecond: stat(runs.map((r) => r.rps)),
        eventsPerCommit: stat(runs.map((r) => r.eventsPerCommit)),
        cpuPerEvent: runs.every((r) => r.cpu)
          ? { server: stat(runs.map((r) => r.cpu!.server)), database: stat(runs.map((r) => r.cpu!.database)) }
          : undefined,
        p50: stat(runs.map((r) => r.p50)),
        p99: stat(runs.map((r) => r.p99)),
        errors: runs.reduce((n, r) => n + r.errors, 0),
        paced: {
          offered,
          eventsPerSecond: stat(pacedRuns.map((r) => r.rps * scenario.eventsPerRequest)),
          p50: stat(pacedRuns.map((r) => r.p50)),
          p99: stat(pacedRuns.map((r) => r.p99)),
          errors: pacedRuns.reduce((n, r) => n + r.errors, 0),
        },
        acknowledged,
        stored: 0, // counted below
      };
    }
    // Counted once, after all the measuring: a count over the whole table
    // reads (and sets hint bits on) every page written so far, work that
    // would land on the next measurement.
    const perDevice = new Map((await sql<{ deviceId: string; n: number }[]>`SELECT device_id, count(*)::int AS n FROM events GROUP BY device_id`).map((r) => [r.deviceId, r.n]));
    for (const [name, ids] of devicesOf) results[name]!.stored = ids.reduce((sum, id) => sum + (perDevice.get(id) ?? 0), 0);
  } finally {
    await sql.end();
    await server.stop();
    // Gigabytes of events after a full run: not something to leave in the temp directory.
    await removeDir(server.dataDir);
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
    `Machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}, ${report.machine.database}. ${devices} devices, one keep-alive connection each, closed loop; batches of ${batchSize}; ${reps} × ${durationMs / 1000} s, medians with (min–max). An event counts when its request was answered 204 (committed). Before each scenario after the first, the events and devices are vacuumed and a checkpoint is taken, so that no scenario is measured beside the previous one's maintenance. Load generator ceiling on a trivial endpoint: ${f(ceiling!)} req/s.`,
    '',
    '**Capacity** (closed loop: each device sends again as soon as it is answered; latency includes the queueing of a saturated server):',
    '',
    '| scenario | durable events/s | requests/s | events per transaction | p50 ack ms | p99 ack ms | errors | server CPU µs/event | PostgreSQL CPU µs/event |',
    '|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(results).map(
      ([name, r]) =>
        `| ${name} | ${f(r.eventsPerSecond)} | ${f(r.requestsPerSecond)} | ${r.eventsPerCommit.median.toFixed(1)} | ${r.p50.median.toFixed(1)} | ${f(r.p99, 1)} | ${r.errors} | ${r.cpuPerEvent ? f(r.cpuPerEvent.server, 1) : '–'} | ${r.cpuPerEvent ? f(r.cpuPerEvent.database, 1) : '–'} |`,
    ),
    '',
    'CPU µs per event: user + system time over the run (warm-up included) per committed event, of the server process and of the PostgreSQL processes it started (from /proc): where the time per event goes.',
    '',
    `**At a target load** (the same ${devices} devices on a fixed schedule; latency from when each request was due, so falling behind shows):`,
    '',
    '| scenario | offered events/s | acknowledged events/s | p50 ack ms | p99 ack ms | errors |',
    '|---|---|---|---|---|---|',
    ...Object.entries(results).map(
      ([name, r]) => `| ${name} | ${r.paced.offered} | ${f(r.paced.eventsPerSecond)} | ${r.paced.p50.median.toFixed(1)} | ${f(r.paced.p99, 1)} | ${r.paced.errors} |`,
    ),
    '',
    `Durability check (events stored per scenario's devices, counted after all runs): ${Object.entries(results).map(([name, r]) => `${name} ${r.acknowledged} acknowledged = ${r.stored} stored ${r.acknowledged === r.stored ? '✓' : '✗'}`).join('; ')}.`,
    '',
    `Rule evaluation alone (in process): ${rules.rules} rules watching ${rules.landmarks} landmarks, 50,000 events of 32 moving devices: **${rules.microsecondsPerEvent.toFixed(2)} µs per event** (${rules.evaluations} rule evaluations).`,
    '',
  ].join('\n');
  // Every run is kept in bench/results/runs/ (not tracked); a full run
  // (not a smoke run or a subset of scenarios) becomes latest-ingest.*.
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(join(dir, 'runs'), { recursive: true });
  const partial = values.quick || wanted !== undefined;
  const base = join(dir, 'runs', `${partial ? 'quick-' : ''}ingest-${created.replace(/[:.]/g, '-')}`);
  await writeFile(`${base}.json`, JSON.stringify(report, null, 2) + '\n');
  await writeFile(`${base}.md`, md);
  if (!partial) {
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
