// `npm run model -- add <dir>` beside a running server: validation against
// the ONNX file, registration, and the server deploying the new version.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, fixtureSpec, makePredictModels } from '../fixtures/predict-models.js';
import { writeModelDir } from '../fixtures/onnx-models.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, removeDir, ROOT, startServer, waitFor, type TestServer } from '../helpers/server.js';

const run = promisify(execFile);
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
  it('adds a model directory as a new version that the running server deploys', async () => {
    const dir = await writeModelDir(join(modelsDir, 'extra'), fixtureSpec(), fixtureConfig('extra'));
    const { stdout, stderr } = await cli('add', dir);
    const id = stdout.trim();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(stderr).toContain('registered extra v1 (2 labels)');
    const image = await makeImage('png', 32, 32);
    const res = await waitFor(async () => {
      const r = await predict(server.url, id, image);
      return r.status === 200 ? r : undefined;
    }, 30_000, 'the new version to serve');
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);
    expect((await cli('list')).stdout).toMatch(new RegExp(`${id}  extra v1  Active`));
  });

  it('refuses a directory whose model.json contradicts the model, and registers nothing', async () => {
    const dir = await writeModelDir(join(modelsDir, 'wrong'), fixtureSpec(), { ...fixtureConfig('wrong'), labels: ['a', 'b', 'c'] });
    const failure = await cli('add', dir).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('error: model.json lists 3 labels (format yolov8 expects [1, 7, N]) but output "output0" has shape [1, 6, 5]');
    expect((await cli('list')).stdout).not.toContain('wrong');
  });

  it('prints usage for unknown commands', async () => {
    const failure = await cli('frobnicate').catch((error: { code: number; stdout: string }) => error);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stdout: string }).stdout).toContain('npm run model -- add <dir>');
  });
});
