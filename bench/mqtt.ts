// npm run bench -- mqtt [--devices 1000] [--publishers 100] [--rate 5000] [--window 8] [--seconds 10]
//                       [--reps 3] [--idle 10000] [--crash-rounds 3] [--broker-kill-at 2000] [--quick]
// Durable ingestion over MQTT (src/mqtt/) on one server with embedded
// PostgreSQL: N devices connected over MQTT 5, of which some publish QoS 1
// events to devices/<id>/events, first on a fixed schedule at --rate (a
// rate the server can hold; latency from when each message was due), then
// as fast as PUBACKs return with --window messages in flight per device. A
// PUBACK counts once it says success (the event is committed). In the same
// run, the same devices send single events over HTTP (POST /v1/iot/events,
// the route the MQTT topic feeds), closed loop and at --rate, through the
// ingestion benchmark's load (ingest-load.ts): the ratio MQTT/HTTP. Each
// of these runs --reps times, the two as fast as answered in turn (the
// ratio of each pair, and their median; the figures are medians: this
// host's speed drifts). Then
// --idle more devices connect and stay idle: the server's resident memory
// before and after, and the publishers' events/s without and with them.
// Then crash rounds: numbered events from a few devices, the server killed
// with SIGKILL mid-stream and restarted on its data directory and
// database, the devices sending again, with DUP and the same packet ids,
// what they hold no PUBACK for: PUBACKed events missing and events stored
// twice, both of which must be 0 (exit code 1 otherwise).
//
// Then broker mode (MQTT_BROKER_URL), where Mosquitto is installed: a
// Mosquitto of the bench's own on a free port (test/helpers/mosquitto.ts),
// the server restarted on its data subscribed to it, and the publishers
// sending to the broker, their token as the user property `authorization`,
// as fast as the broker's PUBACKs return. The broker acknowledges on
// receipt, so what counts is the events stored per second: from the first
// publish until every event the broker acknowledged is committed. And a
// crash round against the subscribing replica: numbered events published to
// the broker, the server SIGKILLed once some are stored, restarted under the
// same client id, every number published stored once (exit code 1
// otherwise).
//
// The device rate limits (DEVICE_EVENT_RATE, DEVICE_EVENT_BURST) and the
// organization's MQTT connection quota are raised for the server, so that
// the run measures the server, not its limits. The idle connections need
// an open-files limit above the usual: Node takes the hard limit as it
// starts, and has no setrlimit to go past it, so a bench that needs more
// runs itself again under `ulimit -n` (its server, a child, inherits it).
// Writes its report into bench/results/, not with --quick.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { IPublishPacket } from 'mqtt-packet';
import type postgres from 'postgres';
import { ADMIN, Api, serverSql } from '../test/helpers/api.js';
import { type Mosquitto, mosquittoInstalled, startMosquitto } from '../test/helpers/mosquitto.js';
import { freePort, removeDir, ROOT, waitFor, type TestServer } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { deviceRateEnv, eventRequests, measureEventLoad, registerDevices, withCommitCost } from './ingest-load.js';
import type { CommitCost, RegisteredDevice } from './ingest-load.js';
import {
  connectAll,
  type Connected,
  KEEP_ALIVE_SECONDS,
  keepAlive,
  publish,
  Publisher,
  type PublishResult,
  tokenProperty,
} from './mqtt-devices.js';
import { memory, sampleCpu, thisProcessCpuMs } from './process-cpu.js';
import { stat } from './report.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'mqtt'),
  options: {
    devices: { type: 'string' },
    publishers: { type: 'string' },
    rate: { type: 'string' },
    window: { type: 'string', default: '8' },
    seconds: { type: 'string' },
    reps: { type: 'string' },
    warmup: { type: 'string' },
    idle: { type: 'string' },
    'crash-rounds': { type: 'string' },
    'crash-devices': { type: 'string' },
    'broker-kill-at': { type: 'string' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- mqtt [options]

  --devices <n>        devices connected over MQTT (default: 1000; --quick: 40)
  --publishers <n>     of which publish QoS 1 events (default: 100; --quick: 8)
  --rate <n>           events/s offered in the paced runs, all publishers together (default: 5000; --quick: 400)
  --window <n>         QoS 1 messages in flight per publisher when sending as fast as PUBACKs return
                       (default: 8; at most the receive maximum the server gives)
  --seconds <s>        measured seconds per figure (default: 10; --quick: 2)
  --reps <n>           runs of each workload of the first table (MQTT and HTTP as fast as answered
                       in turn); the table gives each figure's median, the ratio is the median of
                       the pairs' (default: 3; --quick: 1)
  --warmup <s>         unmeasured seconds before each figure (default: 2; --quick: 0.5)
  --idle <n>           idle devices connected for the memory figure (default: 10000; --quick: 200; 0: none)
  --crash-rounds <n>   SIGKILL rounds (default: 3; --quick: 1)
  --crash-devices <n>  devices publishing in each crash round (default: 4; --quick: 2)
  --broker-kill-at <n> events stored before broker mode's SIGKILL, its crash devices together; they
                       publish until it and as many again while the server is down (default: 2000;
                       --quick: 300); broker mode needs Mosquitto (/usr/sbin/mosquitto), skipped without
  --quick              a smoke run; its report is not kept
`);
  process.exit(0);
}
const quick = values.quick;
const num = (value: string | undefined, full: number, smoke: number) => Number(value ?? (quick ? smoke : full));
const deviceCount = num(values.devices, 1000, 40);
const publisherCount = num(values.publishers, 100, 8);
const rate = num(values.rate, 5000, 400);
const window = Number(values.window);
const durationMs = num(values.seconds, 10, 2) * 1000;
const reps = num(values.reps, 3, 1);
const warmupMs = num(values.warmup, 2, 0.5) * 1000;
const idleCount = num(values.idle, 10_000, 200);
const crashRounds = num(values['crash-rounds'], 3, 1);
const crashDevices = num(values['crash-devices'], 4, 2);
/** PUBACKs of a crash round before the kill (all its devices together) */
const KILL_AT = quick ? 100 : 500;
/** events stored before broker mode's kill, all its crash devices together */
const brokerKillAt = num(values['broker-kill-at'], 2000, 300);
/** what each crash device publishes after broker mode's kill, while the server is down */
const brokerAfterKill = Math.ceil(brokerKillAt / crashDevices);
/** numbered events a device publishes at most: one packet id each */
const MAX_PACKET_ID = 65_535;
if (!(publisherCount >= 1 && publisherCount <= deviceCount))
  throw new Error(`--publishers must be between 1 and --devices (${deviceCount}): ${publisherCount}`);
const say = (text: string) => process.stderr.write(`[bench mqtt] ${text}\n`);

// --- the open-files limit ----------------------------------------------------------------------
/** Sockets the bench and its server each hold at most, and room for the rest (PostgreSQL's, files). */
const filesNeeded = deviceCount + idleCount + crashDevices + 1024;
const RERUN_MARK = 'SENSE_BENCH_MQTT_NOFILE';

function openFilesLimit(): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  const read = (v: string | undefined) => (v === undefined || v === 'unlimited' ? Number.POSITIVE_INFINITY : Number(v));
  return { soft: read(line?.[1]), hard: read(line?.[2]) };
}

// Node raises its soft limit to the hard one as it starts (and so does the
// server, a node child): what is left to raise is the hard limit, which only
// a process allowed to (CAP_SYS_RESOURCE) can, through the shell's ulimit.
const limit = openFilesLimit();
if (limit.soft < filesNeeded) {
  if (process.env[RERUN_MARK] !== undefined)
    throw new Error(`open files: still ${limit.soft} after ulimit -n, under the ${filesNeeded} needed`);
  const raised = Math.max(filesNeeded, 65_536);
  say(`open files: ${limit.soft} is under the ${filesNeeded} needed; running again under ulimit -n ${raised}`);
  const child = spawn(
    'sh',
    [
      '-c',
      'ulimit -n "$1" || exit 97; shift; exec "$@"',
      'sh',
      String(raised),
      process.execPath,
      ...process.execArgv,
      process.argv[1]!,
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit', env: { ...process.env, [RERUN_MARK]: '1' } },
  );
  const code = await new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  if (code === 97)
    say(
      `open files: this process may not raise its hard limit of ${limit.hard}; raise it (limits.conf, systemd's LimitNOFILE, docker --ulimit nofile=) or ask for fewer with --idle or --devices`,
    );
  process.exit(code);
}

// --- the server --------------------------------------------------------------------------------
const mqttPort = await freePort();
const ENV = {
  ADMIN_PASSWORD: ADMIN.password,
  MQTT_PORT: String(mqttPort),
  // every device of the run is one organization's
  MQTT_MAX_CONNECTIONS_PER_ORGANIZATION: String(filesNeeded),
  ...deviceRateEnv(),
  LOG_LEVEL: 'info',
};

/**
 * The replica's client id at the broker in broker mode: the same across its
 * restart, so that the broker keeps what it had not acknowledged for it.
 */
const BROKER_CLIENT_ID = 'sense-bench-replica';

/**
 * A server on `dataDir` (a fresh one when absent), once its MQTT listener is
 * up; with `broker`, in broker mode instead (its own listener off), once
 * subscribed to the broker.
 */
async function startMqttServer(dataDir?: string, broker?: Mosquitto): Promise<TestServer> {
  const env = broker
    ? { ...ENV, MQTT_PORT: '0', MQTT_BROKER_URL: broker.url, MQTT_BROKER_CLIENT_ID: BROKER_CLIENT_ID }
    : ENV;
  const server = await startBenchServer({ modelsDir: '/nonexistent', dataDir, env });
  // startServer returns at the HTTP listener's line; MQTT listens (or subscribes) a moment after it
  await server.waitForLog(broker ? /mqtt broker subscribed/ : /mqtt listening/);
  return server;
}

/** A sample's value in the server's /metrics: `series` is its name and labels as written there. */
async function metricValue(server: TestServer, series: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const escaped = series.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return Number(new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
}

const mqttConnections = (server: TestServer) => metricValue(server, 'mqtt_connections');

/** A crash round's QoS 1 event `n` of a device: numbered, packet id n; through a broker with the device's token. */
function numberedEvent(device: RegisteredDevice, n: number, dup: boolean, viaBroker = false): IPublishPacket {
  return {
    cmd: 'publish',
    topic: `devices/${device.deviceId}/events`,
    payload: Buffer.from(JSON.stringify({ n })),
    qos: 1,
    messageId: n,
    dup,
    retain: false,
    ...(viaBroker ? { properties: tokenProperty(device) } : {}),
  };
}

/** The numbered events stored for `devices`, as `<device id> <n>`, one a row (a number stored twice is there twice). */
async function numberedRows(sql: postgres.Sql, devices: RegisteredDevice[]): Promise<string[]> {
  const rows = await sql<{ deviceId: string; n: number }[]>`
    SELECT device_id, (payload->>'n')::int AS n FROM events WHERE device_id = ANY(${devices.map((d) => d.deviceId)})`;
  return rows.map((r) => `${r.deviceId} ${r.n}`);
}

// --- the measurements --------------------------------------------------------------------------
/** One figure: events/s committed, latency, and what it cost. */
interface Figure {
  label: string;
  /** events/s offered (paced runs) */
  offered?: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
  /** refused PUBACKs or HTTP errors in the measured window */
  errors: number;
  /** connections the server closed during an MQTT run */
  closed: number;
  eventsPerCommit: number;
  serverCpuUs: number | undefined;
  databaseCpuUs: number | undefined;
  /** this process's CPU (the devices' side) per committed event, µs */
  clientCpuUs: number;
}

/** `run` with its commit cost and this process's CPU per event: a figure. */
async function figure<T>(
  server: TestServer,
  label: string,
  offered: number | undefined,
  run: () => Promise<T>,
  read: (result: T) => Pick<Figure, 'eventsPerSecond' | 'p50' | 'p99' | 'errors' | 'closed'>,
): Promise<{ result: T & CommitCost; figure: Figure }> {
  const clientBefore = thisProcessCpuMs();
  const result = await withCommitCost([server], run);
  const f: Figure = {
    label,
    offered,
    ...read(result),
    eventsPerCommit: result.eventsPerCommit,
    serverCpuUs: result.cpu?.server,
    databaseCpuUs: result.cpu?.database,
    clientCpuUs: ((thisProcessCpuMs() - clientBefore) * 1000) / result.events,
  };
  say(
    `${label}: ${f.eventsPerSecond.toFixed(0)} events/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, errors ${f.errors}, ${f.eventsPerCommit.toFixed(1)} events/commit`,
  );
  return { result, figure: f };
}

/** The publishers' run as a figure, paced at --rate or as fast as PUBACKs return; its PUBACKs counted. */
async function mqttFigure(
  server: TestServer,
  publishers: Publisher[],
  label: string,
  paced: boolean,
  count: (n: number) => void,
): Promise<Figure> {
  const offered = paced ? rate : undefined;
  const { result, figure: f } = await figure(
    server,
    label,
    offered,
    () => publish(publishers, { durationMs, warmupMs, window, rate: offered }),
    (r: PublishResult) => ({
      eventsPerSecond: r.eventsPerSecond,
      p50: r.p50,
      p99: r.p99,
      errors: r.refused,
      closed: r.closed,
    }),
  );
  count(result.acknowledged);
  return f;
}

interface Throughput {
  /** the median of the --reps paced runs, as mqttFlood */
  mqttPaced: Figure;
  /** each paced run's p99, in the order they ran */
  mqttPacedP99s: number[];
  /** the median of the --reps runs, each field its own median */
  mqttFlood: Figure;
  httpClosed: Figure;
  /** each pair's MQTT ÷ HTTP events/s, in the order they ran */
  pairRatios: number[];
  httpPaced: Figure;
}

const median = (values: number[]) => stat(values).median;

/** The runs of one workload as one figure: each field the median of the runs' (errors and closed connections: summed). */
function medianFigure(runs: Figure[]): Figure {
  const of = (pick: (f: Figure) => number | undefined) => {
    const known = runs.map(pick).filter((v): v is number => v !== undefined);
    return known.length > 0 ? median(known) : undefined;
  };
  return {
    ...runs[0]!,
    eventsPerSecond: of((f) => f.eventsPerSecond)!,
    p50: of((f) => f.p50)!,
    p99: of((f) => f.p99)!,
    errors: runs.reduce((n, f) => n + f.errors, 0),
    closed: runs.reduce((n, f) => n + f.closed, 0),
    eventsPerCommit: of((f) => f.eventsPerCommit)!,
    serverCpuUs: of((f) => f.serverCpuUs),
    databaseCpuUs: of((f) => f.databaseCpuUs),
    clientCpuUs: of((f) => f.clientCpuUs)!,
  };
}

interface Idle {
  idle: number;
  connectSeconds: number;
  rssBefore: number;
  rssAfter: number;
  without: Figure;
  with: Figure;
}

interface CrashRound {
  sent: number;
  acknowledged: number;
  resent: number;
  /** PUBACKs of the resent messages that were not success */
  resentRefused: number;
  stored: number;
  missing: number;
  duplicates: number;
  /** stored, their PUBACK lost in the kill: committed, then answered again on the resend */
  committedUnacknowledged: number;
}

/** Everything the database must hold for the publishers, and what it does. */
interface Durability {
  acknowledged: number;
  stored: number;
}

async function measureThroughput(
  server: TestServer,
  publishers: Publisher[],
  tokens: string[],
  count: (n: number) => void,
): Promise<Throughput> {
  const mqtt = (label: string, paced: boolean) => mqttFigure(server, publishers, label, paced, count);
  const requests = eventRequests(
    tokens,
    '/v1/iot/events',
    'application/json',
    Buffer.from('{"seq":0,"temperature":21.5,"humidity":40}'),
  );
  const http = async (label: string, paced: boolean) => {
    const { result, figure: f } = await figure(
      server,
      label,
      paced ? rate : undefined,
      () => measureEventLoad({ servers: [server], requests, durationMs, warmupMs, rate: paced ? rate : undefined }),
      (r) => ({ eventsPerSecond: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, closed: 0 }),
    );
    count(result.succeededTotal);
    return f;
  };
  const pacedRuns: Figure[] = [];
  for (let rep = 0; rep < reps; rep++) pacedRuns.push(await mqtt(`MQTT QoS 1, paced at ${rate} events/s`, true));
  // The pairs alternate which goes first, so that neither always runs on a warmer (or fuller) database.
  const floods: Figure[] = [];
  const closed: Figure[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const runs = [
      async () => floods.push(await mqtt(`MQTT QoS 1, ${window} in flight per device`, false)),
      async () => closed.push(await http('HTTP single events, closed loop', false)),
    ];
    for (const run of rep % 2 === 0 ? runs : runs.reverse()) await run();
  }
  const httpPacedRuns: Figure[] = [];
  for (let rep = 0; rep < reps; rep++)
    httpPacedRuns.push(await http(`HTTP single events, paced at ${rate} events/s`, true));
  return {
    mqttPaced: medianFigure(pacedRuns),
    mqttPacedP99s: pacedRuns.map((f) => f.p99),
    mqttFlood: medianFigure(floods),
    httpClosed: medianFigure(closed),
    pairRatios: floods.map((f, i) => f.eventsPerSecond / closed[i]!.eventsPerSecond),
    httpPaced: medianFigure(httpPacedRuns),
  };
}

async function measureIdle(
  server: TestServer,
  apiKey: string,
  publishers: Publisher[],
  connected: Connected[],
  count: (n: number) => void,
): Promise<Idle> {
  say(`registering ${idleCount} idle devices ...`);
  const devices = await registerDevices([server.url], apiKey, idleCount);
  const flood = (label: string) => mqttFigure(server, publishers, label, false, count);
  const without = await flood(`MQTT QoS 1, ${window} in flight per device, before the idle devices`);
  const rssBefore = memory(server.process.pid!).rss;
  const started = performance.now();
  connected.push(...(await connectAll(mqttPort, devices, 'idle')));
  const connectSeconds = (performance.now() - started) / 1000;
  await waitFor(
    async () => (await mqttConnections(server)) === connected.length,
    60_000,
    `${connected.length} MQTT connections on the server`,
  );
  const rssAfter = memory(server.process.pid!).rss;
  say(
    `${idleCount} idle devices connected in ${connectSeconds.toFixed(1)} s: server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`,
  );
  return {
    idle: idleCount,
    connectSeconds,
    rssBefore,
    rssAfter,
    without,
    with: await flood(`MQTT QoS 1, ${window} in flight per device, with ${idleCount} idle devices connected`),
  };
}

/**
 * Numbered events from `crashDevices` devices, `window` in flight each; the
 * server killed from the handler of the KILL_AT-th PUBACK (so that messages
 * are in flight however fast the host is), restarted on its data; the
 * devices send again what they hold no PUBACK for, DUP, same packet ids.
 * Resolves with the round and the restarted server.
 */
async function crashRound(
  server: TestServer,
  apiKey: string,
  round: number,
): Promise<{ result: CrashRound; server: TestServer }> {
  const devices = await registerDevices([server.url], apiKey, crashDevices);
  const prefix = `crash-${round}`;
  const connected = await connectAll(mqttPort, devices, prefix);
  const sent = devices.map(() => 0);
  const acked = devices.map(() => new Set<number>());
  let total = 0;
  let counting = true;
  let killed = false;
  let refusedBeforeKill = 0;
  connected.forEach(({ client, device }, d) => {
    const send = () => client.send(numberedEvent(device, ++sent[d]!, false));
    client.onPacket = (packet) => {
      if (packet.cmd !== 'puback' || !counting) return;
      if ((packet.reasonCode ?? 0) !== 0) {
        refusedBeforeKill++;
        return;
      }
      acked[d]!.add(packet.messageId!);
      if (++total < KILL_AT) return send();
      counting = false; // PUBACKs that arrive from here on are not counted
      killed = server.process.kill('SIGKILL');
    };
    for (let i = 0; i < window; i++) send();
  });
  await waitFor(async () => killed, 120_000, `${KILL_AT} PUBACKs and the kill`);
  if (refusedBeforeKill > 0) say(`crash round ${round}: ${refusedBeforeKill} PUBACKs refused before the kill`);
  await server.stop();
  for (const { client } of connected) client.end();

  const restarted = await startMqttServer(server.dataDir);
  try {
    return { result: await resend(restarted), server: restarted };
  } catch (error) {
    await restarted.stop();
    throw error;
  }

  /** The devices' reconnect and resend on the restarted server, and what it stored. */
  async function resend(restarted: TestServer): Promise<CrashRound> {
    const sql = await serverSql(restarted);
    try {
      const stored = () => numberedRows(sql, devices);
      const ackedKeys = new Set(devices.flatMap((device, d) => [...acked[d]!].map((n) => `${device.deviceId} ${n}`)));
      // committed before the kill, whether its PUBACK got out or not
      const beforeResend = await stored();
      const again = await connectAll(mqttPort, devices, prefix);
      const unacked = devices.map((_, d) =>
        Array.from({ length: sent[d]! }, (_, i) => i + 1).filter((n) => !acked[d]!.has(n)),
      );
      let reacked = 0;
      let resentRefused = 0;
      again.forEach(({ client, device }, d) => {
        client.onPacket = (packet) => {
          if (packet.cmd !== 'puback') return;
          reacked++;
          if ((packet.reasonCode ?? 0) !== 0) resentRefused++;
        };
        client.sendAll(unacked[d]!.map((n) => numberedEvent(device, n, true)));
      });
      const resent = unacked.reduce((n, list) => n + list.length, 0);
      await waitFor(async () => reacked === resent, 60_000, 'the retransmissions acknowledged');
      for (const { client } of again) client.end();
      const rows = await stored();
      const distinct = new Set(rows);
      const result: CrashRound = {
        sent: sent.reduce((a, b) => a + b, 0),
        acknowledged: ackedKeys.size,
        resent,
        resentRefused,
        stored: rows.length,
        missing: [...ackedKeys].filter((key) => !distinct.has(key)).length,
        duplicates: rows.length - distinct.size,
        committedUnacknowledged: beforeResend.filter((key) => !ackedKeys.has(key)).length,
      };
      say(
        `crash round ${round}: ${result.acknowledged} PUBACKed before the kill, ${result.committedUnacknowledged} more committed, ${result.resent} resent, ${result.stored} stored, ${result.missing} missing, ${result.duplicates} duplicates`,
      );
      return result;
    } finally {
      await sql.end();
    }
  }
}

// --- broker mode -------------------------------------------------------------------------------
/** The events the server took from the broker and committed (it counts each once stored). */
const brokerStored = (server: TestServer) =>
  metricValue(server, 'mqtt_broker_messages_total{topic="events",outcome="stored"}');

interface BrokerThroughput {
  /** eventsPerSecond: stored; p50, p99: publish → the broker's PUBACK */
  figure: Figure;
  /** events the broker acknowledged in the measured run */
  published: number;
  publishSeconds: number;
  /** from the first publish until the server had stored the last of them */
  storedSeconds: number;
  /** Mosquitto's own CPU per stored event, µs */
  brokerCpuUs: number | undefined;
  /** acknowledged by the broker (warm-up included), and stored for those devices */
  durability: Durability;
}

interface BrokerCrash {
  /** numbered events the broker acknowledged */
  published: number;
  /** PUBACKs from the broker that were not success */
  refused: number;
  /** stored when the poll that led to the kill read the table */
  storedAtKill: number;
  stored: number;
  missing: number;
  duplicates: number;
}

interface Broker {
  throughput: BrokerThroughput;
  crash: BrokerCrash;
}

/**
 * The publishers' run against the broker (as fast as its PUBACKs return),
 * then the wait until the server has stored every event the broker
 * acknowledged: the broker acknowledges on receipt, the server stores later.
 */
async function publishUntilStored(
  server: TestServer,
  publishers: Publisher[],
  runMs: number,
): Promise<PublishResult & { publishMs: number; storedMs: number }> {
  const before = await brokerStored(server);
  const started = performance.now();
  const result = await publish(publishers, { durationMs: runMs, warmupMs: 0, window });
  const publishMs = performance.now() - started;
  await waitFor(
    async () => (await brokerStored(server)) >= before + result.acknowledged,
    600_000,
    'every event the broker acknowledged stored',
  );
  return { ...result, publishMs, storedMs: performance.now() - started };
}

/** The publishers through the broker: events stored per second, and the broker's PUBACK latency. */
async function measureBroker(server: TestServer, apiKey: string, broker: Mosquitto): Promise<BrokerThroughput> {
  say(`broker mode: registering ${publisherCount} devices ...`);
  const devices = await registerDevices([server.url], apiKey, publisherCount);
  const connected = await connectAll(broker.port, devices, 'broker-device');
  const durability: Durability = { acknowledged: 0, stored: 0 };
  let measured: BrokerThroughput;
  try {
    const publishers = connected.map((c) => new Publisher(c, { tokenProperty: true }));
    if (warmupMs > 0) durability.acknowledged += (await publishUntilStored(server, publishers, warmupMs)).acknowledged;
    const brokerCpu = () => (broker.pid === undefined ? undefined : sampleCpu(broker.pid)?.server);
    const brokerCpuBefore = brokerCpu();
    const { result, figure: f } = await figure(
      server,
      `Broker mode: QoS 1 to Mosquitto, ${window} in flight per device`,
      undefined,
      () => publishUntilStored(server, publishers, durationMs),
      (r) => ({
        eventsPerSecond: r.acknowledged / (r.storedMs / 1000),
        p50: r.p50,
        p99: r.p99,
        errors: r.refused,
        closed: r.closed,
      }),
    );
    const brokerCpuAfter = brokerCpu();
    durability.acknowledged += result.acknowledged;
    measured = {
      figure: f,
      published: result.acknowledged,
      publishSeconds: result.publishMs / 1000,
      storedSeconds: result.storedMs / 1000,
      brokerCpuUs:
        brokerCpuBefore === undefined || brokerCpuAfter === undefined
          ? undefined
          : ((brokerCpuAfter - brokerCpuBefore) * 1e6) / result.events,
      durability,
    };
  } finally {
    for (const { client } of connected) client.end();
  }
  const sql = await serverSql(server);
  try {
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events WHERE device_id = ANY(${devices.map((d) => d.deviceId)})`;
    durability.stored = row!.n;
  } finally {
    await sql.end();
  }
  say(
    `broker mode: ${measured.published} events acknowledged by the broker in ${measured.publishSeconds.toFixed(1)} s, all stored after ${measured.storedSeconds.toFixed(1)} s`,
  );
  return measured;
}

/**
 * Broker mode's crash round: numbered events from `crashDevices` devices to
 * the broker, `window` in flight each; the server SIGKILLed once
 * brokerKillAt are stored, restarted on its data under the same client id,
 * and every number the broker acknowledged awaited in the events table.
 * Resolves with the round and the restarted server.
 */
async function brokerCrashRound(
  server: TestServer,
  apiKey: string,
  broker: Mosquitto,
): Promise<{ result: BrokerCrash; server: TestServer }> {
  const devices = await registerDevices([server.url], apiKey, crashDevices);
  const connected = await connectAll(broker.port, devices, 'broker-crash');
  const accepted = devices.map(() => new Set<number>());
  // The devices publish without pause until the kill, so that it comes mid-stream however fast the
  // server stores (the broker takes them faster), then a last share each while the server is down.
  const sent = devices.map(() => 0);
  const limit = devices.map(() => MAX_PACKET_ID);
  let answered = 0;
  let refused = 0;
  connected.forEach(({ client, device }, d) => {
    const send = () => {
      if (sent[d]! < limit[d]!) client.send(numberedEvent(device, ++sent[d]!, false, true));
    };
    client.onPacket = (packet) => {
      if (packet.cmd !== 'puback') return;
      answered++;
      if ((packet.reasonCode ?? 0) === 0) accepted[d]!.add(packet.messageId!);
      else refused++;
      send();
    };
    for (let i = 0; i < window; i++) send();
  });
  let storedAtKill: number;
  try {
    const sql = await serverSql(server);
    try {
      storedAtKill = await waitFor(
        async () => {
          const stored = (await numberedRows(sql, devices)).length;
          return stored >= brokerKillAt && stored;
        },
        120_000,
        `${brokerKillAt} events from the broker stored`,
      );
      server.process.kill('SIGKILL');
      sent.forEach((n, d) => {
        limit[d] = Math.min(MAX_PACKET_ID, n + brokerAfterKill);
      });
      await server.stop();
    } finally {
      // its PostgreSQL goes with the restart: the connection may be broken already
      await sql.end({ timeout: 1 }).catch(() => {});
    }
    // The broker goes on taking the devices' events while the replica is down: it holds them for its session.
    await waitFor(
      async () => sent.every((n, d) => n === limit[d]) && answered === sent.reduce((a, b) => a + b, 0),
      120_000,
      "the broker's PUBACKs",
    );
  } finally {
    for (const { client } of connected) client.end();
  }

  const restarted = await startMqttServer(server.dataDir, broker);
  try {
    const again = await serverSql(restarted);
    try {
      const keys = new Set(devices.flatMap((device, d) => [...accepted[d]!].map((n) => `${device.deviceId} ${n}`)));
      const stored = () => numberedRows(again, devices);
      // every number the broker acknowledged, stored; one that never comes is reported missing
      await waitFor(
        async () => {
          const rows = new Set(await stored());
          return [...keys].every((key) => rows.has(key));
        },
        120_000,
        'every event the broker acknowledged stored after the restart',
      ).catch((error: Error) => say(`broker crash round: ${error.message}`));
      const rows = await stored();
      const distinct = new Set(rows);
      const result: BrokerCrash = {
        published: keys.size,
        refused,
        storedAtKill,
        stored: rows.length,
        missing: [...keys].filter((key) => !distinct.has(key)).length,
        duplicates: rows.length - distinct.size,
      };
      say(
        `broker crash round: ${result.published} acknowledged by the broker, ${result.storedAtKill} stored at the kill, ${result.stored} stored, ${result.missing} missing, ${result.duplicates} duplicates`,
      );
      return { result, server: restarted };
    } finally {
      await again.end();
    }
  } catch (error) {
    await restarted.stop();
    throw error;
  }
}

// --- the run -----------------------------------------------------------------------------------
let server = await startMqttServer();
const dataDir = server.dataDir;
let throughput: Throughput;
let receiveMaximum = 0;
let idle: Idle | undefined;
const crashes: CrashRound[] = [];
let broker: Broker | undefined;
let mosquitto: Mosquitto | undefined;
const durability: Durability = { acknowledged: 0, stored: 0 };
try {
  const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
  const channel = (await admin.post('/v2/channels', { name: 'bench', type: 'iot' })).body.data;
  const apiKey: string = channel.apiKeys[0].apiKey;
  say(`registering ${deviceCount} devices ...`);
  const devices = await registerDevices([server.url], apiKey, deviceCount);
  const connected = await connectAll(mqttPort, devices, 'device');
  const stopPinging = keepAlive(() => connected);
  try {
    say(`${deviceCount} devices connected, ${publisherCount} of them publishing`);
    const publishers = connected.slice(0, publisherCount).map((c) => new Publisher(c));
    receiveMaximum = connected[0]!.receiveMaximum;
    const count = (n: number) => {
      durability.acknowledged += n;
    };
    throughput = await measureThroughput(
      server,
      publishers,
      devices.slice(0, publisherCount).map((d) => d.token),
      count,
    );
    if (idleCount > 0) idle = await measureIdle(server, apiKey, publishers, connected, count);
  } finally {
    stopPinging();
    for (const { client } of connected) client.end();
  }
  const sql = await serverSql(server);
  try {
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM events WHERE device_id = ANY(${devices.slice(0, publisherCount).map((d) => d.deviceId)})`;
    durability.stored = row!.n;
  } finally {
    await sql.end();
  }
  for (let round = 1; round <= crashRounds; round++) {
    const crashed = await crashRound(server, apiKey, round);
    server = crashed.server;
    crashes.push(crashed.result);
  }
  if (mosquittoInstalled) {
    // the same data (its channel, its key) in broker mode
    await server.stop();
    mosquitto = await startMosquitto();
    server = await startMqttServer(dataDir, mosquitto);
    const brokerThroughput = await measureBroker(server, apiKey, mosquitto);
    const crashed = await brokerCrashRound(server, apiKey, mosquitto);
    server = crashed.server;
    broker = { throughput: brokerThroughput, crash: crashed.result };
  } else say('broker mode: skipped, Mosquitto is not installed');
} finally {
  await server.stop();
  await mosquitto?.stop();
  await removeDir(dataDir);
}

// --- the report --------------------------------------------------------------------------------
const n0 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(0));
const n1 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(1));
const row = (f: Figure) =>
  `| ${f.label} | ${f.offered ?? 'as fast as answered'} | ${n0(f.eventsPerSecond)} | ${n1(f.p50)} | ${n1(f.p99)} | ${f.errors}${f.closed ? ` (${f.closed} connections closed)` : ''} | ${n1(f.eventsPerCommit)} | ${n1(f.serverCpuUs)} | ${n1(f.databaseCpuUs)} | ${n1(f.clientCpuUs)} |`;
const head = [
  "| workload | offered events/s | committed events/s | p50 ms | p99 ms | errors | events per commit | server CPU µs/event | PostgreSQL CPU µs/event | devices' side CPU µs/event |",
  '|---|---|---|---|---|---|---|---|---|---|',
];
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
const ratio = median(throughput!.pairRatios);
const paced = throughput!.mqttPaced;
const pacedHeld = paced.eventsPerSecond >= 0.95 * rate && paced.errors === 0;
const growth = idle ? idle.rssAfter - idle.rssBefore : Number.NaN;
const command = `npm run bench -- mqtt ${process.argv
  .slice(2)
  .filter((a) => a !== 'mqtt')
  .join(' ')}`.trim();
const crashTotals = {
  missing: crashes.reduce((n, c) => n + c.missing, 0),
  duplicates: crashes.reduce((n, c) => n + c.duplicates, 0),
};
const brokerOk = (b: Broker) =>
  b.crash.missing === 0 &&
  b.crash.duplicates === 0 &&
  b.throughput.durability.acknowledged === b.throughput.durability.stored;

function brokerReport(b: Broker): string[] {
  const t = b.throughput;
  const c = b.crash;
  const versusListener = t.figure.eventsPerSecond / throughput!.mqttFlood.eventsPerSecond;
  return [
    `The server restarted on the same data in broker mode (\`MQTT_BROKER_URL\`, its own listener off), subscribed to a Mosquitto 2 of the bench's own on loopback: a shared subscription, QoS 1, each message acknowledged to the broker once committed. ${publisherCount} more devices connect to the broker (MQTT 5) and publish the same QoS 1 events to \`devices/<id>/events\`, their token as the user property \`authorization\`, as fast as the broker's PUBACKs return with ${window} in flight each, for ${durationMs / 1000} s after ${warmupMs / 1000} s of warm-up (itself waited out until stored). The broker acknowledges on receipt, so the figure that counts is the events *stored* per second: the events the broker acknowledged, over the time from the first publish until the server counts the last of them committed (\`mqtt_broker_messages_total{outcome="stored"}\`). p50 and p99 here are publish → the broker's PUBACK, for information; the CPU per event is over the publishing and the wait.`,
    '',
    ...head,
    row(t.figure),
    '',
    `- broker mode ÷ the listener (the row "${throughput!.mqttFlood.label}" above), events stored per second: **${versusListener.toFixed(2)} ×**`,
    `- the broker acknowledged ${t.published} events in ${t.publishSeconds.toFixed(1)} s (${n0(t.published / t.publishSeconds)}/s); the server had stored the last of them ${t.storedSeconds.toFixed(1)} s after the first publish`,
    `- Mosquitto's own CPU: ${n1(t.brokerCpuUs)} µs per stored event`,
    `- durability: ${t.durability.acknowledged} events acknowledged by the broker (warm-up included) = ${t.durability.stored} stored for the publishing devices ${t.durability.acknowledged === t.durability.stored ? '✓' : '✗'}`,
    '',
    `Crash round: ${crashDevices} devices publish numbered QoS 1 events to the broker without pause, ${window} in flight each; the server is killed with SIGKILL once ${brokerKillAt} of them are stored, and each device publishes ${brokerAfterKill} more while it is down (the broker holds what the replica had not acknowledged, and what came after, for its session); the server is restarted on the same data directory and database under the same \`MQTT_BROKER_CLIENT_ID\`, and every number the broker acknowledged is awaited in the events table.`,
    '',
    '| acknowledged by the broker | refused by the broker | stored when killed | stored | missing | stored twice |',
    '|---|---|---|---|---|---|',
    `| ${c.published} | ${c.refused} | ${c.storedAtKill} | ${c.stored} | **${c.missing}** | **${c.duplicates}** |`,
    '',
    `Events the broker acknowledged missing: **${c.missing}**, stored twice: **${c.duplicates}** (both must be 0: ${met(c.missing === 0 && c.duplicates === 0)}).`,
  ];
}

const lines = [
  `# MQTT ingestion ${new Date().toISOString()}`,
  '',
  `Command: \`${command}\``,
  '',
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; one server with embedded PostgreSQL; the devices are this process, on the same cores. Open files: ${openFilesLimit().soft} (the server inherits it).`,
  '',
  `Settings of the server for the run: DEVICE_EVENT_RATE and DEVICE_EVENT_BURST raised (${ENV.DEVICE_EVENT_RATE} and ${ENV.DEVICE_EVENT_BURST}) so that the run measures the server, not the device rate limiter; MQTT_MAX_CONNECTIONS_PER_ORGANIZATION ${ENV.MQTT_MAX_CONNECTIONS_PER_ORGANIZATION} (every device is one organization's); everything else default (the receive maximum its CONNACKs gave: ${receiveMaximum}).`,
  '',
  '## QoS 1 events against HTTP single events',
  '',
  `${deviceCount} devices connected over MQTT 5, ${publisherCount} of them publishing QoS 1 events (about 50 bytes of JSON) to \`devices/<id>/events\`; the same ${publisherCount} devices then send the same events over HTTP, \`POST /v1/iot/events\` (the route that topic feeds), one keep-alive connection each, one request in flight (the ingestion benchmark's load generator). An event counts when committed: a success PUBACK, a 204. Paced runs offer ${rate} events/s on a fixed schedule and count latency from when each event was due; the others send as fast as they are answered, MQTT with ${window} messages in flight per device. ${durationMs / 1000} s measured after ${warmupMs / 1000} s of warm-up; ${reps === 1 ? 'each workload once' : `each workload ${reps} times, the two as fast as answered in turn (the table gives each field's median over the runs)`}. CPU per event: user + system time over the run (warm-up included) per committed event.`,
  '',
  ...head,
  ...[throughput!.mqttPaced, throughput!.mqttFlood, throughput!.httpClosed, throughput!.httpPaced].map(row),
  '',
  `- MQTT ÷ HTTP single events (both as fast as answered): **${ratio.toFixed(2)} ×**${reps > 1 ? `, the median of the ${reps} pairs' ${throughput!.pairRatios.map((r) => r.toFixed(2)).join(', ')}` : ''} (target ≥ 2 ×: ${met(ratio >= 2)})`,
  `- MQTT at ${rate} events/s offered: ${n0(paced.eventsPerSecond)} committed, p99 publish → PUBACK **${n1(paced.p99)} ms**${reps > 1 ? `, the median of the runs' ${throughput!.mqttPacedP99s.map(n1).join(', ')}` : ''} (target < 50 ms, the rate held: ${met(paced.p99 < 50 && pacedHeld)})`,
  `- durability: ${durability.acknowledged} events acknowledged (PUBACK success or 204, warm-ups included) = ${durability.stored} stored for the publishing devices ${durability.acknowledged === durability.stored ? '✓' : '✗'}`,
  '',
  '## Idle connections',
  '',
  ...(idle
    ? [
        `${idle.idle} more devices connect (MQTT 5, keep-alive ${KEEP_ALIVE_SECONDS} s, pinged at half of it) and send nothing, beside the ${deviceCount} above; they connected in ${idle.connectSeconds.toFixed(1)} s. The server's resident memory (its own process, not PostgreSQL's) before they connect and once the server counts them all:`,
        '',
        `- RSS ${idle.rssBefore.toFixed(0)} → ${idle.rssAfter.toFixed(0)} MiB: **${growth < 0 ? '−' : '+'}${Math.abs(growth).toFixed(0)} MiB**${growth < 0 ? ' (the heap the flood before grew shrank by more than the connections took)' : ''}, ${((growth * 1024) / idle.idle).toFixed(1)} KiB a connection (target < 300 MB for 10,000: ${idle.idle >= 10_000 ? met(growth * 1.048576 < 300) : `not judged with ${idle.idle}; at this rate 10,000 would take ${((growth / idle.idle) * 10_000 * 1.048576).toFixed(0)} MB`})`,
        '',
        ...head,
        row(idle.without),
        row(idle.with),
        '',
        `- the publishers with the idle devices connected: **${(idle.with.eventsPerSecond / idle.without.eventsPerSecond).toFixed(2)} ×** their events/s without them`,
      ]
    : ['Not measured in this run (--idle 0).']),
  '',
  '## Crash rounds',
  '',
  `${crashDevices} devices send numbered QoS 1 events, ${window} in flight each; the server is killed with SIGKILL from the handler of the ${KILL_AT}th PUBACK, restarted on the same data directory and database, and each device connects again with its client id and sends every message it holds no PUBACK for, with DUP and the same packet ids. Then the events stored are compared with the PUBACKs heard before the kill.`,
  '',
  '| round | sent | PUBACKed before the kill | resent (DUP) | resent refused | stored | committed, PUBACK lost in the kill | PUBACKed missing | stored twice |',
  '|---|---|---|---|---|---|---|---|---|',
  ...crashes.map(
    (c, i) =>
      `| ${i + 1} | ${c.sent} | ${c.acknowledged} | ${c.resent} | ${c.resentRefused} | ${c.stored} | ${c.committedUnacknowledged} | **${c.missing}** | **${c.duplicates}** |`,
  ),
  '',
  `PUBACKed events missing: **${crashTotals.missing}**, duplicates stored: **${crashTotals.duplicates}** (both must be 0: ${met(crashTotals.missing === 0 && crashTotals.duplicates === 0)}).`,
  '',
  '## Broker mode',
  '',
  ...(broker
    ? brokerReport(broker)
    : ["Not measured in this run: Mosquitto is not installed (`/usr/sbin/mosquitto`, Debian's `mosquitto` package)."]),
  '',
];
const report = lines.join('\n');
process.stdout.write(report);
if (!quick) {
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'mqtt.md'), report);
  say('report written to bench/results/ (mqtt, Markdown)');
}
if (
  crashTotals.missing > 0 ||
  crashTotals.duplicates > 0 ||
  durability.acknowledged !== durability.stored ||
  (broker && !brokerOk(broker))
)
  process.exitCode = 1;
