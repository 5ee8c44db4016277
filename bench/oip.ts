// npm run bench -- oip [--clients 16,64] [--duration 10] [--warmup 2] [--streams 4] [--reps 3]
//   [--ep cpu|cuda|tensorrt|webgpu] [--out oip.md] [--quick]
// The Open Inference Protocol's ways in against /v1 predict, on one server,
// the bundled demo model and samples/scene.jpg: predict (multipart), OIP
// REST with the image as a base64 BYTES element in JSON, OIP REST with it as
// binary data (Triton's binary tensor extension), gRPC ModelInfer, and gRPC
// ModelStreamInfer; then the model's own FP32 tensor through gRPC (on a
// server running the model as exported) against ONNX Runtime's run() alone.
// Each runs closed loop at each client count: HTTP through
// the raw-socket load generator (one keep-alive connection a client), gRPC
// through its counterpart over node:http2 (grpc-load.ts: messages encoded
// once from the project's proto; the clients share a few HTTP/2 connections,
// as a real client multiplexes; streaming keeps its clients' requests in
// flight on --streams streams). The figures of one workload are
// comparable with another's because the same pipeline sits behind them all:
// the protocol's cost is what separates them. Writes
// bench/results/oip.md (not with --quick). On a GPU (--ep), the servers batch up
// to 8 images a run and the model limit is the provider's sessions at batch 8.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadInferenceService } from '../src/grpc/inference-proto.js';
import { joinBytesElements } from '../src/grpc/oip-messages.js';
import { readModelConfig } from '../src/inference/versions/model-config.js';
import { freePort, removeDir, ROOT, waitFor } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { executionProviderOption, measureModelLimit, multipartBody } from './limits.js';
import { buildRequest, runLoad } from './load-generator.js';
import { GrpcLoadClient, grpcFrame, idField } from './grpc-load.js';
import { sampleCpu, thisProcessCpuMs } from './process-cpu.js';
import { gpuName, stat } from './report.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'oip'),
  options: {
    clients: { type: 'string', default: '16,64' },
    duration: { type: 'string' },
    warmup: { type: 'string', default: '2' },
    streams: { type: 'string', default: '4' },
    reps: { type: 'string' },
    ep: { type: 'string', default: 'cpu' },
    out: { type: 'string', default: 'oip.md' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- oip [options]

  --clients <list>  concurrent clients, one figure each (default: 16,64)
  --duration <s>    measured seconds per figure (default: 10; --quick: 3)
  --warmup <s>      unmeasured seconds before each figure (default: 2)
  --streams <n>     ModelStreamInfer streams the clients share (default: 4)
  --reps <n>        repetitions, the workloads in turn; figures are medians (default: 3; --quick: 1)
  --ep <p>          execution provider of the servers and the model limit: cpu, cuda, tensorrt or webgpu (default: cpu)
  --out <file>      the report's name under bench/results (default: oip.md)
  --quick           a smoke run; its report is not kept
`);
  process.exit(0);
}
const clientCounts = values.clients.split(',').map(Number);
const durationMs = Number(values.duration ?? (values.quick ? 3 : 10)) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const streamCount = Number(values.streams);
const reps = Number(values.reps ?? (values.quick ? 1 : 3));
const ep = executionProviderOption(values.ep);
/** A GPU instance batches (as bench pipeline and batching run it); a CPU one takes the server's default, 1. */
const maxBatchSize = ep === 'cpu' ? 1 : 8;
/** What both servers run on, beside their own settings. */
const providerEnv = { EXECUTION_PROVIDERS: ep, MAX_BATCH_SIZE: String(maxBatchSize) };
const KEY = 'bench-oip-key';
const MODEL = 'demo';
const DEMO_VERSION = '01JDEM0DETECT0R00000000001';
/** HTTP/2 channels the gRPC clients share: one per 16 clients, as a client multiplexes its calls. */
const CLIENTS_PER_CHANNEL = 16;
const say = (text: string) => process.stderr.write(`[bench oip] ${text}\n`);

const image = readFileSync(join(ROOT, 'samples', 'scene.jpg'));

/** One workload's figures at one client count. */
interface Figure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** successful answers over the whole run, warm-up included: what the CPU figures are divided by */
  completed: number;
  /** the server process's CPU (all its threads) per answer, ms */
  serverCpuMs: number;
  /** this process's CPU (the clients: the load generator, grpc-js) per answer, ms */
  clientCpuMs: number;
}

/** A run's own figures, before its CPU is attached (measured). */
type RunFigure = Omit<Figure, 'serverCpuMs' | 'clientCpuMs'>;

// --- the HTTP requests, built once ---------------------------------------------------------------
const multipart = multipartBody(image);
const predictRequest = buildRequest(
  'POST',
  `/v1/models/${DEMO_VERSION}/predict`,
  { Authorization: `Bearer ${KEY}`, 'Content-Type': multipart.contentType },
  multipart.body,
);
const inferPath = `/v2/models/${MODEL}/infer`;
const restJsonRequest = buildRequest(
  'POST',
  inferPath,
  { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
  Buffer.from(
    JSON.stringify({
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [{ b64: image.toString('base64') }] }],
      outputs: [{ name: 'detections' }],
    }),
  ),
);
// The binary extension: the JSON header, then the input's bytes (a BYTES element: its 4-byte length, then it).
const binaryData = joinBytesElements([image]);
const binaryHeader = Buffer.from(
  JSON.stringify({
    inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], parameters: { binary_data_size: binaryData.byteLength } }],
    outputs: [{ name: 'detections', parameters: { binary_data: true } }],
  }),
);
const restBinaryRequest = buildRequest(
  'POST',
  inferPath,
  {
    Authorization: `Bearer ${KEY}`,
    'Content-Type': 'application/octet-stream',
    'Inference-Header-Content-Length': String(binaryHeader.byteLength),
  },
  Buffer.concat([binaryHeader, binaryData]),
);

// --- gRPC ----------------------------------------------------------------------------------------
const service = loadInferenceService();
/** A request message as the project's proto encodes it, in gRPC's framing: encoded once, sent by every call. */
const encodeRequest = (request: object): Buffer => service.ModelInfer!.requestSerialize(request);
const grpcRequest = encodeRequest({
  model_name: MODEL,
  inputs: [{ name: 'image', datatype: 'BYTES', shape: [1] }],
  outputs: [{ name: 'detections' }],
  raw_input_contents: [binaryData],
});

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Latencies of the calls that completed inside the measured window, and the errors there. */
class Window {
  readonly latencies: number[] = [];
  errors = 0;
  completed = 0;
  readonly measureFrom = performance.now() + warmupMs;
  readonly end = this.measureFrom + durationMs;

  done(sentAt: number, ok: boolean): void {
    const now = performance.now();
    if (ok) this.completed++;
    if (now < this.measureFrom || now > this.end) return;
    if (ok) this.latencies.push(now - sentAt);
    else this.errors++;
  }

  get open(): boolean {
    return performance.now() < this.end;
  }

  figure(): RunFigure {
    const sorted = Float64Array.from(this.latencies).sort();
    return {
      rps: this.latencies.length / (durationMs / 1000),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      errors: this.errors,
      completed: this.completed,
    };
  }
}

function grpcClients(address: string, clients: number): GrpcLoadClient[] {
  const channels = Math.max(1, Math.ceil(clients / CLIENTS_PER_CHANNEL));
  return Array.from({ length: channels }, () => new GrpcLoadClient(address, KEY));
}

/** `clients` closed loops of unary ModelInfer calls of `request` (encoded). */
async function grpcUnary(address: string, clients: number, request: Buffer = grpcRequest): Promise<RunFigure> {
  const channels = grpcClients(address, clients);
  const framed = grpcFrame(request);
  const window = new Window();
  let firstError: string | null = null;
  const loop = async (client: GrpcLoadClient) => {
    while (window.open) {
      const sentAt = performance.now();
      const error = await client.unary(framed);
      firstError ??= error;
      window.done(sentAt, error === null);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(channels[i % channels.length]!)));
  for (const c of channels) c.close();
  if (firstError) say(`ModelInfer: ${firstError}`);
  return window.figure();
}

/** `clients` requests kept in flight over `streamCount` ModelStreamInfer streams, answered in order of completion. */
async function grpcStreaming(address: string, clients: number): Promise<RunFigure> {
  const channels = grpcClients(address, clients);
  const window = new Window();
  let firstError: string | null = null;
  const streams = Math.min(streamCount, clients);
  await Promise.all(
    Array.from({ length: streams }, async (_, s) => {
      const inFlight = Math.floor(clients / streams) + (s < clients % streams ? 1 : 0);
      const sentAt = new Map<string, number>();
      let next = 0;
      const call = channels[s % channels.length]!.stream((answer) => {
        const started = sentAt.get(answer.id);
        sentAt.delete(answer.id);
        if (answer.error) firstError ??= answer.error;
        if (started !== undefined) window.done(started, !answer.error);
        if (window.open) send();
        else if (sentAt.size === 0) call.end();
      });
      const send = () => {
        const id = `${s}-${next++}`;
        sentAt.set(id, performance.now());
        call.send(grpcFrame(Buffer.concat([grpcRequest, idField(id)])));
      };
      for (let i = 0; i < inFlight; i++) send();
      firstError ??= await call.closed;
    }),
  );
  for (const c of channels) c.close();
  if (firstError) say(`ModelStreamInfer: ${firstError}`);
  return window.figure();
}

/** Each figure's median over the repetitions (errors: their sum). */
function medianFigure(figures: Figure[]): Figure {
  const median = (pick: (f: Figure) => number) => stat(figures.map(pick)).median;
  return {
    rps: median((f) => f.rps),
    p50: median((f) => f.p50),
    p99: median((f) => f.p99),
    errors: figures.reduce((sum, f) => sum + f.errors, 0),
    completed: figures.reduce((sum, f) => sum + f.completed, 0),
    serverCpuMs: median((f) => f.serverCpuMs),
    clientCpuMs: median((f) => f.clientCpuMs),
  };
}

/** `run`, with the server's and this process's CPU per answer over it. */
async function measured(serverPid: number, run: () => Promise<RunFigure>): Promise<Figure> {
  const [server, client] = [sampleCpu(serverPid)?.server ?? Number.NaN, thisProcessCpuMs()];
  const figure = await run();
  const per = (ms: number) => ms / Math.max(1, figure.completed);
  return {
    ...figure,
    serverCpuMs: per(((sampleCpu(serverPid)?.server ?? Number.NaN) - server) * 1000),
    clientCpuMs: per(thisProcessCpuMs() - client),
  };
}

async function http(port: number, request: Buffer, clients: number): Promise<RunFigure> {
  const run = await runLoad({ host: '127.0.0.1', port, request, connections: clients, durationMs, warmupMs });
  if (run.errors) say(`${run.errors} errors: ${JSON.stringify(run.statuses)}`);
  return { rps: run.rps, p50: run.p50, p99: run.p99, errors: run.errors, completed: run.succeededTotal };
}

const WORKLOADS = [
  '/v1 predict (multipart)',
  'OIP REST, JSON (image as base64 BYTES)',
  'OIP REST, binary extension',
  'gRPC ModelInfer',
  'gRPC ModelStreamInfer',
] as const;
type Workload = (typeof WORKLOADS)[number];

const [oipHttpPort, oipGrpcPort] = [await freePort(), await freePort()];
const server = await startBenchServer({
  env: {
    MODELS_DIR: `${ROOT}/models`,
    INFERENCE_API_KEY: KEY,
    QUEUE_SIZE: '1024',
    ...providerEnv,
    OIP_HTTP_PORT: String(oipHttpPort),
    OIP_GRPC_PORT: String(oipGrpcPort),
  },
});
const results = new Map<number, Map<Workload, Figure>>();
try {
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the server to be ready',
  );
  const grpcAddress = `127.0.0.1:${oipGrpcPort}`;
  const run: Record<Workload, (clients: number) => Promise<RunFigure>> = {
    '/v1 predict (multipart)': (c) => http(server.port, predictRequest, c),
    'OIP REST, JSON (image as base64 BYTES)': (c) => http(oipHttpPort, restJsonRequest, c),
    'OIP REST, binary extension': (c) => http(oipHttpPort, restBinaryRequest, c),
    'gRPC ModelInfer': (c) => grpcUnary(grpcAddress, c),
    'gRPC ModelStreamInfer': (c) => grpcStreaming(grpcAddress, c),
  };
  for (const clients of clientCounts) {
    const runs = new Map<Workload, Figure[]>(WORKLOADS.map((w) => [w, []]));
    for (let rep = 0; rep < reps; rep++) {
      // Each repetition starts one workload later, so the machine's drift falls on all alike.
      for (let i = 0; i < WORKLOADS.length; i++) {
        const workload = WORKLOADS[(i + rep) % WORKLOADS.length]!;
        const figure = await measured(server.process.pid!, () => run[workload](clients));
        runs.get(workload)!.push(figure);
        say(`${clients} clients, ${workload}: ${figure.rps.toFixed(1)} req/s, p99 ${figure.p99.toFixed(1)} ms`);
      }
    }
    results.set(clients, new Map(WORKLOADS.map((w) => [w, medianFigure(runs.get(w)!)])));
  }
} finally {
  await server.stop();
  await removeDir(server.dataDir);
}

// Tensors in: the demo model's own FP32 input through gRPC, on a server that runs the model as exported
// (GRAPH_REWRITE=false: a rewritten session takes uint8 pixels and has no such input), against ONNX
// Runtime's run() alone on the same model, as many single-threaded sessions as the server has cores.
const demoDir = join(ROOT, 'models', 'demo');
const demo = await readModelConfig(demoDir);
const { width, height } = demo.input;
const tensorShape = demo.input.layout === 'NCHW' ? [1, 3, height, width] : [1, height, width, 3];
const tensorValues = Float32Array.from({ length: 3 * width * height }, (_, i) => ((i * 7919) % 1000) / 1000);
const tensorRequest = encodeRequest({
  model_name: MODEL,
  inputs: [{ name: demo.input.name, datatype: 'FP32', shape: tensorShape }],
  raw_input_contents: [Buffer.from(tensorValues.buffer)],
});
const tensorClients = clientCounts[0]!;
const tensorRuns: Figure[] = [];
const limitRuns: number[] = [];
const tensorPort = await freePort();
const plain = await startBenchServer({
  env: {
    MODELS_DIR: `${ROOT}/models`,
    INFERENCE_API_KEY: KEY,
    QUEUE_SIZE: '1024',
    ...providerEnv,
    GRAPH_REWRITE: 'false',
    OIP_HTTP_PORT: '0',
    OIP_GRPC_PORT: String(tensorPort),
  },
});
try {
  await waitFor(
    async () => (await fetch(`${plain.url}/v2/health/ready`)).status === 200,
    120_000,
    'the server to be ready',
  );
  for (let rep = 0; rep < reps; rep++) {
    const figure = await measured(plain.process.pid!, () =>
      grpcUnary(`127.0.0.1:${tensorPort}`, tensorClients, tensorRequest),
    );
    tensorRuns.push(figure);
    say(`${tensorClients} clients, tensors in: ${figure.rps.toFixed(1)} req/s, p99 ${figure.p99.toFixed(1)} ms`);
  }
} finally {
  await plain.stop();
  await removeDir(plain.dataDir);
}
for (let rep = 0; rep < reps; rep++) {
  const limit = await measureModelLimit({
    modelDir: demoDir,
    workers: cpus().length,
    intraOpThreads: 1,
    provider: ep,
    maxBatchSize,
    warmupMs,
    durationMs,
    graphRewrite: false,
  });
  limitRuns.push(limit);
  say(`model limit (as exported, batch ${maxBatchSize}): ${limit.toFixed(1)} images/s`);
}
const tensors = medianFigure(tensorRuns);
const modelLimit = stat(limitRuns).median;
/** CPU a run costs when run() alone keeps every core busy */
const modelCpuMs = (cpus().length * 1000) / modelLimit;

const lines = [
  '# The Open Inference Protocol against /v1 predict',
  '',
  `\`npm run bench -- oip${values.quick ? ' --quick' : ''}${ep === 'cpu' ? '' : ` --ep ${ep}`}\` on one server (${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores${ep === 'cpu' ? '' : `, ${gpuName()}, execution provider ${ep}, MAX_BATCH_SIZE=${maxBatchSize}`}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}): the demo model, samples/scene.jpg, closed loop, ${durationMs / 1000} s a figure after ${warmupMs / 1000} s of warm-up, medians of ${reps} runs taken in turn; gRPC clients share one HTTP/2 channel per ${CLIENTS_PER_CHANNEL}, streaming keeps them in flight on ${streamCount} streams.`,
  '',
  "The clients run in this process, on the server's machine: the CPU a client spends (the HTTP and gRPC load generators, each sending requests encoded once before the run) is CPU the server does not get, so beside throughput the table gives each way's server CPU per answer (the server's process, all threads), which is what the protocol costs the server.",
  '',
];
for (const [clients, row] of results) {
  const base = row.get('/v1 predict (multipart)')!.rps;
  lines.push(
    `## ${clients} clients`,
    '',
    '| way in | req/s | × predict | p50 ms | p99 ms | errors | server CPU ms/answer | × predict | client CPU ms/answer |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  const baseCpu = row.get('/v1 predict (multipart)')!.serverCpuMs;
  for (const [workload, f] of row)
    lines.push(
      `| ${workload} | ${f.rps.toFixed(1)} | ${(f.rps / base).toFixed(3)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.errors} | ${f.serverCpuMs.toFixed(2)} | ${(f.serverCpuMs / baseCpu).toFixed(3)} | ${f.clientCpuMs.toFixed(2)} |`,
    );
  lines.push('');
}
lines.push(
  `## Tensors in (${tensorClients} clients, gRPC, the model as exported)`,
  '',
  '| figure | req/s | × model limit | p50 ms | p99 ms | errors | CPU ms/answer: server | client |',
  '|---|---|---|---|---|---|---|---|',
  `| gRPC ModelInfer, FP32 [${tensorShape.join(', ')}] | ${tensors.rps.toFixed(1)} | ${(tensors.rps / modelLimit).toFixed(3)} | ${tensors.p50.toFixed(1)} | ${tensors.p99.toFixed(1)} | ${tensors.errors} | ${tensors.serverCpuMs.toFixed(2)} | ${tensors.clientCpuMs.toFixed(2)} |`,
  ep === 'cpu'
    ? `| model limit: ORT run() alone, ${cpus().length} single-threaded sessions | ${modelLimit.toFixed(1)} | 1.000 | | | | ${modelCpuMs.toFixed(2)} (the run alone) | |`
    : `| model limit: ORT run() alone, the server's ${ep} sessions at batch ${maxBatchSize} | ${modelLimit.toFixed(1)} | 1.000 | | | | | |`,
  '',
  ep !== 'cpu'
    ? `On ${ep} the model limit is the GPU's, not the cores': through the server each answer costs the server ${tensors.serverCpuMs.toFixed(2)} ms of CPU and its client ${tensors.clientCpuMs.toFixed(2)} ms (a ${(tensorValues.byteLength / 2 ** 20).toFixed(1)} MiB tensor sent, received and copied into its slot, the outputs back).`
    : `The model limit keeps all ${cpus().length} cores on run(), ${modelCpuMs.toFixed(2)} ms of CPU an image; through the server each answer costs the server ${tensors.serverCpuMs.toFixed(2)} ms and its client ${tensors.clientCpuMs.toFixed(2)} ms on the same cores (a ${(tensorValues.byteLength / 2 ** 20).toFixed(1)} MiB tensor sent, received and copied into its slot, the outputs back), so the host's ceiling for this figure is ${((cpus().length * 1000) / (tensors.serverCpuMs + tensors.clientCpuMs)).toFixed(0)} req/s, ${((cpus().length * 1000) / (tensors.serverCpuMs + tensors.clientCpuMs) / modelLimit).toFixed(2)} × the model limit; the server's own cost is ${(tensors.serverCpuMs - modelCpuMs).toFixed(2)} ms an answer above the run.`,
  '',
);
const report = `${lines.join('\n')}\n`;
process.stdout.write(report);
if (!values.quick) await writeFile(join(ROOT, 'bench', 'results', values.out), report);
