// npm run bench -- streams [--counts 4,8,12,...] [--saturate 64] [--duration 20] [--quick]
// Cameras that stream, read by the server itself with the bundled demo
// model: N local streams at 5 fps, taken in turn from an MJPEG camera over
// HTTP, an RTSP server (GStreamer's, when installed) and a file, each on
// loopback, each the clip of test/helpers/moving-shapes.ts (a circle
// crossing a line, a square staying in a zone, a still square) in a loop.
// For each N: frames in and out a second, drops (a newer frame replaced one
// waiting while the model was busy) and admission refusals, CPU a second of
// the server (its threads), of its PostgreSQL and of the ffmpeg readers, and
// per stream; frame → object event latency (from a frame's arrival to its
// objects' events committed, p50 of the streams' medians, worst p99); and
// tracking's share of the server's CPU, from the time the streams spent in
// it (the stats' trackingMs: it is measured in place rather than switched
// off, as a stream without tracking would store nothing). The pipeline
// limit is the frames a second run with `--saturate` streams (more than
// the cores can run); the most streams held is the largest N with no drop,
// no refusal and every frame in run. Then the crash round: the server is
// killed (SIGKILL) while streams run, restarted on its data; the streams
// must resume on their own, no committed object event may be lost, and the
// still square, which stays throughout, must keep its one object.start.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ADMIN, Api, serverSql } from '../test/helpers/api.js';
import { CLIP_PLACES, clipFrames, encodeClip } from '../test/helpers/moving-shapes.js';
import { removeDir, ROOT, waitFor, type TestServer } from '../test/helpers/server.js';
import { rtspServerInstalled, startMjpegCamera, startRtspServer } from '../test/helpers/stream-sources.js';
import { startDemoServer } from './bench-server.js';
import { sampleCpu, type CpuSample } from './process-cpu.js';

const DEMO = '01JDEM0DETECT0R00000000001';
const FPS = 5;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'streams'),
  options: {
    counts: { type: 'string' },
    saturate: { type: 'string' },
    duration: { type: 'string' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- streams [options]

  --counts <list>   streams run together, one figure each (default: 4,8,12,16,20,24,28,32,36,40; --quick: 2,4)
  --saturate <n>    streams for the pipeline limit (default: 64; --quick: 8)
  --duration <s>    measured seconds per figure (default: 20; --quick: 6)
  --quick           a smoke run; its report is not kept
`);
  process.exit(0);
}
const counts = (values.counts ?? (values.quick ? '2,4' : '4,8,12,16,20,24,28,32,36,40')).split(',').map(Number);
const saturate = Number(values.saturate ?? (values.quick ? 8 : 64));
const durationMs = Number(values.duration ?? (values.quick ? 6 : 20)) * 1000;
const say = (text: string) => process.stderr.write(`[bench streams] ${text}\n`);

const dir = await mkdtemp(join(tmpdir(), 'bench-streams-'));
const frames = await clipFrames(true);
// Twelve times over (2 minutes): the RTSP server plays a file from its start
// for each reader and ends with it, which a camera does not; within a figure
// no source ends, so what it counts is the server's, not the test source's.
const CLIP_REPEATS = 12;
await encodeClip(Array.from({ length: CLIP_REPEATS }, () => frames).flat(), join(dir, 'clip.mkv'));
const mjpeg = await startMjpegCamera(frames);
const rtsp = rtspServerInstalled ? await startRtspServer(join(dir, 'clip.mkv')) : undefined;
const sources = [mjpeg.url, ...(rtsp ? [rtsp.url] : []), `file://${join(dir, 'clip.mkv')}`];

const PROFILE = { modelVersionId: DEMO, ...CLIP_PLACES };

const deploy = (dataDir?: string): Promise<TestServer> =>
  startDemoServer(
    { STREAM_FILES_DIR: dir, STREAM_ALLOWED_HOSTS: '127.0.0.1', STREAMS_PER_ORGANIZATION: '1000' },
    dataDir,
  );

interface StreamStats {
  framesIn: number;
  framesOut: number;
  drops: number;
  refused: number;
  failed: number;
  trackingMs: number;
  latencyMs: { p50: number; p99: number } | null;
}

const status = async (admin: Api, deviceId: string) =>
  (await admin.get(`/v2/devices/${deviceId}/vision`)).body.data.stream?.status as
    | { state: string; reason?: string; replica?: string; stats?: StreamStats }
    | undefined;

async function setStreams(admin: Api, deviceIds: readonly string[], enabled: boolean): Promise<void> {
  for (const [i, deviceId] of deviceIds.entries()) {
    const res = await admin.put(`/v2/devices/${deviceId}/vision`, {
      ...PROFILE,
      stream: { url: sources[i % sources.length], fps: FPS, enabled },
    });
    if (res.status !== 200) throw new Error(`vision profile: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

const sumStats = (list: StreamStats[]) =>
  list.reduce(
    (a, s) => ({
      framesIn: a.framesIn + s.framesIn,
      framesOut: a.framesOut + s.framesOut,
      lost: a.lost + s.drops + s.refused + s.failed,
      trackingMs: a.trackingMs + s.trackingMs,
    }),
    { framesIn: 0, framesOut: 0, lost: 0, trackingMs: 0 },
  );

/** Each process group's CPU: the server's own threads, PostgreSQL, and the ffmpeg readers. */
const cpuNow = (server: TestServer): CpuSample => sampleCpu(server.process.pid!)!;

interface Figure {
  streams: number;
  inFps: number;
  outFps: number;
  lost: number;
  /** lost frames by the kind of source (http, rtsp, file) */
  lostBy: Record<string, number>;
  cpu: { server: number; database: number; ffmpeg: number };
  p50: number;
  p99: number;
  trackingShare: number;
}

async function measure(server: TestServer, admin: Api, deviceIds: readonly string[]): Promise<Figure> {
  await setStreams(admin, deviceIds, true);
  await waitFor(
    async () => {
      const all = await Promise.all(deviceIds.map((id) => status(admin, id)));
      return all.every((s) => s?.state === 'running' && (s.stats?.framesOut ?? 0) > FPS * 2);
    },
    120_000,
    `${deviceIds.length} streams running`,
  );
  const read = async () => (await Promise.all(deviceIds.map((id) => status(admin, id)))).map((s) => s!.stats!);
  // The state is written every 2 s: a read right after a write spans exactly what it says.
  const first = await read();
  const before = { stats: sumStats(first), cpu: cpuNow(server), at: performance.now() };
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  const last = await read();
  const after = { stats: sumStats(last), cpu: cpuNow(server), at: performance.now() };
  const seconds = (after.at - before.at) / 1000;
  const serverCpu = after.cpu.server - before.cpu.server;
  const latencies = last.flatMap((s) => (s.latencyMs ? [s.latencyMs] : []));
  const p50s = latencies.map((l) => l.p50).sort((a, b) => a - b);
  const lostBy: Record<string, number> = {};
  for (const [i, s] of last.entries()) {
    const kind = new URL(sources[i % sources.length]!).protocol.replace(':', '');
    const was = first[i]!;
    lostBy[kind] = (lostBy[kind] ?? 0) + s.drops + s.refused + s.failed - (was.drops + was.refused + was.failed);
  }
  const figure: Figure = {
    lostBy,
    streams: deviceIds.length,
    inFps: (after.stats.framesIn - before.stats.framesIn) / seconds,
    outFps: (after.stats.framesOut - before.stats.framesOut) / seconds,
    lost: after.stats.lost - before.stats.lost,
    cpu: {
      server: serverCpu / seconds,
      database: (after.cpu.database - before.cpu.database) / seconds,
      ffmpeg: (after.cpu.ffmpeg - before.cpu.ffmpeg) / seconds,
    },
    p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
    p99: Math.max(...latencies.map((l) => l.p99)),
    trackingShare: (after.stats.trackingMs - before.stats.trackingMs) / 1000 / serverCpu,
  };
  say(
    `${figure.streams} streams: in ${figure.inFps.toFixed(1)}/s, out ${figure.outFps.toFixed(1)}/s, lost ${figure.lost} ${JSON.stringify(figure.lostBy)}, CPU server ${figure.cpu.server.toFixed(2)} + db ${figure.cpu.database.toFixed(2)} + ffmpeg ${figure.cpu.ffmpeg.toFixed(2)}, p50 ${figure.p50} ms, p99 ${figure.p99} ms, tracking ${(figure.trackingShare * 100).toFixed(2)} % of the server's CPU`,
  );
  await setStreams(admin, deviceIds, false);
  await waitFor(
    async () => {
      const all = await Promise.all(deviceIds.map((id) => status(admin, id)));
      return all.every((s) => s?.state === 'stopped');
    },
    30_000,
    'the streams to stop',
  );
  return figure;
}

async function cameras(server: TestServer, admin: Api, n: number): Promise<string[]> {
  const channel = (await admin.post('/v2/channels', { name: `cameras ${Date.now()}`, type: 'iot' })).body.data;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    ids.push(((await res.json()) as { deviceId: string }).deviceId);
  }
  return ids;
}

interface Crash {
  streams: number;
  committedBeforeKill: number;
  missingAfter: number;
  resumedInSeconds: number;
  /** per camera: the still square's object.start events over the whole round (1 each: it stayed) */
  stillStarts: number[];
}

/** Streams running, the server killed, restarted on its data: resumed, nothing committed lost, the still square started once. */
async function crashRound(n: number): Promise<Crash> {
  const server = await deploy();
  const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
  const ids = await cameras(server, admin, n);
  await setStreams(admin, ids, true);
  const stillStarts = async (sql: Awaited<ReturnType<typeof serverSql>>) =>
    Promise.all(
      ids.map(async (id) => {
        // the still square: its box's centre in the lower left (x 0.2, y 0.75)
        const [row] = await sql<Array<{ count: number }>>`
          SELECT count(*)::int AS count FROM events WHERE device_id = ${id} AND payload->>'type' = 'object.start'
            AND payload->>'label' = 'square' AND ((payload->'box'->>0)::float + (payload->'box'->>2)::float) / 2 < 0.35`;
        return row!.count;
      }),
    );
  let sql = await serverSql(server);
  await waitFor(async () => (await stillStarts(sql)).every((c) => c === 1), 120_000, 'each still square started');
  // A few seconds more, so that objects are open at the kill.
  await new Promise((resolve) => setTimeout(resolve, 4000));
  const committed = await sql<Array<{ id: string }>>`SELECT id FROM events WHERE device_id = ANY(${ids})`;
  const killedReplicas = new Set((await Promise.all(ids.map((id) => status(admin, id)))).map((s) => s?.replica));
  await sql.end();
  server.process.kill('SIGKILL');
  await server.stop();
  const killedAt = performance.now();
  const restarted = await deploy(server.dataDir);
  const again = await new Api(restarted.url).login(ADMIN.email, ADMIN.password);
  await waitFor(
    async () => {
      // read by the restarted server: the killed one's rows stand until its leases run out
      const all = await Promise.all(ids.map((id) => status(again, id)));
      return all.every(
        (s) => s?.state === 'running' && !killedReplicas.has(s.replica) && (s.stats?.framesOut ?? 0) > FPS * 3,
      );
    },
    120_000,
    'the streams to resume',
  );
  const resumedInSeconds = (performance.now() - killedAt) / 1000;
  sql = await serverSql(restarted);
  try {
    const after = new Set(
      (await sql<Array<{ id: string }>>`SELECT id FROM events WHERE device_id = ANY(${ids})`).map((r) => r.id),
    );
    return {
      streams: n,
      committedBeforeKill: committed.length,
      missingAfter: committed.filter((r) => !after.has(r.id)).length,
      resumedInSeconds,
      stillStarts: await stillStarts(sql),
    };
  } finally {
    await sql.end();
    await restarted.stop();
    await removeDir(restarted.dataDir);
  }
}

const server = await deploy();
const figures: Figure[] = [];
let limit: Figure;
try {
  const admin = await new Api(server.url).login(ADMIN.email, ADMIN.password);
  const ids = await cameras(server, admin, Math.max(saturate, ...counts));
  for (const n of counts) figures.push(await measure(server, admin, ids.slice(0, n)));
  say('pipeline limit');
  limit = await measure(server, admin, ids.slice(0, saturate));
} finally {
  await server.stop();
  await removeDir(server.dataDir);
}
say('crash round');
const crash = await crashRound(values.quick ? 2 : 4);
mjpeg.stop();
rtsp?.stop();
await rm(dir, { recursive: true, force: true });

// Held: nothing dropped or refused, and every frame read was run (frames in and out within the window's edges).
const held = figures.filter((f) => f.lost === 0 && f.outFps >= f.inFps * 0.97).at(-1);
const pipelineStreams = limit.outFps / FPS;
const perStream = (f: Figure) => (f.cpu.server + f.cpu.database + f.cpu.ffmpeg) / f.streams;
const report = [
  '# Camera streams',
  '',
  `Command: \`npm run bench -- streams${process.argv
    .slice(2)
    .filter((a) => a !== 'streams')
    .map((a) => ` ${a}`)
    .join('')}\``,
  '',
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}; the bundled demo model on CPU, embedded PostgreSQL. Sources on loopback, in turn: ${rtsp ? 'an MJPEG camera over HTTP, an RTSP server (GStreamer) and a file' : 'an MJPEG camera over HTTP and a file (no RTSP server installed)'}; each the 640x360 test clip at 10 fps in a loop (the RTSP server's file holds it ${CLIP_REPEATS} times over, so that no source ends within a figure), read at ${FPS} fps, each frame scaled to the model's 320x320 input by ffmpeg. ${durationMs / 1000} s measured per figure, after every stream runs.`,
  '',
  '| streams | frames in/s | frames run/s | dropped or refused (by source) | CPU/s server | CPU/s PostgreSQL | CPU/s ffmpeg | CPU/s per stream | latency p50 ms | latency p99 ms | tracking, share of the server CPU |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...[...figures, limit].map(
    (f) =>
      `| ${f.streams}${f === limit ? ' (saturating)' : ''} | ${f.inFps.toFixed(1)} | ${f.outFps.toFixed(1)} | ${f.lost} (${Object.entries(
        f.lostBy,
      )
        .map(([kind, n]) => `${kind} ${n}`)
        .join(
          ', ',
        )}) | ${f.cpu.server.toFixed(2)} | ${f.cpu.database.toFixed(2)} | ${f.cpu.ffmpeg.toFixed(2)} | ${perStream(f).toFixed(3)} | ${f.p50} | ${f.p99} | ${(f.trackingShare * 100).toFixed(2)} % |`,
  ),
  '',
  `- Pipeline limit: **${limit.outFps.toFixed(1)} frames/s** run with ${saturate} streams, i.e. ${pipelineStreams.toFixed(1)} streams at ${FPS} fps.`,
  `- Most streams held with no drop and every frame run: **${held?.streams ?? 0}**, ${held ? (held.streams / pipelineStreams).toFixed(2) : '0'} × the limit's streams (target ≥ 0.9).`,
  `- Tracking's cost: at most **${(Math.max(...figures.map((f) => f.trackingShare)) * 100).toFixed(2)} %** of the server's CPU (target < 5 % of a stream's CPU, which also counts ffmpeg and PostgreSQL).`,
  '',
  '## Crash round',
  '',
  `${crash.streams} streams of the clip with a still square; once each still square has its object.start and 4 s more, the server is killed with SIGKILL and restarted on its data directory (its old leases run out first: 15 s).`,
  '',
  `- object events committed before the kill: **${crash.committedBeforeKill}**, missing after the restart: **${crash.missingAfter}**`,
  `- streams running again, every one, ${crash.resumedInSeconds.toFixed(1)} s after the kill`,
  `- object.start events of each still square over the whole round: **${crash.stillStarts.join(', ')}** (1: it was taken back under its trackId, not started again)`,
  '',
].join('\n');
process.stdout.write(report);
if (!values.quick) {
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', 'streams.md'), report);
  say('report written to bench/results/streams.md');
}
if (crash.missingAfter > 0 || crash.stillStarts.some((c) => c !== 1)) process.exitCode = 1;
