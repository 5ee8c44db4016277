// A model run that takes longer than INFERENCE_TIMEOUT_MS stops its instance
// thread: its requests get a 500 naming the limit, the version loads afresh
// for the next request, and other versions never notice.
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeModelDir } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec, makePredictModels } from '../fixtures/predict-models.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { startWithModels, type TestServer } from '../helpers/server.js';

let server: TestServer;
let ids: Record<string, string>;
let stop: () => Promise<void>;

beforeAll(async () => {
  // A model that loops on white images for a second or two, and runs in no
  // time on the warm-up's grey: it validates (its warm-up is within the
  // limit too), then its runs on a white image pass the limit.
  const models = async () => {
    const dir = await makePredictModels();
    await writeModelDir(
      join(dir, 'looping'),
      fixtureSpec({ loop: { iterations: 30_000, onBrightImages: true } }),
      fixtureConfig('looping'),
    );
    return dir;
  };
  ({ server, ids, stop } = await startWithModels(models, { INFERENCE_TIMEOUT_MS: '300' }));
}, 180_000);

afterAll(() => stop?.());

describe('INFERENCE_TIMEOUT_MS', () => {
  it('answers 500 naming the limit, again after the reload, while other versions answer', async () => {
    const image = await makeImage('png', 16, 16);
    const white = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
    for (let attempt = 0; attempt < 2; attempt++) {
      const looping = await predict(server.url, ids.looping!, white);
      expect(looping.status).toBe(500);
      expect(looping.body).toEqual({
        status: 500,
        message: 'could not inference model',
        error: `inference of model version ${ids.looping} failed: the run took longer than 300 ms (INFERENCE_TIMEOUT_MS); its instance was stopped`,
      });
      expect((await predict(server.url, ids.fixture!, image)).status).toBe(200);
    }
    expect(server.process.exitCode).toBeNull();
  }, 60_000);
});
