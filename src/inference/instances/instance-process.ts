// Entry of an isolated instance (instance-host.ts does the work): a child
// process that instance.ts starts under a memory limit (RLIMIT_DATA) for a
// version not trusted with the server's memory. What it is given comes as
// the first message on its IPC channel; input tensors come as copies of the
// slots and outputs go back as copies (the channel's advanced serialization
// keeps typed arrays). Should the model exhaust the limit, the allocation
// fails (the run answers an error) or the process dies: either way the
// server and every other version go on.
import { serveInstance, type InstanceRequest, type InstanceWorkerData } from './instance-host.js';

process.once('message', (data: InstanceWorkerData) => {
  void serveInstance(data, {
    send: (reply) => process.send!(reply),
    onRequest: (handle) => process.on('message', (message: InstanceRequest) => handle(message)),
  });
});
// The server going away (its IPC channel closing) ends this process too.
process.on('disconnect', () => process.exit(0));
