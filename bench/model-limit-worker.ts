// One thread of the "model limit" measurement (run by piscina): ONNX Runtime
// run() in a loop on a prepared input tensor, nothing else, with the same
// session options as the server's workers. Counts the images of the runs that finish
// between two wall-clock instants shared by all threads.
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { readModelConfig } from '../src/inference/model-config.js';

export interface ModelLimitTask {
  modelDir: string;
  intraOpThreads: number;
  provider: string;
  /** images per run() */
  batchSize: number;
  /** Date.now() values: runs finishing in [measureFrom, end] count */
  measureFrom: number;
  end: number;
}

export default async function modelLimit(task: ModelLimitTask): Promise<number> {
  const config = await readModelConfig(task.modelDir);
  const session = await ort.InferenceSession.create(join(task.modelDir, 'model.onnx'), {
    executionProviders: task.provider === 'cpu' ? ['cpu'] : [task.provider, 'cpu'],
    intraOpNumThreads: task.intraOpThreads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const { width, height, layout, dtype } = config.input;
  const batch = task.batchSize;
  const elements = batch * 3 * width * height;
  const data = dtype === 'float16' ? new Uint16Array(elements).fill(0x3800) : new Float32Array(elements).fill(0.5);
  const dims = layout === 'NCHW' ? [batch, 3, height, width] : [batch, height, width, 3];
  const feeds = { [config.input.name ?? session.inputNames[0]!]: new ort.Tensor(dtype, data, dims) };
  let count = 0;
  while (Date.now() < task.end) {
    await session.run(feeds);
    const done = Date.now();
    if (done >= task.measureFrom && done <= task.end) count += batch;
  }
  await session.release();
  return count;
}
