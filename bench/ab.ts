// npm run bench -- ab --against <checkout> [--reps 5] [--duration 5] [--concurrency 16] [--devices 32]
//   [--only predict,trivial,json,protobuf,frames,mqtt] [--profile]
// This checkout against another one (e.g. the commit before a refactor, in a
// git worktree with node_modules linked) on the same host, in one run: the
// trivial endpoint (GET /v2/health/live, 64 connections: what a request
// costs the server and nothing else), predict (the demo model on
// samples/scene.jpg, multipart, `concurrency` clients), ingestion of single
// JSON events and of protobuf batches of 50 (`devices` devices, one
// connection each), and camera frames (`samples/scene.jpg` as JSON from 8
// cameras with the demo model, one connection each: a run and an event a
// frame), all closed loop, and QoS 1 events over MQTT 5 (`devices` IoT
// devices on the server's MQTT listener, 8 in flight each, as fast as the
// PUBACKs, which wait for the commit, return). Servers run one at a time, in the
// order A B B A A B…, so the machine's drift falls on both sides alike; each
// figure is the median of --reps runs, and the table shows B/A. A second
// table gives the server's CPU time per request (its process and every
// thread, not PostgreSQL's): throughput on a shared 2-core host moves with
// whatever else runs, while the CPU a request costs moves much less, so a
// loss that shows in both is the server's. With
// --profile, each side then serves the trivial endpoint once more under
// node --cpu-prof, and the report lists where its time went. Prints a
// markdown report.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ingress } from '../src/ingest/generated/ingress.js';
import { ADMIN, Api } from '../test/helpers/api.js';
import { freePort, removeDir, ROOT, startCommand, waitFor } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { registerDevices } from './ingest-load.js';
import { multipartBody } from './limits.js';
import { connectAll, publish, Publisher } from './mqtt-devices.js';
import { topOfProfile } from './cpu-profile.js';
import { sampleCpu } from './process-cpu.js';
import { buildRequest, runLoad } from './load-generator.js';
import { stat, type Stat } from './report.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'ab'),
  options: {
    against: { type: 'string' },
    reps: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    devices: { type: 'string', default: '32' },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || !values.against) {
  process.stdout.write(
    'Usage: npm run bench -- ab --against <checkout> [--reps 5] [--duration 5] [--concurrency 16] [--devices 32] [--only predict,trivial,json,protobuf,frames,mqtt] [--profile]\n',
  );
  process.exit(values.help ? 0 : 2);
}
const reps = Number(values.reps);
const durationMs = Number(values.duration) * 1000;
const concurrency = Number(values.concurrency);
const devices = Number(values.devices);
const KEY = 'bench-ab-key';
const DEMO_VERSION = '01JDEM0DETECT0R00000000001';
const DEMO = `/v1/models/${DEMO_VERSION}/predict`;
const say = (text: string) => process.stderr.write(`[bench ab] ${text}\n`);

const image = multipartBody(readFileSync(`${ROOT}/samples/scene.jpg`));
const event = {
  locations: [{ latitude: 48.85, longitude: 2.35, accuracy: 5 }],
  powers: [{ charging: false, batteryLife: 80 }],
  attributes: { app: 'bench' },
};
const single = Buffer.from(JSON.stringify(event));
/** Cameras of the frames workload, each a device with the demo model as its vision profile. */
const CAMERAS = 8;
const cameraFrame = Buffer.from(
  JSON.stringify({ image: readFileSync(`${ROOT}/samples/scene.jpg`).toString('base64') }),
);
const batch = Buffer.from(
  ingress.MobileEvents.encode(
    ingress.MobileEvents.fromObject({ events: Array.from({ length: 50 }, () => event) }),
  ).finish(),
);

type Workload =
  | 'trivial endpoint req/s'
  | 'predict req/s'
  | 'ingest json single events/s'
  | 'ingest protobuf batch events/s'
  | 'camera frames/s'
  | 'ingest mqtt qos 1 events/s';
const WORKLOADS: Workload[] = [
  'trivial endpoint req/s',
  'predict req/s',
  'ingest json single events/s',
  'ingest protobuf batch events/s',
  'camera frames/s',
  'ingest mqtt qos 1 events/s',
];
/** --only's names for the workloads */
const SHORT: Record<string, Workload> = {
  trivial: 'trivial endpoint req/s',
  predict: 'predict req/s',
  json: 'ingest json single events/s',
  protobuf: 'ingest protobuf batch events/s',
  frames: 'camera frames/s',
  mqtt: 'ingest mqtt qos 1 events/s',
};
/** QoS 1 messages each MQTT device keeps in flight (the MQTT benchmark's window) */
const MQTT_WINDOW = 8;
const SELECTED: Workload[] = values.only
  ? values.only.split(',').map((name) => {
      const workload = SHORT[name.trim()];
      if (!workload) {
        process.stderr.write(`--only: unknown workload "${name}"; one of ${Object.keys(SHORT).join(', ')}\n`);
        process.exit(2);
      }
      return workload;
    })
  : WORKLOADS;
const TRIVIAL = buildRequest('GET', '/v2/health/live', {});

/** One workload's figures on one server. */
interface Measured {
  /** requests (or events) a second */
  rate: number;
  /** the server process's CPU milliseconds per request, warm-up included on both sides of the division */
  cpuMsPerRequest: number;
}

/** One server of `cwd`, measured on every workload once. */
async function measureOnce(cwd: string): Promise<Partial<Record<Workload, Measured>>> {
  const mqttPort = SELECTED.includes('ingest mqtt qos 1 events/s') ? await freePort() : 0;
  const server = await startBenchServer({
    cwd,
    env: {
      MODELS_DIR: `${ROOT}/models`,
      INFERENCE_API_KEY: KEY,
      ADMIN_PASSWORD: ADMIN.password,
      QUEUE_SIZE: '1024',
      DEVICE_EVENT_RATE: '1000000',
      DEVICE_EVENT_BURST: '1000000',
      MQTT_PORT: String(mqttPort),
    },
  });
  try {
    await waitFor(
      async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
      120_000,
      'the server to be ready',
    );
    const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
    const channel = (await admin.post('/v2/channels', { name: 'bench', type: 'android' })).body.data;
    const tokens: string[] = [];
    for (let d = 0; d < devices; d++) {
      const res = await fetch(`${server.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      });
      tokens.push(((await res.json()) as { token: string }).token);
    }
    const cameraTokens: string[] = [];
    if (SELECTED.includes('camera frames/s')) {
      const cameras = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
      for (let c = 0; c < CAMERAS; c++) {
        const res = await fetch(`${server.url}/v1/registration`, {
          method: 'POST',
          body: JSON.stringify({ apiKey: cameras.apiKeys[0].apiKey }),
        });
        const { token, deviceId } = (await res.json()) as { token: string; deviceId: string };
        const profile = await admin.request('PUT', `/v2/devices/${deviceId}/vision`, {
          modelVersionId: DEMO_VERSION,
        });
        if (profile.status !== 200)
          throw new Error(`vision profile: ${profile.status} ${JSON.stringify(profile.body)}`);
        cameraTokens.push(token);
      }
    }
    /** The server's CPU over `run`, per request of what it returns: its rate, and how many succeeded in all. */
    const measuredRun = async (run: () => Promise<{ rate: number; succeeded: number }>): Promise<Measured> => {
      const cpuBefore = sampleCpu(server.process.pid!)?.server ?? Number.NaN;
      const { rate, succeeded } = await run();
      const cpuAfter = sampleCpu(server.process.pid!)?.server ?? Number.NaN;
      return { rate, cpuMsPerRequest: ((cpuAfter - cpuBefore) * 1000) / succeeded };
    };
    const mqtt = async (): Promise<Measured> => {
      const iot = (await admin.post('/v2/channels', { name: 'mqtt', type: 'iot' })).body.data;
      const registered = await registerDevices([server.url], iot.apiKeys[0].apiKey, devices);
      await server.waitForLog(/mqtt listening/);
      const connected = await connectAll(mqttPort, registered, 'ab');
      try {
        const publishers = connected.map((c) => new Publisher(c));
        return await measuredRun(async () => {
          const run = await publish(publishers, { durationMs, warmupMs: 1000, window: MQTT_WINDOW });
          if (run.refused > 0 || run.closed > 0) say(`mqtt: ${run.refused} refused, ${run.closed} connections closed`);
          return { rate: run.eventsPerSecond, succeeded: run.acknowledged };
        });
      } finally {
        for (const { client } of connected) client.end();
      }
    };
    const load = (request: Buffer | Buffer[], connections: number, perRequest = 1): Promise<Measured> =>
      measuredRun(async () => {
        const run = await runLoad({
          host: '127.0.0.1',
          port: server.port,
          request,
          connections,
          durationMs,
          warmupMs: 1000,
        });
        if (run.errors > 0) say(`${run.errors} errors: ${JSON.stringify(run.statuses)}`);
        return { rate: run.rps * perRequest, succeeded: run.succeededTotal * perRequest };
      });
    const device = (body: Buffer, path: string, type: string, as = tokens) =>
      as.map((token) => buildRequest('POST', path, { Authorization: `Bearer ${token}`, 'Content-Type': type }, body));
    const workloads: Record<Workload, () => Promise<Measured>> = {
      'trivial endpoint req/s': () => load(TRIVIAL, 64),
      'predict req/s': () =>
        load(
          buildRequest('POST', DEMO, { Authorization: `Bearer ${KEY}`, 'Content-Type': image.contentType }, image.body),
          concurrency,
        ),
      'ingest json single events/s': () => load(device(single, '/v1/mobile/events', 'application/json'), devices),
      'ingest protobuf batch events/s': () =>
        load(device(batch, '/v1/mobile/events/batch', 'application/protobuf'), devices, 50),
      'camera frames/s': () => load(device(cameraFrame, '/v1/iot/frames', 'application/json', cameraTokens), CAMERAS),
      'ingest mqtt qos 1 events/s': mqtt,
    };
    const measured: Partial<Record<Workload, Measured>> = {};
    for (const w of SELECTED) measured[w] = await workloads[w]();
    return measured;
  } finally {
    await server.stop();
    await removeDir(server.dataDir);
  }
}

const sides = { A: values.against, B: ROOT };
const runs: Record<'A' | 'B', Array<Partial<Record<Workload, Measured>>>> = { A: [], B: [] };
for (let r = 0; r < reps; r++) {
  for (const side of r % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
    const result = await measureOnce(sides[side]);
    runs[side].push(result);
    say(`rep ${r + 1} ${side}: ${SELECTED.map((w) => `${w} ${result[w]!.rate.toFixed(0)}`).join(', ')}`);
  }
}
const median = (side: 'A' | 'B', w: Workload, figure: keyof Measured): Stat =>
  stat(runs[side].map((r) => r[w]![figure]));
const fmt = (s: Stat, digits = 0) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
process.stdout.write(`# A/B: ${sides.B} (B) against ${sides.A} (A)\n\n`);
process.stdout.write(
  `${reps} runs each, alternating, ${durationMs / 1000} s per figure; median (min–max). Predict: ${concurrency} clients; ingestion: ${devices} devices; frames: ${CAMERAS} cameras.\n\n`,
);
process.stdout.write('| workload | A | B | B/A |\n|---|---|---|---|\n');
for (const w of SELECTED) {
  const [a, b] = [median('A', w, 'rate'), median('B', w, 'rate')];
  process.stdout.write(`| ${w} | ${fmt(a)} | ${fmt(b)} | ${(b.median / a.median).toFixed(3)} |\n`);
}
process.stdout.write(
  '\nServer CPU per request (per event for ingestion), ms: its process, all threads; median (min–max).\n\n',
);
process.stdout.write('| workload | A | B | B/A |\n|---|---|---|---|\n');
for (const w of SELECTED) {
  const [a, b] = [median('A', w, 'cpuMsPerRequest'), median('B', w, 'cpuMsPerRequest')];
  process.stdout.write(`| ${w} | ${fmt(a, 4)} | ${fmt(b, 4)} | ${(b.median / a.median).toFixed(3)} |\n`);
}

/** The trivial endpoint under `node --cpu-prof` on `cwd`'s server (its own start script): the top of the profile. */
async function profileTrivial(cwd: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sense-ab-profile-'));
  const server = await startBenchServer({
    cwd,
    args: ['--cpu-prof', '--cpu-prof-dir', dir, ...startCommand(cwd)],
    env: { MODELS_DIR: `${ROOT}/models` },
  });
  try {
    await waitFor(
      async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
      120_000,
      'the server to be ready',
    );
    await runLoad({
      host: '127.0.0.1',
      port: server.port,
      request: TRIVIAL,
      connections: 64,
      durationMs,
      warmupMs: 1000,
    });
  } finally {
    await server.stop(); // the profile is written as the process exits
    await removeDir(server.dataDir);
  }
  try {
    return (await topOfProfile(dir, cwd)).map((e) => `${(e.share * 100).toFixed(1)}% ${e.name}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (values.profile) {
  for (const side of ['A', 'B'] as const) {
    say(`profiling ${side} on the trivial endpoint`);
    const top = await profileTrivial(sides[side]);
    process.stdout.write(
      `\n${side} (${sides[side]}): self time on GET /v2/health/live, share of the busy samples\n\n${top.map((line) => `- ${line}`).join('\n')}\n`,
    );
  }
}
