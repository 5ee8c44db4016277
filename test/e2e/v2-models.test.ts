import { createHash } from 'node:crypto';
// Inference API keys and the model-version lifecycle through the management
// API: upload → Initializing → Active → predict with a new key → delete.
import { existsSync } from 'node:fs';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExternalDataModel } from '../fixtures/external-data-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { Api, uploadModelVersion } from '../helpers/api.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { exchangeOnOneSocket } from '../helpers/raw-http.js';
import { waitFor, type TestServer } from '../helpers/server.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { twoTenants } from '../helpers/tenants.js';

let server: TestServer;
let sql: postgres.Sql;
let anon: Api;
let admin: Api;
let member: Api;
let otherTenant: Api;
let database: Platform['database'];

beforeAll(async () => {
  ({ database, server, sql, anon, admin } = await startPlatform({ MAX_MODEL_BYTES: String(8 * 1024 * 1024) }));
  ({
    a: { member },
    b: { admin: otherTenant },
  } = await twoTenants({ anon, admin, sql }));
});

afterAll(() => stopPlatform({ sql, server, database }));

/** A model made `extra` bytes larger by a doc_string (ModelProto field 6): still an ONNX model, big enough to arrive in many chunks. */
function withDocString(model: Uint8Array, extra: number): Uint8Array {
  const length: number[] = [];
  for (let v = extra; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      length.push(v);
      break;
    }
    length.push((v % 128) | 0x80);
  }
  return Buffer.concat([model, Buffer.from([(6 << 3) | 2, ...length]), Buffer.alloc(extra, 'a')]);
}

const upload = (api: Api, modelId: string, parts: { model?: Uint8Array; config?: unknown }, query = '') =>
  uploadModelVersion(server.url, api, modelId, parts, query);

describe('inference API keys', () => {
  it('creates a key shown once, lists prefixes only, and predict follows enable/disable/delete', async () => {
    const created = await admin.post('/v2/inference/api-keys', { name: 'ci' });
    expect(created.status).toBe(200);
    const { apiKey, id, prefix } = created.body.data;
    expect(apiKey).toMatch(/^sk_/);
    expect(apiKey.startsWith(prefix)).toBe(true);
    const list = await admin.get('/v2/inference/api-keys');
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    expect(list.body.data.find((k: { id: string }) => k.id === id)).toMatchObject({
      name: 'ci',
      enabled: true,
      prefix,
    });
    const [stored] = await sql`SELECT key_hash FROM inference_api_keys WHERE id = ${id}`;
    expect(stored!.keyHash).toMatch(/^[0-9a-f]{64}$/);

    // No model version here yet: 404 proves the key was accepted, 401 that it was not.
    const probe = async () =>
      (await predict(server.url, '01ARZ3NDEKTSV4RRFFQ69G5FAV', await makeImage('png', 8, 8), { key: apiKey })).status;
    expect(await probe()).toBe(404);
    expect((await admin.post(`/v2/inference/api-keys/${id}/disable`)).body.data.enabled).toBe(false);
    expect(await probe()).toBe(401);
    expect((await admin.post(`/v2/inference/api-keys/${id}/enable`)).body.data.enabled).toBe(true);
    expect(await probe()).toBe(404);
    expect((await admin.delete(`/v2/inference/api-keys/${id}`)).status).toBe(204);
    expect(await probe()).toBe(401);
  });

  it('is for admins and project managers only, and per organization', async () => {
    expect((await member.get('/v2/inference/api-keys')).status).toBe(403);
    expect((await member.post('/v2/inference/api-keys', {})).status).toBe(403);
    expect((await anon.get('/v2/inference/api-keys')).status).toBe(401);
    expect((await admin.post('/v2/inference/api-keys', { name: 42 })).body).toMatchObject({
      status: 400,
      error: expect.stringContaining('name:'),
    });
    const mine = (await admin.post('/v2/inference/api-keys', { name: 'mine' })).body.data;
    expect((await otherTenant.post(`/v2/inference/api-keys/${mine.id}/disable`)).status).toBe(404);
    expect((await otherTenant.delete(`/v2/inference/api-keys/${mine.id}`)).status).toBe(404);
    expect((await otherTenant.get('/v2/inference/api-keys')).body.data.map((k: { id: string }) => k.id)).not.toContain(
      mine.id,
    );
    expect(
      (await admin.get('/v2/inference/api-keys')).body.data.find((k: { id: string }) => k.id === mine.id).enabled,
    ).toBe(true);
  });
});

describe('model versions', () => {
  it('goes from upload to Initializing to Active to predict to delete', async () => {
    const model = (await admin.post('/v2/models', { name: 'detector', description: 'fixture' })).body.data;
    const slow = buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 40 } }));
    const uploaded = await upload(admin, model.id, { model: slow, config: fixtureConfig('detector') });
    expect(uploaded.status).toBe(200);
    const version = uploaded.body.data;
    expect(version).toMatchObject({
      modelId: model.id,
      version: 1,
      status: 'Initializing',
      labels: ['cat', 'traffic cone'],
    });

    const key = (await admin.post('/v2/inference/api-keys', { name: 'lifecycle' })).body.data.apiKey;
    const image = await makeImage('png', 32, 32);
    const early = await predict(server.url, version.id, image, { key });
    expect(early.status).toBe(500);
    expect(early.body.error).toContain('status Initializing');

    const active = await waitFor(
      async () => {
        const res = await admin.get(`/v2/model-versions/${version.id}`);
        return res.body.data.status === 'Active' ? res.body.data : undefined;
      },
      60_000,
      'Active',
    );
    expect(active).toMatchObject({
      executionProvider: 'cpu',
      statusReason: null,
      replicas: { active: 1, failed: 0, total: 1 },
    });
    // This server counts itself by the status it holds, not by its row, which
    // is written just after the status changes. Before: in that moment the
    // answer said Active with "replicas": {"active": 0}, as it does here without the row.
    await sql`DELETE FROM model_version_replicas WHERE version_id = ${version.id}`;
    expect((await admin.get(`/v2/model-versions/${version.id}`)).body.data.replicas).toEqual({
      active: 1,
      failed: 0,
      total: 1,
    });
    const res = await predict(server.url, version.id, image, { key });
    expect(res.status).toBe(200);
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);

    const listed = await admin.get(`/v2/models/${model.id}/versions`);
    expect(listed.body.data.map((v: { id: string }) => v.id)).toEqual([version.id]);
    const directory = (await sql`SELECT directory FROM model_versions WHERE id = ${version.id}`)[0]!
      .directory as string;
    expect(existsSync(directory)).toBe(true);
    // Stored in the database too, for the replicas that did not receive it.
    const stored =
      await sql`SELECT name, bytes::int, sha256 FROM model_files WHERE version_id = ${version.id} ORDER BY name`;
    expect(stored.map((f) => f.name)).toEqual(['model.json', 'model.onnx']);
    expect(stored[1]).toMatchObject({ bytes: slow.length, sha256: createHash('sha256').update(slow).digest('hex') });

    expect((await member.delete(`/v2/model-versions/${version.id}`)).status).toBe(403);
    expect((await otherTenant.delete(`/v2/model-versions/${version.id}`)).status).toBe(404);
    expect((await otherTenant.get(`/v2/model-versions/${version.id}`)).status).toBe(404);
    expect((await admin.delete(`/v2/model-versions/${version.id}`)).status).toBe(204);
    expect((await predict(server.url, version.id, image, { key })).status).toBe(404);
    expect(existsSync(directory)).toBe(false);
    expect((await sql`SELECT count(*)::int AS n FROM model_file_chunks WHERE version_id = ${version.id}`)[0]!.n).toBe(
      0,
    );
    expect((await admin.get(`/v2/model-versions/${version.id}`)).status).toBe(404);
  });

  it('fails a version whose model.json contradicts the model, with the reason', async () => {
    const model = (await admin.post('/v2/models', { name: 'wrong' })).body.data;
    const uploaded = await upload(admin, model.id, {
      model: buildConstantModel(fixtureSpec()),
      config: { ...fixtureConfig('wrong'), labels: ['a', 'b', 'c'] },
    });
    expect(uploaded.status).toBe(200);
    const failed = await waitFor(async () => {
      const res = await admin.get(`/v2/model-versions/${uploaded.body.data.id}`);
      return res.body.data.status === 'Failed' ? res.body.data : undefined;
    });
    expect(failed.statusReason).toContain('model.json lists 3 labels');
    expect(failed.replicas).toEqual({ active: 0, failed: 1, total: 1 });
  });

  it('answers an upload with ?wait=true once the version is Active or Failed, so a predict can follow at once', async () => {
    const model = (await admin.post('/v2/models', { name: 'waited' })).body.data;
    const uploaded = await upload(
      admin,
      model.id,
      { model: buildConstantModel(fixtureSpec()), config: fixtureConfig('waited') },
      '?wait=true',
    );
    expect(uploaded.body.data).toMatchObject({
      status: 'Active',
      statusReason: null,
      replicas: { active: 1, failed: 0, total: 1 },
    });
    const key = (await admin.post('/v2/inference/api-keys', { name: 'waited' })).body.data.apiKey;
    expect((await predict(server.url, uploaded.body.data.id, await makeImage('png', 32, 32), { key })).status).toBe(
      200,
    );
    const failed = await upload(
      admin,
      model.id,
      { model: buildConstantModel(fixtureSpec()), config: { ...fixtureConfig('waited'), labels: ['a', 'b', 'c'] } },
      '?wait=true',
    );
    expect(failed.body.data).toMatchObject({
      status: 'Failed',
      statusReason: expect.stringContaining('model.json lists 3 labels'),
    });
    expect(
      (
        await upload(
          admin,
          model.id,
          { model: buildConstantModel(fixtureSpec()), config: fixtureConfig('waited') },
          '?wait=soon',
        )
      ).body,
    ).toMatchObject({
      status: 400,
      message: 'invalid query parameter',
    });
  });

  it('refuses malformed uploads with 400 and oversized ones with 413', async () => {
    const model = (await admin.post('/v2/models', { name: 'bad uploads' })).body.data;
    const onnx = buildConstantModel(fixtureSpec());
    expect((await upload(admin, model.id, { model: onnx })).body).toMatchObject({
      status: 400,
      error: expect.stringContaining('model.json is missing'),
    });
    expect((await upload(admin, model.id, { model: onnx, config: '{not json' })).body).toMatchObject({
      status: 400,
      message: 'invalid model.json',
    });
    expect((await upload(admin, model.id, { model: onnx, config: { name: 'x', labels: [] } })).body).toMatchObject({
      status: 400,
      message: 'invalid model.json',
      error: expect.stringContaining('labels'),
    });
    // A model.onnx that is not a model is refused at once, saying what it looks like.
    const jpeg = await upload(admin, model.id, {
      model: await makeImage('jpeg', 16, 16),
      config: fixtureConfig('photo'),
    });
    expect(jpeg.body).toMatchObject({
      status: 400,
      message: 'invalid upload',
      error:
        'the "model" part (model.onnx) is not an ONNX model: its bytes are not an ONNX ModelProto (it looks like a JPEG image)',
    });
    const json = await upload(admin, model.id, {
      model: new TextEncoder().encode(JSON.stringify(fixtureConfig('x'))),
      config: fixtureConfig('x'),
    });
    expect(json.body.error).toMatch(
      /^the "model" part \(model\.onnx\) is not an ONNX model: .*\(it looks like JSON: model\.json\?\)$/,
    );
    // The two files swapped: each part by its field, and the reason says what happened.
    const form = new FormData();
    form.append('model', new Blob([JSON.stringify(fixtureConfig('x'))]), 'model.json');
    form.append('config', new Blob([onnx]), 'model.onnx');
    const swapped = await fetch(`${server.url}/v2/models/${model.id}/versions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    expect(await swapped.json()).toMatchObject({
      status: 400,
      message: 'invalid model.json',
      error: expect.stringContaining('are model.onnx and model.json swapped?'),
    });
    const big = await upload(admin, model.id, { model: new Uint8Array(9 * 1024 * 1024), config: fixtureConfig('big') });
    expect(big.status).toBe(413);
    expect((await upload(member, model.id, { model: onnx, config: fixtureConfig('x') })).status).toBe(403);
    expect((await upload(otherTenant, model.id, { model: onnx, config: fixtureConfig('x') })).status).toBe(404);
    expect((await admin.get(`/v2/models/${model.id}`)).body.data.versions).toEqual([]);
    const staging = await sql`SELECT count(*)::int AS n FROM model_versions WHERE model_id = ${model.id}`;
    expect(staging[0]!.n).toBe(0);
  });

  it('refuses a model with a tensor stored as external data, saying the same whatever file its location names on the server', async () => {
    // The server runs in the repository: package.json is a file in its
    // working directory, src a directory. ONNX Runtime would resolve the
    // locations from there, and its load error (or its success) would tell.
    const model = (await admin.post('/v2/models', { name: 'external data' })).body.data;
    for (const place of ['initializer', 'loop in if branch'] as const) {
      const answers = new Set<string>();
      for (const location of ['package.json', 'src', 'no-such-file.bin', '../../etc/hostname']) {
        const refused = await upload(admin, model.id, {
          model: buildExternalDataModel(place, location),
          config: fixtureConfig('external data'),
        });
        expect(refused.status, `${place} at ${location}`).toBe(400);
        expect(refused.body).toMatchObject({
          status: 400,
          message: 'invalid upload',
          error: expect.stringMatching(
            /^the "model" part \(model\.onnx\) is refused: tensor "outside"( in a subgraph)? is stored as external data, outside model\.onnx/,
          ),
        });
        expect(refused.body.error).not.toContain(location);
        answers.add(JSON.stringify(refused.body));
      }
      expect(answers.size, place).toBe(1);
    }
    expect((await admin.get(`/v2/models/${model.id}`)).body.data.versions).toEqual([]);
  });

  // Long: each deletion waits for its version's validation, one at a time per organization (inference/versions/validation-turns.ts), on a machine others load too.
  it('numbers versions uploaded to one model at the same time one after the other, answering each', {
    timeout: 120_000,
  }, async () => {
    const model = (await admin.post('/v2/models', { name: 'concurrent' })).body.data;
    const count = 6;
    const answers = await Promise.all(
      Array.from({ length: count }, () =>
        upload(admin, model.id, { model: buildConstantModel(fixtureSpec()), config: fixtureConfig('concurrent') }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(count).fill(200));
    expect(answers.map((a) => a.body.data.version).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: count }, (_, i) => i + 1),
    );
    for (const answer of answers)
      expect((await admin.delete(`/v2/model-versions/${answer.body.data.id}`)).status).toBe(204);
  });

  it('answers 404 to an upload whose model is deleted while it is stored', async () => {
    const model = (await admin.post('/v2/models', { name: 'deleted meanwhile' })).body.data;
    // The deletion holds the model's row until the upload waits on it, then commits.
    let deleted!: () => void;
    let commit!: () => void;
    const deleting = new Promise<void>((resolve) => (deleted = resolve));
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const deletion = sql.begin(async (tx) => {
      await tx`DELETE FROM models WHERE id = ${model.id}`;
      deleted();
      await committed;
    });
    await deleting;
    const uploading = upload(admin, model.id, {
      model: buildConstantModel(fixtureSpec()),
      config: fixtureConfig('deleted meanwhile'),
    });
    await waitFor(
      async () => {
        const [waiting] =
          await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`;
        return waiting!.n > 0;
      },
      30_000,
      'the upload waiting on the deletion',
    );
    commit();
    await deletion;
    expect((await uploading).body).toMatchObject({ status: 404, message: 'model not found' });
    expect((await sql`SELECT count(*)::int AS n FROM model_versions WHERE model_id = ${model.id}`)[0]!.n).toBe(0);
  });

  it('keeps the connection usable after an upload, for the next request on the same socket', async () => {
    // A body that arrives in several chunks while the server is still writing
    // the earlier ones: the socket is paused for backpressure, and must be
    // read again once the upload is consumed, or the next request on this
    // keep-alive connection is never answered.
    const model = (await admin.post('/v2/models', { name: 'keep-alive' })).body.data;
    for (let attempt = 0; attempt < 3; attempt++) {
      const form = new FormData();
      form.append('model', new Blob([withDocString(buildConstantModel(fixtureSpec()), 4 * 1024 * 1024)]), 'model.onnx');
      form.append('config', new Blob([JSON.stringify(fixtureConfig('keep-alive'))]), 'model.json');
      const encoded = new Request('http://localhost/', { method: 'POST', body: form });
      const body = Buffer.from(await encoded.arrayBuffer());
      const { port } = new URL(server.url);
      const answers = await exchangeOnOneSocket(Number(port), [
        Buffer.concat([
          Buffer.from(
            `POST /v2/models/${model.id}/versions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${admin.token}\r\n` +
              `Content-Type: ${encoded.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\n\r\n`,
          ),
          body,
        ]),
        Buffer.from(
          `GET /v2/models/${model.id} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${admin.token}\r\n\r\n`,
        ),
      ]);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 200 /);
      expect(answers[1]).toContain('"keep-alive"');
    }
  });

  it('lists, renames and deletes models within the organization', async () => {
    const model = (await admin.post('/v2/models', { name: 'to rename' })).body.data;
    expect((await admin.patch(`/v2/models/${model.id}`, { name: 'renamed' })).body.data.name).toBe('renamed');
    expect((await otherTenant.patch(`/v2/models/${model.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await otherTenant.get('/v2/models')).body.data).toEqual([]);
    expect((await admin.post('/v2/models', { name: '' })).status).toBe(400);
    expect((await admin.delete(`/v2/models/${model.id}`)).status).toBe(204);
    expect((await admin.get(`/v2/models/${model.id}`)).status).toBe(404);
  });
});
