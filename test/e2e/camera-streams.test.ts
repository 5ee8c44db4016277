// Cameras that stream: a vision profile names a video stream, the server
// reads it (ffmpeg), runs its frames through the demo model, tracks each
// object and stores its object.start, object.update and object.end events
// instead of an event per frame. The clip (test/helpers/moving-shapes.ts)
// moves a circle across a line and a square into a zone where it stays;
// it is read from a file, from an MJPEG camera over HTTP (served here, in
// real time, in a loop), from an HLS playlist of its segments (served here;
// the server fetches them, never ffmpeg) and from an RTSP server
// (GStreamer's, from Debian's packages), each on loopback.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import { CLIP_PLACES, clipFrames, encodeClip } from '../helpers/moving-shapes.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { ROOT, waitFor, type TestServer } from '../helpers/server.js';
import {
  type MjpegCamera,
  type RtspServer,
  rtspServerInstalled,
  startMjpegCamera,
  startRtspServer,
} from '../helpers/stream-sources.js';

const DEMO = '01JDEM0DETECT0R00000000001';
/** The RTSP case runs where GStreamer's RTSP server is installed, and always in CI (RTSP_TESTS_REQUIRED). */
const hasRtsp = process.env.RTSP_TESTS_REQUIRED === '1' || rtspServerInstalled;

/** ffmpeg reads the streams and encodes the clip: without it (a machine the install could not give it to) the file is skipped, except in CI. */
const hasFfmpeg = process.env.RTSP_TESTS_REQUIRED === '1' || spawnSync('ffmpeg', ['-version']).status === 0;

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];
let channelKey: string;
let channelId: string;
/** where the rules' webhooks go: a receiver on loopback that answers 200 */
let receiver: Server;
let receiverUrl: string;
let dir: string;
let frames: Buffer[];

/** The HTTP camera: MJPEG at the clip's rate, the clip in a loop, from frame 0 for each client. */
let camera: MjpegCamera;
let rtsp: RtspServer | undefined;

/** An HTTP server of files on `host` (a port of its own), each request's path kept. */
interface FileServer {
  url: string;
  requests: string[];
  stop(): void;
}

async function serveFiles(host: string, files: (path: string) => Promise<Buffer | undefined>): Promise<FileServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    requests.push(path);
    void files(path).then((body) => {
      if (!body) res.writeHead(404).end();
      else
        res
          .writeHead(200, {
            'content-type': path.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
            'content-length': body.length,
          })
          .end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as { port: number }).port}`,
    requests,
    stop: () => server.close(),
  };
}

/** The clip as an HLS VOD playlist (MPEG-TS segments of 2 s), served on 127.0.0.1; blocked.m3u8 names a segment on `trap`. */
let hls: FileServer;
/** 127.0.0.2: loopback, which STREAM_ALLOWED_HOSTS (127.0.0.1) does not allow: nothing may be fetched from it. */
let trap: FileServer;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  dir = await mkdtemp(join(tmpdir(), 'streams-'));
  frames = await clipFrames();
  await encodeClip(frames, join(dir, 'clip.mkv'));
  camera = await startMjpegCamera(frames);
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  if (hasRtsp) rtsp = await startRtspServer(join(dir, 'clip.mkv'));
  await mkdir(join(dir, 'hls'));
  const segmented = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-i', join(dir, 'clip.mkv'), '-c', 'copy', '-f', 'hls'],
    ...['-hls_time', '2', '-hls_list_size', '0', '-hls_segment_type', 'mpegts'],
    ...['-hls_segment_filename', join(dir, 'hls/clip%d.ts'), join(dir, 'hls/clip.m3u8')],
  ]);
  expect(segmented.status, segmented.stderr.toString()).toBe(0);
  trap = await serveFiles('127.0.0.2', (path) => readFile(join(dir, 'hls', path)).catch(() => undefined));
  hls = await serveFiles('127.0.0.1', async (path) => {
    if (path === '/blocked.m3u8')
      return Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${trap.url}/clip0.ts\n#EXT-X-ENDLIST\n`);
    return readFile(join(dir, 'hls', path)).catch(() => undefined);
  });
  ({ database, server, sql, admin } = await startPlatform(
    {
      STREAM_FILES_DIR: dir,
      STREAM_ALLOWED_HOSTS: '127.0.0.1',
      STREAMS_PER_ORGANIZATION: '4',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
    { modelsDir: join(ROOT, 'models') },
  ));
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the demo model to load',
  );
  const created = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
  channelKey = created.apiKeys[0].apiKey;
  channelId = created.id;
}, 180_000);

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  rtsp?.stop();
  camera?.stop();
  hls?.stop();
  trap?.stop();
  receiver?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function newCamera(): Promise<string> {
  const res = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channelKey }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { deviceId: string }).deviceId;
}

/** The profile every streaming camera here gets: a line down the middle, the lower right quarter a zone. */
const profile = (url: string, extra: Record<string, unknown> = {}) => ({
  modelVersionId: DEMO,
  ...CLIP_PLACES,
  // an object lost for 5 frames (1 s at 5 fps) ends
  tracking: { lostFrames: 5 },
  stream: { url, fps: 5 },
  ...extra,
});

interface ObjectPayload {
  type: 'object.start' | 'object.update' | 'object.end';
  trackId: number;
  label: string;
  entered: string[];
  left: string[];
  crossed: Array<{ line: string; direction: string }>;
  crossings: Array<{ line: string; direction: string }>;
  timeInZones: Record<string, number>;
  firstSeen: string;
  lastSeen: string;
}

const objectEvents = async (deviceId: string) =>
  (
    await sql<Array<{ payload: ObjectPayload }>>`
      SELECT payload FROM events WHERE device_id = ${deviceId} ORDER BY server_received_at, id`
  ).map((row) => row.payload);

const status = async (deviceId: string) => (await admin.get(`/v2/devices/${deviceId}/vision`)).body.data.stream.status;

/**
 * The first pass of the clip: the events until both of its objects ended
 * (the circle leaves at 5 s, the square at 5.5 s; each ends a second
 * later; the clip then shows 4.5 s of empty ground before it plays again).
 */
async function firstPass(deviceId: string): Promise<ObjectPayload[]> {
  const events = await waitFor(
    async () => {
      const all = await objectEvents(deviceId);
      const ends = all.filter((e) => e.type === 'object.end');
      const ended = new Set(ends.map((e) => e.label));
      if (!ended.has('circle') || !ended.has('square')) return undefined;
      const last = all.indexOf(ends.find((e) => e.label === (ends[0]!.label === 'circle' ? 'square' : 'circle'))!);
      return all.slice(0, last + 1);
    },
    90_000,
    'both objects of the clip to end',
  );
  return events;
}

/** One stable trackId per object through the clip: one start and one end each, the line crossed once, the square's stay. */
function expectClipObjects(events: ObjectPayload[]): void {
  const starts = events.filter((e) => e.type === 'object.start');
  expect(starts.map((e) => e.label).sort()).toEqual(['circle', 'square']);
  for (const start of starts) {
    const mine = events.filter((e) => e.trackId === start.trackId);
    expect(mine[0]!.type).toBe('object.start');
    expect(mine.at(-1)!.type).toBe('object.end');
    expect(mine.filter((e) => e.type !== 'object.update')).toHaveLength(2);
    expect(new Set(mine.map((e) => e.label))).toEqual(new Set([start.label]));
  }
  const circle = events.filter((e) => e.label === 'circle');
  // left to right across a line drawn top to bottom: "out", once
  expect(circle.flatMap((e) => e.crossed)).toEqual([{ line: 'gate', direction: 'out' }]);
  expect(circle.at(-1)!.crossings).toEqual([expect.objectContaining({ line: 'gate', direction: 'out' })]);
  expect(circle.at(-1)!.timeInZones.corner).toBeUndefined();
  const square = events.filter((e) => e.label === 'square');
  expect(square.flatMap((e) => e.entered).filter((zone) => zone === 'corner')).toEqual(['corner']);
  expect(square.at(-1)!.left).toEqual(['corner']);
  // in the corner from about 1.5 s to 5.5 s of the clip
  expect(square.at(-1)!.timeInZones.corner).toBeGreaterThan(2.5);
  expect(square.flatMap((e) => e.crossed)).toEqual([]);
}

describe.runIf(hasFfmpeg)('a camera that streams', () => {
  it('has each object of a file tracked once, start to end, with its crossing and its stay in a zone', async () => {
    const deviceId = await newCamera();
    const set = await admin.put(`/v2/devices/${deviceId}/vision`, profile(`file://${join(dir, 'clip.mkv')}`));
    expect(set.status).toBe(200);
    expect(set.body.data.stream).toMatchObject({ fps: 5, enabled: true });
    const running = await waitFor(async () => {
      const now = await status(deviceId);
      return now?.state === 'running' && now;
    });
    expect(running.replica).toEqual(expect.any(String));
    expectClipObjects(await firstPass(deviceId));
    // The latest frame, for the camera's page: a JPEG at the model's size, its boxes with their trackIds.
    const latest = await waitFor(async () => {
      const res = await admin.get(`/v2/devices/${deviceId}/vision/stream/frame`);
      const boxes = Object.values(res.body.data?.detections ?? {}).flat() as Array<{ trackId?: number }>;
      return res.status === 200 && boxes.some((box) => box.trackId !== undefined) && res.body.data;
    });
    const jpeg = Buffer.from(latest.image, 'base64');
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    // the clip is 640x360, fitted into the demo model's 320x320 input
    expect([latest.width, latest.height]).toEqual([320, 180]);
    const pushing = await newCamera();
    expect((await admin.put(`/v2/devices/${pushing}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    expect((await admin.get(`/v2/devices/${pushing}/vision/stream/frame`)).body).toMatchObject({
      status: 404,
      error: 'this camera does not stream',
    });
    // no event per frame: only object events
    expect((await objectEvents(deviceId)).every((e) => e.type?.startsWith('object.'))).toBe(true);
    const stats = (await waitFor(async () => (await status(deviceId)).stats?.framesOut > 20 && status(deviceId))).stats;
    expect(stats).toMatchObject({
      framesIn: expect.any(Number),
      drops: expect.any(Number),
      objectEvents: expect.any(Number),
    });
    expect(stats.latencyMs.p99).toBeGreaterThan(0);

    // Disabled: it stops, and its objects end.
    const disabled = await admin.put(`/v2/devices/${deviceId}/vision`, {
      ...profile(`file://${join(dir, 'clip.mkv')}`),
      stream: { url: `file://${join(dir, 'clip.mkv')}`, enabled: false },
    });
    expect(disabled.body.data.stream.status).toEqual({ state: 'stopped', reason: 'the stream is not enabled' });
  }, 120_000);

  it('reads an MJPEG camera over HTTP, and goes on after the camera restarts', async () => {
    const deviceId = await newCamera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, profile(camera.url))).status).toBe(200);
    expectClipObjects(await firstPass(deviceId));

    // The camera goes away and comes back on the same port: the stream retries, then runs again.
    const port = Number(new URL(camera.url).port);
    const before = (await status(deviceId)).stats.framesIn as number;
    camera.stop();
    const retrying = await waitFor(async () => {
      const now = await status(deviceId);
      return now.state === 'retrying' && now;
    });
    expect(retrying.reason).toEqual(expect.any(String));
    camera = await startMjpegCamera(frames, port);
    await waitFor(async () => {
      const now = await status(deviceId);
      return now.state === 'running' && now.stats.framesIn > before + 10 && now.stats.restarts >= 1;
    }, 60_000);
  }, 150_000);

  it('reads an HLS playlist, its segments fetched by the server, and reads it again once it ended', async () => {
    const deviceId = await newCamera();
    const url = `${hls.url}/clip.m3u8`;
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, profile(url))).status).toBe(200);
    expectClipObjects(await firstPass(deviceId));
    expect(hls.requests.slice(0, 3)).toEqual(['/clip.m3u8', '/clip0.ts', '/clip1.ts']);
    // A VOD playlist ends with its last segment: the stream is opened again, as any source that ends.
    await waitFor(async () => {
      const now = await status(deviceId);
      return now.stats.restarts >= 1 && hls.requests.filter((path) => path === '/clip.m3u8').length >= 2;
    }, 60_000);
    // the first reading: the playlist, then each segment once, in order
    const first = hls.requests.slice(0, hls.requests.indexOf('/clip.m3u8', 1));
    expect(first).toEqual(['/clip.m3u8', '/clip0.ts', '/clip1.ts', '/clip2.ts', '/clip3.ts', '/clip4.ts']);
    expect(
      (await admin.put(`/v2/devices/${deviceId}/vision`, { ...profile(url), stream: { url, enabled: false } })).status,
    ).toBe(200);
  }, 120_000);

  it('refuses an HLS segment on a host STREAM_ALLOWED_HOSTS does not allow, and fetches nothing from it', async () => {
    const deviceId = await newCamera();
    const url = `${hls.url}/blocked.m3u8`;
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, profile(url))).status).toBe(200);
    const refused = await waitFor(async () => {
      const now = await status(deviceId);
      return now.state === 'retrying' && now;
    });
    expect(refused.reason).toContain(`HLS segment ${trap.url}/clip0.ts: blocked: 127.0.0.2 is an internal address`);
    expect(refused.reason).toContain('STREAM_ALLOWED_HOSTS');
    expect(hls.requests).toContain('/blocked.m3u8');
    expect(trap.requests).toEqual([]);
    expect(
      (await admin.put(`/v2/devices/${deviceId}/vision`, { ...profile(url), stream: { url, enabled: false } })).status,
    ).toBe(200);
  }, 60_000);

  it.runIf(hasRtsp)(
    'reads an RTSP camera',
    async () => {
      const deviceId = await newCamera();
      expect((await admin.put(`/v2/devices/${deviceId}/vision`, profile(rtsp!.url))).status).toBe(200);
      expectClipObjects(await firstPass(deviceId));
    },
    120_000,
  );

  it('drives rules with what its objects do: a crossing, an entry, a stay once, and no stay for an object passing through', async () => {
    const project = (await admin.post('/v2/projects', { name: 'yard', channelIds: [channelId] })).body.data.id;
    const rules: Record<string, string> = {
      crossing: "crossed('gate', 'out', 'circle')",
      wrongWay: "crossed('gate', 'in')",
      entry: "entered('corner', 'square')",
      stay: "dwell('corner', 'square') >= 2",
      passing: "dwell('band') >= 2",
      filled: "becomesTrue(inZone('corner') >= 1)",
    };
    const ids: Record<string, string> = {};
    for (const [name, conditions] of Object.entries(rules)) {
      const res = await admin.post('/v2/rules', {
        projectId: project,
        name,
        conditions,
        actions: [
          { type: 'webhook', method: 'POST', url: `${receiverUrl}/${name}`, body: '{"event": "{{event.id}}"}' },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.conditions).toBe(conditions);
      ids[name] = res.body.data.id;
    }
    const deviceId = await newCamera();
    // a vertical band the circle passes through in about 1.2 s (it moves 0.16 of the width a second)
    const band = {
      name: 'band',
      polygon: [
        [0.4, 0],
        [0.6, 0],
        [0.6, 1],
        [0.4, 1],
      ],
    };
    const base = profile(`file://${join(dir, 'clip.mkv')}`);
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { ...base, zones: [...base.zones, band] })).status).toBe(
      200,
    );
    const events = await firstPass(deviceId);
    expectClipObjects(events);
    const tracks = new Map(events.map((e) => [String(e.trackId), e.label]));
    // What fired on the first pass's objects, by rule: the label of each firing's object.
    const fired = async () => {
      const rows = await sql<Array<{ ruleId: string; trackId: string }>>`
        SELECT j.rule_id, e.payload->>'trackId' AS track_id FROM action_jobs j JOIN events e ON e.id = j.event_id
        WHERE e.device_id = ${deviceId}`;
      const out: Record<string, string[]> = Object.fromEntries(Object.keys(ids).map((name) => [name, []]));
      for (const row of rows) {
        const name = Object.keys(ids).find((n) => ids[n] === row.ruleId)!;
        if (tracks.has(row.trackId)) out[name]!.push(tracks.get(row.trackId)!);
      }
      return out;
    };
    const expected = {
      crossing: ['circle'],
      wrongWay: [],
      entry: ['square'],
      stay: ['square'],
      passing: [],
      filled: ['square'],
    };
    // the events are committed with their action jobs: what fired is there once the first pass is
    expect(await fired()).toEqual(expected);
    await admin.put(`/v2/devices/${deviceId}/vision`, { ...base, stream: { url: base.stream.url, enabled: false } });
  }, 120_000);

  it('refuses streams it will not read, masks credentials, and keeps them when the masked URL comes back', async () => {
    const deviceId = await newCamera();
    const put = (stream: Record<string, unknown>) =>
      admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, stream });
    for (const [url, says] of [
      ['ftp://camera.example/video', 'is not a stream this server reads'],
      ['file:///etc/passwd', "under the server's stream files directory"],
      [`file://${join(dir, '../elsewhere.mkv')}`, "under the server's stream files directory"],
      ['not a url', 'not a URL'],
    ]) {
      const res = await put({ url });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, message: 'invalid request body' });
      expect(res.body.error).toContain(says);
    }
    expect((await put({ url: camera.url, fps: 0 })).status).toBe(400);

    // Credentials: sealed at rest, masked when shown, kept when the masked URL is sent back.
    const secret = 'rtsp://viewer:s3cret-pass@10.1.2.3:554/live';
    const set = await put({ url: secret, enabled: false });
    expect(set.status).toBe(200);
    expect(set.body.data.stream.url).toBe('rtsp://viewer:***@10.1.2.3:554/live');
    const [stored] = await sql<Array<{ stream: string }>>`
      SELECT stream::text AS stream FROM device_vision WHERE device_id = ${deviceId}`;
    expect(stored!.stream).not.toContain('s3cret-pass');
    const again = await put({ url: 'rtsp://viewer:***@10.1.2.3:554/live', enabled: true });
    expect(again.status).toBe(200);
    // An internal address not allowed (STREAM_ALLOWED_HOSTS has 127.0.0.1 only) is refused when the stream is opened.
    const refused = await waitFor(async () => {
      const now = await status(deviceId);
      return now.state === 'retrying' && now;
    });
    expect(refused.reason).toContain('internal address');
    expect(refused.reason).toContain('STREAM_ALLOWED_HOSTS can allow it');
    expect(refused.reason).not.toContain('s3cret-pass');
    expect((await put({ url: 'rtsp://viewer:***@10.1.2.3:554/live', enabled: false })).status).toBe(200);
  }, 60_000);

  it('holds an organization to its number of enabled streams', async () => {
    // Three streams may be enabled here besides whatever the other cases left on (STREAMS_PER_ORGANIZATION 4).
    const cameras = await Promise.all([1, 2, 3, 4, 5].map(() => newCamera()));
    const answers = [];
    for (const deviceId of cameras) {
      answers.push(
        await admin.put(`/v2/devices/${deviceId}/vision`, {
          modelVersionId: DEMO,
          stream: { url: 'rtsp://192.0.2.1/never', enabled: true },
        }),
      );
    }
    const refused = answers.filter((res) => res.status === 400);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.body.error).toContain('STREAMS_PER_ORGANIZATION');
    // disabled, a stream does not count
    const last = cameras.at(-1)!;
    const disabled = await admin.put(`/v2/devices/${last}/vision`, {
      modelVersionId: DEMO,
      stream: { url: 'rtsp://192.0.2.1/never', enabled: false },
    });
    expect(disabled.status).toBe(200);
    for (const deviceId of cameras) await admin.delete(`/v2/devices/${deviceId}/vision`);
  }, 60_000);

  it('reports its streams in /metrics', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(/camera_streams\{state="running"\} \d+/);
    expect(text).toMatch(/camera_stream_frames_total\{device="\w+",outcome="out"\} [1-9]/);
  });
});
