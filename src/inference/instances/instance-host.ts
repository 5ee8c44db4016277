// What an instance does, wherever it lives: owns one session of one model
// version (ModelBackend) and runs the batches the batcher sends it, one at a
// time. It lives in a thread of the server or, for a version that is not
// trusted with the server's memory, in a child process under a memory limit
// (instance-entry.ts starts it in either). Only the channel differs: a
// thread gets the tensor slots themselves (shared memory) and transfers its
// outputs back; a process gets copies and sends copies.
import { serializeError, type ErrorEnvelope } from '../../errors.js';
import { Logger, type LogSettings } from '../../log.js';
import { ModelBackend, type BackendInfo, type BackendOptions } from './backend.js';
import { outOfMemory } from './limited-process.js';
import type { ModelConfig } from '../versions/model-config.js';
import type { ImageOutputs } from '../pipeline/postprocess.js';
import { tensorView } from '../pipeline/preprocess.js';

export interface InstanceWorkerData {
  directory: string;
  config: ModelConfig;
  options: BackendOptions;
  /** the server's log settings: the instance, a thread or a process, logs as the server does */
  log: LogSettings;
}

/** A batch: each image's tensor slot (shared memory in a thread, a copy in a process) and its score threshold (the floor of its candidates). */
export type InstanceRequest =
  | { op: 'run'; id: number; slots: ArrayBufferLike[]; thresholds: number[] }
  | { op: 'close' };

export type InstanceReply =
  | { op: 'ready'; info: BackendInfo }
  | { op: 'failed'; error: ErrorEnvelope }
  | { op: 'done'; id: number; outputs: ImageOutputs[]; runMs: number }
  | { op: 'error'; id: number; error: ErrorEnvelope }
  | { op: 'closed' };

/** How an instance talks to the server: a thread's parent port, or a child process's IPC channel. */
export interface InstanceChannel {
  send(reply: InstanceReply, transfer?: ArrayBuffer[]): void;
  onRequest(handle: (request: InstanceRequest) => void): void;
}

function transferables(outputs: ImageOutputs[]): ArrayBuffer[] {
  return outputs.flatMap((image) => Object.values(image).map((t) => (t.data as ArrayBufferView).buffer as ArrayBuffer));
}

export async function serveInstance(
  { directory, config, options, log }: InstanceWorkerData,
  channel: InstanceChannel,
): Promise<void> {
  let backend: ModelBackend;
  try {
    backend = await ModelBackend.load(directory, config, options, new Logger(log));
  } catch (error) {
    channel.send({ op: 'failed', error: serializeError(outOfMemory(error)) });
    return;
  }
  channel.send({ op: 'ready', info: backend.info });
  // The batch running now: a close waits for it, since releasing a session
  // under a run (or ending the thread) takes the whole process down.
  let running: Promise<unknown> = Promise.resolve();
  channel.onRequest((message) => {
    if (message.op === 'close') {
      void running.then(() => backend.release()).finally(() => channel.send({ op: 'closed' }));
      return;
    }
    const { id, slots, thresholds } = message;
    const dtype = backend.info.inputDtype;
    running = backend
      .run(
        slots.map((slot) => tensorView(dtype, config.input, slot)),
        thresholds,
      )
      .then(
        ({ outputs, runMs }) => channel.send({ op: 'done', id, outputs, runMs }, transferables(outputs)),
        (error: unknown) => channel.send({ op: 'error', id, error: serializeError(outOfMemory(error)) }),
      );
  });
}
