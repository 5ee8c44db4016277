// `npm run model -- add <dir>` beside a running server: validation against
// the ONNX file, registration, and the server deploying the new version;
// `list` with each version's organization, and `disable`, `enable` and
// `remove`, which the running server follows (unloads, loads again).
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExternalDataModel } from '../fixtures/external-data-models.js';
import { fixtureConfig, fixtureSpec, makePredictModels } from '../fixtures/predict-models.js';
import { writeModelDir } from '../fixtures/onnx-models.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, removeDir, ROOT, startServer, waitFor, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
let server: TestServer;
let modelsDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  modelsDir = await makePredictModels();
  database = await createTestDatabase();
  server = await startServer({ modelsDir, databaseUrl: database?.url, env: { INFERENCE_API_KEY: 'test-key' } });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

function cli(...args: string[]) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: server.dataDir };
  delete env.DATABASE_URL;
  if (database) env.DATABASE_URL = database.url;
  return run(process.execPath, ['--import', 'tsx', 'src/cli/model.ts', ...args], { cwd: ROOT, env });
}

describe('npm run model', () => {
  it('adds a model directory as a new version that the running server deploys', { timeout: 180_000 }, async () => {
    const dir = await writeModelDir(join(modelsDir, 'extra'), fixtureSpec(), fixtureConfig('extra'));
    const { stdout, stderr } = await cli('add', dir);
    const id = stdout.trim();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(stderr).toContain('registered extra v1 (2 labels)');
    const image = await makeImage('png', 32, 32);
    const res = await waitFor(
      async () => {
        const r = await predict(server.url, id, image);
        return r.status === 200 ? r : undefined;
        // Long: the fixture's slow model, validated at start, may still hold the machine's cores.
      },
      90_000,
      'the new version to serve',
    );
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);
    expect((await cli('list')).stdout).toMatch(
      new RegExp(`${id}  extra v1  Active  Default organization \\(${ULID}\\)  `),
    );
  });

  it('disables a version (predict answers 404, as for an unknown id), enables it again, and removes it', {
    timeout: 120_000,
  }, async () => {
    const dir = await writeModelDir(join(modelsDir, 'toggled'), fixtureSpec(), fixtureConfig('toggled'));
    const id = (await cli('add', dir)).stdout.trim();
    const image = await makeImage('png', 32, 32);
    const status = async () => (await predict(server.url, id, image)).status;
    await waitFor(async () => (await status()) === 200 || undefined, 30_000, 'the new version to serve');

    const disabled = await cli('disable', id);
    expect(disabled.stderr).toContain(`disabled toggled v1 (${id})`);
    await waitFor(
      async () => (await status()) === 404 || undefined,
      30_000,
      'the server to unload the disabled version',
    );
    expect((await predict(server.url, id, image)).body).toMatchObject({
      status: 404,
      message: 'model version not found',
    });
    expect((await cli('list')).stdout).toMatch(new RegExp(`${id}  toggled v1  Disabled  `));
    // Disabling twice changes nothing and says so; the version stays listed.
    expect((await cli('disable', id)).stderr).toContain('already disabled');

    expect((await cli('enable', id)).stderr).toContain(`enabled toggled v1 (${id})`);
    await waitFor(
      async () => (await status()) === 200 || undefined,
      30_000,
      'the server to load the enabled version again',
    );
    expect((await cli('list')).stdout).toMatch(new RegExp(`${id}  toggled v1  Active  `));

    expect((await cli('remove', id)).stderr).toContain(`removed toggled v1 (${id})`);
    await waitFor(
      async () => (await status()) === 404 || undefined,
      30_000,
      'the server to unload the removed version',
    );
    expect((await cli('list')).stdout).not.toContain(id);
  });

  it('refuses to remove, disable or enable a version it does not know, naming it', async () => {
    for (const command of ['remove', 'disable', 'enable']) {
      const failure = await cli(command, '01JZZZZZZZZZZZZZZZZZZZZZZZ').then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code, command).toBe(1);
      expect(failure?.stderr, command).toContain('no model version 01JZZZZZZZZZZZZZZZZZZZZZZZ');
    }
  });

  it('refuses a directory whose model.json contradicts the model, and registers nothing', async () => {
    const dir = await writeModelDir(join(modelsDir, 'wrong'), fixtureSpec(), {
      ...fixtureConfig('wrong'),
      labels: ['a', 'b', 'c'],
    });
    const failure = await cli('add', dir).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      'error: model.json lists 3 labels (format yolov8 expects [1, 7, N]) but output "output0" has shape [1, 6, 5]',
    );
    expect((await cli('list')).stdout).not.toContain('wrong');
  });

  it('refuses a directory whose model keeps a tensor outside model.onnx, and registers nothing', async () => {
    // package.json is in the working directory the model would be loaded from: it would load, with its bytes as weights
    const dir = join(modelsDir, 'external');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'model.onnx'), buildExternalDataModel('loop body', 'package.json'));
    await writeFile(join(dir, 'model.json'), JSON.stringify(fixtureConfig('external')));
    const failure = await cli('add', dir).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      'error: tensor "outside" in a subgraph is stored as external data, outside model.onnx',
    );
    expect((await cli('list')).stdout).not.toContain('external');
  });

  it('prints usage for unknown commands', async () => {
    const failure = await cli('frobnicate').catch((error: { code: number; stdout: string }) => error);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stdout: string }).stdout).toContain('npm run model -- add <dir>');
    for (const command of ['list', 'remove <version-id>', 'disable <version-id>', 'enable <version-id>']) {
      expect((failure as { stdout: string }).stdout).toContain(`npm run model -- ${command}`);
    }
  });
});
