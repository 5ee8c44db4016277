// MODEL_STORE=s3: two servers on one database keep uploaded models' files
// in an S3-compatible bucket instead of PostgreSQL. The bucket is served by
// s3rver (an S3 implementation in Node, a development dependency, on
// loopback only; it checks the access key but not the V4 signature itself,
// which test/unit/aws-sigv4.test.ts holds to AWS's own example): a model uploaded
// through one server is fetched from the bucket by the other and served
// there, its objects are gone once it is deleted, and the credentials
// appear in no log. Cameras' kept frames go to the same bucket, each
// checked when read back, and leave it with their retention or their
// organization.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ModelStore, type S3Settings } from '../../src/inference/versions/s3-model-store.js';
import { FrameBucket, KeptFrames } from '../../src/platform/kept-frames.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { ADMIN, Api, serverDatabaseUrl, serverSql, uploadModelVersion } from '../helpers/api.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { organizationOf } from '../helpers/tenants.js';
import { createTestDatabase, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';
import { testLog } from '../helpers/log.js';

/** s3rver's one account */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let s3: S3rver;
let s3Dir: string;
let settings: S3Settings;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const servers: TestServer[] = [];
let sql: postgres.Sql;
let admin: Api;

beforeAll(async () => {
  s3Dir = await mkdtemp(join(tmpdir(), 'sense-s3-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'sense-models', configs: [] }],
  });
  const { port } = (await s3.run()) as AddressInfo;
  settings = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'sense-models',
    region: 'us-east-1',
    prefix: 'tenant-models/',
    ...CREDENTIALS,
  };
  database = await createTestDatabase({ replicas: true });
  const env = {
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    MODEL_STORE: 's3',
    S3_ENDPOINT: settings.endpoint,
    S3_BUCKET: settings.bucket,
    S3_PREFIX: settings.prefix,
    S3_ACCESS_KEY_ID: settings.accessKeyId,
    S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
  };
  const first = await startServer({ modelsDir: '/nonexistent', databaseUrl: database?.url, env });
  servers.push(first);
  const databaseUrl = await serverDatabaseUrl(first, database?.url);
  servers.push(await startServer({ modelsDir: '/nonexistent', databaseUrl, env }));
  sql = await serverSql(first, database?.url);
  admin = await new Api(first.url).login(ADMIN.email, ADMIN.password);
}, 180_000);

afterAll(async () => {
  await sql?.end();
  for (const server of [...servers].reverse()) await server.stop();
  await database?.drop();
  for (const server of servers) await removeDir(server.dataDir);
  await s3?.close().catch(() => {});
  await removeDir(s3Dir);
});

describe('MODEL_STORE=s3', () => {
  it('keeps an uploaded model in the bucket, serves it from another server, and removes it with the version', {
    timeout: 120_000,
  }, async () => {
    const [first, second] = servers as [TestServer, TestServer];
    const store = new S3ModelStore(settings);
    const model = (await admin.post('/v2/models', { name: 'detector' })).body.data;
    // A 4 MiB initializer: a body streamed to the bucket and back.
    const onnx = buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 1 } }));
    const uploaded = await uploadModelVersion(first.url, admin, model.id, {
      model: onnx,
      config: fixtureConfig('detector'),
    });
    expect(uploaded.status).toBe(200);
    const id = uploaded.body.data.id as string;
    expect(await store.has(id)).toBe(true);
    // ...and nothing of it in PostgreSQL.
    const [rows] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM model_files WHERE version_id = ${id}`;
    expect(rows!.n).toBe(0);

    const served = await waitFor(
      async () => {
        const version = (await new Api(second.url, admin.token).get(`/v2/model-versions/${id}`)).body.data;
        return version.replicas.active === 2 ? version : undefined;
      },
      90_000,
      'the version Active on both servers',
    );
    expect(served).toMatchObject({ status: 'Active', replicas: { active: 2, failed: 0, total: 2 } });
    const key = (await admin.post('/v2/inference/api-keys', { name: 's3' })).body.data.apiKey as string;
    const image = await makeImage('png', 32, 32);
    const prediction = await waitFor(
      async () => {
        const res = await predict(second.url, id, image, { key });
        return res.status === 200 ? res : undefined;
      },
      30_000,
      'a prediction through the second server',
    );
    expect(prediction.body.cat[0].score).toBeCloseTo(0.9, 5);

    expect((await admin.delete(`/v2/model-versions/${id}`)).status).toBe(204);
    await waitFor(async () => !(await store.has(id)), 30_000, 'the objects removed');
    for (const server of servers) expect(server.stderr() + server.stdout()).not.toContain(settings.secretAccessKey);
  });

  it('refuses a copy whose bytes do not match the hash stored with it', async () => {
    const store = new S3ModelStore(settings);
    const source = await mkdtemp(join(tmpdir(), 'sense-s3-source-'));
    const copies = await mkdtemp(join(tmpdir(), 'sense-s3-copies-'));
    try {
      await writeFile(join(source, 'model.onnx'), 'onnx bytes');
      await writeFile(join(source, 'model.json'), '{}');
      await store.put(undefined, 'checked', source);
      await mkdir(join(copies, 'whole'));
      expect(await store.fetch('checked', join(copies, 'whole'))).toBe(true);
      expect(await readFile(join(copies, 'whole', 'model.onnx'), 'utf8')).toBe('onnx bytes');
      // The object's bytes changed in the bucket behind the store's back (as long as before).
      await writeFile(
        join(s3Dir, settings.bucket, 'tenant-models', 'checked', 'model.onnx._S3rver_object'),
        'ONNX BYTES',
      );
      await mkdir(join(copies, 'corrupt'));
      await expect(store.fetch('checked', join(copies, 'corrupt'))).rejects.toThrow(
        /the stored model.onnx is corrupt: read 10 bytes with sha256 [0-9a-f]{64}, stored as 10 bytes/,
      );
      expect(await store.fetch('never-stored', copies)).toBe(false);
      // A refusal reaches the caller with S3's status and code (here an unknown access key).
      const stranger = new S3ModelStore({ ...settings, accessKeyId: 'NOT-A-KEY' });
      await expect(stranger.has('checked')).rejects.toThrow('model store HEAD of model.json answered 403');
      await expect(stranger.put(undefined, 'refused', source)).rejects.toThrow(
        'model store PUT of model.onnx answered 403 InvalidAccessKeyId',
      );
    } finally {
      await removeDir(source);
      await removeDir(copies);
    }
  });

  it("keeps cameras' frames in the bucket, checked when read back, and removes them with their retention or organization", async () => {
    const organizationId = organizationOf(admin);
    const kept = new KeptFrames(
      sql,
      new FrameBucket(settings),
      {
        quotaBytes: 1024 * 1024,
        accountQuotaBytes: 1024 * 1024,
        totalQuotaBytes: 1024 * 1024,
        retentionDays: 1,
      },
      testLog,
    );
    const image = await makeImage('jpeg', 64, 48);
    const frame = { organizationId, deviceId: 'camera-1', image };
    const object = (eventId: string) =>
      join(s3Dir, settings.bucket, 'tenant-models', 'frames', organizationId, `${eventId}._S3rver_object`);
    expect(await kept.keep({ ...frame, eventId: '01JFRAME000000000000000001' })).toEqual({ kept: true });
    expect(await kept.keep({ ...frame, eventId: '01JFRAME000000000000000002' })).toEqual({ kept: true });
    // In the bucket, and only named in PostgreSQL.
    expect((await readFile(object('01JFRAME000000000000000001'))).equals(image)).toBe(true);
    const rows = await sql<
      Array<{ data: Buffer | null }>
    >`SELECT data FROM kept_frames WHERE organization_id = ${organizationId}`;
    expect(rows.map((r) => r.data)).toEqual([null, null]);
    expect(await kept.image(organizationId, 'camera-1', '01JFRAME000000000000000001')).toEqual({
      contentType: 'image/jpeg',
      body: image,
    });
    // Changed behind the server's back: refused, not served.
    await writeFile(object('01JFRAME000000000000000001'), Buffer.alloc(image.length));
    await expect(kept.image(organizationId, 'camera-1', '01JFRAME000000000000000001')).rejects.toThrow(
      'not the one that was kept',
    );

    // Past the retention, the sweep removes the rows and the objects.
    expect(await kept.sweep(Date.now() + 2 * 86_400_000)).toBe(2);
    await expect(readFile(object('01JFRAME000000000000000002'))).rejects.toThrow(/ENOENT/);
    // An organization's deletion removes its frames' objects first.
    expect(await kept.keep({ ...frame, eventId: '01JFRAME000000000000000003' })).toEqual({ kept: true });
    await kept.forgetOrganization(organizationId);
    await expect(readFile(object('01JFRAME000000000000000003'))).rejects.toThrow(/ENOENT/);
    expect((await sql`SELECT 1 FROM kept_frames`).length).toBe(0);
    // A bucket that refuses: the frame is not kept, and nothing names it.
    const refused = new KeptFrames(
      sql,
      new FrameBucket({ ...settings, accessKeyId: 'NOT-A-KEY' }),
      {
        quotaBytes: 1024 * 1024,
        accountQuotaBytes: 1024 * 1024,
        totalQuotaBytes: 1024 * 1024,
        retentionDays: 1,
      },
      testLog,
    );
    expect(await refused.keep({ ...frame, eventId: '01JFRAME000000000000000004' })).toEqual({
      kept: false,
      reason: 'the frame store failed (logged)',
    });
    expect((await sql`SELECT 1 FROM kept_frames`).length).toBe(0);
  });
});
