// A gRPC client of the Open Inference Protocol, from the project's own
// proto/inference.proto: sends one image as the BYTES input `image` to a
// model's ModelInfer and prints the detections the server answers (the
// `detections` output: per image, the predict answer's JSON). The example of
// docs/API.md's "gRPC" section; any language's client generated from the
// proto does the same.
//
//   node --import tsx scripts/oip-grpc-client.ts <image> [--model demo] [--version 3]
//     [--address localhost:8001] [--key KEY] [--threshold 0.5] [--tls]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { credentials, Metadata, makeGenericClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { loadInferenceService, type ModelInferResponseMessage } from '../src/grpc/inference-proto.js';
import { joinBytesElements } from '../src/grpc/oip-messages.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    model: { type: 'string', default: 'demo' },
    version: { type: 'string', default: '' },
    address: { type: 'string', default: 'localhost:8001' },
    key: { type: 'string', default: '' },
    threshold: { type: 'string' },
    tls: { type: 'boolean', default: false },
  },
});
const [imagePath] = positionals;
if (!imagePath) {
  process.stderr.write(
    'usage: scripts/oip-grpc-client.ts <image> [--model demo] [--address localhost:8001] [--key KEY] [--threshold 0.5] [--tls]\n',
  );
  process.exit(2);
}

const Client = makeGenericClientConstructor(loadInferenceService(), 'GRPCInferenceService');
const client = new Client(values.address, values.tls ? credentials.createSsl() : credentials.createInsecure());
const metadata = new Metadata();
if (values.key) metadata.set('authorization', `Bearer ${values.key}`);

const request = {
  model_name: values.model,
  model_version: values.version,
  // the whole predict pipeline (decode, letterbox, model, NMS) on an encoded image
  inputs: [{ name: 'image', datatype: 'BYTES', shape: [1] }],
  outputs: [{ name: 'detections' }],
  parameters: values.threshold === undefined ? {} : { threshold: { double_param: Number(values.threshold) } },
  // a BYTES element is its 4-byte little-endian length, then its bytes
  raw_input_contents: [joinBytesElements([readFileSync(imagePath)])],
};

client.ModelInfer!(request, metadata, (error: ServiceError | null, response: ModelInferResponseMessage) => {
  client.close();
  if (error) {
    process.stderr.write(`${status[error.code]}: ${error.details}\n`);
    process.exit(1);
  }
  const index = response.outputs.findIndex((output) => output.name === 'detections');
  const raw = response.raw_output_contents[index];
  if (index === -1 || raw === undefined) {
    process.stderr.write('the answer has no detections output\n');
    process.exit(1);
  }
  // one element per image: its length (4 bytes, little endian), then the predict answer's JSON
  const length = Buffer.from(raw).readUInt32LE(0);
  const detections: unknown = JSON.parse(
    Buffer.from(raw)
      .subarray(4, 4 + length)
      .toString('utf8'),
  );
  process.stdout.write(`${JSON.stringify(detections, null, 2)}\n`);
});
