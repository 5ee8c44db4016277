// The Open Inference Protocol's gRPC front end, end to end: a real server
// process with its gRPC listener on a free port (OIP_GRPC_PORT), the bundled
// demo detector (public) beside a model of the bootstrap organization's own,
// and a @grpc/grpc-js client built from proto/inference.proto as a Triton or
// KServe user builds one. Images in answer predict's JSON byte for byte, as
// unary calls and on a stream; names resolve per organization; keys,
// malformed messages and shed requests answer the protocol's status codes,
// and the server stays up.
import { mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Client,
  type ClientDuplexStream,
  credentials,
  type GrpcObject,
  loadPackageDefinition,
  Metadata,
  type ServiceClientConstructor,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { writeModelDir } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { Api, signUpTenant } from '../helpers/api.js';
import { type Platform, startPlatform, stopPlatform } from '../helpers/platform.js';
import { freePort, ROOT, removeDir, waitFor } from '../helpers/server.js';

const GRPCInferenceService = (
  (
    loadPackageDefinition(
      loadSync(join(ROOT, 'proto', 'inference.proto'), { keepCase: true, longs: String, defaults: true }),
    ) as GrpcObject
  ).inference as GrpcObject
).GRPCInferenceService as ServiceClientConstructor;

type Callback = (error: ServiceError | null, response: any) => void;
type InferenceClient = Client &
  Record<string, (request: object, metadata: Metadata, callback: Callback) => void> & {
    ModelStreamInfer(metadata: Metadata): ClientDuplexStream<object, any>;
  };

const KEY = 'test-key';
let platform: Platform;
let modelsDir: string;
let client: InferenceClient;
let scene: Buffer;
let otherKey: string;

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'sense-models-'));
  await symlink(join(ROOT, 'models', 'demo'), join(modelsDir, 'demo'));
  await writeModelDir(join(modelsDir, 'private'), fixtureSpec(), fixtureConfig('private'));
  const port = await freePort();
  platform = await startPlatform(
    {
      INFERENCE_API_KEY: KEY,
      OIP_GRPC_PORT: String(port),
      MAX_BATCH_SIZE: '4',
      MAX_IMAGE_BYTES: '262144',
      // A request of four images takes four of the organization's share: past three, it is shed.
      ORGANIZATION_QUEUE_SIZE: '3',
    },
    { modelsDir },
  );
  client = new GRPCInferenceService(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as InferenceClient;
  scene = await readFile(join(ROOT, 'samples', 'scene.jpg'));
  const other = await signUpTenant(new Api(platform.server.url), platform.sql, 'other@example.com');
  otherKey = (await other.post('/v2/inference/api-keys', { name: 'oip' })).body.data.apiKey;
  await waitFor(async () => (await call('ServerReady', {})).ready === true, 120_000, 'OIP ready');
}, 180_000);

afterAll(async () => {
  client?.close();
  await stopPlatform(platform);
  await removeDir(modelsDir);
});

function metadata(key?: string): Metadata {
  const m = new Metadata();
  if (key) m.set('authorization', `Bearer ${key}`);
  return m;
}

function call(method: string, request: object, key?: string): Promise<any> {
  return new Promise((resolve, reject) =>
    client[method]!(request, metadata(key), (error, response) => (error ? reject(error) : resolve(response))),
  );
}

async function refused(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error('the call succeeded');
}

/** Triton's raw form of BYTES elements: each a 4-byte little-endian length, then its bytes. */
function bytesElements(elements: Buffer[]): Buffer {
  return Buffer.concat(
    elements.flatMap((e) => {
      const length = Buffer.alloc(4);
      length.writeUInt32LE(e.length);
      return [length, e];
    }),
  );
}

function firstElement(raw: Buffer): string {
  return raw.subarray(4, 4 + raw.readUInt32LE(0)).toString('utf8');
}

const imageRequest = (images: Buffer[], extra: object = {}) => ({
  model_name: 'demo',
  inputs: [{ name: 'image', datatype: 'BYTES', shape: [images.length] }],
  raw_input_contents: [bytesElements(images)],
  ...extra,
});

async function predictText(image: Buffer, query = ''): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([image]), 'scene.jpg');
  const res = await fetch(`${platform.server.url}/v1/models/${DEMO_MODEL_VERSION_ID}/predict${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return res.text();
}

describe('the OIP gRPC service of a running server', () => {
  it('answers health, server and model metadata', async () => {
    expect(await call('ServerLive', {})).toEqual({ live: true });
    const server = await call('ServerMetadata', {});
    expect(server.name).toBe('sense-inference-server');
    expect(await call('ModelReady', { name: 'demo' }, KEY)).toEqual({ ready: true });
    expect(await call('ModelMetadata', { name: 'demo' }, KEY)).toMatchObject({
      name: 'demo',
      versions: [DEMO_MODEL_VERSION_ID],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: ['-1'] }],
    });
  });

  it("answers predict's JSON byte for byte for scene.jpg, with the id, and predict's options as parameters", async () => {
    const expected = await predictText(scene);
    const answer = await call('ModelInfer', imageRequest([scene], { id: 'g-1' }), KEY);
    expect(answer).toMatchObject({
      model_name: 'demo',
      model_version: DEMO_MODEL_VERSION_ID,
      id: 'g-1',
      outputs: [{ name: 'detections', datatype: 'BYTES', shape: ['1'] }],
    });
    expect(firstElement(answer.raw_output_contents[0])).toBe(expected);
    expect(Object.keys(JSON.parse(expected) as object).length).toBeGreaterThan(0);

    const strict = await predictText(scene, '?threshold=0.8&max_detections=2');
    const options = await call(
      'ModelInfer',
      imageRequest([scene], {
        model_version: DEMO_MODEL_VERSION_ID,
        parameters: { threshold: { double_param: 0.8 }, max_detections: { int64_param: 2 } },
      }),
      KEY,
    );
    expect(firstElement(options.raw_output_contents[0])).toBe(strict);
  });

  it('answers count and boxes as raw tensors on request', async () => {
    const answer = await call(
      'ModelInfer',
      imageRequest([scene], { outputs: [{ name: 'count' }, { name: 'boxes' }, { name: 'detections' }] }),
      KEY,
    );
    const [count, boxes] = answer.outputs;
    const detections = JSON.parse(firstElement(answer.raw_output_contents[2])) as Record<string, unknown[]>;
    const n = Object.values(detections).flat().length;
    expect(count).toMatchObject({ name: 'count', datatype: 'INT32', shape: ['1'] });
    expect(answer.raw_output_contents[0].readInt32LE(0)).toBe(n);
    expect(boxes).toMatchObject({ name: 'boxes', datatype: 'FP32', shape: ['1', String(n), '4'] });
    expect(answer.raw_output_contents[1].length).toBe(n * 4 * 4);
  });

  it("finds the caller's own models, public ones for every key; another organization's is NOT_FOUND", async () => {
    expect(await call('ModelReady', { name: 'private' }, KEY)).toEqual({ ready: true });
    const hidden = await refused(call('ModelMetadata', { name: 'private' }, otherKey));
    expect(hidden.code).toBe(status.NOT_FOUND);
    const tiny = Buffer.from(await readFile(join(ROOT, 'samples', 'scene.jpg')));
    expect((await refused(call('ModelInfer', { ...imageRequest([tiny]), model_name: 'private' }, otherKey))).code).toBe(
      status.NOT_FOUND,
    );
    const publicAnswer = await call('ModelInfer', imageRequest([scene]), otherKey);
    expect(publicAnswer.model_name).toBe('demo');
  });

  it('refuses a missing or unknown key UNAUTHENTICATED', async () => {
    expect((await refused(call('ModelMetadata', { name: 'demo' }))).code).toBe(status.UNAUTHENTICATED);
    expect((await refused(call('ModelInfer', imageRequest([scene]), 'sk_wrong'))).code).toBe(status.UNAUTHENTICATED);
  });

  it('refuses malformed messages INVALID_ARGUMENT naming the field, and stays up', async () => {
    const whole = bytesElements([scene]);
    const cases: [object, RegExp][] = [
      [
        { ...imageRequest([scene]), raw_input_contents: [whole.subarray(0, 1000)] },
        /^raw_input_contents\[0\]: element 0 says/,
      ],
      [{ ...imageRequest([scene]), inputs: [{ name: 'image', datatype: 'BYTES', shape: [2] }] }, /needs 2$/],
      [
        { ...imageRequest([scene]), inputs: [{ name: 'image', datatype: 'BYTES', shape: [2 ** 31] }] },
        /shape\[0\]: 2147483648/,
      ],
      [{ ...imageRequest([scene]), inputs: [{ name: 'image', datatype: 'STRING', shape: [1] }] }, /datatype: "STRING"/],
      [{ ...imageRequest([scene]), inputs: [{ name: 'pixels', datatype: 'BYTES', shape: [1] }] }, /inputs\[0\]\.name/],
      [imageRequest([Buffer.from('not an image')]), /image/],
    ];
    for (const [request, details] of cases) {
      const error = await refused(call('ModelInfer', request, KEY));
      expect(error.code, String(details)).toBe(status.INVALID_ARGUMENT);
      expect(error.details).toMatch(details);
    }
    expect(await call('ServerLive', {})).toEqual({ live: true });
  });

  it('sheds a request past the organization share UNAVAILABLE with retry-after', async () => {
    const shed = await refused(call('ModelInfer', imageRequest([scene, scene, scene, scene]), KEY));
    expect(shed.code).toBe(status.UNAVAILABLE);
    expect(Number(shed.metadata.get('retry-after')[0])).toBeGreaterThanOrEqual(1);
    expect((await call('ModelInfer', imageRequest([scene]), KEY)).model_name).toBe('demo');
  });

  it('streams: every request answered with its id, errors on their own, the same detections as predict', async () => {
    const expected = await predictText(scene);
    const stream = client.ModelStreamInfer(metadata(KEY));
    const answers: any[] = [];
    stream.on('data', (answer) => answers.push(answer));
    const ended = new Promise<number>((resolve) => stream.on('status', (s: { code: number }) => resolve(s.code)));
    // three at once: the organization's share (ORGANIZATION_QUEUE_SIZE) above
    for (let i = 0; i < 3; i++) stream.write(imageRequest([scene], { id: `s-${i}` }));
    stream.write({ ...imageRequest([scene]), model_name: 'nothing', id: 'missing' });
    stream.end();
    expect(await ended).toBe(status.OK);
    expect(answers.map((a) => a.infer_response.id).sort()).toEqual(['missing', 's-0', 's-1', 's-2']);
    for (const answer of answers) {
      if (answer.infer_response.id === 'missing') {
        expect(answer.error_message).toMatch(/^NOT_FOUND: /);
      } else {
        expect(answer.error_message).toBe('');
        expect(firstElement(answer.infer_response.raw_output_contents[0])).toBe(expected);
      }
    }
  });
});
