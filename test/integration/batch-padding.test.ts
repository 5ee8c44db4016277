// Padded batches (batching.padToMaxBatchSize, the default on GPU instances):
// every run has maxBatchSize rows whatever the number of images, and for
// every output convention each image still gets exactly the outputs it gets
// alone in an unpadded run. Real ONNX Runtime sessions, in process.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelBackend } from '../../src/inference/instances/backend.js';
import { parseModelConfig, type ModelConfig } from '../../src/inference/versions/model-config.js';
import { inputElements } from '../../src/inference/pipeline/preprocess.js';
import { BATCH_CONVENTIONS, buildBatchModel } from '../fixtures/batch-models.js';
import { SIZE } from '../fixtures/format-models.js';
import { testLog } from '../helpers/log.js';

const MAX_BATCH = 4;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sense-pad-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(
  convention: string,
  padToMaxBatchSize: boolean,
): Promise<{ backend: ModelBackend; config: ModelConfig }> {
  const { outputs, config: extra } = BATCH_CONVENTIONS[convention]!;
  const modelDir = join(dir, convention);
  await mkdir(modelDir, { recursive: true });
  await writeFile(join(modelDir, 'model.onnx'), buildBatchModel(outputs()));
  const config = parseModelConfig({ name: convention, input: { width: SIZE, height: SIZE }, ...extra });
  const backend = await ModelBackend.load(
    modelDir,
    config,
    {
      providers: ['cpu'],
      deviceId: 0,
      intraOpThreads: 1,
      maxBatchSize: MAX_BATCH,
      padToMaxBatchSize,
      preparation: { rewrite: true },
    },
    testLog,
  );
  return { backend, config };
}

/** Three images (uint8 pixels: the models run rewritten) of different mean value: the fixtures' outputs move with it. */
function images(config: ModelConfig): Uint8Array[] {
  return [26, 115, 204].map((v) => new Uint8Array(inputElements(config.input)).fill(v));
}
const THRESHOLD = 0.25;

const fingerprint = (outputs: object | undefined) =>
  Object.values(outputs ?? {})
    .map((t: { data: ArrayLike<number | bigint> }) => Array.from(t.data, String).join(','))
    .join('|');

describe('padded batches', () => {
  it.each(Object.keys(BATCH_CONVENTIONS))(
    '%s: runs maxBatchSize rows and answers each image as alone',
    async (convention) => {
      const plain = await load(convention, false);
      const padded = await load(convention, true);
      try {
        const inputs = images(plain.config);
        const alone = [];
        for (const image of inputs) {
          const result = await plain.backend.run([image], [THRESHOLD]);
          expect(result.rows).toBe(1);
          alone.push(result.outputs[0]);
        }
        const lone = await padded.backend.run([inputs[1]!], [THRESHOLD]);
        expect(lone.rows).toBe(MAX_BATCH);
        expect(lone.outputs).toEqual([alone[1]]);

        const together = await padded.backend.run(
          inputs,
          inputs.map(() => THRESHOLD),
        );
        expect(together.rows).toBe(MAX_BATCH);
        expect(together.outputs).toEqual(alone);
        // The images' answers differ, so a mix-up of rows (or padding rows leaking in) would show.
        expect(new Set(alone.map(fingerprint)).size).toBe(inputs.length);
      } finally {
        await plain.backend.release();
        await padded.backend.release();
      }
    },
  );
});
