// Child stages in the engine alone (no HTTP, no database), at its smallest:
// one pipeline worker, one instance. A child whose tensor slots are fewer
// than an image's crops gets them in rounds of the slots free (never
// waiting for a slot while holding others), and answers as a child with
// room for them all; requests running at once, each image decoded into a
// kept-image buffer another request gave back, answer as each does alone;
// an image past the kept images' memory is answered without its children,
// saying why.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StageRun } from '../../src/inference/child-stages.js';
import { loadConfig } from '../../src/config.js';
import { engineSettings, InferenceEngine } from '../../src/inference/inference-engine.js';
import { RAW_IMAGE_CONTENT_TYPE } from '../../src/inference/pipeline/request-body.js';
import { predictOptions } from '../../src/inference/predict-options.js';
import type { LoadedModel } from '../../src/inference/versions/loaded-model.js';
import { type ModelConfig, readModelConfig } from '../../src/inference/versions/model-config.js';
import { ROOT } from '../helpers/server.js';
import { testLog } from '../helpers/log.js';

const MODELS = join(ROOT, 'models');
let dataDir: string;
let engine: InferenceEngine;
let parent: LoadedModel;
let colourConfig: ModelConfig;
let detectorConfig: ModelConfig;
let stage: ModelConfig['stages'][number];
const loads: LoadedModel[] = [];
let images: Buffer[];

/** The smallest engine: one pipeline worker, one instance a version. */
const smallestEngine = (env: Record<string, string> = {}) =>
  new InferenceEngine(
    engineSettings(loadConfig({ WORKERS: '1', INSTANCE_COUNT: '1', INTRA_OP_THREADS: '1', DATA_DIR: dataDir, ...env })),
    testLog,
  );

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'child-stages-engine-'));
  engine = smallestEngine();
  const pipeline = await readModelConfig(join(MODELS, 'demo-pipeline'));
  stage = pipeline.stages[0]!;
  colourConfig = await readModelConfig(join(MODELS, 'demo-colour'));
  detectorConfig = await readModelConfig(join(MODELS, 'demo'));
  parent = await load('parent', 'demo', detectorConfig);
  const scene = await readFile(join(ROOT, 'samples', 'scene.jpg'));
  // The scene as it is, mirrored, and as a PNG (decoded by sharp, copied into the kept buffer)
  images = [scene, await sharp(scene).flop().jpeg({ quality: 92 }).toBuffer(), await sharp(scene).png().toBuffer()];
}, 180_000);

afterAll(async () => {
  for (const model of loads) engine?.release(model);
  await engine?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function load(id: string, directory: string, config: ModelConfig, on = engine): Promise<LoadedModel> {
  const model = await on.acquire({ id, organizationId: 'org', directory: join(MODELS, directory), config });
  if (on === engine) loads.push(model);
  return model;
}

/** A prediction of `model` on `image` with the colour classifier `child` as its stage (none: no stages). */
function prediction(image: Buffer, child: LoadedModel | undefined, on = engine, model = parent) {
  const body = new Uint8Array(image).buffer; // a copy: predict transfers it
  const runs: StageRun[] = child
    ? [{ stage, child: { model: child, options: predictOptions(stage.options, colourConfig.defaults) }, stages: [] }]
    : [];
  return on.predict(model, body, RAW_IMAGE_CONTENT_TYPE, predictOptions({}, detectorConfig.defaults), 'org', runs);
}

/** The pipeline's answer on `image`, every stage run. */
async function predict(image: Buffer, child: LoadedModel): Promise<unknown> {
  const answered = await prediction(image, child);
  expect(answered.stages?.skipped).toEqual([]);
  return JSON.parse(answered.json);
}

function childCount(answer: unknown): number {
  return Object.values(answer as Record<string, Array<{ children: object }>>)
    .flat()
    .filter((d) => Object.keys(d.children).length > 0).length;
}

describe('child stages in the engine', () => {
  it('cut the crops in rounds when the child has fewer slots than crops, and answer as with room for all', async () => {
    const roomy = await load('colour-roomy', 'demo-colour', colourConfig);
    const narrow = await load('colour-narrow', 'demo-colour', { ...colourConfig, batching: { maxBatchSize: 1 } });
    const expected = await predict(images[0]!, roomy);
    const crops = childCount(expected);
    expect(roomy.slots.capacity).toBeGreaterThanOrEqual(crops);
    expect(narrow.slots.capacity, 'the narrow child has fewer slots than the crops').toBeLessThan(crops);
    // Four at once on the narrow child: rounds interleave, and none waits forever for a slot.
    const answers = await Promise.all(Array.from({ length: 4 }, () => predict(images[0]!, narrow)));
    for (const answer of answers) expect(answer).toEqual(expected);
  });

  it('answers each of several images at once as it does alone, decoded into buffers reused between requests', async () => {
    const child = await load('colour', 'demo-colour', colourConfig);
    const alone = [];
    for (const image of images) alone.push(await predict(image, child));
    expect(alone[1]).not.toEqual(alone[0]);
    for (const answer of alone) expect(childCount(answer)).toBeGreaterThan(0);
    for (let round = 0; round < 3; round++) {
      const order = [0, 1, 2, 1, 0, 2, 2, 0, 1];
      const answers = await Promise.all(order.map((i) => predict(images[i]!, child)));
      for (const [k, i] of order.entries()) expect(answers[k], `image ${i}, round ${round}`).toEqual(alone[i]);
    }
  });

  it("are not run past the kept images' memory: the parent's answer, children empty, saying why", async () => {
    const small = smallestEngine({ KEPT_IMAGES_MEMORY_MB: '1' });
    try {
      const detector = await load('parent', 'demo', detectorConfig, small);
      const child = await load('colour', 'demo-colour', colourConfig, small);
      // scene.jpg decoded: 1106 x 448 x 3 bytes, more than the whole MiB
      const refused = await prediction(images[0]!, child, small, detector);
      expect(refused.stages?.skipped).toEqual([
        `${stage.modelVersionId}: not run: the memory for decoded images kept for child stages is in use (KEPT_IMAGES_MEMORY_MB, ORGANIZATION_KEPT_IMAGES_MEMORY_MB)`,
      ]);
      expect(childCount(JSON.parse(refused.json))).toBe(0);
      // the parent's answer as a pipeline's (from the image at its own size), children left out
      const piped = (await predict(images[0]!, await load('colour', 'demo-colour', colourConfig))) as Record<
        string,
        Array<{ children: object }>
      >;
      const childless = Object.fromEntries(
        Object.entries(piped).map(([label, list]) => [label, list.map((d) => ({ ...d, children: {} }))]),
      );
      expect(JSON.parse(refused.json)).toEqual(childless);
      // half its size fits, and runs its stages
      const half = await sharp(images[0]!).resize(553).jpeg({ quality: 95 }).toBuffer();
      const taken = await prediction(half, child, small, detector);
      expect(taken.stages?.skipped).toEqual([]);
      expect(childCount(JSON.parse(taken.json))).toBeGreaterThan(0);
      small.release(detector);
      small.release(child);
    } finally {
      await small.close();
    }
  });
});
