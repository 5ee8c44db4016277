// npm run bench -- ingest [--devices 32] [--batch 50] [--duration 10] [--reps 3] [--replicas 1,2] [--quick]
//                         [--single-rate 10000] [--batch-rate 20000] [--scenarios "json single,protobuf batch"]
//                         [--device-rates 1000000,2000]
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
// measured on its own, in process. With --replicas 1,2 it measures one
// server next to two servers on one database (devices spread over them),
// each size on a fresh database in every repetition. With --device-rates
// it does the same for per-device rate limits: the shared token buckets
// cost a database round trip per lease of a tenth of a second's tokens,
// so a limit near what the devices send shows what sharing them costs.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type postgres from 'postgres';
import { ingress } from '../src/ingest/generated/ingress.js';
import { ADMIN, Api, serverDatabaseUrl, serverSql } from '../test/helpers/api.js';
import { removeDir, ROOT, type TestServer } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import {
  deviceRateEnv,
  type EventRun,
  eventRequests,
  measureEventLoad,
  registerDevices,
  UNLIMITED_RATE,
} from './ingest-load.js';
import { buildRequest, runLoad } from './load-generator.js';
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
    replicas: { type: 'string', default: '1' },
    'device-rates': { type: 'string', default: String(UNLIMITED_RATE) },
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
  --replicas <list>    servers on one database, e.g. 1,2: each size measured in every repetition,
                       side by side (default: 1); a comparison's report is ingest-replicas.md
  --device-rates <list> DEVICE_EVENT_RATE of each deployment, e.g. 1000000,2000 (burst: 2 s of it),
                       side by side like --replicas (default: 1000000, no limit in practice);
                       a comparison's report is ingest-rate-limits.md
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
const replicaCounts = values.replicas.split(',').map((n) => Number(n.trim()));
if (replicaCounts.some((n) => !Number.isInteger(n) || n < 1) || new Set(replicaCounts).size !== replicaCounts.length) {
  throw new Error(`--replicas takes distinct server counts of at least 1, e.g. 1,2: ${values.replicas}`);
}
const deviceRates = values['device-rates'].split(',').map((n) => Number(n.trim()));
if (deviceRates.some((n) => !Number.isInteger(n) || n < 1) || new Set(deviceRates).size !== deviceRates.length) {
  throw new Error(`--device-rates takes distinct events/s of at least 1, e.g. 1000000,2000: ${values['device-rates']}`);
}

/** What is compared side by side: server counts, per-device rate limits, or both. */
interface Setup {
  replicas: number;
  deviceRate: number;
  label: string;
}
const comparesReplicas = replicaCounts.length > 1;
const comparesRates = deviceRates.length > 1;
const SETUPS: Setup[] = replicaCounts.flatMap((replicas) =>
  deviceRates.map((deviceRate) => ({
    replicas,
    deviceRate,
    label: [
      comparesReplicas || !comparesRates ? `${replicas} replica${replicas > 1 ? 's' : ''}` : '',
      comparesRates ? (deviceRate === UNLIMITED_RATE ? 'no device limit' : `${deviceRate} events/s per device`) : '',
    ]
      .filter(Boolean)
      .join(', '),
  })),
);
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
if (SCENARIOS.length === 0)
  throw new Error(`--scenarios names none of: ${ALL_SCENARIOS.map((s) => s.name).join(', ')}`);

/** A mobile event without client timestamp, so every copy is a new event (no idempotency match). */
function event(i: number) {
  return {
    locations: [{ latitude: 48.85 + (i % 100) / 10_000, longitude: 2.35, accuracy: 5 }],
    powers: [{ charging: false, batteryLife: 80 }],
    attributes: { app: 'bench' },
  };
}

function body(scenario: Scenario): Buffer {
  if (scenario.eventsPerRequest === 1) {
    return scenario.encoding === 'json'
      ? Buffer.from(JSON.stringify(event(0)))
      : Buffer.from(ingress.Event.encode(ingress.Event.fromObject(event(0))).finish());
  }
  const events = Array.from({ length: scenario.eventsPerRequest }, (_, i) => event(i));
  return scenario.encoding === 'json'
    ? Buffer.from(JSON.stringify({ events }))
    : Buffer.from(ingress.MobileEvents.encode(ingress.MobileEvents.fromObject({ events })).finish());
}

/** One or several servers on one database: the first runs the embedded PostgreSQL, the others use it. */
interface Deployment {
  servers: TestServer[];
  sql: postgres.Sql;
  stop(): Promise<void>;
}

async function startDeployment({ replicas, deviceRate }: Setup): Promise<Deployment> {
  // What replicas of one database must share (each generates its own into
  // DATA_DIR otherwise): the signing secret of tokens and the secrets key.
  const env = {
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ...deviceRateEnv(deviceRate),
    LOG_LEVEL: 'info',
  };
  const servers = [await startBenchServer({ modelsDir: '/nonexistent', env })];
  let sql: postgres.Sql | undefined;
  const stop = async () => {
    await sql?.end();
    // The first server last: it runs the database.
    for (const server of [...servers].reverse()) await server.stop();
    // Gigabytes of events after a full run: not something to leave in the temp directory.
    for (const server of servers) await removeDir(server.dataDir);
  };
  try {
    const databaseUrl = await serverDatabaseUrl(servers[0]!);
    for (let r = 1; r < replicas; r++)
      servers.push(await startBenchServer({ modelsDir: '/nonexistent', databaseUrl, env }));
    sql = await serverSql(servers[0]!);
    return { servers, sql, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Each scenario's closed-loop and paced run over all replicas, with the writers' grouping and the CPU it cost. */
interface DeploymentRuns {
  /** the server's trivial endpoint, req/s */
  trivial: number;
  closed: Record<string, EventRun>;
  paced: Record<string, EventRun>;
  acknowledged: Record<string, number>;
  stored: Record<string, number>;
}

/** Every scenario once (closed loop, then paced) on a fresh deployment, devices spread over its replicas. */
async function measureDeployment(deployment: Deployment): Promise<DeploymentRuns> {
  const { servers, sql } = deployment;
  const ports = servers.map((s) => s.port);
  const runs: DeploymentRuns = { trivial: 0, closed: {}, paced: {}, acknowledged: {}, stored: {} };
  const admin = await new Api(servers[0]!.url).login(ADMIN.email, ADMIN.password);
  const channel = (await admin.post('/v2/channels', { name: 'bench', type: 'android' })).body.data;
  const project = (await admin.post('/v2/projects', { name: 'bench', channelIds: [channel.id] })).body.data;
  const landmark = (
    await admin.post('/v2/landmarks', {
      projectId: project.id,
      name: 'centre',
      model: { type: 'circle', geometry: { center: { lat: 48.855, lon: 2.35 }, radius: 300 } },
    })
  ).body.data;
  await admin.post('/v2/rules', {
    projectId: project.id,
    name: 'enter centre',
    throttleInSeconds: 60,
    conditionsObject: [{ type: 'enterLandmark', ids: [landmark.id] }],
    actions: [{ type: 'update device state add tags', deviceIds: 'triggering device', tags: ['visited'] }],
  });
  // Each scenario has devices of its own, so that its stored events can be
  // counted after all the measuring; device i registers with (and later
  // sends to) replica i mod n.
  const register = () =>
    registerDevices(
      servers.map((s) => s.url),
      channel.apiKeys[0].apiKey,
      devices,
    );
  // The rule reaches the other replicas by NOTIFY, within milliseconds:
  // long before the first measured second (after registering and warming up).

  runs.trivial = (
    await runLoad({
      host: '127.0.0.1',
      port: ports,
      request: buildRequest('GET', '/v2/health/live', {}),
      connections: 64,
      durationMs: 3000,
      warmupMs: 500,
    })
  ).rps;
  say(`the server's trivial endpoint: ${runs.trivial.toFixed(0)} req/s`);

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
    devicesOf.set(
      scenario.name,
      registered.map((d) => d.deviceId),
    );
    const requests = eventRequests(
      registered.map((d) => d.token),
      scenario.path,
      scenario.encoding === 'json' ? 'application/json' : 'application/protobuf',
      payload,
    );
    let acknowledged = 0;
    const measure = async (rate?: number): Promise<EventRun> => {
      const run = await measureEventLoad({ servers, requests, durationMs, warmupMs, rate });
      acknowledged += run.succeededTotal * scenario.eventsPerRequest;
      return run;
    };
    const closed = await measure();
    const cpu = closed.cpu
      ? `, CPU µs/event: server ${closed.cpu.server.toFixed(1)}, PostgreSQL ${closed.cpu.database.toFixed(1)}`
      : '';
    say(
      `${scenario.name}: closed loop ${(closed.rps * scenario.eventsPerRequest).toFixed(0)} events/s, p99 ${closed.p99.toFixed(1)} ms, errors ${closed.errors}, ${closed.eventsPerCommit.toFixed(1)} events/commit${cpu}`,
    );
    const offered = scenario.eventsPerRequest === 1 ? singleRate : batchRate;
    const paced = await measure(offered / scenario.eventsPerRequest);
    say(
      `${scenario.name}: paced at ${offered} events/s: ${(paced.rps * scenario.eventsPerRequest).toFixed(0)} events/s, p99 ${paced.p99.toFixed(1)} ms, errors ${paced.errors}, ${paced.eventsPerCommit.toFixed(1)} events/commit`,
    );
    runs.closed[scenario.name] = closed;
    runs.paced[scenario.name] = paced;
    runs.acknowledged[scenario.name] = acknowledged;
  }
  // Counted once, after all the measuring: a count over the whole table
  // reads (and sets hint bits on) every page written so far, work that
  // would land on the next measurement.
  const perDevice = new Map(
    (
      await sql<{ deviceId: string; n: number }[]>`SELECT device_id, count(*)::int AS n FROM events GROUP BY device_id`
    ).map((r) => [r.deviceId, r.n]),
  );
  for (const [name, ids] of devicesOf) runs.stored[name] = ids.reduce((sum, id) => sum + (perDevice.get(id) ?? 0), 0);
  return runs;
}

/** The medians of one deployment size's repetitions, per scenario. */
function summarise(reps: DeploymentRuns[]): Record<string, ScenarioResult> {
  const results: Record<string, ScenarioResult> = {};
  for (const scenario of SCENARIOS) {
    const closed = reps.map((r) => r.closed[scenario.name]!);
    const paced = reps.map((r) => r.paced[scenario.name]!);
    const events = (runs: EventRun[]) => stat(runs.map((r) => r.rps * scenario.eventsPerRequest));
    results[scenario.name] = {
      eventsPerSecond: events(closed),
      requestsPerSecond: stat(closed.map((r) => r.rps)),
      eventsPerCommit: stat(closed.map((r) => r.eventsPerCommit)),
      cpuPerEvent: closed.every((r) => r.cpu)
        ? { server: stat(closed.map((r) => r.cpu!.server)), database: stat(closed.map((r) => r.cpu!.database)) }
        : undefined,
      p50: stat(closed.map((r) => r.p50)),
      p99: stat(closed.map((r) => r.p99)),
      errors: closed.reduce((n, r) => n + r.errors, 0),
      paced: {
        offered: scenario.eventsPerRequest === 1 ? singleRate : batchRate,
        eventsPerSecond: events(paced),
        p50: stat(paced.map((r) => r.p50)),
        p99: stat(paced.map((r) => r.p99)),
        errors: paced.reduce((n, r) => n + r.errors, 0),
      },
      acknowledged: reps.reduce((n, r) => n + r.acknowledged[scenario.name]!, 0),
      stored: reps.reduce((n, r) => n + r.stored[scenario.name]!, 0),
    };
  }
  return results;
}

async function main(): Promise<void> {
  // Each repetition measures every deployment size on a fresh database, one
  // after the other, so that the sizes compared share the same conditions.
  const runsBySetup = new Map<string, DeploymentRuns[]>(SETUPS.map((setup) => [setup.label, []]));
  for (let r = 0; r < reps; r++) {
    for (const setup of SETUPS) {
      say(
        `repetition ${r + 1}/${reps}: ${setup.label} (${setup.replicas} server${setup.replicas > 1 ? 's' : ''} on one database)`,
      );
      const deployment = await startDeployment(setup);
      try {
        runsBySetup.get(setup.label)!.push(await measureDeployment(deployment));
      } finally {
        await deployment.stop();
      }
    }
  }
  const trivial = stat([...runsBySetup.values()].flat().map((r) => r.trivial));
  const bySetup = new Map([...runsBySetup].map(([label, runs]) => [label, summarise(runs)]));

  say('rule evaluation over 10,000 landmarks, in process ...');
  const rules = measureRuleEvaluation();
  say(`  ${rules.microsecondsPerEvent.toFixed(2)} µs per event`);

  const created = new Date().toISOString();
  const compared = SETUPS.length > 1;
  const first = SETUPS[0]!.label;
  const report = {
    created,
    command: `npm run bench -- ingest ${process.argv
      .slice(2)
      .filter((a) => a !== 'ingest')
      .map((a) => (/\s/.test(a) ? `"${a}"` : a))
      .join(' ')}`.trim(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      database: 'embedded PostgreSQL 18',
    },
    devices,
    batchSize,
    durationSeconds: durationMs / 1000,
    repetitions: reps,
    trivial_endpoint: trivial,
    // one replica: the scenarios' results; several sizes compared: per size
    ingest: compared ? Object.fromEntries(bySetup) : bySetup.get(first)!,
    rule_evaluation: rules,
  };
  const f = (s: Stat, d = 0) => `${s.median.toFixed(d)} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
  /** The table rows: per scenario, one per setup (with a setup column when setups are compared). */
  const rows = (cells: (r: ScenarioResult, name: string) => string[]) =>
    SCENARIOS.flatMap((scenario) =>
      SETUPS.map(({ label }) => {
        const r = bySetup.get(label)![scenario.name]!;
        return `| ${[scenario.name, ...(compared ? [label] : []), ...cells(r, scenario.name)].join(' | ')} |`;
      }),
    );
  const head = (titles: string[]) => [
    `| ${['scenario', ...(compared ? ['setup'] : []), ...titles].join(' | ')} |`,
    `|${'---|'.repeat(titles.length + (compared ? 2 : 1))}`,
  ];
  const md = [
    `# Ingestion benchmark ${created}`,
    '',
    `Command: \`${report.command}\``,
    '',
    `Machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}, ${report.machine.database}. ${devices} devices, one keep-alive connection each, closed loop; batches of ${batchSize}; ${reps} × ${durationMs / 1000} s, medians with (min–max), each repetition on a fresh database. An event counts when its request was answered 204 (committed). Before each scenario after the first, the events and devices are vacuumed and a checkpoint is taken, so that no scenario is measured beside the previous one's maintenance. The server's trivial endpoint (GET /v2/health/live, 64 connections): ${f(trivial)} req/s.`,
    ...(comparesReplicas
      ? [
          '',
          `Replicas: ${replicaCounts.join(', ')} servers on the one PostgreSQL that the first runs, measured one after the other in each repetition. Device i registers with replica i mod n and sends to it; tokens, rules, rate limits and the action queue are shared through the database. Every process (replicas, PostgreSQL, load generator) shares this machine's ${report.machine.cores} cores, so the comparison shows what sharing costs or gains on one host, not the scaling of replicas on machines of their own.`,
        ]
      : []),
    ...(comparesRates
      ? [
          '',
          `Device rate limits: DEVICE_EVENT_RATE ${deviceRates.join(', ')} events/s (burst: 2 s of it), measured one after the other in each repetition. The limit is a token bucket per device in PostgreSQL, shared by the servers; a server leases a tenth of a second's tokens at a time (or a batch's worth, if larger) with one UPDATE, so a limit near what the devices send makes them lease about ten times a second each, the most it can: the figures beside the unlimited setup are the cost of sharing the buckets. Requests over a limit are answered 429 and counted as errors.`,
        ]
      : []),
    '',
    '**Capacity** (closed loop: each device sends again as soon as it is answered; latency includes the queueing of a saturated server):',
    '',
    ...head([
      'durable events/s',
      ...(compared ? [`vs ${first}`] : []),
      'requests/s',
      'events per transaction',
      'p50 ack ms',
      'p99 ack ms',
      'errors',
      'server CPU µs/event',
      'PostgreSQL CPU µs/event',
    ]),
    ...rows((r, name) => [
      f(r.eventsPerSecond),
      ...(compared
        ? [`${(r.eventsPerSecond.median / bySetup.get(first)![name]!.eventsPerSecond.median).toFixed(2)} ×`]
        : []),
      f(r.requestsPerSecond),
      r.eventsPerCommit.median.toFixed(1),
      r.p50.median.toFixed(1),
      f(r.p99, 1),
      String(r.errors),
      r.cpuPerEvent ? f(r.cpuPerEvent.server, 1) : '–',
      r.cpuPerEvent ? f(r.cpuPerEvent.database, 1) : '–',
    ]),
    '',
    `CPU µs per event: user + system time over the run (warm-up included) per committed event, of the server process${comparesReplicas ? 'es' : ''} and of the PostgreSQL processes ${comparesReplicas ? 'the first' : 'it'} started (from /proc): where the time per event goes.`,
    '',
    `**At a target load** (the same ${devices} devices on a fixed schedule; latency from when each request was due, so falling behind shows):`,
    '',
    ...head(['offered events/s', 'acknowledged events/s', 'p50 ack ms', 'p99 ack ms', 'errors']),
    ...rows((r) => [
      String(r.paced.offered),
      f(r.paced.eventsPerSecond),
      r.paced.p50.median.toFixed(1),
      f(r.paced.p99, 1),
      String(r.paced.errors),
    ]),
    '',
    `Durability check (events stored per scenario's devices, counted after all runs): ${SCENARIOS.flatMap((scenario) =>
      SETUPS.map(({ label }) => {
        const r = bySetup.get(label)![scenario.name]!;
        return `${scenario.name}${compared ? ` (${label})` : ''} ${r.acknowledged} acknowledged = ${r.stored} stored ${r.acknowledged === r.stored ? '✓' : '✗'}`;
      }),
    ).join('; ')}.`,
    '',
    `Rule evaluation alone (in process): ${rules.rules} rules watching ${rules.landmarks} landmarks, 50,000 events of 32 moving devices: **${rules.microsecondsPerEvent.toFixed(2)} µs per event** (${rules.evaluations} rule evaluations).`,
    '',
  ].join('\n');
  // Every run is kept in bench/results/runs/ (not tracked). A full run (not a
  // smoke run or a subset of scenarios) of one server becomes latest-ingest.*;
  // one comparing deployment sizes (not a smoke run) becomes ingest-replicas.*,
  // one comparing device rate limits ingest-rate-limits.*.
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(join(dir, 'runs'), { recursive: true });
  // (a comparison of sizes may take a subset of the scenarios: it is about the ratios)
  const partial = values.quick || (wanted !== undefined && !compared);
  const kind = comparesRates ? 'ingest-rate-limits' : comparesReplicas ? 'ingest-replicas' : 'ingest';
  const base = join(dir, 'runs', `${partial ? 'quick-' : ''}${kind}-${created.replace(/[:.]/g, '-')}`);
  await writeFile(`${base}.json`, JSON.stringify(report, null, 2) + '\n');
  await writeFile(`${base}.md`, md);
  if (!partial && (compared || SETUPS[0]!.replicas === 1)) {
    const latest = compared ? kind : 'latest-ingest';
    await copyFile(`${base}.json`, join(dir, `${latest}.json`));
    await copyFile(`${base}.md`, join(dir, `${latest}.md`));
  }
  process.stdout.write(md + '\n');
  process.stdout.write(`${base}.json\n`);
}

main().catch((error) => {
  process.stderr.write(`bench ingest failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
