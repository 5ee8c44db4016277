// npm run bench -- batching [options]: the dynamic batcher off against on, in
// one run, on the same machine, model and image, plus the inference core's
// ceilings and an overload run.
//   1. model limit     ONNX Runtime run() at batch 1 on prepared tensors, W threads
//   2. pipeline limit  the engine in process (pipeline workers, batcher, instances), no HTTP,
//                      batching off and on
//   3. server          two servers, MAX_BATCH_SIZE=1 and =8, measured alternately at each
//                      client count: throughput, p99 and the mean batch size from /metrics
//   4. overload        the batching server at 8x the clients of its capacity figure, every
//                      client retrying at once when refused or disconnected
// Every figure is the median of --reps repetitions, with min and max.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GPU_INSTANCES_PER_DEVICE } from '../src/inference/versions/loaded-model.js';
import { ROOT, waitFor, type TestServer } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { benchImage } from './images.js';
import {
  executionProviderOption,
  measureModelLimit,
  measurePipelineLimit,
  multipartBody,
  type PipelineLimit,
} from './limits.js';
import { buildRequest, runLoad, type LoadResult } from './load-generator.js';
import { DEFAULT_MODELS, modelDirectory } from './models.js';
import { gpuName, stat, type Stat } from './report.js';

const HELP = `Usage: npm run bench -- batching [options]

  --model <m>          demo, yolov8n (exported on first use: needs python3-torch) or a model directory;
                       repeatable (default: ${DEFAULT_MODELS.join(' and ')})
  --image <spec>       format-WxH (default: jpeg-1280x720)
  --concurrency <list> client counts (default: 1,16,64)
  --batch <n>          MAX_BATCH_SIZE of the batching server (default: 8)
  --duration <s>       measured seconds per figure (default: 5)
  --warmup <s>         unmeasured seconds before each figure (default: 1)
  --reps <n>           repetitions; figures are medians (default: 3)
  --ep <p>             execution provider: cpu, cuda, tensorrt or webgpu (default: cpu)
  --workers <n>        pipeline workers (default: one per core)
  --instances <n>      instances per version (default: the server's, two per GPU or up to 4 on CPU)
  --model-batches <l>  batch sizes of the model limit (default: 1 on CPU, 1 and --batch on a GPU)
  --compare-rewrite    also the model limits of the model as it is (GRAPH_REWRITE=false: float32 in,
                       the whole head out) beside the rewritten one's
  --graph-rewrite <b>  true | false: run the model rewritten (the servers' GRAPH_REWRITE; default true)
  --precision <p>      fp32 | fp16: GPU instances' precision (the servers' GPU_PRECISION; default fp32)
  --out <file>         report file under bench/results (default: batching.md)
`;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'batching'),
  options: {
    model: { type: 'string', multiple: true },
    image: { type: 'string', default: 'jpeg-1280x720' },
    concurrency: { type: 'string', default: '1,16,64' },
    batch: { type: 'string', default: '8' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    reps: { type: 'string', default: '3' },
    ep: { type: 'string', default: 'cpu' },
    workers: { type: 'string' },
    instances: { type: 'string' },
    out: { type: 'string', default: 'batching.md' },
    'model-batches': { type: 'string' },
    'compare-rewrite': { type: 'boolean', default: false },
    'graph-rewrite': { type: 'string', default: 'true' },
    precision: { type: 'string', default: 'fp32' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const models = values.model ?? DEFAULT_MODELS;
const levels = values.concurrency.split(',').map(Number);
const batchSize = Number(values.batch);
const durationMs = Number(values.duration) * 1000;
const warmupMs = Number(values.warmup) * 1000;
const reps = Number(values.reps);
const ep = executionProviderOption(values.ep);
const workers = Number(values.workers ?? cpus().length);
const instances = values.instances === undefined ? undefined : Number(values.instances);
const capacityLevel = levels.includes(16) ? 16 : levels[levels.length - 1]!;
const graphRewrite = values['graph-rewrite'] !== 'false';
if (values.precision !== 'fp32' && values.precision !== 'fp16') throw new Error('--precision must be fp32 or fp16');
const precision: 'fp32' | 'fp16' = values.precision;
const modelBatches = values['model-batches']?.split(',').map(Number) ?? (ep === 'cpu' ? [1] : [1, batchSize]);
const KEY = 'bench-key';
const VERSION = '01JDEM0DETECT0R00000000001'; // the demo directory's fixed id, whatever the model
const say = (text: string) => process.stderr.write(`[bench batching] ${text}\n`);

interface Mode {
  name: 'off' | 'on';
  maxBatchSize: number;
}
const MODES: Mode[] = [
  { name: 'off', maxBatchSize: 1 },
  { name: 'on', maxBatchSize: batchSize },
];

async function startInference(modelDir: string, mode: Mode): Promise<TestServer & { cleanup(): Promise<void> }> {
  const modelsDir = await mkdtemp(join(tmpdir(), 'bench-models-'));
  await symlink(modelDir, join(modelsDir, 'demo'));
  const server = await startBenchServer({
    modelsDir,
    env: {
      INFERENCE_API_KEY: KEY,
      WORKERS: String(workers),
      EXECUTION_PROVIDERS: ep,
      MAX_BATCH_SIZE: String(mode.maxBatchSize),
      GRAPH_REWRITE: String(graphRewrite),
      GPU_PRECISION: precision,
      ...(instances === undefined ? {} : { INSTANCE_COUNT: String(instances) }),
    },
  });
  const cleanup = async () => {
    await server.stop();
    await rm(server.dataDir, { recursive: true, force: true });
    await rm(modelsDir, { recursive: true, force: true });
  };
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the server to be ready',
  );
  return Object.assign(server, { cleanup });
}

async function batchTotals(server: TestServer): Promise<{ images: number; runs: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const read = (suffix: string) =>
    Number(new RegExp(`inference_batch_size_${suffix}\\{model_version="${VERSION}"\\} (\\S+)`).exec(text)?.[1] ?? 0);
  return { images: read('sum'), runs: read('count') };
}

interface Figure {
  rps: Stat;
  p99: Stat;
  meanBatch: Stat;
  errors: number;
}

function figure(runs: Array<LoadResult & { meanBatch: number }>): Figure {
  return {
    rps: stat(runs.map((r) => r.rps)),
    p99: stat(runs.map((r) => r.p99)),
    meanBatch: stat(runs.map((r) => r.meanBatch)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function measure(server: TestServer, request: Buffer, connections: number, reconnect = false) {
  const before = await batchTotals(server);
  const result = await runLoad({
    host: '127.0.0.1',
    port: server.port,
    request,
    connections,
    durationMs,
    warmupMs,
    reconnect,
  });
  const after = await batchTotals(server);
  return { ...result, meanBatch: (after.images - before.images) / Math.max(1, after.runs - before.runs) };
}

const f = (s: Stat, digits = 1) => `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

async function benchModel(model: string, lines: string[]): Promise<void> {
  const modelDir = await modelDirectory(model);
  const image = await benchImage(values.image, join(ROOT, 'bench', '.cache'));
  const name = `${model}/${image.name}`;
  const limits = {
    modelDir,
    workers,
    instances,
    intraOpThreads: Math.max(1, Math.floor(cpus().length / workers)),
    provider: ep,
    warmupMs,
    durationMs,
    graphRewrite,
    precision,
  };

  say(`${name}: model and pipeline limits`);
  // The model limit at each batch size, rewritten (as the server runs it) and, with --compare-rewrite, as it is.
  const modelLimits = new Map<string, number[]>();
  const modelLimitOf = (batch: number, rewritten = graphRewrite) => modelLimits.get(`${batch}/${rewritten}`) ?? [];
  const pipeline: Record<Mode['name'], number[]> = { off: [], on: [] };
  const pipelineBatch: number[] = [];
  const alone: PipelineLimit['stages'][] = [];
  const limitBatches = [...new Set([1, ...(ep === 'cpu' ? [] : [batchSize]), ...modelBatches])];
  for (let rep = 0; rep < reps; rep++) {
    for (const batch of limitBatches) {
      for (const rewritten of values['compare-rewrite'] ? [true, false] : [graphRewrite]) {
        const figure = await measureModelLimit({ ...limits, graphRewrite: rewritten, maxBatchSize: batch });
        modelLimits.set(`${batch}/${rewritten}`, [...modelLimitOf(batch, rewritten), figure]);
      }
    }
    const modelRuns = modelLimitOf(1);
    for (const mode of MODES) {
      const result = await measurePipelineLimit({ ...limits, maxBatchSize: mode.maxBatchSize, image: image.bytes });
      pipeline[mode.name].push(result.imagesPerSecond);
      if (mode.name === 'on') pipelineBatch.push(result.meanBatchSize);
    }
    alone.push((await measurePipelineLimit({ ...limits, maxBatchSize: 1, image: image.bytes, inFlight: 1 })).stages);
    say(
      `  rep ${rep + 1}: model ${modelRuns.at(-1)!.toFixed(1)}/s, pipeline off ${pipeline.off.at(-1)!.toFixed(1)}/s, on ${pipeline.on.at(-1)!.toFixed(1)}/s`,
    );
  }
  const modelLimit = stat(modelLimitOf(1));
  // Batching on is compared with what the model gives at its batch size.
  const modelLimitOn = ep === 'cpu' ? modelLimit : stat(modelLimitOf(batchSize));
  const modelLimitLines = modelBatches.map((batch) => {
    const rewritten = stat(modelLimitOf(batch, true).length ? modelLimitOf(batch, true) : modelLimitOf(batch));
    const plain = modelLimitOf(batch, false);
    if (!values['compare-rewrite']) return `  - batch ${batch}: **${f(stat(modelLimitOf(batch)))} images/s**`;
    const asIs = stat(plain);
    return `  - batch ${batch}: rewritten (uint8 in, candidates out) **${f(rewritten)} images/s**; as it is (float32 in, the whole head out) ${f(asIs)} images/s: **${(rewritten.median / asIs.median).toFixed(2)}×**, ${(100 * (1 - asIs.median / rewritten.median)).toFixed(0)}% of an unrewritten run's time went to what the rewrite removes`;
  });

  say(`${name}: servers with batching off and on, measured alternately`);
  const servers = await Promise.all(MODES.map((mode) => startInference(modelDir, mode)));
  const runs = new Map<string, Array<LoadResult & { meanBatch: number }>>();
  const overloadRuns: Array<LoadResult & { meanBatch: number }> = [];
  try {
    const { body, contentType } = multipartBody(image.bytes);
    const request = buildRequest(
      'POST',
      `/v1/models/${VERSION}/predict`,
      { 'Content-Type': contentType, Authorization: `Bearer ${KEY}` },
      body,
    );
    for (let rep = 0; rep < reps; rep++) {
      for (const connections of levels) {
        for (const [i, mode] of MODES.entries()) {
          const result = await measure(servers[i]!, request, connections);
          runs.set(`${mode.name}/${connections}`, [...(runs.get(`${mode.name}/${connections}`) ?? []), result]);
          say(
            `  batching ${mode.name} c=${connections} rep ${rep + 1}: ${result.rps.toFixed(1)} req/s p99 ${result.p99.toFixed(1)} ms batch ${result.meanBatch.toFixed(2)}`,
          );
        }
      }
      const overload = await measure(servers[1]!, request, capacityLevel * 8, true);
      overloadRuns.push(overload);
      say(
        `  overload c=${capacityLevel * 8} rep ${rep + 1}: ${overload.rps.toFixed(1)} req/s, refused or dropped ${overload.errors}`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.cleanup()));
  }

  const pipelineOn = stat(pipeline.on);
  lines.push(
    `## ${name}`,
    '',
    ep === 'cpu'
      ? `- model limit (ORT run() at batch 1, ${workers} threads): **${f(modelLimit)} images/s**`
      : `- model limit (ORT run() on ${instances ?? GPU_INSTANCES_PER_DEVICE} ${ep} session(s), one thread each): batch 1 **${f(modelLimit)} images/s**, batch ${batchSize} **${f(modelLimitOn)} images/s**`,
    `- model limit by batch size (ORT run() only${graphRewrite ? ', the rewritten model' : ', GRAPH_REWRITE=false'}${precision === 'fp16' ? ', fp16' : ''}):`,
    ...modelLimitLines,
    `- pipeline limit, batching off: **${f(stat(pipeline.off))} images/s**; on (max ${batchSize}): **${f(pipelineOn)} images/s**, mean batch ${f(stat(pipelineBatch), 2)}`,
    `- pipeline ÷ model limit: off **${(stat(pipeline.off).median / modelLimit.median).toFixed(2)}**, on **${(pipelineOn.median / modelLimitOn.median).toFixed(2)}**${ep === 'cpu' ? '' : ` (on: against batch ${batchSize})`}`,
    ...stageLines(alone, modelLimit.median),
    '',
    '| batching | clients | req/s | p99 ms | mean batch | errors |',
    '|---|---|---|---|---|---|',
  );
  for (const connections of levels) {
    for (const mode of MODES) {
      const fig = figure(runs.get(`${mode.name}/${connections}`)!);
      lines.push(
        `| ${mode.name} | ${connections} | ${f(fig.rps)} | ${f(fig.p99)} | ${f(fig.meanBatch, 2)} | ${fig.errors} |`,
      );
    }
  }
  const capacity = figure(runs.get(`on/${capacityLevel}`)!).rps.median;
  const over = figure(overloadRuns);
  const pipelineRatio = figure(runs.get(`on/${capacityLevel}`)!).rps.median / pipelineOn.median;
  lines.push(
    '',
    `- server ÷ pipeline limit (batching on, ${capacityLevel} clients): **${pipelineRatio.toFixed(2)}**`,
    `- overload: ${capacityLevel * 8} clients retrying at once: **${f(over.rps)} req/s** successful = **${(over.rps.median / capacity).toFixed(2)}** × the ${capacityLevel}-client capacity (${capacity.toFixed(1)} req/s); p99 ${f(over.p99)} ms; refused or dropped: ${over.errors}`,
    '',
  );
}

/**
 * Each stage's cost for one image alone and, on CPU, the ceiling it puts on
 * pipeline ÷ model limit: the model limit already keeps every core busy, so
 * the pipeline's decode, preprocess and postprocess take cores from it even
 * before any hand-off between threads costs anything.
 */
function stageLines(alone: PipelineLimit['stages'][], modelLimit: number): string[] {
  const ms = (stage: keyof PipelineLimit['stages']) => stat(alone.map((a) => a[stage])).median;
  const around = ms('decodeMs') + ms('preprocessMs') + ms('postprocessMs');
  const lines = [
    `- one image alone (one request in flight, batching off): decode ${ms('decodeMs').toFixed(2)} ms, preprocess ${ms('preprocessMs').toFixed(2)} ms, inference ${ms('inferenceMs').toFixed(2)} ms, postprocess ${ms('postprocessMs').toFixed(2)} ms`,
  ];
  if (ep !== 'cpu') return lines;
  const modelCoreMs = (cpus().length * 1000) / modelLimit;
  lines.push(
    `- ceiling of pipeline ÷ model limit on these ${cpus().length} cores: the model limit spends ${modelCoreMs.toFixed(2)} core-ms per image, the stages around it ${around.toFixed(2)} ms more, so at most **${(modelCoreMs / (modelCoreMs + around)).toFixed(2)}** with hand-offs free`,
  );
  return lines;
}

/** The GPUs nvidia-smi reports, for the report's machine line. */
async function main(): Promise<void> {
  const lines = [
    `# Dynamic batching ${new Date().toISOString()}`,
    '',
    `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores${ep === 'cpu' ? '' : `, ${gpuName()}`}, execution provider ${ep}, ${workers} pipeline workers, ${instances ?? "the server's default"} instances per version`,
    '',
    'Figures are medians of several repetitions with (min–max). Servers with batching off (MAX_BATCH_SIZE=1) and on run side by side and are measured alternately.',
    '',
  ];
  for (const model of models) await benchModel(model, lines);
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, values.out), lines.join('\n'));
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
