// The dynamic batcher: for every output convention, images predicted
// together (batched into one run) get exactly the answers they get alone,
// a lone request is never held back waiting for company, and /metrics shows
// the batch sizes.
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import { BATCH_CONVENTIONS, makeBatchModels } from '../fixtures/batch-models.js';
import { predict, type PredictResponse } from '../helpers/predict.js';
import { removeDir, ROOT, startServer, waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let modelsDir: string;
const ids: Record<string, string> = {};

// A long queue delay: were a lone request held for company, it would show.
const BATCHING = { maxBatchSize: 4, maxQueueDelayMs: 1000 };

beforeAll(async () => {
  modelsDir = await makeBatchModels(BATCHING);
  await cp(join(ROOT, 'models', 'demo'), join(modelsDir, 'demo'), { recursive: true });
  server = await startServer({
    modelsDir,
    env: { INFERENCE_API_KEY: 'test-key', MAX_BATCH_SIZE: '4', MAX_QUEUE_DELAY_MS: '1000' },
  });
  for (const m of server.stderr().matchAll(/registered model version id=(\w+) name=(\w+)/g)) ids[m[2]!] = m[1]!;
  // Every version is validated in a child process first, two at a time: a
  // dozen of them take minutes on a busy 2-core machine (a deadline, not a timing check).
  await waitFor(
    async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${server.url}/metrics`)).text()),
    280_000,
  );
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

/** Eight images of different brightness and aspect ratio: different boxes, scores and letterboxes. */
const images = () =>
  Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      sharp({
        create: {
          width: 80 + 20 * i,
          height: 60 + 7 * i,
          channels: 3,
          background: { r: 30 * i, g: 200 - 20 * i, b: 15 * i },
        },
      })
        .png()
        .toBuffer(),
    ),
  );

async function metric(pattern: RegExp): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(pattern.exec(text)?.[1] ?? NaN);
}

const batchSum = (id: string) => metric(new RegExp(`inference_batch_size_sum\\{model_version="${id}"\\} (\\S+)`));
const batchCount = (id: string) => metric(new RegExp(`inference_batch_size_count\\{model_version="${id}"\\} (\\S+)`));

/** Eight synthetic scenes of the demo model's shapes. */
const scenes = () =>
  Promise.all(Array.from({ length: 8 }, (_, i) => renderScene(makeScene(EVAL_SEED_START + i), 'jpeg')));

async function expectBatchedEqualsAlone(id: string, inputs: Buffer[]): Promise<void> {
  const alone: PredictResponse[] = [];
  for (const image of inputs) alone.push(await predict(server.url, id, image, { query: 'threshold=0.05' }));
  const [sumBefore, countBefore] = [await batchSum(id), await batchCount(id)];
  // Alone means alone: every one of those ran in a batch of one.
  expect(sumBefore).toBe(countBefore);

  const together = await Promise.all(
    inputs.map((image) => predict(server.url, id, image, { query: 'threshold=0.05' })),
  );
  const [sumAfter, countAfter] = [await batchSum(id), await batchCount(id)];
  // They did run batched: more images than runs.
  expect(sumAfter - sumBefore).toBe(inputs.length);
  expect(countAfter - countBefore).toBeLessThan(inputs.length);

  together.forEach((res, i) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual(alone[i]!.body);
  });
  // The answers depend on the image, so a mix-up between batch rows would show.
  expect(new Set(alone.map((r) => JSON.stringify(r.body))).size).toBeGreaterThan(4);
}

describe('dynamic batching', () => {
  it.each(Object.keys(BATCH_CONVENTIONS))(
    '%s: a batched answer is identical to the same image alone',
    async (convention) => {
      await expectBatchedEqualsAlone(ids[`batch${convention}`]!, await images());
    },
  );

  it('a lone request is not held for company, even with a long queue delay', async () => {
    // Every request above ran alone at some point; none waited anywhere near the 1 s delay.
    const text = await (await fetch(`${server.url}/metrics`)).text();
    for (const convention of Object.keys(BATCH_CONVENTIONS)) {
      const id = ids[`batch${convention}`]!;
      const within = Number(
        new RegExp(`inference_queue_delay_seconds_bucket\\{model_version="${id}",le="0.5"\\} (\\S+)`).exec(text)?.[1],
      );
      const count = Number(
        new RegExp(`inference_queue_delay_seconds_count\\{model_version="${id}"\\} (\\S+)`).exec(text)?.[1],
      );
      expect(count).toBe(16);
      expect(within).toBe(count);
    }
  });

  it('the demo model answers the same batched and alone', async () => {
    const id = ids.demo!;
    const log = server.stderr();
    expect(log).toMatch(new RegExp(`model version active id=${id} .*maxBatchSize=4`));
    await expectBatchedEqualsAlone(id, await scenes());
  });
});
