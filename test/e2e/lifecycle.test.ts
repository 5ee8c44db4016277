// The server's life: first start on an empty database (bootstrap prints the
// credentials once), graceful shutdown with a request in flight, and a
// restart on the same data directory that keeps everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePredictModels } from '../fixtures/predict-models.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

let modelsDir: string;
let dataDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  modelsDir = await makePredictModels();
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
  await removeDir(dataDir);
  await removeDir(modelsDir);
});

function slowVersionId(server: TestServer): string {
  return /registered model version id=(\w+) name=slow/.exec(server.stderr())![1]!;
}

describe('server lifecycle', () => {
  let generatedKey = '';
  let slowId = '';

  it('bootstraps on first start and prints the generated credentials once', async () => {
    const server = await startServer({ modelsDir, databaseUrl: database?.url });
    dataDir = server.dataDir;
    try {
      const out = server.stdout();
      expect(out).toMatch(/admin login: +admin@example\.com \/ \S{20,}/);
      expect(out).toContain('demo model version: 01JDEM0DETECT0R00000000001');
      generatedKey = /inference API key: +(\S+)/.exec(out)![1]!;
      expect(generatedKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
      expect(server.stderr()).not.toContain(generatedKey);
      slowId = slowVersionId(server);
      await waitFor(async () => (await predict(server.url, slowId, await makeImage('png', 8, 8), { key: generatedKey })).status === 200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('finishes a request in flight on SIGTERM, stops listening, then exits 0', async () => {
    const server = await startServer({ modelsDir, dataDir, databaseUrl: database?.url });
    const image = await makeImage('png', 8, 8);
    await waitFor(async () => (await predict(server.url, slowId, image, { key: generatedKey })).status === 200);

    const inFlight = predict(server.url, slowId, image, { key: generatedKey });
    await waitFor(async () => /inference_queue_depth\{model_version="\w+"\} 1/.test(await (await fetch(`${server.url}/metrics`)).text()));
    const exit = server.stop('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toContain('cat');
    expect(await exit).toBe(0);
    expect(server.stderr()).toContain('shutting down: draining in-flight requests inFlight=1');
    if (!database) expect(server.stderr()).toContain('embedded PostgreSQL stopped');
    await expect(fetch(`${server.url}/v2/health/live`)).rejects.toThrow();
  });

  it('keeps data across restarts: no second bootstrap, the generated key still works', async () => {
    const server = await startServer({ modelsDir, dataDir, databaseUrl: database?.url });
    try {
      expect(server.stdout()).not.toContain('First start');
      expect(server.stderr()).not.toContain('applied migration');
      const image = await makeImage('png', 8, 8);
      await waitFor(async () => (await predict(server.url, '01JDEM0DETECT0R00000000001', image, { key: generatedKey })).status === 200);
      // Each version loads on its own after a restart; the slow fixture may
      // still be Initializing (500 of the spec) for a moment, so wait for it
      // too, then check it answers with the same generated key.
      await waitFor(async () => (await predict(server.url, slowId, image, { key: generatedKey })).status === 200);
      const response = await predict(server.url, slowId, image, { key: generatedKey });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toContain('cat');
    } finally {
      await server.stop();
    }
  });
});

describe('the listening port', () => {
  it('is not shared: a second server on a port in use refuses to start, saying why', async () => {
    const first = await startServer({ modelsDir });
    try {
      const second = startServer({ modelsDir, env: { PORT: String(first.port) } });
      await expect(second).rejects.toThrow(/server exited with 1 before .*cannot listen on 127\.0\.0\.1:\d+: the port is in use/s);
      // The first one still has the port to itself and answers.
      expect((await fetch(`${first.url}/v2/health/live`)).status).toBe(200);
    } finally {
      await first.stop();
      await removeDir(first.dataDir);
    }
  }, 120_000);
});

describe('signals during start-up', () => {
  it('stops a server signalled the moment it listens, while its models still load', async () => {
    // Before: about one SIGTERM in two sent right after "listening" was lost and the process stayed up.
    for (let round = 0; round < 3; round++) {
      const server = await startServer({ modelsDir });
      try {
        expect(await server.stop()).toBe(0);
        expect(server.stderr()).toContain('signal received signal=SIGTERM');
      } finally {
        await removeDir(server.dataDir);
      }
    }
  }, 120_000);
});
