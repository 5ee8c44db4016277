// The Open Inference Protocol's gRPC front end (src/grpc/oip-grpc-server.ts)
// on a real port, called by a real @grpc/grpc-js client built from
// proto/inference.proto, as a Triton or KServe client would be. Behind it a
// small OipService written here (models by organization, answers that echo
// their inputs, requests held until the test lets them go, admission that
// sheds): the front end's part is what is under test — every RPC, the
// bearer key, conversions, status codes and the retry hint, streaming in
// order of completion with its bound, malformed messages, TLS and the drain.
import { testLog } from '../helpers/log.js';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
import { joinBytesElements } from '../../src/grpc/oip-messages.js';
import { OIP_GRPC_TUNING, OipGrpcServer } from '../../src/grpc/oip-grpc-server.js';
import {
  type InferRequest,
  type InferResponse,
  type ModelMetadata,
  type OipCaller,
  OipError,
  type OipService,
} from '../../src/inference/oip/protocol.js';
import { waitFor } from '../helpers/server.js';

const PROTO = resolve(import.meta.dirname, '../../proto/inference.proto');

/** The client a user builds from the proto: loaded by proto-loader, field names as the proto spells them. */
const GRPCInferenceService = (
  (loadPackageDefinition(loadSync(PROTO, { keepCase: true, longs: String, defaults: true })) as GrpcObject)
    .inference as GrpcObject
).GRPCInferenceService as ServiceClientConstructor;

type Callback = (error: ServiceError | null, response: any) => void;
type InferenceClient = Client &
  Record<string, (request: object, metadata: Metadata, callback: Callback) => void> & {
    ModelStreamInfer(metadata: Metadata): ClientDuplexStream<object, any>;
  };

const KEYS: Record<string, string> = { 'key-a': 'org-a', 'key-b': 'org-b', 'key-c': 'org-a' };
const MAX_MESSAGE_BYTES = 64 * 1024;

/** A held request, let go by the test: `gate` parameter names it. */
class Gates {
  private readonly open = new Map<string, () => void>();
  private readonly waiting = new Map<string, Promise<void>>();
  entered = 0;
  running = 0;
  maxRunning = 0;

  wait(name: string): Promise<void> {
    let promise = this.waiting.get(name);
    if (!promise) {
      promise = new Promise<void>((resolve) => this.open.set(name, resolve));
      this.waiting.set(name, promise);
    }
    return promise;
  }

  release(name: string): void {
    void this.wait(name);
    this.open.get(name)!();
  }
}

class TestOipService implements OipService {
  readonly gates = new Gates();
  lastRequest: InferRequest | undefined;

  live(): boolean {
    return true;
  }
  ready(): boolean {
    return true;
  }
  serverMetadata() {
    return { name: 'sense', version: '0.1.0', extensions: ['binary_tensor_data'] };
  }
  authenticate(bearerKey: string | undefined): OipCaller {
    const organizationId = bearerKey === undefined ? undefined : KEYS[bearerKey];
    if (!organizationId) throw new OipError('unauthenticated', 'no valid bearer key', 'UNAUTHENTICATED');
    return { organizationId };
  }
  private model(caller: OipCaller, name: string): void {
    // each organization sees its own models; "echo" is org-a's
    if (name !== 'echo' || caller.organizationId !== 'org-a') {
      if (!['shed', 'busy', 'broken'].includes(name)) {
        throw new OipError('not-found', `no model ${name}`, 'NOT_FOUND');
      }
    }
  }
  modelReady(caller: OipCaller, name: string, version?: string): boolean {
    this.model(caller, name);
    return version !== '1';
  }
  modelMetadata(caller: OipCaller, name: string, version?: string): ModelMetadata {
    this.model(caller, name);
    return {
      name,
      versions: version ? [version] : ['2', '1'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [-1] }],
      outputs: [{ name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] }],
    };
  }
  async infer(
    caller: OipCaller,
    name: string,
    version: string | undefined,
    request: InferRequest,
  ): Promise<InferResponse> {
    this.model(caller, name);
    this.lastRequest = request;
    if (name === 'shed') throw new OipError('unavailable', 'the queue is full', 'UNAVAILABLE', 2);
    if (name === 'busy') throw new OipError('exhausted', 'over the key limit', 'THROTTLED', 1);
    if (name === 'broken') throw new TypeError('a bug with private details');
    const gate = request.parameters?.gate;
    this.gates.entered++;
    this.gates.running++;
    this.gates.maxRunning = Math.max(this.gates.maxRunning, this.gates.running);
    try {
      if (typeof gate === 'string') await this.gates.wait(gate);
    } finally {
      this.gates.running--;
    }
    const response: InferResponse = {
      modelName: name,
      modelVersion: version ?? '2',
      outputs: request.inputs.map((input) => ({ ...input, name: `${input.name}_out` })),
    };
    if (request.id !== undefined) response.id = request.id;
    return response;
  }
}

function call<T = any>(client: InferenceClient, method: string, request: object, key?: string): Promise<T> {
  const metadata = new Metadata();
  if (key) metadata.set('authorization', `Bearer ${key}`);
  return new Promise((resolve, reject) =>
    client[method]!(request, metadata, (error, response) => (error ? reject(error) : resolve(response))),
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

const fp32 = (...values: number[]) => Buffer.from(new Float32Array(values).buffer);
const fromFp32 = (bytes: Buffer) => [...new Float32Array(new Uint8Array(bytes).buffer)];

describe('the OIP gRPC front end', () => {
  const service = new TestOipService();
  const server = new OipGrpcServer(service, {
    host: '127.0.0.1',
    port: 0,
    tls: undefined,
    maxMessageBytes: MAX_MESSAGE_BYTES,
    log: testLog,
  });
  let client: InferenceClient;

  beforeAll(async () => {
    const port = await server.listen();
    client = new GRPCInferenceService(`127.0.0.1:${port}`, credentials.createInsecure()) as unknown as InferenceClient;
  });
  afterAll(async () => {
    client?.close();
    await server.close(5_000);
  });

  it('answers health and server metadata without a key', async () => {
    expect(await call(client, 'ServerLive', {})).toEqual({ live: true });
    expect(await call(client, 'ServerReady', {})).toEqual({ ready: true });
    expect(await call(client, 'ServerMetadata', {})).toEqual({
      name: 'sense',
      version: '0.1.0',
      extensions: ['binary_tensor_data'],
    });
  });

  it('answers model readiness and metadata for the key organization, NOT_FOUND for another, UNAUTHENTICATED without a key', async () => {
    expect(await call(client, 'ModelReady', { name: 'echo' }, 'key-a')).toEqual({ ready: true });
    expect(await call(client, 'ModelReady', { name: 'echo', version: '1' }, 'key-a')).toEqual({ ready: false });
    expect(await call(client, 'ModelMetadata', { name: 'echo' }, 'key-a')).toEqual({
      name: 'echo',
      versions: ['2', '1'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: ['-1'] }],
      outputs: [{ name: 'boxes', datatype: 'FP32', shape: ['-1', '-1', '4'] }],
    });
    const other = await refused(call(client, 'ModelMetadata', { name: 'echo' }, 'key-b'));
    expect(other.code).toBe(status.NOT_FOUND);
    expect(other.details).toBe('no model echo');
    expect((await refused(call(client, 'ModelReady', { name: 'echo' }))).code).toBe(status.UNAUTHENTICATED);
    expect((await refused(call(client, 'ModelReady', { name: 'echo' }, 'key-x'))).code).toBe(status.UNAUTHENTICATED);
    expect((await refused(call(client, 'ModelInfer', { model_name: 'echo' }, 'key-x'))).code).toBe(
      status.UNAUTHENTICATED,
    );
  });

  it('runs ModelInfer: raw and typed contents in, raw_output_contents out, id echoed, parameters passed', async () => {
    const answer = await call(
      client,
      'ModelInfer',
      {
        model_name: 'echo',
        id: 'req-7',
        parameters: { threshold: { double_param: 0.25 }, max_detections: { int64_param: 5 } },
        inputs: [
          { name: 'tensor', datatype: 'FP32', shape: [1, 3] },
          { name: 'image', datatype: 'BYTES', shape: [2] },
        ],
        outputs: [{ name: 'detections' }],
        raw_input_contents: [fp32(1, 2, 3), joinBytesElements([Buffer.from('jpeg-1'), Buffer.from('png-2')])],
      },
      'key-a',
    );
    expect(service.lastRequest!.parameters).toEqual({ threshold: 0.25, max_detections: 5 });
    expect(service.lastRequest!.outputs).toEqual([{ name: 'detections' }]);
    expect(answer).toMatchObject({
      model_name: 'echo',
      model_version: '2',
      id: 'req-7',
      outputs: [
        { name: 'tensor_out', datatype: 'FP32', shape: ['1', '3'] },
        { name: 'image_out', datatype: 'BYTES', shape: ['2'] },
      ],
    });
    expect(fromFp32(answer.raw_output_contents[0])).toEqual([1, 2, 3]);
    expect([...answer.raw_output_contents[1]]).toEqual([
      ...joinBytesElements([Buffer.from('jpeg-1'), Buffer.from('png-2')]),
    ]);

    const typed = await call(
      client,
      'ModelInfer',
      {
        model_name: 'echo',
        model_version: '1',
        inputs: [
          { name: 'x', datatype: 'INT64', shape: [2], contents: { int64_contents: ['-3', '9007199254740993'] } },
        ],
      },
      'key-a',
    );
    expect(typed.model_version).toBe('1');
    expect([...new BigInt64Array(new Uint8Array(typed.raw_output_contents[0]).buffer)]).toEqual([
      -3n,
      9007199254740993n,
    ]);
  });

  it('refuses malformed messages INVALID_ARGUMENT naming the field, and stays up', async () => {
    const cases: [object, string][] = [
      [
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'FP32', shape: [1, 3] }],
          raw_input_contents: [Buffer.alloc(11)],
        },
        'raw_input_contents[0]: 11 bytes, inputs[0] (x, FP32 [1, 3]) needs 12',
      ],
      [
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'FP32', shape: [2, 2], contents: { fp32_contents: [1, 2, 3] } }],
        },
        'inputs[0].contents.fp32_contents: 3 elements, inputs[0] (x, FP32 [2, 2]) needs 4',
      ],
      [
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'UINT8', shape: [2147483648] }],
          raw_input_contents: [Buffer.alloc(1)],
        },
        'inputs[0].shape[0]: 2147483648 is not a dimension (0 to 2^31 - 1)',
      ],
      [
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'COMPLEX64', shape: [1] }],
          raw_input_contents: [Buffer.alloc(8)],
        },
        'inputs[0].datatype: "COMPLEX64" is not a datatype',
      ],
      [
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'FP32', shape: [1], contents: { fp32_contents: [1] } }],
          raw_input_contents: [fp32(1)],
        },
        'inputs[0].contents: given with raw_input_contents',
      ],
    ];
    for (const [request, details] of cases) {
      const error = await refused(call(client, 'ModelInfer', request, 'key-a'));
      expect(error.code, details).toBe(status.INVALID_ARGUMENT);
      expect(error.details).toContain(details);
    }
    expect(await call(client, 'ServerLive', {})).toEqual({ live: true });
  });

  it('refuses a message that does not decode INVALID_ARGUMENT, one past the size limit RESOURCE_EXHAUSTED', async () => {
    // raw_input_contents (field 7, length delimited) that says 100 bytes and holds 2: a truncated message
    const truncated = Buffer.from([(7 << 3) | 2, 100, 0x61, 0x62]);
    const error = await refused(
      new Promise((resolve, reject) =>
        client.makeUnaryRequest(
          '/inference.GRPCInferenceService/ModelInfer',
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
          truncated,
          new Metadata(),
          (err, value) => (err ? reject(err) : resolve(value)),
        ),
      ),
    );
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details).toMatch(/^the ModelInfer request message does not decode/);

    const large = await refused(
      call(
        client,
        'ModelInfer',
        {
          model_name: 'echo',
          inputs: [{ name: 'x', datatype: 'UINT8', shape: [MAX_MESSAGE_BYTES] }],
          raw_input_contents: [Buffer.alloc(MAX_MESSAGE_BYTES)],
        },
        'key-a',
      ),
    );
    expect(large.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(await call(client, 'ServerLive', {})).toEqual({ live: true });
  });

  it('answers shed requests UNAVAILABLE or RESOURCE_EXHAUSTED with retry-after, and a bug INTERNAL without its message', async () => {
    const shed = await refused(call(client, 'ModelInfer', { model_name: 'shed' }, 'key-a'));
    expect(shed.code).toBe(status.UNAVAILABLE);
    expect(shed.details).toBe('the queue is full');
    expect(shed.metadata.get('retry-after')).toEqual(['2']);
    const busy = await refused(call(client, 'ModelInfer', { model_name: 'busy' }, 'key-a'));
    expect(busy.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(busy.metadata.get('retry-after')).toEqual(['1']);
    const broken = await refused(call(client, 'ModelInfer', { model_name: 'broken' }, 'key-a'));
    expect(broken.code).toBe(status.INTERNAL);
    expect(broken.details).toBe('internal error');
  });

  it('streams: each request answered as it completes, with its id; an error answers that request and the stream goes on', async () => {
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer key-a');
    const stream = client.ModelStreamInfer(metadata);
    const answers: any[] = [];
    stream.on('data', (answer) => answers.push(answer));
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('status', (s: { code: number }) =>
        s.code === status.OK ? resolve() : reject(new Error(String(s.code))),
      );
      stream.on('error', reject);
    });
    const request = (id: string, gate: string) => ({
      model_name: 'echo',
      id,
      parameters: { gate: { string_param: gate } },
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
      raw_input_contents: [fp32(Number(id.slice(1)))],
    });
    const entered = service.gates.entered;
    stream.write(request('r1', 'g1'));
    stream.write(request('r2', 'g2'));
    stream.write(request('r3', 'g3'));
    stream.write({
      model_name: 'echo',
      id: 'bad',
      inputs: [{ name: 'x', datatype: 'FP32', shape: [2] }],
      raw_input_contents: [fp32(1)],
    });
    stream.write({ model_name: 'missing', id: 'gone', inputs: [] });
    await waitFor(
      async () => service.gates.entered === entered + 3 && answers.length === 2,
      10_000,
      'three held, two refused',
    );
    // the refusals came first, while the three were still held
    expect(answers.map((a) => [a.infer_response.id, a.error_message])).toEqual(
      expect.arrayContaining([
        ['bad', 'INVALID_ARGUMENT: raw_input_contents[0]: 4 bytes, inputs[0] (x, FP32 [2]) needs 8'],
        ['gone', 'NOT_FOUND: no model missing'],
      ]),
    );
    service.gates.release('g3');
    await waitFor(async () => answers.length === 3, 10_000, 'r3');
    service.gates.release('g1');
    await waitFor(async () => answers.length === 4, 10_000, 'r1');
    service.gates.release('g2');
    await waitFor(async () => answers.length === 5, 10_000, 'r2');
    const completed = answers.slice(2);
    expect(completed.map((a) => a.infer_response.id)).toEqual(['r3', 'r1', 'r2']);
    expect(completed.map((a) => a.error_message)).toEqual(['', '', '']);
    expect(completed.map((a) => fromFp32(a.infer_response.raw_output_contents[0]))).toEqual([[3], [1], [2]]);
    stream.end();
    await ended;
  });

  it('bounds a stream: past streamInFlight requests it stops reading until answers go out', async () => {
    const bound = OIP_GRPC_TUNING.streamInFlight;
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer key-a');
    const stream = client.ModelStreamInfer(metadata);
    const answers: any[] = [];
    stream.on('data', (answer) => answers.push(answer));
    const ended = new Promise<void>((resolve) => stream.on('status', () => resolve()));
    const before = service.gates.entered;
    service.gates.maxRunning = service.gates.running;
    for (let i = 0; i < bound + 16; i++) {
      stream.write({
        model_name: 'echo',
        id: `b${i}`,
        parameters: { gate: { string_param: 'bound' } },
        inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
        raw_input_contents: [fp32(i)],
      });
    }
    await waitFor(async () => service.gates.entered - before === bound, 10_000, `${bound} requests running`);
    // a round trip on the same connection: anything the stream would still read has been read by now
    await call(client, 'ServerLive', {});
    expect(service.gates.entered - before).toBe(bound);
    expect(service.gates.maxRunning).toBe(bound);
    service.gates.release('bound');
    await waitFor(async () => answers.length === bound + 16, 10_000, 'every answer');
    expect(new Set(answers.map((a) => a.infer_response.id)).size).toBe(bound + 16);
    stream.end();
    await ended;
  });

  it("checks a stream's key for each request: one disabled meanwhile is refused, the stream goes on", async () => {
    const metadata = new Metadata();
    metadata.set('authorization', 'Bearer key-c');
    const stream = client.ModelStreamInfer(metadata);
    const answers: any[] = [];
    stream.on('data', (answer) => answers.push(answer));
    const ended = new Promise<number>((resolve) => stream.on('status', (s: { code: number }) => resolve(s.code)));
    const request = (id: string) => ({
      model_name: 'echo',
      id,
      inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
      raw_input_contents: [fp32(1)],
    });
    stream.write(request('before'));
    await waitFor(async () => answers.length === 1, 10_000, 'the first answer');
    delete KEYS['key-c'];
    stream.write(request('after'));
    stream.end();
    expect(await ended).toBe(status.OK);
    expect(answers.map((a) => [a.infer_response.id, a.error_message])).toEqual([
      ['before', ''],
      ['after', 'UNAUTHENTICATED: no valid bearer key'],
    ]);
  });

  it('refuses a stream without a valid key UNAUTHENTICATED', async () => {
    const stream = client.ModelStreamInfer(new Metadata());
    const error = await new Promise<ServiceError>((resolve) => stream.on('error', resolve));
    expect(error.code).toBe(status.UNAUTHENTICATED);
  });
});

describe('the OIP gRPC front end on a port in use', () => {
  it('fails to listen, saying so, rather than starting without its port', async () => {
    const first = new OipGrpcServer(new TestOipService(), {
      host: '127.0.0.1',
      port: 0,
      tls: undefined,
      maxMessageBytes: MAX_MESSAGE_BYTES,
      log: testLog,
    });
    const port = await first.listen();
    try {
      const second = new OipGrpcServer(new TestOipService(), {
        host: '127.0.0.1',
        port,
        tls: undefined,
        maxMessageBytes: MAX_MESSAGE_BYTES,
        log: testLog,
      });
      await expect(second.listen()).rejects.toThrow(/No address added out of total 1 resolved|EADDRINUSE/);
      await second.close(1_000);
    } finally {
      await first.close(1_000);
    }
  });
});

describe('the OIP gRPC front end over TLS, and its drain', () => {
  it('serves with the main listener certificate files, and drains calls in flight on close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oip-grpc-tls-'));
    const service = new TestOipService();
    try {
      const [certFile, keyFile] = [join(dir, 'server.crt'), join(dir, 'server.key')];
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1'].concat([
          '-addext',
          'subjectAltName=DNS:localhost',
          '-keyout',
          keyFile,
          '-out',
          certFile,
        ]),
        { stdio: 'ignore' },
      );
      const server = new OipGrpcServer(service, {
        host: '127.0.0.1',
        port: 0,
        tls: { certFile, keyFile },
        maxMessageBytes: MAX_MESSAGE_BYTES,
        log: testLog,
      });
      const port = await server.listen();
      const client = new GRPCInferenceService(
        `localhost:${port}`,
        credentials.createSsl(await readFile(certFile)),
      ) as unknown as InferenceClient;
      const plaintext = new GRPCInferenceService(
        `127.0.0.1:${port}`,
        credentials.createInsecure(),
      ) as unknown as InferenceClient;
      try {
        expect(await call(client, 'ServerLive', {})).toEqual({ live: true });
        expect((await refused(call(plaintext, 'ServerLive', {}))).code).toBe(status.UNAVAILABLE);

        // a unary call and a stream's request in flight when the drain starts
        const unary = call(
          client,
          'ModelInfer',
          {
            model_name: 'echo',
            id: 'held',
            parameters: { gate: { string_param: 'drain' } },
            inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
            raw_input_contents: [fp32(5)],
          },
          'key-a',
        );
        const metadata = new Metadata();
        metadata.set('authorization', 'Bearer key-a');
        const stream = client.ModelStreamInfer(metadata);
        const answers: any[] = [];
        stream.on('data', (answer) => answers.push(answer));
        const streamStatus = new Promise<number>((resolve) =>
          stream.on('status', (s: { code: number }) => resolve(s.code)),
        );
        stream.write({
          model_name: 'echo',
          id: 'streamed',
          parameters: { gate: { string_param: 'drain' } },
          inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }],
          raw_input_contents: [fp32(6)],
        });
        await waitFor(async () => service.gates.running === 2, 10_000, 'two calls held');
        const closed = server.close(10_000);
        service.gates.release('drain');
        expect((await unary).id).toBe('held');
        // the stream answers what it held and ends OK, though its client never ended it
        expect(await streamStatus).toBe(status.OK);
        expect(answers.map((a) => a.infer_response.id)).toEqual(['streamed']);
        await closed;
        const after = new GRPCInferenceService(
          `localhost:${port}`,
          credentials.createSsl(await readFile(certFile)),
        ) as unknown as InferenceClient;
        expect((await refused(call(after, 'ServerLive', {}))).code).toBe(status.UNAVAILABLE);
        after.close();
      } finally {
        client.close();
        plaintext.close();
        await server.close(1_000);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
