// A model run that takes longer than INFERENCE_TIMEOUT_MS stops its instance
// thread: its requests get a 500 naming the limit, the version loads afresh
// for the next request, and other versions never notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePredictModels } from '../fixtures/predict-models.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { startWithModels, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ids: Record<string, string>;
let stop: () => Promise<void>;

beforeAll(async () => {
  // The slow fixture runs for about 2 s; the fixture demo in a few ms.
  ({ server, ids, stop } = await startWithModels(makePredictModels, { INFERENCE_TIMEOUT_MS: '300' }));
}, 180_000);

afterAll(() => stop?.());

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
