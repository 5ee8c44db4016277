// npm run bench -- frames [--cameras 8] [--fps 2,8,32] [--duration 10] [--reps 3] [--keep-frames] [--quick]
// Camera frames (POST /v1/iot/frames) with the bundled demo model: N
// cameras (devices with a vision profile, two zones) each sending M frames
// a second of 640x480 demo scenes, on a fixed schedule (latency counted
// from when each frame was due, so a server that falls behind shows it).
// Every figure is a frame acknowledged: run, its event committed. Then the
// crash round: the cameras send numbered frames (frameId), the server is
// killed with SIGKILL in the middle, restarted on its data, and the frame
// events stored are compared with the frames acknowledged before the kill:
// none may be missing. With --keep-frames the cameras keep their frames'
// images (in PostgreSQL), and the crash round also checks that every event
// saying `frameKept` has its image.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EVAL_SEED_START, makeScene, renderScene } from '../scripts/demo-model/scenes.js';
import { ADMIN, Api, serverSql } from '../test/helpers/api.js';
import { removeDir, ROOT, waitFor, type TestServer } from '../test/helpers/server.js';
import { startDemoServer } from './bench-server.js';
import { buildRequest, runLoad } from './load-generator.js';
import { stat, type Stat } from './report.js';

const DEMO = '01JDEM0DETECT0R00000000001';
const ZONES = [
  {
    name: 'left',
    polygon: [
      [0, 0],
      [0.5, 0],
      [0.5, 1],
      [0, 1],
    ],
  },
  {
    name: 'right',
    polygon: [
      [0.5, 0],
      [1, 0],
      [1, 1],
      [0.5, 1],
    ],
  },
];

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'frames'),
  options: {
    cameras: { type: 'string', default: '8' },
    fps: { type: 'string', default: '2,8,32' },
    duration: { type: 'string' },
    reps: { type: 'string' },
    'keep-frames': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- frames [options]

  --cameras <n>   cameras, one keep-alive connection each (default: 8)
  --fps <list>    frames a second each camera sends, one figure per value (default: 2,8,32)
  --duration <s>  measured seconds per figure (default: 10; --quick: 3)
  --reps <n>      repetitions; figures are medians (default: 3; --quick: 1)
  --keep-frames   the cameras keep their frames' images (report: frames-kept.md)
  --quick         a smoke run; its report is not kept
`);
  process.exit(0);
}
const cameras = Number(values.cameras);
const rates = values.fps.split(',').map(Number);
const durationMs = Number(values.duration ?? (values.quick ? 3 : 10)) * 1000;
const reps = Number(values.reps ?? (values.quick ? 1 : 3));
const keepFrames = values['keep-frames'];
const say = (text: string) => process.stderr.write(`[bench frames] ${text}\n`);

/** Different scenes for different cameras, as JSON bodies (predict's). */
const scenes = await Promise.all(
  Array.from({ length: 4 }, async (_, i) => {
    const scene = makeScene(EVAL_SEED_START + 200 + i);
    const jpeg = await renderScene(scene, 'jpeg');
    return Buffer.from(JSON.stringify({ image: jpeg.toString('base64') }));
  }),
);

interface Deployment {
  server: TestServer;
  tokens: string[];
  deviceIds: string[];
}

const deploy = (dataDir?: string): Promise<TestServer> =>
  startDemoServer({ DEVICE_EVENT_RATE: '1000000', DEVICE_EVENT_BURST: '1000000' }, dataDir);

/** A server with `cameras` cameras, each with the demo model and two zones. */
async function withCameras(): Promise<Deployment> {
  const server = await deploy();
  const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
  const channel = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
  const tokens: string[] = [];
  const deviceIds: string[] = [];
  for (let c = 0; c < cameras; c++) {
    const res = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    const { token, deviceId } = (await res.json()) as { token: string; deviceId: string };
    const profile = await admin.request('PUT', `/v2/devices/${deviceId}/vision`, {
      modelVersionId: DEMO,
      zones: ZONES,
      keepFrames,
    });
    if (profile.status !== 200) throw new Error(`vision profile: ${profile.status} ${JSON.stringify(profile.body)}`);
    tokens.push(token);
    deviceIds.push(deviceId);
  }
  return { server, tokens, deviceIds };
}

interface Figure {
  fps: number;
  offered: number;
  framesPerSecond: Stat;
  p50: Stat;
  p99: Stat;
  errors: number;
}

async function throughput(): Promise<Figure[]> {
  const runs = new Map<number, Array<{ fps: number; p50: number; p99: number; errors: number }>>();
  for (let r = 0; r < reps; r++) {
    const { server } = await withCameras().then(async (d) => {
      for (const fps of rates) {
        const requests = d.tokens.map((token, i) =>
          buildRequest(
            'POST',
            '/v1/iot/frames',
            { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            scenes[i % scenes.length],
          ),
        );
        const run = await runLoad({
          host: '127.0.0.1',
          port: d.server.port,
          request: requests,
          connections: cameras,
          durationMs,
          warmupMs: 2000,
          rate: cameras * fps,
        });
        say(
          `rep ${r + 1}, ${fps} frames/s per camera: ${run.rps.toFixed(1)} frames/s, p99 ${run.p99.toFixed(0)} ms, ${run.errors} errors ${JSON.stringify(run.statuses)}`,
        );
        runs.set(fps, [...(runs.get(fps) ?? []), { fps: run.rps, p50: run.p50, p99: run.p99, errors: run.errors }]);
      }
      return d;
    });
    await server.stop();
    await removeDir(server.dataDir);
  }
  return rates.map((fps) => {
    const list = runs.get(fps)!;
    return {
      fps,
      offered: cameras * fps,
      framesPerSecond: stat(list.map((x) => x.fps)),
      p50: stat(list.map((x) => x.p50)),
      p99: stat(list.map((x) => x.p99)),
      errors: list.reduce((a, x) => a + x.errors, 0),
    };
  });
}

interface Crash {
  acknowledged: number;
  stored: number;
  missing: number;
  /** frames stored that the client never heard acknowledged: committed, the answer lost in the kill */
  unacknowledgedStored: number;
  /** --keep-frames: events saying frameKept, those whose image is missing, and images kept for no event (their event not committed) */
  kept?: { events: number; missing: number; withoutEvent: number };
}

/** Numbered frames from every camera as fast as answered; SIGKILL once `killAfter` are acknowledged. */
async function crashRound(killAfter: number): Promise<Crash> {
  const d = await withCameras();
  const acked = new Set<string>();
  let stopped = false;
  const senders = d.tokens.map(async (token, c) => {
    for (let n = 0; !stopped; n++) {
      const frameId = `cam${c}-${n}`;
      try {
        const res = await fetch(`${d.server.url}/v1/iot/frames?frameId=${frameId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: scenes[c % scenes.length],
        });
        if (res.status === 200 && !stopped) acked.add(frameId);
        await res.arrayBuffer();
      } catch {
        return; // the server is gone
      }
    }
  });
  await waitFor(async () => acked.size >= killAfter, 120_000, `${killAfter} acknowledged frames`);
  stopped = true; // answers arriving from here on are not counted as acknowledged
  d.server.process.kill('SIGKILL');
  await Promise.all(senders);
  await d.server.stop();
  const restarted = await deploy(d.server.dataDir);
  const sql = await serverSql(restarted);
  try {
    const rows = await sql<
      Array<{ frameId: string }>
    >`SELECT payload->>'frameId' AS frame_id FROM events WHERE device_id = ANY(${d.deviceIds})`;
    const stored = new Set(rows.map((r) => r.frameId));
    const [kept] = keepFrames
      ? await sql<Array<{ events: number; missing: number; withoutEvent: number }>>`
          SELECT (SELECT count(*)::int FROM events e WHERE e.device_id = ANY(${d.deviceIds}) AND e.payload->>'frameKept' = 'true') AS events,
                 (SELECT count(*)::int FROM events e WHERE e.device_id = ANY(${d.deviceIds}) AND e.payload->>'frameKept' = 'true'
                    AND NOT EXISTS (SELECT 1 FROM kept_frames k WHERE k.event_id = e.id)) AS missing,
                 (SELECT count(*)::int FROM kept_frames k WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.id = k.event_id)) AS without_event`
      : [];
    return {
      acknowledged: acked.size,
      stored: stored.size,
      missing: [...acked].filter((id) => !stored.has(id)).length,
      unacknowledgedStored: [...stored].filter((id) => !acked.has(id)).length,
      ...(kept && { kept }),
    };
  } finally {
    await sql.end();
    await restarted.stop();
    await removeDir(restarted.dataDir);
  }
}

const figures = await throughput();
say('crash round');
const crash = await crashRound(values.quick ? 30 : 150);

const fmt = (s: Stat, digits = 1) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
const report = [
  keepFrames ? '# Camera frames, their images kept' : '# Camera frames',
  '',
  `Command: \`npm run bench -- frames${process.argv
    .slice(2)
    .filter((a) => a !== 'frames')
    .map((a) => ` ${a}`)
    .join('')}\``,
  '',
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}; the bundled demo model on CPU, embedded PostgreSQL.`,
  '',
  `${cameras} cameras, one keep-alive connection each, each sending 640x480 JPEG demo scenes (75 to 355 KB; JSON, as predict takes them) on a fixed schedule${keepFrames ? ', each camera keeping its frames (vision profile `keepFrames`: each image stored in PostgreSQL before its event)' : ''}; a frame counts once acknowledged (run, its event committed); latency from when the frame was due. ${reps} repetitions of ${durationMs / 1000} s each after 2 s of warm-up, each on a fresh server; median (min–max).`,
  '',
  '| frames/s per camera | offered frames/s | acknowledged frames/s | p50 ms | p99 ms | errors |',
  '|---|---|---|---|---|---|',
  ...figures.map(
    (f) =>
      `| ${f.fps} | ${f.offered} | ${fmt(f.framesPerSecond)} | ${fmt(f.p50, 0)} | ${fmt(f.p99, 0)} | ${f.errors} |`,
  ),
  '',
  '## Crash round',
  '',
  `The cameras send numbered frames (\`frameId\`) as fast as they are answered; the server is killed with SIGKILL once ${values.quick ? 30 : 150} are acknowledged, then restarted on its data directory.`,
  '',
  `- frames acknowledged before the kill: **${crash.acknowledged}**`,
  `- frame events stored after the restart: **${crash.stored}** (of which ${crash.unacknowledgedStored} committed but not heard acknowledged: their answers were lost in the kill)`,
  `- acknowledged frames missing: **${crash.missing}**`,
  ...(crash.kept
    ? [
        `- events saying \`frameKept\`: **${crash.kept.events}**, of which without their image: **${crash.kept.missing}**`,
        `- images kept for an event that was never committed (the kill came between the two): ${crash.kept.withoutEvent}; they count against the quota and leave with the retention`,
      ]
    : []),
  '',
].join('\n');
process.stdout.write(report);
if (!values.quick) {
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  const file = keepFrames ? 'frames-kept.md' : 'frames.md';
  await writeFile(join(ROOT, 'bench', 'results', file), report);
  say(`report written to bench/results/${file}`);
}
if (crash.missing > 0 || (crash.kept?.missing ?? 0) > 0) process.exitCode = 1;
