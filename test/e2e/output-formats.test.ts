// Every output convention users export, each with a fixture ONNX model whose
// outputs are known: the served boxes must match the expected ones to 1e-4
// once the letterbox is undone. Preprocessing options are checked with probe
// models that report what was written into the input tensor. A model.json
// that contradicts its model fails the version with a clear reason.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFormatModels } from '../fixtures/format-models.js';
import { predict } from '../helpers/predict.js';
import { createTestDatabase, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let modelsDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  modelsDir = await makeFormatModels();
  database = await createTestDatabase();
  server = await startServer({ modelsDir, databaseUrl: database?.url, env: { INFERENCE_API_KEY: 'test-key' } });
  for (const m of server.stderr().matchAll(/registered model version id=(\w+) name=(\w+)/g)) ids[m[2]!] = m[1]!;
  // Every version has left Initializing once each is Active or Failed. Each
  // is validated in a child process, two at a time: two dozen take minutes
  // on a busy 2-core machine (a deadline, not a timing check).
  await waitFor(async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    return /model_versions\{status="Initializing"\} 0/.test(metrics);
  }, 280_000);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

const solid = (width: number, height: number, rgb: [number, number, number]) =>
  sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();

type Box = [number, number, number, number];
function expectBoxes(body: any, expected: Record<string, Array<{ box: Box; score: number }>>): void {
  expect(Object.keys(body)).toEqual(Object.keys(expected));
  for (const [label, detections] of Object.entries(expected)) {
    expect(body[label]).toHaveLength(detections.length);
    detections.forEach((want, i) => {
      const got = body[label][i];
      const box = [...got.data.min, ...got.data.max];
      box.forEach((v: number, k: number) => expect(Math.abs(v - want.box[k]!)).toBeLessThan(1e-4));
      expect(Math.abs(got.score - want.score)).toBeLessThan(1e-4);
    });
  }
}

// A 200x100 image lands in the 64x64 input at 64x32 with 16 px above and below:
// x = px / 64, y = (py - 16) / 32 on the original image.
const LETTERBOXED = {
  cat: [{ box: [0.125, 0.125, 0.375, 0.625] as Box, score: 0.9 }],
  'traffic cone': [{ box: [0.5, 0.25, 0.875, 0.875] as Box, score: 0.75 }],
};

describe('output conventions', () => {
  it.each(['yolov8', 'yolov8named', 'yolov5', 'end2end', 'detr', 'rtdetr', 'dynamic'])(
    '%s: boxes match to 1e-4 after the letterbox is undone',
    async (name) => {
      const res = await predict(server.url, ids[name]!, await solid(200, 100, [90, 120, 30]), { key: 'test-key' });
      expect(res.status).toBe(200);
      expectBoxes(res.body, LETTERBOXED);
    },
  );

  // ssd outputs are the model's final answer (torchvision thresholds in its
  // graph): with no threshold in model.json or the request, its weak box too.
  it.each(['ssd', 'ssdbatch'])(
    '%s: boxes match to 1e-4 after the letterbox is undone, every box the model answered',
    async (name) => {
      const res = await predict(server.url, ids[name]!, await solid(200, 100, [90, 120, 30]), { key: 'test-key' });
      expect(res.status).toBe(200);
      expectBoxes(res.body, {
        ...LETTERBOXED,
        cat: [...LETTERBOXED.cat, { box: [0.625, 0.75, 0.78125, 0.9375], score: 0.01 }],
      });
      expectBoxes(
        (
          await predict(server.url, ids[name]!, await solid(200, 100, [90, 120, 30]), {
            key: 'test-key',
            query: 'threshold=0.25',
          })
        ).body,
        LETTERBOXED,
      );
    },
  );

  it('stretch: the image fills the input, no padding to undo', async () => {
    const res = await predict(server.url, ids.stretch!, await solid(200, 100, [90, 120, 30]), { key: 'test-key' });
    expectBoxes(res.body, {
      cat: [{ box: [0.125, 0.3125, 0.375, 0.5625], score: 0.9 }],
      'traffic cone': [{ box: [0.5, 0.375, 0.875, 0.6875], score: 0.75 }],
    });
  });

  it('a low threshold brings back the weak box, for every convention', async () => {
    for (const name of ['yolov8', 'yolov5', 'end2end', 'ssd', 'detr']) {
      const res = await predict(server.url, ids[name]!, await solid(200, 100, [0, 0, 0]), {
        key: 'test-key',
        query: 'threshold=0.005',
      });
      expect(res.body.cat.map((d: { score: number }) => Math.round(d.score * 100) / 100)).toEqual([0.9, 0.01]);
    }
  });
});

describe('preprocessing options reach the tensor', () => {
  // Probe scores: cat = mean of tensor channel 0, traffic cone = mean of channel 2.
  const red = () => solid(64, 64, [255, 0, 0]);
  const scores = async (name: string) => {
    const res = await predict(server.url, ids[name]!, await red(), { key: 'test-key', query: 'threshold=0' });
    expect(res.status).toBe(200);
    return { cat: res.body.cat?.[0]?.score, cone: res.body['traffic cone']?.[0]?.score };
  };

  it('RGB, scaled to 0-1', async () => expect(await scores('probergb')).toEqual({ cat: 1, cone: undefined }));
  it('BGR swaps the channels', async () => expect(await scores('probebgr')).toEqual({ cat: undefined, cone: 1 }));
  it('mean and std normalise per channel', async () =>
    expect(await scores('probemeanstd')).toEqual({ cat: 2, cone: undefined }));
  it('NHWC layout', async () => expect(await scores('probenhwc')).toEqual({ cat: 1, cone: undefined }));
  it('float16 input', async () => expect(await scores('probefp16')).toEqual({ cat: 1, cone: undefined }));
});

describe('model.json contradicting the model', () => {
  it.each([
    [
      'badlabels',
      'model.json lists 3 labels (format yolov8 expects [1, 7, N]) but output "output0" has shape [1, 6, 3]',
    ],
    [
      'badsize',
      'model.json describes input "images" as NCHW [1, 3, 32, 32] but the model\'s input has shape [1, 3, 64, 64]',
    ],
    ['baddtype', 'model.json says input.dtype float16 but input "images" is float32'],
    [
      'badlayout',
      'model.json describes input "images" as NHWC [1, 64, 64, 3] but the model\'s input has shape [1, 3, 64, 64]',
    ],
    ['badformat', 'format detr expects 2 outputs (logits, boxes), the model has 1'],
    ['badssd', 'format yolov5 expects one output, the model has 3'],
    [
      'nomatch',
      'model.json lists 3 labels but output "output0" [1, 6, 3] fits no convention with 3 classes (yolov8 [1, 7, N], yolov5 [1, N, 8], end2end [1, K, 6], classification [1, 3]); fix the labels or set output.format in model.json',
    ],
  ])('%s fails to load with the reason', async (name, reason) => {
    const res = await predict(server.url, ids[name]!, await solid(10, 10, [0, 0, 0]), { key: 'test-key' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      status: 500,
      message: 'could not inference model',
      error: `model version ${ids[name]} failed to load: ${reason}`,
    });
  });
});
