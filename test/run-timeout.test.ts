// A model run that takes longer than INFERENCE_TIMEOUT_MS stops its instance
// thread: its requests get a 500 naming the limit, the version loads afresh
// for the next request, and other versions never notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePredictModels } from './fixtures/predict-models.js';
import { makeImage } from './helpers/images.js';
import { predict } from './helpers/predict.js';
import { removeDir, startServer, waitFor, type TestServer } from './helpers/server.js';

let server: TestServer;
let modelsDir: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  modelsDir = await makePredictModels();
  // The slow fixture runs for about 2 s; the fixture demo in a few ms.
  server = await startServer({ modelsDir, env: { INFERENCE_API_KEY: 'test-key', INFERENCE_TIMEOUT_MS: '300' } });
  for (const m of server.stderr().matchAll(/registered model version id=(\w+) name=(\w+)/g)) ids[m[2]!] = m[1]!;
  await waitFor(async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${server.url}/metrics`)).text()), 120_000);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

describe('INFERENCE_TIMEOUT_MS', () => {
  it('answers 500 naming the limit, again after the reload, while other versions answer', async () => {
    const image = await makeImage('png', 16, 16);
    for (let attempt = 0; attempt < 2; attempt++) {
      const slow = await predict(server.url, ids.slow!, image);
      expect(slow.status).toBe(500);
      expect(slow.body).toEqual({
        status: 500,
        message: 'could not inference model',
        error: `inference of model version ${ids.slow} failed: the run took longer than 300 ms (INFERENCE_TIMEOUT_MS); its instance was stopped`,
      });
      expect((await predict(server.url, ids.fixture!, image)).status).toBe(200);
    }
    expect(server.process.exitCode).toBeNull();
  }, 60_000);
});
