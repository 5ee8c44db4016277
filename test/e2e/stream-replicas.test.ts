// Two servers on one PostgreSQL reading cameras' streams: each stream runs
// on exactly one of them (its lease in camera_streams), the two share them
// out, and when one is killed with SIGKILL the other takes its streams over
// once their leases run out, each object that stayed in view keeping its
// one object.start. The database is an external PostgreSQL where
// TEST_DATABASE_URL or TEST_REPLICAS_DATABASE_URL names one, else the
// embedded one the first server starts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { ADMIN, Api, serverDatabaseUrl, serverSql } from '../helpers/api.js';
import { CLIP_PLACES, clipFrames, encodeClip } from '../helpers/moving-shapes.js';
import { createTestDatabase, removeDir, ROOT, startServer, type TestServer, waitFor } from '../helpers/server.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const CAMERAS = 4;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let env: Record<string, string>;
const replicas: TestServer[] = [];
let sql: postgres.Sql;
let admin: Api;
let dir: string;

beforeAll(async () => {
  if (!hasFfmpeg) return;
  dir = await mkdtemp(join(tmpdir(), 'stream-replicas-'));
  // the clip with a square that never moves: an object that stays whatever happens to its replica
  await encodeClip(await clipFrames(true), join(dir, 'clip.mkv'));
  database = await createTestDatabase({ replicas: true });
  // What replicas of one database share: the token secret, and the key the stream URLs are sealed with.
  env = {
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    STREAM_FILES_DIR: dir,
  };
  const first = await startServer({ modelsDir: join(ROOT, 'models'), databaseUrl: database?.url, env });
  replicas.push(first);
  const databaseUrl = await serverDatabaseUrl(first, database?.url);
  replicas.push(await startServer({ modelsDir: join(ROOT, 'models'), databaseUrl, env }));
  for (const replica of replicas)
    await waitFor(async () => (await fetch(`${replica.url}/v2/health/ready`)).status === 200, 120_000, 'ready');
  sql = await serverSql(first, database?.url);
  admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
}, 300_000);

afterAll(async () => {
  await sql?.end();
  // The first server last: with the embedded PostgreSQL, it runs the database.
  for (const replica of [...replicas].reverse()) await replica.stop();
  await database?.drop();
  for (const replica of replicas) await removeDir(replica.dataDir);
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface StreamStatus {
  state: string;
  replica?: string;
}

describe.runIf(hasFfmpeg)('streams on two replicas', () => {
  it("runs each stream on one replica, shares them out, and moves a killed replica's streams to the other", {
    timeout: 240_000,
  }, async () => {
    const [first, second] = replicas as [TestServer, TestServer];
    const channel = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
    const cameras: string[] = [];
    for (let i = 0; i < CAMERAS; i++) {
      const res = await fetch(`${first.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      });
      cameras.push(((await res.json()) as { deviceId: string }).deviceId);
    }
    for (const id of cameras) {
      const res = await admin.put(`/v2/devices/${id}/vision`, {
        modelVersionId: DEMO_MODEL_VERSION_ID,
        ...CLIP_PLACES,
        stream: { url: `file://${join(dir, 'clip.mkv')}`, fps: 5 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const statuses = async (via: TestServer) =>
      Promise.all(
        cameras.map(
          async (id) =>
            (await new Api(via.url, admin.token).get(`/v2/devices/${id}/vision`)).body.data.stream
              ?.status as StreamStatus,
        ),
      );
    await waitFor(
      async () => {
        const now = await statuses(second);
        if (!now.every((s) => s?.state === 'running')) return false;
        const by = new Map<string, number>();
        for (const s of now) by.set(s.replica!, (by.get(s.replica!) ?? 0) + 1);
        // shared out: two each
        return by.size === 2 && [...by.values()].every((n) => n === CAMERAS / 2);
      },
      120_000,
      'every stream running, two on each replica',
    );
    // one lease each, held by the replica that reports it
    const leases = await sql<Array<{ deviceId: string; replicaId: string }>>`
      SELECT device_id, replica_id FROM camera_streams WHERE device_id = ANY(${cameras})`;
    expect(leases.map((l) => l.deviceId).sort()).toEqual([...cameras].sort());
    const byDevice = new Map(leases.map((l) => [l.deviceId, l.replicaId]));
    for (const [i, s] of (await statuses(first)).entries()) expect(s.replica).toBe(byDevice.get(cameras[i]!));
    // the still square's object has started once on each camera
    const stillStarts = async () =>
      Promise.all(
        cameras.map(async (id) => {
          const [row] = await sql<Array<{ count: number }>>`
            SELECT count(*)::int AS count FROM events WHERE device_id = ${id} AND payload->>'type' = 'object.start'
              AND payload->>'label' = 'square' AND ((payload->'box'->>0)::float + (payload->'box'->>2)::float) / 2 < 0.35`;
          return row!.count;
        }),
      );
    await waitFor(async () => (await stillStarts()).every((n) => n === 1), 60_000, 'each still square started');

    // The second replica dies (the first runs the embedded database): its
    // streams go to the first once their leases run out.
    const before = new Set(byDevice.values());
    second.process.kill('SIGKILL');
    const after = await waitFor(
      async () => {
        const now = await statuses(first);
        const on = new Set(now.map((s) => s?.replica));
        return now.every((s) => s?.state === 'running') && on.size === 1 && [...on][0];
      },
      90_000,
      "the killed replica's streams running on the other",
    );
    expect(before.has(after)).toBe(true);
    // whichever replica read them, an object that stayed started once
    const framesOut = async () =>
      (await statuses(first)).map((s) => (s as StreamStatus & { stats?: { framesOut: number } }).stats?.framesOut ?? 0);
    const taken = await framesOut();
    await waitFor(async () => (await framesOut()).every((n, i) => n >= taken[i]! + 15), 60_000, '3 s more of frames');
    expect(await stillStarts()).toEqual(cameras.map(() => 1));
  });
});
