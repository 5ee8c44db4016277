// The native runner (native/src/ort_runner.cc, src/inference/instances/session-runner.ts):
// ONNX Runtime's C API on the library onnxruntime-node ships. On this
// machine's CPU it must answer exactly as onnxruntime-node does, through the
// whole backend (the rewritten model, batches, every output convention);
// asked for CUDA where there is none, it fails with the runtime's reason and
// the instance falls back to the next provider, as onnxruntime-node's does.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelBackend } from '../../src/inference/instances/backend.js';
import { parseModelConfig } from '../../src/inference/versions/model-config.js';
import { inputElements, newTensorArray } from '../../src/inference/pipeline/preprocess.js';
import { createRunner, nativeRunnerAvailable } from '../../src/inference/instances/session-runner.js';
import { createSession } from '../../src/inference/instances/session.js';
import { BATCH_CONVENTIONS, buildBatchModel } from '../fixtures/batch-models.js';
import { SIZE } from '../fixtures/format-models.js';
import { testLog } from '../helpers/log.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sense-runner-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the native runner', () => {
  it('opens the ONNX Runtime library onnxruntime-node ships', () => {
    expect(nativeRunnerAvailable()).toBeUndefined();
  });

  it.each(Object.keys(BATCH_CONVENTIONS))(
    '%s: answers as onnxruntime-node does, alone and batched, through the rewritten model',
    async (convention) => {
      const { outputs, config: extra } = BATCH_CONVENTIONS[convention]!;
      const modelDir = join(dir, convention);
      await mkdir(modelDir, { recursive: true });
      await writeFile(join(modelDir, 'model.onnx'), buildBatchModel(outputs()));
      const config = parseModelConfig({ name: convention, input: { width: SIZE, height: SIZE }, ...extra });
      const options = {
        providers: ['cpu' as const],
        deviceId: 0,
        intraOpThreads: 1,
        maxBatchSize: 4,
        preparation: { rewrite: true },
      };
      const node = await ModelBackend.load(modelDir, config, { ...options, runner: 'onnxruntime-node' }, testLog);
      const nativeBackend = await ModelBackend.load(modelDir, config, { ...options, runner: 'native' }, testLog);
      try {
        expect(node.info.runner).toBe('onnxruntime-node');
        expect(nativeBackend.info.runner).toBe('native');
        const images = [30, 120, 210].map((level) => newTensorArray('uint8', inputElements(config.input)).fill(level));
        for (const threshold of [0, 0.3, 0.9]) {
          for (const batch of [[images[1]!], images]) {
            const a = await node.run(
              batch,
              batch.map(() => threshold),
            );
            const b = await nativeBackend.run(
              batch,
              batch.map(() => threshold),
            );
            expect(b.outputs).toEqual(a.outputs);
          }
        }
      } finally {
        await node.release();
        await nativeBackend.release();
      }
    },
  );

  it('reports a run on a released session, and a feed that does not match its dims, as errors', async () => {
    const modelDir = join(dir, 'yolov8');
    const runner = await createRunner('native', join(modelDir, 'model.onnx'), {
      provider: 'cpu',
      deviceId: 0,
      intraOpThreads: 1,
    });
    await expect(
      runner.run({ images: { type: 'float32', dims: [1, 3, SIZE, SIZE], data: new Float32Array(5) } }),
    ).rejects.toThrow('input "images": its data does not match its type and dims');
    await runner.release();
    await expect(runner.run({})).rejects.toThrow('the session was released');
  });

  it('falls back to the next provider with the reason when CUDA cannot load here', async () => {
    const { runner, provider, failures } = await createSession(
      join(dir, 'yolov8', 'model.onnx'),
      {
        providers: ['cuda', 'cpu'],
        deviceId: 0,
        intraOpThreads: 1,
        runner: 'native',
      },
      testLog,
    );
    try {
      expect(provider).toBe('cpu');
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(/^cuda \(native\): cuda: .+/);
    } finally {
      await runner.release();
    }
  });

  it('INSTANCE_RUNNER=auto tries it for a CUDA instance, then onnxruntime-node with every provider, the reasons kept', async () => {
    const { config: extra } = BATCH_CONVENTIONS.yolov8!;
    const config = parseModelConfig({ name: 'auto', input: { width: SIZE, height: SIZE }, ...extra });
    const backend = await ModelBackend.load(
      join(dir, 'yolov8'),
      config,
      {
        providers: ['cuda', 'cpu'],
        deviceId: 0,
        intraOpThreads: 1,
        maxBatchSize: 1,
        runner: 'auto',
        preparation: { rewrite: true },
      },
      testLog,
    );
    try {
      expect(backend.info).toMatchObject({ provider: 'cpu', runner: 'onnxruntime-node' });
      expect(backend.info.providerFailures[0]).toMatch(
        /^cuda \(native runner\): no execution provider could load model.onnx: cuda \(native\): /,
      );
      expect(backend.info.providerFailures[1]).toMatch(/^cuda \(onnxruntime-node\): /);
    } finally {
      await backend.release();
    }
  });
});
