// `npm run build` makes a server that runs as plain JavaScript: the compiled
// main.js (no tsx) starts with its embedded PostgreSQL, its worker threads
// load their compiled entries, and it answers health, a predict with the
// demo model and the management API.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import { predict } from '../helpers/predict.js';
import { expectStopsOnSigintToNpm, startNpmScript } from '../helpers/npm-script.js';
import { ROOT, removeDir, startReadyServer, type TestServer } from '../helpers/server.js';

const DEMO = '01JDEM0DETECT0R00000000001';
// Inside the checkout (.scratch/ is ignored by git): the compiled code finds
// node_modules/ and native/build/ above it, as dist/ does. A copy of
// package.json beside it lets `npm run start:dist` run it from there.
const SCRATCH = join(ROOT, '.scratch', `build-test-${process.pid}`);
const OUT = join(SCRATCH, 'dist');
let server: TestServer | undefined;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/build.mjs'), OUT], { cwd: ROOT });
  copyFileSync(join(ROOT, 'package.json'), join(SCRATCH, 'package.json'));
  server = await startReadyServer({
    args: ['--max-semi-space-size=64', join(OUT, 'main.js')],
    env: { INFERENCE_API_KEY: 'build-key', ADMIN_PASSWORD: 'build-password', WORKERS: '1', INSTANCE_COUNT: '1' },
  });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir ?? '');
  await removeDir(SCRATCH);
});

describe('the compiled server (npm run build, node dist/main.js)', () => {
  it('holds the files tsc does not emit', () => {
    expect(existsSync(join(OUT, 'ingest/generated/ingress.js'))).toBe(true);
    expect(existsSync(join(OUT, 'inference/pipeline/pipeline-worker.js'))).toBe(true);
    expect(existsSync(join(OUT, 'inference/instances/instance-entry.js'))).toBe(true);
  });

  it('answers health, a predict with the demo model and the management API', async () => {
    expect((await fetch(`${server!.url}/v2/health/live`)).status).toBe(200);
    expect(await (await fetch(`${server!.url}/v2/health/ready`)).json()).toMatchObject({
      status: 'ready',
      database: 'ok',
    });

    const scene = makeScene(EVAL_SEED_START + 100);
    const res = await predict(server!.url, DEMO, await renderScene(scene, 'jpeg'), { key: 'build-key' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).length).toBeGreaterThan(0);

    const login = await fetch(`${server!.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'build-password' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const models = await fetch(`${server!.url}/v2/models`, { headers: { authorization: `Bearer ${token}` } });
    expect(models.status).toBe(200);
    expect(JSON.stringify(await models.json())).toContain('demo');

    // Ran as JavaScript: nothing failed in a worker thread.
    expect(server!.stderr()).not.toMatch(/ error |ERR_/);
  });
});

describe('npm run start:dist', () => {
  it("stops on SIGINT to npm's own process: the server drains, exits and frees its port", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sense-dist-int-'));
    const server = await startNpmScript('start:dist', {
      cwd: SCRATCH,
      env: { DATA_DIR: dataDir, WORKERS: '1', INSTANCE_COUNT: '1' },
    });
    try {
      const stopped = await expectStopsOnSigintToNpm(server);
      expect(stopped).toMatchObject({ npmExit: 0, serverAlive: false, portFree: true });
      expect(stopped.serverLog).toMatch(/signal received signal="?SIGINT/);
    } finally {
      server.kill();
      await removeDir(dataDir);
    }
  }, 180_000);
});
