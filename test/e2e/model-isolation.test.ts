// An uploaded version runs each instance in a child process under
// MODEL_INSTANCE_MEMORY_MB: a model whose allocations depend on the image's
// pixels (it passes validation, whose warm-up image is grey) fails there on
// a bright image, the version goes Failed with the reason, and the server,
// its memory and every other version go on. Those processes see none of the
// server's secrets.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type postgres from 'postgres';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { ADMIN, Api, uploadModelVersion } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { predict } from '../helpers/predict.js';
import { cpuTicks, environmentOf, instanceProcesses, residentBytes } from '../helpers/processes.js';
import { ROOT, waitFor, type TestServer } from '../helpers/server.js';

const MB = 1024 * 1024;

const solid = (level: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: level, g: level, b: level } } })
    .png()
    .toBuffer();

/** Secrets in the server's environment (its own settings, and one of the host's it never reads). */
const SECRETS = {
  JWT_SECRET: `jwt-${randomBytes(24).toString('hex')}`,
  SECRETS_KEY: randomBytes(32).toString('base64'),
  S3_SECRET_ACCESS_KEY: `s3-${randomBytes(16).toString('hex')}`,
  METRICS_TOKEN: `metrics-${randomBytes(16).toString('hex')}`,
  AWS_SECRET_ACCESS_KEY: `aws-${randomBytes(16).toString('hex')}`,
};

describe('an uploaded model that allocates by pixel value', () => {
  let server: TestServer;
  let sql: postgres.Sql;
  let admin: Api;
  let database: Platform['database'];

  beforeAll(async () => {
    ({ database, server, sql, admin } = await startPlatform(
      { INFERENCE_API_KEY: 'test-key', MODEL_INSTANCE_MEMORY_MB: '512', ...SECRETS },
      { modelsDir: join(ROOT, 'models') },
    ));
  });

  afterAll(() => stopPlatform({ sql, server, database }));

  const status = (id: string, wanted: string) =>
    waitFor(
      async () => {
        const res = await admin.get(`/v2/model-versions/${id}`);
        return res.body.data.status === wanted ? res.body.data : undefined;
      },
      60_000,
      `${id} ${wanted}`,
    );

  async function upload(name: string, model: Uint8Array): Promise<string> {
    const created = (await admin.post('/v2/models', { name })).body.data;
    const uploaded = await uploadModelVersion(server.url, admin, created.id, { model, config: fixtureConfig(name) });
    expect(uploaded.status).toBe(200);
    return uploaded.body.data.id as string;
  }

  it('fails the version in its own process, not the server, and the other versions keep answering', async () => {
    // 2^31 elements per unit of brightness above mid-grey: a white image asks for 4 GiB.
    const bomb = await upload('bomb', buildConstantModel(fixtureSpec({ allocateByBrightness: 2 ** 31 })));
    const normal = await upload('normal', buildConstantModel(fixtureSpec()));
    await status(bomb, 'Active'); // validation's warm-up image is grey: nothing allocated
    await status(normal, 'Active');
    await status(DEMO_MODEL_VERSION_ID, 'Active');
    await server.waitForLog(new RegExp(`model version active id=${bomb}.*`));

    const [dark, white] = [await solid(40), await solid(255)];
    expect((await predict(server.url, bomb, dark)).status).toBe(200);
    const before = residentBytes(server.process.pid!);

    const refused = await predict(server.url, bomb, white);
    expect(refused.status).toBe(500);
    expect(refused.body.error).toContain('model needed more than 512 MB while running (MODEL_INSTANCE_MEMORY_MB)');
    const failed = await status(bomb, 'Failed');
    expect(failed.statusReason).toBe('model needed more than 512 MB while running (MODEL_INSTANCE_MEMORY_MB)');
    // Failed stays Failed: the next request is refused before it runs.
    const after = await predict(server.url, bomb, dark);
    expect(after.status).toBe(500);
    expect(after.body.error).toContain('MODEL_INSTANCE_MEMORY_MB');

    // The server never held the model's allocation, and the others answer.
    expect(residentBytes(server.process.pid!) - before).toBeLessThan(256 * MB);
    expect((await predict(server.url, normal, white)).status).toBe(200);
    expect((await predict(server.url, DEMO_MODEL_VERSION_ID, white)).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });

  it('runs an uploaded version in instance processes and MODELS_DIR ones in the server', async () => {
    const line = await server.waitForLog(new RegExp(`model version active id=${DEMO_MODEL_VERSION_ID}.*`));
    expect(line).toContain('isolated=false');
    const uploaded = await upload('plain', buildConstantModel(fixtureSpec()));
    await status(uploaded, 'Active');
    const active = await server.waitForLog(new RegExp(`model version active id=${uploaded}.*`));
    expect(active).toContain('isolated=true');
    const res = await predict(server.url, uploaded, await solid(128));
    expect(res.status).toBe(200);
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);
  });

  it("starts instance processes with a minimal environment: none of the server's secrets", async () => {
    const uploaded = await upload('environment', buildConstantModel(fixtureSpec()));
    await status(uploaded, 'Active');
    expect((await predict(server.url, uploaded, await solid(128))).status).toBe(200);
    const pids = instanceProcesses(server.process.pid!);
    expect(pids.length).toBeGreaterThan(0);
    const secrets = { ...SECRETS, ADMIN_PASSWORD: ADMIN.password, INFERENCE_API_KEY: 'test-key' };
    for (const pid of pids) {
      const environment = environmentOf(pid);
      expect(environment.get('PATH')).toBe(process.env.PATH);
      const values = [...environment.values()].join('\n');
      for (const [name, secret] of Object.entries(secrets)) {
        expect(environment.has(name), name).toBe(false);
        expect(values.includes(secret), `the value of ${name}`).toBe(false);
      }
      expect(environment.has('DATABASE_URL')).toBe(false);
    }
  });

  /** The instance processes started since `before` (a set of pids taken earlier). */
  const startedSince = (before: Set<number>) =>
    instanceProcesses(server.process.pid!).filter((pid) => !before.has(pid));

  it('restarts instance processes killed from outside: requests running on them get a retryable 503, the version goes on', async () => {
    const before = new Set(instanceProcesses(server.process.pid!));
    // Runs of a second or more: the requests are still running when their processes are killed.
    const slow = await upload('killed', buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 60 } })));
    await status(slow, 'Active');
    const pids = startedSince(before);
    expect(pids.length).toBeGreaterThan(0);
    const image = await solid(128);
    const idle = pids.map(cpuTicks);
    const running = pids.map(() => predict(server.url, slow, image));
    // Each process running its request: it is using the CPU (5 ticks, 50 ms or more).
    await waitFor(async () => pids.every((pid, i) => cpuTicks(pid) > idle[i]! + 5), 30_000, 'the runs under way');
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    for (const res of await Promise.all(running)) {
      expect(res.status).toBe(503);
      expect(res.body.error).toContain(`instance of model version ${slow} was killed by SIGKILL`);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Restarted: the next request runs, and the version was never Failed.
    expect((await predict(server.url, slow, image)).status).toBe(200);
    expect((await admin.get(`/v2/model-versions/${slow}`)).body.data.status).toBe('Active');
    expect(startedSince(before).filter((pid) => !pids.includes(pid)).length).toBe(pids.length);
  });

  it("fails a version whose instance process crashes again after its restart, with the crash's reason", async () => {
    const before = new Set(instanceProcesses(server.process.pid!));
    const crashing = await upload('crashing', buildConstantModel(fixtureSpec()));
    await status(crashing, 'Active');
    const started = startedSince(before);
    process.kill(started[0]!, 'SIGABRT');
    // Restarted: a process not seen before takes its place.
    const restarted = await waitFor(
      async () => startedSince(new Set([...before, ...started]))[0],
      30_000,
      'the crashed instance restarted',
    );
    expect((await predict(server.url, crashing, await solid(128))).status).toBe(200);
    expect((await admin.get(`/v2/model-versions/${crashing}`)).body.data.status).toBe('Active');
    // The same model's second crash (the count is the version's, whichever instance): it would go on crashing.
    process.kill(restarted, 'SIGABRT');
    const failed = await status(crashing, 'Failed');
    expect(failed.statusReason).toBe('its instance process crashed (killed by SIGABRT) 2 times in 10 minutes');
    const refused = await predict(server.url, crashing, await solid(128));
    expect(refused.status).toBe(500);
    expect(refused.body.error).toContain('crashed (killed by SIGABRT) 2 times');
  });
});

describe("an organization's isolated instances over their memory budget", () => {
  let server: TestServer;
  let sql: postgres.Sql;
  let admin: Api;
  let database: Platform['database'];
  const budgetBytes = 400 * MB;

  beforeAll(async () => {
    ({ database, server, sql, admin } = await startPlatform({
      INFERENCE_API_KEY: 'test-key',
      INSTANCE_COUNT: '1',
      MODEL_INSTANCE_MEMORY_MB: '1024',
      ORGANIZATION_ISOLATED_MEMORY_MB: String(budgetBytes / MB),
    }));
  });

  afterAll(() => stopPlatform({ sql, server, database }));

  /** what the server's instance processes hold resident now, all of them this organization's */
  const held = () => instanceProcesses(server.process.pid!).reduce((sum, pid) => sum + residentBytes(pid), 0);

  it('unloads its least recently used idle version: what its processes hold comes back under the budget', async () => {
    // 2^26 elements per unit of brightness above mid-grey: a white image makes a run take 128 MB, which its
    // process keeps (about 250 MB resident then, 120 MB before): one version fits the budget, two do not.
    const versions: string[] = [];
    for (const name of ['first', 'second']) {
      const created = (await admin.post('/v2/models', { name })).body.data;
      const uploaded = await uploadModelVersion(server.url, admin, created.id, {
        model: buildConstantModel(fixtureSpec({ allocateByBrightness: 2 ** 26 })),
        config: fixtureConfig(name),
      });
      expect(uploaded.status).toBe(200);
      versions.push(uploaded.body.data.id as string);
    }
    for (const id of versions) {
      await waitFor(
        async () => (await admin.get(`/v2/model-versions/${id}`)).body.data.status === 'Active',
        60_000,
        `${id} Active`,
      );
    }
    const white = await solid(255);
    for (const id of versions) expect((await predict(server.url, id, white)).status).toBe(200);
    // Each kept its run's memory; together they were over the budget, so the first, idle, was unloaded.
    const after = await waitFor(
      async () => (held() <= budgetBytes ? held() : undefined),
      20_000,
      'the processes under the budget',
    );
    expect(after).toBeGreaterThan(0);
    expect(instanceProcesses(server.process.pid!)).toHaveLength(1);
    await server.waitForLog(new RegExp(`model version unloaded.*id=${versions[0]}.*ORGANIZATION_ISOLATED_MEMORY_MB`));
    // It loads again on its next request.
    expect((await predict(server.url, versions[0]!, await solid(40))).status).toBe(200);
  });

  it('answers 503 naming the budget while requests in flight hold what is over it, and serves again once they end', async () => {
    // A white image: 512 MB kept, over the budget alone; each run about a second.
    const created = (await admin.post('/v2/models', { name: 'heavy' })).body.data;
    const model = buildConstantModel(fixtureSpec({ allocateByBrightness: 2 ** 28, slow: { size: 1024, repeats: 60 } }));
    const uploaded = await uploadModelVersion(server.url, admin, created.id, { model, config: fixtureConfig('heavy') });
    const heavy = uploaded.body.data.id as string;
    await waitFor(
      async () => (await admin.get(`/v2/model-versions/${heavy}`)).body.data.status === 'Active',
      60_000,
      `${heavy} Active`,
    );
    const white = await solid(255);
    // One instance: the later of two requests runs once the earlier has, and holds the version while it does.
    const both = [predict(server.url, heavy, white), predict(server.url, heavy, white)];
    expect((await Promise.race(both)).status).toBe(200);
    const refused = await predict(server.url, heavy, white);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('server is busy');
    expect(refused.body.error).toMatch(
      /^your organization's isolated model instances hold \d+ MB, over its budget of 400 MB \(ORGANIZATION_ISOLATED_MEMORY_MB\) while requests run on them$/,
    );
    expect(refused.headers.get('retry-after')).toBe('1');
    for (const res of await Promise.all(both)) expect(res.status).toBe(200);
    // Idle again: unloaded, and loaded afresh by the next request.
    expect((await predict(server.url, heavy, await solid(40))).status).toBe(200);
    expect(held()).toBeLessThanOrEqual(budgetBytes);
  });
});
