// npm run bench [-- options]: the server against its physical limits and a
// naive baseline, in one run, on the same machine, model and images.
//   1. model limit    ONNX Runtime run() on prepared tensors, W threads
//   2. pipeline limit the server's worker pipeline in process, no HTTP
//   3. server         end to end over loopback HTTP at several concurrencies
//   4. baseline       express + multer + sharp + ORT on the main thread
// Every figure is the median of --reps repetitions, with min and max.
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { maxBatchSizeOf, readModelConfig } from '../src/inference/versions/model-config.js';
import { ROOT, waitFor, type TestServer } from '../test/helpers/server.js';
import { startBenchServer } from './bench-server.js';
import { benchImage, type BenchImage } from './images.js';
import { executionProviderOption, measureModelLimit, measurePipelineLimit, multipartBody } from './limits.js';
import { measureGeneratorCeiling } from './generator-ceiling.js';
import { buildRequest, runLoad, type LoadResult } from './load-generator.js';
import { DEFAULT_MODELS, modelDirectory } from './models.js';
import { stat, writeReport, type LevelResult, type Report, type StageCosts } from './report.js';
import { subcommandsHelp } from './subcommands.js';

const HELP = `Usage: npm run bench [-- options]        the inference benchmark: the server against its model and pipeline limits and a naive baseline
${subcommandsHelp()}
Options of the inference benchmark:
  --model <m>          demo, yolov8n (exported on first use: needs python3-torch), dense (an 80-class
                       head whose anchors pass the threshold in thousands) or a model directory;
                       repeatable (default: ${DEFAULT_MODELS.join(' and ')})
  --images <list>      comma list of format-WxH (default: jpeg-640x480,jpeg-1920x1080,png-640x480,png-1920x1080)
  --concurrency <list> client counts for the server and the baseline (default: 1,4,16,64)
  --duration <s>       measured seconds per figure (default: 5)
  --warmup <s>         unmeasured seconds before each figure (default: 1)
  --reps <n>           repetitions; figures are medians (default: 3)
  --ep <p>             execution provider: cpu, cuda, tensorrt or webgpu (default: cpu)
  --workers <n>        server worker threads (default: one per core)
  --quick              a smoke run: demo model, jpeg-640x480, 1,4,16 clients, 3 s, 2 reps (< 3 min)
`;

const { values } = parseArgs({
  options: {
    model: { type: 'string', multiple: true },
    images: { type: 'string' },
    concurrency: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    reps: { type: 'string' },
    ep: { type: 'string', default: 'cpu' },
    workers: { type: 'string' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const quick = values.quick;
const models = values.model ?? (quick ? ['demo'] : DEFAULT_MODELS);
const imageSpecs = (
  values.images ?? (quick ? 'jpeg-640x480' : 'jpeg-640x480,jpeg-1920x1080,png-640x480,png-1920x1080')
).split(',');
const levels = (values.concurrency ?? (quick ? '1,4,16' : '1,4,16,64')).split(',').map(Number);
const durationMs = Number(values.duration ?? (quick ? 3 : 5)) * 1000;
const warmupMs = Number(values.warmup ?? 1) * 1000;
const reps = Number(values.reps ?? (quick ? 2 : 3));
const ep = executionProviderOption(values.ep);
const workers = Number(values.workers ?? cpus().length);
const intraOpThreads = Math.max(1, Math.floor(cpus().length / workers));
const ratioLevel = levels.includes(16) ? 16 : levels[levels.length - 1]!;
const CACHE = join(ROOT, 'bench', '.cache');
const KEY = 'bench-key';

const say = (text: string) => process.stderr.write(`[bench] ${text}\n`);

/** CPU seconds used so far by a process and all its threads. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ = 100 on Linux
}

async function loadWithCpu(
  pid: number,
  options: Parameters<typeof runLoad>[0],
): Promise<LoadResult & { cpuCores: number }> {
  const before = await cpuSeconds(pid);
  const started = Date.now();
  const result = await runLoad(options);
  const cores = ((await cpuSeconds(pid)) - before) / ((Date.now() - started) / 1000);
  return { ...result, cpuCores: cores };
}

function summarize(concurrency: number, runs: Array<LoadResult & { cpuCores: number }>): LevelResult {
  return {
    concurrency,
    rps: stat(runs.map((r) => r.rps)),
    p50: stat(runs.map((r) => r.p50)),
    p90: stat(runs.map((r) => r.p90)),
    p99: stat(runs.map((r) => r.p99)),
    cpuCores: stat(runs.map((r) => r.cpuCores)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    errorStatuses: runs.reduce<Record<string, number>>((sum, r) => {
      for (const [status, n] of Object.entries(r.statuses))
        if (Number(status) >= 400) sum[status] = (sum[status] ?? 0) + n;
      return sum;
    }, {}),
  };
}

interface Target {
  port: number;
  pid: number;
  path: string;
  stop(): Promise<unknown>;
}

async function startInferenceServer(modelDir: string): Promise<Target & { server: TestServer }> {
  const modelsDir = await mkdtemp(join(tmpdir(), 'bench-models-'));
  await symlink(modelDir, join(modelsDir, 'demo')); // the fixed demo id, whatever the model
  const server = await startBenchServer({
    modelsDir,
    env: { INFERENCE_API_KEY: KEY, WORKERS: String(workers), EXECUTION_PROVIDERS: ep, QUEUE_SIZE: '1024' },
  });
  const stop = async () => {
    await server.stop();
    await rm(server.dataDir, { recursive: true, force: true });
    await rm(modelsDir, { recursive: true, force: true });
  };
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the server to be ready',
  ).catch(async (error: Error) => {
    await stop();
    throw new Error(`${error.message}; server log:\n${server.stderr()}`);
  });
  return {
    server,
    port: server.port,
    pid: server.process.pid!,
    path: '/v1/models/01JDEM0DETECT0R00000000001/predict',
    stop,
  };
}

async function startBaseline(modelDir: string): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/baseline/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', MODEL_DIR: modelDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const match = /baseline listening port=(\d+)/.exec(err);
      if (match) resolvePort(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`baseline exited with ${code}: ${err}`)));
  });
  return {
    port,
    pid: child.pid!,
    path: '/v1/models/baseline/predict',
    stop: () => new Promise((r) => (child.kill('SIGTERM'), child.on('exit', r))),
  };
}

async function stageCosts(server: TestServer): Promise<StageCosts> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const mean = (stage: string) => {
    const sum = Number(
      new RegExp(`inference_stage_duration_seconds_sum\\{[^}]*stage="${stage}"\\} (\\S+)`).exec(text)?.[1],
    );
    const count = Number(
      new RegExp(`inference_stage_duration_seconds_count\\{[^}]*stage="${stage}"\\} (\\S+)`).exec(text)?.[1],
    );
    return (sum / count) * 1000;
  };
  return {
    decodeMs: mean('decode'),
    preprocessMs: mean('preprocess'),
    inferenceMs: mean('inference'),
    postprocessMs: mean('postprocess'),
  };
}

async function measureLevels(
  target: Target,
  image: BenchImage,
  authorization: string | undefined,
): Promise<Map<number, Array<LoadResult & { cpuCores: number }>>> {
  const { body, contentType } = multipartBody(image.bytes);
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (authorization) headers.Authorization = authorization;
  const request = buildRequest('POST', target.path, headers, body);
  const runs = new Map<number, Array<LoadResult & { cpuCores: number }>>();
  for (let rep = 0; rep < reps; rep++) {
    for (const connections of levels) {
      const result = await loadWithCpu(target.pid, {
        host: '127.0.0.1',
        port: target.port,
        request,
        connections,
        durationMs,
        warmupMs,
      });
      say(
        `  c=${connections} rep ${rep + 1}: ${result.rps.toFixed(1)} req/s p99 ${result.p99.toFixed(1)} ms errors ${result.errors}`,
      );
      runs.set(connections, [...(runs.get(connections) ?? []), result]);
    }
  }
  return runs;
}

async function main(): Promise<void> {
  const ortVersion = JSON.parse(
    await readFile(join(ROOT, 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8'),
  ).version;
  const report: Report = {
    created: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      onnxruntime: ortVersion,
      executionProvider: ep,
      workers,
      intraOpThreads,
    },
    trivial_endpoint: { endpoint: 'GET /v2/health/live', connections: 64, rps: stat([NaN]) },
    generator_ceiling: { connections: 64, rps: stat([NaN]) },
    workloads: [],
    model_limit: {},
    pipeline_limit: {},
    server: {},
    baseline: {},
    stages: {},
    ratios: {},
  };

  const images = await Promise.all(imageSpecs.map((spec) => benchImage(spec, CACHE)));
  const modelDirs = new Map(
    await Promise.all(models.map(async (model) => [model, await modelDirectory(model)] as const)),
  );
  for (const [model, modelDir] of modelDirs) {
    const server = await startInferenceServer(modelDir);
    try {
      if (Number.isNaN(report.trivial_endpoint.rps.median)) {
        say("measuring the server's trivial endpoint and the load generator's own ceiling ...");
        const request = buildRequest('GET', '/v2/health/live', {});
        const trivial = [];
        const ceiling = [];
        for (let rep = 0; rep < reps; rep++) {
          trivial.push(
            (
              await runLoad({
                host: '127.0.0.1',
                port: server.port,
                request,
                connections: 64,
                durationMs: 3000,
                warmupMs: 500,
              })
            ).rps,
          );
          ceiling.push(await measureGeneratorCeiling({ connections: 64, durationMs: 3000, warmupMs: 500 }));
        }
        report.trivial_endpoint.rps = stat(trivial);
        report.generator_ceiling.rps = stat(ceiling);
        say(
          `  trivial endpoint ${report.trivial_endpoint.rps.median.toFixed(0)} req/s, generator ceiling ${report.generator_ceiling.rps.median.toFixed(0)} req/s`,
        );
      }
      for (const image of images) {
        const name = `${model}/${image.name}`;
        report.workloads.push(name);
        say(`${name}: server end to end`);
        const runs = await measureLevels(server, image, `Bearer ${KEY}`);
        report.server[name] = levels.map((c) => summarize(c, runs.get(c)!));
        report.stages[name] = await stageCosts(server.server);
      }
    } finally {
      await server.stop();
    }

    for (const image of images) {
      const name = `${model}/${image.name}`;
      // The batch the server runs by default, so that server and pipeline limit compare like with like.
      const maxBatchSize = maxBatchSizeOf(await readModelConfig(modelDir), 1); // the server's default MAX_BATCH_SIZE
      const limits = { modelDir, workers, intraOpThreads, provider: ep, maxBatchSize, warmupMs, durationMs };
      const modelRuns: number[] = [];
      const pipelineRuns: number[] = [];
      for (let rep = 0; rep < reps; rep++) {
        modelRuns.push(await measureModelLimit(limits));
        pipelineRuns.push((await measurePipelineLimit({ ...limits, image: image.bytes })).imagesPerSecond);
        say(
          `${name} rep ${rep + 1}: model limit ${modelRuns.at(-1)!.toFixed(1)}/s, pipeline limit ${pipelineRuns.at(-1)!.toFixed(1)}/s`,
        );
      }
      report.model_limit[name] = stat(modelRuns);
      report.pipeline_limit[name] = stat(pipelineRuns);
    }

    const baseline = await startBaseline(modelDir);
    try {
      for (const image of images) {
        const name = `${model}/${image.name}`;
        say(`${name}: naive baseline`);
        const runs = await measureLevels(baseline, image, undefined);
        report.baseline[name] = levels.map((c) => summarize(c, runs.get(c)!));
      }
    } finally {
      await baseline.stop();
    }

    for (const image of images) {
      const name = `${model}/${image.name}`;
      const server = report.server[name]!.find((l) => l.concurrency === ratioLevel)!;
      const base = report.baseline[name]!.find((l) => l.concurrency === ratioLevel)!;
      report.ratios[name] = {
        concurrency: ratioLevel,
        server_vs_pipeline: server.rps.median / report.pipeline_limit[name]!.median,
        server_vs_baseline: server.rps.median / base.rps.median,
        server_p99_ms: server.p99.median,
        baseline_p99_ms: base.p99.median,
      };
    }
  }

  // Every run is kept in bench/results/runs/ (not tracked); a full run
  // becomes latest.* (tracked, cited by docs/BENCHMARKS.md).
  const dir = join(ROOT, 'bench', 'results');
  await mkdir(join(dir, 'runs'), { recursive: true });
  const stamp = report.created.replace(/[:.]/g, '-');
  const path = await writeReport(report, join(dir, 'runs', `${quick ? 'quick-' : ''}${stamp}`));
  if (!quick) {
    for (const ext of ['json', 'svg']) await copyFile(path.replace(/json$/, ext), join(dir, `latest.${ext}`));
    const md = await readFile(path.replace(/json$/, 'md'), 'utf8');
    await writeFile(join(dir, 'latest.md'), md.replace(`(${stamp}.svg)`, '(latest.svg)'));
  }
  process.stdout.write((await readFile(path.replace(/json$/, 'md'), 'utf8')) + '\n');
  process.stdout.write(`${path}\n`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
