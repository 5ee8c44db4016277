// One thread of the "model limit" measurement (run by piscina): ONNX Runtime
// run() in a loop on a prepared input tensor, nothing else, with the same
// session options as the server's workers, on the model as the server runs
// it (prepared-model.ts: uint8 pixels in, a dense head's candidates at the
// default threshold out). Counts the images of the runs that finish
// between two wall-clock instants shared by all threads.
import { float32AtMost } from '../src/inference/instances/backend.js';
import { precisionOf, readModelConfig } from '../src/inference/versions/model-config.js';
import { DEFAULT_THRESHOLD } from '../src/inference/predict-options.js';
import { prepareModel } from '../src/inference/instances/prepared-model.js';
import { newTensorArray } from '../src/inference/pipeline/preprocess.js';
import type { Feed } from '../src/inference/instances/session-runner.js';
import { createSession } from '../src/inference/instances/session.js';
import { Logger } from '../src/log.js';

export interface ModelLimitTask {
  modelDir: string;
  intraOpThreads: number;
  provider: string;
  /** images per run() */
  batchSize: number;
  /** Date.now() values: runs finishing in [measureFrom, end] count */
  measureFrom: number;
  end: number;
  graphRewrite?: boolean;
  precision?: 'fp32' | 'fp16';
}

export default async function modelLimit(task: ModelLimitTask): Promise<number> {
  const config = await readModelConfig(task.modelDir);
  // The precision the server's instances of this kind would run (precisionOf).
  const precision = precisionOf(config, task.provider === 'cpu' ? 'cpu' : 'gpu', task.precision ?? 'fp32');
  const prepared = await prepareModel(task.modelDir, config, { rewrite: task.graphRewrite ?? true, precision });
  // The runner the server's instances would use (INSTANCE_RUNNER=auto).
  const { runner: session } = await createSession(
    prepared.source,
    {
      providers: [task.provider as 'cpu'],
      deviceId: 0,
      intraOpThreads: task.intraOpThreads,
    },
    new Logger({ level: 'info', format: 'text' }),
  );
  const { width, height, layout } = config.input;
  const batch = task.batchSize;
  const dtype = prepared.input.dtype;
  // A mid-grey image: pixel 128, or its normalised value.
  const data = newTensorArray(dtype, batch * 3 * width * height).fill(
    dtype === 'uint8' ? 128 : dtype === 'float16' ? 0x3800 : 0.5,
  );
  const dims = layout === 'NCHW' ? [batch, 3, height, width] : [batch, height, width, 3];
  const feeds: Record<string, Feed> = { [prepared.input.name]: { type: dtype, data, dims } };
  if (prepared.candidates) {
    const floor = float32AtMost(config.defaults.threshold ?? DEFAULT_THRESHOLD);
    feeds[prepared.candidates.floor] = { type: 'float32', data: new Float32Array(batch).fill(floor), dims: [batch, 1] };
  }
  let count = 0;
  while (Date.now() < task.end) {
    await session.run(feeds);
    const done = Date.now();
    if (done >= task.measureFrom && done <= task.end) count += batch;
  }
  await session.release();
  return count;
}
