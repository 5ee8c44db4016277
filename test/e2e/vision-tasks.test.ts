// The conventions beyond boxes, through HTTP: classifiers (top classes by
// label), pose models (boxes with named keypoints in children) and instance
// segmentation (mask polygons). Fixture models give constant outputs, so
// every class, keypoint and polygon vertex is asserted exactly, with the
// letterbox undone. A model.json that contradicts its model fails the
// version with a clear reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTaskModels } from '../fixtures/task-models.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, registeredVersions, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let modelsDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let ids: Record<string, string> = {};

// Each version is validated in a child process, two at a time, which takes
// minutes on a busy 2-core machine: a generous deadline, not a timing check.
const LOAD_DEADLINE_MS = 280_000;

beforeAll(async () => {
  modelsDir = await makeTaskModels();
  database = await createTestDatabase();
  server = await startServer({ modelsDir, databaseUrl: database?.url, env: { INFERENCE_API_KEY: 'test-key' } });
  ids = registeredVersions(server);
  await waitFor(async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${server.url}/metrics`)).text()), LOAD_DEADLINE_MS);
}, LOAD_DEADLINE_MS + 20_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

// A 200x100 image lands in the 64x64 input at 64x32 with 16 px above and below:
// x = px / 64, y = (py - 16) / 32 on the original image.
const wide = () => sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 90, g: 120, b: 30 } } }).png().toBuffer();

async function answer(name: string, query?: string): Promise<any> {
  const res = await predict(server.url, ids[name]!, await wide(), { key: 'test-key', ...(query ? { query } : {}) });
  expect(res.status).toBe(200);
  return res.body;
}

describe('classification', () => {
  const asClass = (score: number) => [{ type: 'class', data: {}, score, children: {} }];

  it.each(['classify', 'classifylogits'])('%s: the top classes above the threshold, by label, best first', async (name) => {
    // The default threshold (0.25) leaves the one likely class.
    expect(await answer(name)).toEqual({ 'traffic cone': asClass(0.7) });
    const all = await answer(name, 'threshold=0');
    expect(Object.keys(all)).toEqual(['traffic cone', 'bird', 'cat']);
    expect(all).toEqual({ 'traffic cone': asClass(0.7), bird: asClass(0.2), cat: asClass(0.1) });
  });

  it('top_k keeps the best k', async () => {
    expect(await answer('classify', 'threshold=0&top_k=2')).toEqual({ 'traffic cone': asClass(0.7), bird: asClass(0.2) });
    expect(await answer('classifylogits', 'threshold=0&top_k=1')).toEqual({ 'traffic cone': asClass(0.7) });
  });

  it.each([
    ['top_k=0', 'top_k: must be an integer between 1 and 1000, got "0"'],
    ['top_k=1001', 'top_k: must be an integer between 1 and 1000, got "1001"'],
    ['top_k=1.5', 'top_k: must be an integer between 1 and 1000, got "1.5"'],
    ['top_k=two', 'top_k: must be an integer between 1 and 1000, got "two"'],
    ['keypoint_threshold=2', 'keypoint_threshold: must be a number between 0 and 1, got "2"'],
  ])('rejects %s with 400', async (query, error) => {
    const res = await predict(server.url, ids.classify!, await wide(), { key: 'test-key', query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: 'invalid query parameter', error });
  });
});

describe('pose', () => {
  const point = (x: number, y: number, score: number) => [{ type: 'point', data: { point: [x, y] }, score, children: {} }];
  const person = (min: number[], max: number[], score: number, children: object) => [{ type: 'rectangle', data: { min, max }, score, children }];

  it.each(['pose', 'posenamed'])('%s: each box with its visible keypoints by name, letterbox undone', async (name) => {
    expect(await answer(name)).toEqual({
      cat: person([0.125, 0.125], [0.375, 0.625], 0.9, { nose: point(0.1875, 0.25, 0.9) }),
      'traffic cone': person([0.5, 0.25], [0.875, 0.875], 0.75, { nose: point(0.625, 0.4375, 0.8), tail: point(0.78125, 0.75, 0.95) }),
    });
  });

  it('keypoint_threshold brings back the barely visible keypoint', async () => {
    const body = await answer('pose', 'keypoint_threshold=0.1');
    expect(body.cat[0].children).toEqual({ nose: point(0.1875, 0.25, 0.9), tail: point(0.3125, 0.5, 0.2) });
  });
});

describe('model.json contradicting the model', () => {
  it.each([
    ['badlogits', "output.logits applies to classification models only; this model's output format is yolov8"],
    ['badclasses', 'model.json lists 2 labels (format classification): output "probs" has shape [1, 3], expected [2]'],
    ['badkeypoints', 'model.json lists 2 labels and 3 keypoints (format yolov8-pose expects [1, 15, N]) but output "output0" has shape [1, 12, 3]'],
    ['nokeypoints', 'format yolov8-pose needs the keypoint names in model.json ("keypoints")'],
  ])('%s fails to load with the reason', async (name, reason) => {
    const res = await predict(server.url, ids[name]!, await wide(), { key: 'test-key' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, message: 'could not inference model', error: `model version ${ids[name]} failed to load: ${reason}` });
  });
});
