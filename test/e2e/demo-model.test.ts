// The bundled demo detector, served on defaults: its first answer already
// names the objects of a held-out scene, in the right places.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import { iou, type Box } from '../../scripts/map.js';
import { predict } from '../helpers/predict.js';
import { removeDir, startReadyServer, type TestServer } from '../helpers/server.js';

const DEMO = '01JDEM0DETECT0R00000000001';
let server: TestServer;

beforeAll(async () => {
  server = await startReadyServer({ env: { INFERENCE_API_KEY: 'demo-key' } }); // MODELS_DIR: the repository's models/
});

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
});

describe('demo detector', () => {
  it('names the objects of held-out scenes with the right labels in the right places', async () => {
    let objects = 0;
    let found = 0;
    let detections = 0;
    let correct = 0;
    for (let n = 0; n < 5; n++) {
      const scene = makeScene(EVAL_SEED_START + 100 + n);
      const res = await predict(server.url, DEMO, await renderScene(scene, 'jpeg'), { key: 'demo-key', form: 'json' });
      expect(res.status).toBe(200);
      const answer = Object.entries(
        res.body as Record<string, Array<{ data: { min: number[]; max: number[] } }>>,
      ).flatMap(([label, list]) =>
        list.map((d) => ({
          label,
          box: [
            d.data.min[0]! * scene.width,
            d.data.min[1]! * scene.height,
            d.data.max[0]! * scene.width,
            d.data.max[1]! * scene.height,
          ] as Box,
        })),
      );
      const matches = (a: { label: string; box: Box }, b: { label: string; box: Box }) =>
        a.label === b.label && iou(a.box, b.box) >= 0.5;
      objects += scene.objects.length;
      found += scene.objects.filter((o) => answer.some((d) => matches(d, o))).length;
      detections += answer.length;
      correct += answer.filter((d) => scene.objects.some((o) => matches(d, o))).length;
    }
    // At the model's default threshold: most objects found (scenes have heavy
    // overlaps and occlusion), and what is reported is nearly always right.
    expect(found / objects).toBeGreaterThanOrEqual(0.7);
    expect(correct / detections).toBeGreaterThanOrEqual(0.9);
  });
});
