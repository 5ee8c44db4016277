// Entry of an instance (instance-host.ts does the work), started by
// instance.ts in one of two places:
// - a thread of the server: input tensors arrive as shared-memory slots
//   written by the pipeline workers; per-image outputs go back transferred,
//   not copied.
// - an isolated instance: a child process that instance.ts starts under a
//   memory limit (RLIMIT_DATA) for a version not trusted with the server's
//   memory. What it is given comes as the first message on its IPC channel;
//   input tensors come as copies of the slots and outputs go back as copies
//   (the channel's advanced serialization keeps typed arrays). Should the
//   model exhaust the limit, the allocation fails (the run answers an error)
//   or the process dies: either way the server and every other version go on.
import { parentPort, workerData } from 'node:worker_threads';
import { serveInstance, type InstanceRequest, type InstanceWorkerData } from './instance-host.js';

const port = parentPort;
if (port) {
  void serveInstance(workerData as InstanceWorkerData, {
    send: (reply, transfer) => port.postMessage(reply, transfer),
    onRequest: (handle) => port.on('message', (message: InstanceRequest) => handle(message)),
  });
} else {
  process.once('message', (data: InstanceWorkerData) => {
    void serveInstance(data, {
      send: (reply) => process.send!(reply),
      onRequest: (handle) => process.on('message', (message: InstanceRequest) => handle(message)),
    });
  });
  // The server going away (its IPC channel closing) ends this process too.
  process.on('disconnect', () => process.exit(0));
}
