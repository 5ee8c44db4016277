// Entry of an instance thread: owns one ONNX Runtime session of one model
// version (ModelBackend) and runs the batches the batcher sends it, one at a
// time. Input tensors arrive as shared-memory slots written by the pipeline
// workers; per-image outputs go back transferred, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { ModelBackend, type BackendInfo, type BackendOptions } from './backend.js';
import type { ModelConfig } from './model-config.js';
import type { ImageOutputs } from './postprocess.js';
import { tensorView } from './preprocess.js';

export interface InstanceWorkerData {
  directory: string;
  config: ModelConfig;
  options: BackendOptions;
}

/** A batch: each image's tensor slot and its score threshold (the floor of its candidates). */
export type InstanceRequest = { op: 'run'; id: number; slots: SharedArrayBuffer[]; thresholds: number[] } | { op: 'close' };

export type InstanceReply =
  | { op: 'ready'; info: BackendInfo }
  | { op: 'failed'; reason: string }
  | { op: 'done'; id: number; outputs: ImageOutputs[]; runMs: number }
  | { op: 'error'; id: number; message: string }
  | { op: 'closed' };

const port = parentPort!;
const { directory, config, options } = workerData as InstanceWorkerData;

function transferables(outputs: ImageOutputs[]): ArrayBuffer[] {
  return outputs.flatMap((image) => Object.values(image).map((t) => (t.data as ArrayBufferView).buffer as ArrayBuffer));
}

async function main(): Promise<void> {
  let backend: ModelBackend;
  try {
    backend = await ModelBackend.load(directory, config, options);
  } catch (error) {
    port.postMessage({ op: 'failed', reason: (error as Error).message } satisfies InstanceReply);
    return;
  }
  port.postMessage({ op: 'ready', info: backend.info } satisfies InstanceReply);
  // The batch running now: a close waits for it, since releasing a session
  // under a run (or ending the thread) takes the whole process down.
  let running: Promise<unknown> = Promise.resolve();
  port.on('message', (message: InstanceRequest) => {
    if (message.op === 'close') {
      void running.then(() => backend.release()).finally(() => port.postMessage({ op: 'closed' } satisfies InstanceReply));
      return;
    }
    const { id, slots, thresholds } = message;
    const dtype = backend.info.inputDtype;
    running = backend.run(slots.map((slot) => tensorView(dtype, config.input, slot)), thresholds).then(
      ({ outputs, runMs }) => port.postMessage({ op: 'done', id, outputs, runMs } satisfies InstanceReply, transferables(outputs)),
      (error: Error) => port.postMessage({ op: 'error', id, message: error.message } satisfies InstanceReply),
    );
  });
}

void main();
