// A new model version is loaded and warmed up first in a limited child
// process: a few-KB upload whose warm-up would allocate 8 GiB fails with a
// reason for its owner, while the server's own memory stays where it was
// and the other versions keep serving.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FairShare } from '../../src/inference/scheduling/fair-share.js';
import { readModelConfig } from '../../src/inference/versions/model-config.js';
import { validateModel, type ModelValidationSettings } from '../../src/inference/versions/model-validation.js';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { buildConstantModel, writeModelDir } from '../fixtures/onnx-models.js';
import { FIXTURE_INPUT, fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { Api, uploadModelVersion } from '../helpers/api.js';
import { makeImage } from '../helpers/images.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { predict } from '../helpers/predict.js';
import { removeDir, ROOT, waitFor, type TestServer } from '../helpers/server.js';
import { testLog } from '../helpers/log.js';

const MB = 1024 * 1024;

/** peak resident memory of a process (VmHWM), in bytes */
function peakRss(pid: number): number {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib) * 1024;
}

describe('a new version through the HTTP API', () => {
  let server: TestServer;
  let sql: postgres.Sql;
  let admin: Api;
  let database: Platform['database'];

  beforeAll(async () => {
    ({ database, server, sql, admin } = await startPlatform(
      { INFERENCE_API_KEY: 'test-key' },
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
      45_000,
      `${id} ${wanted}`,
    );

  it('validates the bundled demo model in the child and logs its peak memory', async () => {
    await status(DEMO_MODEL_VERSION_ID, 'Active');
    const line = await server.waitForLog(new RegExp(`model version active id=${DEMO_MODEL_VERSION_ID}.*`));
    const peakMb = Number(/validationPeakMb=(\d+)/.exec(line)?.[1]);
    expect(peakMb).toBeGreaterThan(50);
    expect(peakMb).toBeLessThan(1024);
  });

  it('fails an upload whose warm-up allocates 8 GiB, without the server growing, and keeps serving', async () => {
    await status(DEMO_MODEL_VERSION_ID, 'Active');
    const image = await makeImage('png', 64, 48);
    expect((await predict(server.url, DEMO_MODEL_VERSION_ID, image)).status).toBe(200);
    const before = peakRss(server.process.pid!);

    const model = (await admin.post('/v2/models', { name: 'bomb' })).body.data;
    const bomb = buildConstantModel(fixtureSpec({ allocate: [2 ** 31] })); // 2^31 float32 = 8 GiB
    expect(bomb.length).toBeLessThan(4096);
    const uploaded = await uploadModelVersion(server.url, admin, model.id, {
      model: bomb,
      config: fixtureConfig('bomb'),
    });
    expect(uploaded.status).toBe(200);
    const failed = await status(uploaded.body.data.id, 'Failed');
    expect(failed.statusReason).toMatch(
      /^model needs more than 2048 MB to load and run .*\(MODEL_VALIDATION_MEMORY_MB\)$/,
    );
    expect(failed.statusReason).toContain('8192 MB');
    const refused = await predict(server.url, uploaded.body.data.id, image);
    expect(refused.status).toBe(500);
    expect(refused.body.error).toContain('model needs more than 2048 MB');

    expect((await predict(server.url, DEMO_MODEL_VERSION_ID, image)).status).toBe(200);
    expect(peakRss(server.process.pid!) - before).toBeLessThan(256 * MB);
    expect(server.process.exitCode).toBeNull();
  });

  it('still makes a normal upload Active', async () => {
    const model = (await admin.post('/v2/models', { name: 'normal' })).body.data;
    const uploaded = await uploadModelVersion(server.url, admin, model.id, {
      model: buildConstantModel(fixtureSpec()),
      config: fixtureConfig('normal'),
    });
    expect(uploaded.status).toBe(200);
    await status(uploaded.body.data.id, 'Active');
    const res = await predict(server.url, uploaded.body.data.id, await makeImage('png', 32, 32));
    expect(res.status).toBe(200);
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);
  });

  it('fails an upload that runs one image at once and loops on a batch within seconds, its limit derived from its one-image run', async () => {
    const model = (await admin.post('/v2/models', { name: 'loops-on-a-batch' })).body.data;
    // No trip of its Loop for one image, 1e12 of them for a batch of two.
    const spec = fixtureSpec({
      inputShape: ['batch', 3, FIXTURE_INPUT.height, FIXTURE_INPUT.width],
      loop: { iterations: 1e12, beyondOneImage: true },
    });
    const started = performance.now();
    const uploaded = await uploadModelVersion(server.url, admin, model.id, {
      model: buildConstantModel(spec),
      config: { ...fixtureConfig('loops-on-a-batch'), batching: { maxBatchSize: 4 } },
    });
    expect(uploaded.status).toBe(200);
    const failed = await status(uploaded.body.data.id, 'Failed');
    // INFERENCE_TIMEOUT_MS is 30 s here: before, the batch ran that long (twice, for the warm-up's two runs).
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(failed.statusReason).toMatch(
      /^model warm-up with a batch of 2 images took longer than [\d.]+ s, where one image took [\d.]+ ms \(its limit: 20 x the batch x that, at least 2 s, at most INFERENCE_TIMEOUT_MS\): its runs could not end in time to serve$/,
    );
  });
});

describe('validateModel', () => {
  const settings: ModelValidationSettings = {
    memoryBytes: 2048 * MB,
    timeoutMs: 60_000,
    runTimeoutMs: 30_000,
    maxBatchSize: 8,
    graphRewrite: true,
    instanceKind: 'cpu',
    gpuPrecision: 'fp32',
    log: testLog.settings,
  };
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sense-validation-'));
  });

  afterAll(() => removeDir(dir));

  const modelDir = async (name: string, extra: Parameters<typeof fixtureSpec>[0]) => {
    const directory = await writeModelDir(join(dir, name), fixtureSpec(extra), fixtureConfig(name));
    return { directory, config: await readModelConfig(directory) };
  };

  it('reports the peak memory of a model that loads', async () => {
    const { directory, config } = await modelDir('fine', {});
    const result = await validateModel(directory, config, settings);
    expect(result.maxRssBytes).toBeGreaterThan(20 * MB);
    expect(result.maxRssBytes).toBeLessThan(settings.memoryBytes);
  });

  it('fails past MODEL_VALIDATION_MEMORY_MB with the limit in the reason', async () => {
    const { directory, config } = await modelDir('half-gig', { allocate: [2 ** 27] }); // 512 MiB
    await expect(validateModel(directory, config, { ...settings, memoryBytes: 384 * MB })).rejects.toThrow(
      'model needs more than 384 MB to load and run (one of its tensors alone is 512 MB) (MODEL_VALIDATION_MEMORY_MB)',
    );
    // The same model under the default limit is fine: the limit is the model's.
    await expect(validateModel(directory, config, settings)).resolves.toMatchObject({
      maxRssBytes: expect.any(Number),
    });
  });

  it('fails past MODEL_VALIDATION_TIMEOUT_MS', async () => {
    const { directory, config } = await modelDir('slow', { slow: { size: 1024, repeats: 200 } });
    await expect(validateModel(directory, config, { ...settings, timeoutMs: 1500 })).rejects.toThrow(
      'model load and warm-up took longer than 1.5 s (MODEL_VALIDATION_TIMEOUT_MS)',
    );
  });

  it('takes turns between organizations, one validation of each at a time, each holding a run permit of the fair share', async () => {
    // A few hundred bytes that loop until the validation is killed.
    const looping = await modelDir('looping', { loop: { iterations: 1e9 } });
    const fine = await modelDir('fine-in-turn', {});
    const gate = new FairShare(2);
    const quick = { ...settings, timeoutMs: 4000 };
    // How many hostile validations had ended when the victim's got its first
    // permit: counted at its start, not at its end, so that a host slow
    // enough to let the victim's load outlast a hostile 4 s still shows
    // whether it took its turn.
    const hostileEnded = 0;
    let hostileEndedAtVictimsStart: number | undefined;
    const acquire = gate.acquire.bind(gate);
    const granted = (organizationId: string) => {
      if (organizationId === 'victim') hostileEndedAtVictimsStart ??= hostileEnded;
    };
    gate.acquire = (organizationId) => acquire(organizationId).then(() => granted(organizationId));
    const tryAcquire = gate.tryAcquire.bind(gate);
    gate.tryAcquire = (organizationId) => {
      const got = tryAcquire(organizationId);
      if (got) granted(organizationId);
      return got;
    };
    const hostile = Array.from({ length: 4 }, () =>
      validateModel(looping.directory, looping.config, quick, { share: { gate, organizationId: 'hostile' } }).then(
        () => 'passed',
        (error: Error) => error.message,
      ),
    );
    // One of the hostile organization's runs, on one permit; the others wait for their turn.
    await waitFor(async () => gate.inUse === 1, 10_000, 'a hostile validation running');
    await expect(
      validateModel(fine.directory, fine.config, settings, { share: { gate, organizationId: 'victim' } }),
    ).resolves.toMatchObject({ maxRssBytes: expect.any(Number) });
    // Before: one line for all, two at a time: the victim's first permit came
    // after at least three hostile validations had ended; in turns, while the
    // first runs (or the second, on a host so slow that the victim's load
    // outlasted the first's 4 s).
    expect(hostileEndedAtVictimsStart).toBeLessThanOrEqual(1);
    expect(await Promise.all(hostile)).toEqual(
      Array(4).fill('model load and warm-up took longer than 4 s (MODEL_VALIDATION_TIMEOUT_MS)'),
    );
    expect(gate.inUse).toBe(0);
  });

  it('stops a warm-up past INFERENCE_TIMEOUT_MS, well before MODEL_VALIDATION_TIMEOUT_MS', async () => {
    const { directory, config } = await modelDir('loops', { loop: { iterations: 1e9 } });
    await expect(validateModel(directory, config, { ...settings, runTimeoutMs: 1000 })).rejects.toThrow(
      'model warm-up took longer than 1 s on one image (INFERENCE_TIMEOUT_MS): its runs could not end in time to serve',
    );
  }, 20_000);

  it("passes the loader's own reason on", async () => {
    const directory = await writeModelDir(join(dir, 'labels'), fixtureSpec(), {
      ...fixtureConfig('labels'),
      labels: ['a', 'b', 'c'],
    });
    await expect(validateModel(directory, await readModelConfig(directory), settings)).rejects.toThrow(
      'model.json lists 3 labels',
    );
  });
});
