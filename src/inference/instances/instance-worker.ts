// Entry of an instance thread (instance-host.ts does the work): input
// tensors arrive as shared-memory slots written by the pipeline workers;
// per-image outputs go back transferred, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import { serveInstance, type InstanceRequest, type InstanceWorkerData } from './instance-host.js';

const port = parentPort!;
void serveInstance(workerData as InstanceWorkerData, {
  send: (reply, transfer) => port.postMessage(reply, transfer),
  onRequest: (handle) => port.on('message', (message: InstanceRequest) => handle(message)),
});
