// The conventions beyond boxes, through HTTP: classifiers (top classes by
// label), pose models (boxes with named keypoints in children) and instance
// segmentation (mask outlines as polygons), and torchvision's export form
// (no batch axis, NMS inside). Fixture models give constant outputs, so
// every class, keypoint and polygon vertex is asserted exactly, with the
// letterbox undone. A model.json that contradicts its model fails the
// version with a clear reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FASTER_RCNN_BOXES, makeTaskModels } from '../fixtures/task-models.js';
import { predict } from '../helpers/predict.js';
import {
  createTestDatabase,
  registeredVersions,
  removeDir,
  startServer,
  waitFor,
  type TestServer,
} from '../helpers/server.js';

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
  await waitFor(
    async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${server.url}/metrics`)).text()),
    LOAD_DEADLINE_MS,
  );
}, LOAD_DEADLINE_MS + 20_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

// A 200x100 image lands in the 64x64 input at 64x32 with 16 px above and below:
// x = px / 64, y = (py - 16) / 32 on the original image.
const wide = () =>
  sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 90, g: 120, b: 30 } } })
    .png()
    .toBuffer();

async function answer(name: string, query?: string): Promise<any> {
  const res = await predict(server.url, ids[name]!, await wide(), { key: 'test-key', ...(query ? { query } : {}) });
  expect(res.status).toBe(200);
  return res.body;
}

describe('classification', () => {
  const asClass = (score: number) => [{ type: 'class', data: {}, score, children: {} }];

  it.each(['classify', 'classifylogits'])(
    '%s: the top classes above the threshold, by label, best first',
    async (name) => {
      // The default threshold (0.25) leaves the one likely class.
      expect(await answer(name)).toEqual({ 'traffic cone': asClass(0.7) });
      const all = await answer(name, 'threshold=0');
      expect(Object.keys(all)).toEqual(['traffic cone', 'bird', 'cat']);
      expect(all).toEqual({ 'traffic cone': asClass(0.7), bird: asClass(0.2), cat: asClass(0.1) });
    },
  );

  it('top_k keeps the best k', async () => {
    expect(await answer('classify', 'threshold=0&top_k=2')).toEqual({
      'traffic cone': asClass(0.7),
      bird: asClass(0.2),
    });
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
  const point = (x: number, y: number, score: number) => [
    { type: 'point', data: { point: [x, y] }, score, children: {} },
  ];
  const person = (min: number[], max: number[], score: number, children: object) => [
    { type: 'rectangle', data: { min, max }, score, children },
  ];

  it.each(['pose', 'posenamed'])('%s: each box with its visible keypoints by name, letterbox undone', async (name) => {
    expect(await answer(name)).toEqual({
      cat: person([0.125, 0.125], [0.375, 0.625], 0.9, { nose: point(0.1875, 0.25, 0.9) }),
      'traffic cone': person([0.5, 0.25], [0.875, 0.875], 0.75, {
        nose: point(0.625, 0.4375, 0.8),
        tail: point(0.78125, 0.75, 0.95),
      }),
    });
  });

  it('keypoint_threshold brings back the barely visible keypoint', async () => {
    const body = await answer('pose', 'keypoint_threshold=0.1');
    expect(body.cat[0].children).toEqual({ nose: point(0.1875, 0.25, 0.9), tail: point(0.3125, 0.5, 0.2) });
  });
});

describe('instance segmentation', () => {
  const polygon = (points: number[][], score: number, children: object = {}) => [
    { type: 'polygon', data: { points }, score, children },
  ];
  // Mask cells (x, y) of 4x4 input pixels: x = 4x / 64, y = (4y - 16) / 32.
  const CAT_L = [
    [0.125, 0.125],
    [0.375, 0.125],
    [0.375, 0.375],
    [0.25, 0.375],
    [0.25, 0.625],
    [0.125, 0.625],
  ];
  const CONE_RING = [
    [0.5, 0.25],
    [0.75, 0.25],
    [0.75, 0.875],
    [0.5, 0.875],
  ];

  it.each(['seg', 'segnamed'])(
    '%s: the outline of each mask cropped to its box, holes filled, largest part only',
    async (name) => {
      expect(await answer(name)).toEqual({ cat: polygon(CAT_L, 0.9), 'traffic cone': polygon(CONE_RING, 0.75) });
    },
  );

  it('simplifies an outline to the shape it approximates: a staircase of 8 steps is a triangle', async () => {
    const { cat } = await answer('segstairs');
    expect(cat).toHaveLength(1);
    // cells 2-10 x 4-12 (corners): x = 4x / 64, y = (4y - 16) / 32
    const corners = (cat[0].data.points as number[][]).map(([x, y]) => `${x},${y}`).sort();
    expect(corners).toEqual(['0.125,0', '0.125,1', '0.625,1']);
  });

  it('box=true adds each box as a rectangle in children, under its label', async () => {
    const rect = (min: number[], max: number[], score: number) => [
      { type: 'rectangle', data: { min, max }, score, children: {} },
    ];
    expect(await answer('seg', 'box=true')).toEqual({
      cat: polygon(CAT_L, 0.9, { cat: rect([0.125, 0.125], [0.375, 0.625], 0.9) }),
      'traffic cone': polygon(CONE_RING, 0.75, { 'traffic cone': rect([0.5, 0.25], [0.875, 0.875], 0.75) }),
    });
    expect(await answer('seg', 'box=0')).toEqual(await answer('seg'));
  });

  it('a detection whose mask is empty is left out', async () => {
    // The weak third box passes this threshold, but its mask has no cell.
    expect((await answer('seg', 'threshold=0.005')).cat).toEqual(polygon(CAT_L, 0.9));
  });

  it('the letterbox padding is not part of a mask', async () => {
    // A 100x200 image lands at 32x64 with 16 px left and right: mask cells
    // left of x = 4 are padding, and the cat's L loses its lower arm.
    const tall = await sharp({ create: { width: 100, height: 200, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png()
      .toBuffer();
    const res = await predict(server.url, ids.seg!, tall, { key: 'test-key' });
    expect(res.body).toEqual({
      cat: polygon(
        [
          [0, 0.3125],
          [0.25, 0.3125],
          [0.25, 0.4375],
          [0, 0.4375],
        ],
        0.9,
      ),
      'traffic cone': polygon(
        [
          [0.5, 0.375],
          [1, 0.375],
          [1, 0.6875],
          [0.5, 0.6875],
        ],
        0.75,
      ),
    });
  });

  it('rejects box=maybe with 400', async () => {
    const res = await predict(server.url, ids.seg!, await wide(), { key: 'test-key', query: 'box=maybe' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 400,
      message: 'invalid query parameter',
      error: 'box: must be true or false, got "maybe"',
    });
  });
});

describe('torchvision exports', () => {
  it('an input without a batch axis is fed one image, and the boxes the model kept are all answered', async () => {
    const rect = (min: number[], max: number[], score: number) => ({
      type: 'rectangle',
      data: { min, max },
      score,
      children: {},
    });
    expect(await answer('torchvision')).toEqual({
      cat: [rect([0.125, 0.125], [0.375, 0.625], 0.9), rect([0.15625, 0.125], [0.40625, 0.625], 0.6)],
      'traffic cone': [rect([0.5, 0.25], [0.875, 0.875], 0.75)],
    });
  });

  it('load with model.json silent on the batch axis: the graph says there is none', async () => {
    expect(await answer('nobatchaxis')).toEqual(await answer('torchvision'));
  });
});

describe('outputs a model filtered in its graph', () => {
  it('are answered whole when model.json sets no threshold or cap: no second filter the model never had', async () => {
    // Before: the server's own defaults (0.25, 100) dropped the boxes a
    // Faster R-CNN kept between 0.05 and 0.25, and every one past the 100th.
    const body = await answer('fasterrcnn');
    const scores = [...body.cat, ...body['traffic cone']].map((d: { score: number }) => d.score);
    expect(scores).toHaveLength(FASTER_RCNN_BOXES);
    expect(Math.min(...scores)).toBeCloseTo(0.055, 6);
    // The client's own threshold and cap still apply.
    const asked = await answer('fasterrcnn', 'threshold=0.5&max_detections=10');
    const kept = [...asked.cat, ...asked['traffic cone']].map((d: { score: number }) => d.score);
    expect(kept).toHaveLength(10);
    expect(Math.min(...kept)).toBeGreaterThanOrEqual(0.5);
  });
});

describe('model.json contradicting the model', () => {
  it.each([
    ['badlogits', "output.logits applies to classification models only; this model's output format is yolov8"],
    ['badclasses', 'model.json lists 2 labels (format classification): output "probs" has shape [1, 3], expected [2]'],
    [
      'badkeypoints',
      'model.json lists 2 labels and 3 keypoints (format yolov8-pose expects [1, 15, N]) but output "output0" has shape [1, 12, 3]',
    ],
    [
      'badseg',
      'model.json lists 2 labels and the prototypes 2 masks (format yolov8-seg expects [1, 8, N]) but output "output0" has shape [1, 9, 3]',
    ],
    [
      'batchaxistrue',
      'model.json describes input "images" as NCHW [1, 3, 64, 64] but the model\'s input has shape [3, height, width] (this input has no batch axis: remove "batchAxis": true from model.json\'s input)',
    ],
    ['nokeypoints', 'format yolov8-pose needs the keypoint names in model.json ("keypoints")'],
    [
      'swappedssd',
      'format ssd: output "labels" holds float32 and output "scores" holds int64: their names look swapped (torchvision\'s Faster R-CNN returns boxes, labels, scores; name the outputs in that order when exporting)',
    ],
  ])('%s fails to load with the reason', async (name, reason) => {
    const res = await predict(server.url, ids[name]!, await wide(), { key: 'test-key' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      status: 500,
      message: 'could not inference model',
      error: `model version ${ids[name]} failed to load: ${reason}`,
    });
  });
});
