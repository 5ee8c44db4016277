// npm run bench -- pipeline [--clients 16] [--duration 15] [--warmup 3] [--scenes 4] [--max-batch-size n]
//   [--ep cpu|cuda|tensorrt|webgpu] [--out pipeline.md] [--quick]
// Child stages against the sum of their parts, in one run on one server:
// the bundled demo pipeline (the demo detector with the colour classifier
// as its stage: each detection cropped from the once-decoded image by the
// addon and run through the classifier, the crops of an image as one batch)
// against the same work done as separate predicts: the detector alone on
// the same images, then the classifier alone on the same crops, cut here as
// the stage cuts them (crops.ts cropRect with the stage's padding, minSize
// and maxPerImage from models/demo-pipeline/model.json) and sent as JPEGs
// (quality 90), one crop a request. Each figure is a closed loop of N
// clients (keep-alive connections, each sending one image, the images dealt
// to the connections in turn) after a warm-up. The separate way's images a
// second are 1 / (1/parent + n/child), n the crops of an image (the
// detections with children in the pipeline's answer, averaged over the
// set); the figure is the pipeline's req/s over that (target: 1.5 x). Two
// image sets: samples/scene.jpg, and demo scenes fitted to 1280x720 (sharp,
// cover, JPEG quality 90). Per stage, from /metrics (the
// inference_stage_duration_seconds histogram of each version, its sums and
// counts before and after the measured window): what a request spent in
// each stage, and the server's CPU (its process and threads, /proc) per
// image. Stage times are wall times in the server's threads: with N clients
// on few cores they include waiting for a core.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { EVAL_SEED_START, makeScene, renderScene } from '../scripts/demo-model/scenes.js';
import { boxOf, type CropRect, cropRect } from '../src/inference/pipeline/crops.js';
import type { Answer } from '../src/inference/pipeline/detections.js';
import { readModelConfig, type Stage } from '../src/inference/versions/model-config.js';
import { removeDir, ROOT, type TestServer, waitFor } from '../test/helpers/server.js';
import { startDemoServer } from './bench-server.js';
import { executionProviderOption, multipartBody } from './limits.js';
import { buildRequest, type LoadResult, runLoad } from './load-generator.js';
import { sampleCpu } from './process-cpu.js';
import { gpuName } from './report.js';

const PIPELINE = '01JDEM0P1PE11NE00000000001';
const DETECTOR = '01JDEM0DETECT0R00000000001';
const COLOUR = '01JDEM0CHR0MA0000000000001';
const KEY = 'bench-pipeline-key';
const TARGET = 1.5;
const WIDTH = 1280;
const HEIGHT = 720;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== 'pipeline'),
  options: {
    clients: { type: 'string', default: '16' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    scenes: { type: 'string', default: '4' },
    'max-batch-size': { type: 'string' },
    ep: { type: 'string', default: 'cpu' },
    out: { type: 'string', default: 'pipeline.md' },
    quick: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run bench -- pipeline [options]

  --clients <n>         closed-loop clients (keep-alive connections) of every figure (default: 16)
  --duration <s>        measured seconds per figure (default: 15; --quick: 3)
  --warmup <s>          warm-up seconds before each figure, not counted (default: 3; --quick: 1)
  --scenes <n>          demo scenes in the 1280x720 set (default: 4)
  --max-batch-size <n>  the server's MAX_BATCH_SIZE, every version's (default: the server's, 1 on CPU; 8 on a GPU)
  --ep <p>              execution provider of the server's versions: cpu, cuda, tensorrt or webgpu (default: cpu)
  --out <file>          the report's name under bench/results (default: pipeline.md)
  --quick               a smoke run; its report is not kept
`);
  process.exit(0);
}
const clients = Number(values.clients);
const durationMs = Number(values.duration ?? (values.quick ? 3 : 15)) * 1000;
const warmupMs = Number(values.warmup ?? (values.quick ? 1 : 3)) * 1000;
const sceneCount = Number(values.scenes);
const ep = executionProviderOption(values.ep);
// On a GPU the server is run as OPERATIONS.md advises there: batches of 8.
const maxBatchSize = values['max-batch-size'] ?? (ep === 'cpu' ? undefined : '8');
const say = (text: string) => process.stderr.write(`[bench pipeline] ${text}\n`);

const config = await readModelConfig(join(ROOT, 'models', 'demo-pipeline'));
const stage = config.stages.find((s) => s.modelVersionId === COLOUR);
if (!stage) throw new Error(`models/demo-pipeline/model.json has no stage running ${COLOUR}`);

interface ImageSet {
  name: string;
  description: string;
  images: Buffer[];
}

/** Demo scenes of landscape shape with a few objects, fitted (cover) to 1280x720, JPEG quality 90. */
async function sceneSet(count: number): Promise<ImageSet> {
  const images: Buffer[] = [];
  const seeds: number[] = [];
  for (let seed = EVAL_SEED_START + 500; images.length < count; seed++) {
    const scene = makeScene(seed);
    const aspect = scene.width / scene.height;
    if (aspect < 1.5 || aspect > 2.1 || scene.objects.length < 4) continue;
    const png = await renderScene(scene, 'png');
    images.push(await sharp(png).resize(WIDTH, HEIGHT, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer());
    seeds.push(seed);
  }
  return {
    name: `jpeg-${WIDTH}x${HEIGHT}`,
    description: `${count} demo scenes (scripts/demo-model/scenes.ts, seeds ${seeds.join(', ')}: landscape, 4 objects or more) fitted to ${WIDTH}x${HEIGHT} (cover) as JPEG quality 90`,
    images,
  };
}

const sets: ImageSet[] = [
  {
    name: 'scene.jpg',
    description: 'samples/scene.jpg (1106x448), the held-out scene of the README',
    images: [await readFile(join(ROOT, 'samples', 'scene.jpg'))],
  },
  await sceneSet(sceneCount),
];

const predictRequest = (version: string, image: Buffer): Buffer => {
  const { body, contentType } = multipartBody(image);
  return buildRequest(
    'POST',
    `/v1/models/${version}/predict`,
    { Authorization: `Bearer ${KEY}`, 'Content-Type': contentType },
    body,
  );
};

async function predict(server: TestServer, version: string, image: Buffer): Promise<Record<string, Answer[]>> {
  const { body, contentType } = multipartBody(image);
  const res = await fetch(`${server.url}/v1/models/${version}/predict`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': contentType },
    body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`predict on ${version}: ${res.status} ${text}`);
  const skipped = res.headers.get('x-children-skipped');
  if (skipped) throw new Error(`predict on ${version}: children skipped (${skipped})`);
  return JSON.parse(text) as Record<string, Answer[]>;
}

/** The detections the stage crops, as child-stages.ts chooses them: its labels', best first, at most maxPerImage, big enough. */
function chosenRects(answer: Record<string, Answer[]>, s: Stage, width: number, height: number): CropRect[] {
  const candidates = s.labels.flatMap((label) => (Object.hasOwn(answer, label) ? answer[label]! : []));
  candidates.sort((a, b) => b.score - a.score);
  const rects: CropRect[] = [];
  for (const detection of candidates) {
    if (rects.length >= s.maxPerImage) break;
    const box = boxOf(detection);
    const rect = box && cropRect(box, width, height, s.crop);
    if (rect) rects.push(rect);
  }
  return rects;
}

interface Prepared {
  /** per image: its size, detections, detections with children, crops (JPEG) */
  images: Array<{ width: number; height: number; detections: number; withChildren: number; crops: Buffer[] }>;
  /** crops per image, averaged over the set */
  n: number;
}

/** One answer of the pipeline per image: what the stage crops, checked against its children, and those crops cut here. */
async function prepare(server: TestServer, set: ImageSet): Promise<Prepared> {
  const images: Prepared['images'] = [];
  for (const image of set.images) {
    const { width, height } = await sharp(image).metadata();
    const answer = await predict(server, PIPELINE, image);
    const detections = Object.values(answer).flat();
    const withChildren = detections.filter((d) => Object.values(d.children).some((list) => list.length > 0)).length;
    const rects = chosenRects(answer, stage!, width!, height!);
    if (rects.length !== withChildren)
      throw new Error(`${set.name}: the stage should crop ${rects.length} detections, ${withChildren} have children`);
    const crops = await Promise.all(
      rects.map((r) =>
        sharp(image)
          .extract({ left: r.x, top: r.y, width: r.width, height: r.height })
          .jpeg({ quality: 90 })
          .toBuffer(),
      ),
    );
    images.push({ width: width!, height: height!, detections: detections.length, withChildren, crops });
  }
  return { images, n: images.reduce((a, i) => a + i.withChildren, 0) / images.length };
}

/** Sums and counts of the server's histograms, by series (name and labels as /metrics writes them). */
async function scrape(server: TestServer): Promise<Map<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+(?:_sum|_count))\{([^}]*)\} (\S+)$/.exec(line);
    if (match) series.set(`${match[1]}{${match[2]}}`, Number(match[3]));
  }
  return series;
}

const STAGES = ['decode', 'preprocess', 'inference', 'postprocess', 'crop', 'children'] as const;
type StageName = (typeof STAGES)[number];

interface Figure {
  run: LoadResult;
  /** mean ms per request in each stage of the version measured (absent: none recorded) */
  stages: Partial<Record<StageName, number>>;
  /** mean ms per request waiting in the version's batcher */
  queueMs: number;
  /** the server's CPU ms (its process, all threads) per request answered, metrics' count */
  cpuMs: number;
  /** the child's runs in the window: images run (crops) and mean batch */
  child: { images: number; meanBatch: number };
  /** requests the version's stages recorded in the window */
  recorded: number;
}

function delta(before: Map<string, number>, after: Map<string, number>, key: string): number {
  return (after.get(key) ?? 0) - (before.get(key) ?? 0);
}

/** A closed loop of `clients` on `version` with `images` dealt to the connections, after a warm-up. */
async function measure(server: TestServer, version: string, images: Buffer[], what: string): Promise<Figure> {
  const requests = images.map((image) => predictRequest(version, image));
  const load = { host: '127.0.0.1', port: server.port, request: requests, connections: clients };
  await runLoad({ ...load, durationMs: warmupMs });
  const before = await scrape(server);
  const cpuBefore = sampleCpu(server.process.pid!);
  const run = await runLoad({ ...load, durationMs });
  const cpuAfter = sampleCpu(server.process.pid!);
  const after = await scrape(server);
  const stageKey = (stage: string, part: 'sum' | 'count') =>
    `inference_stage_duration_seconds_${part}{model_version="${version}",stage="${stage}"}`;
  const recorded = delta(before, after, stageKey('decode', 'count'));
  const stages: Figure['stages'] = {};
  for (const name of STAGES) {
    const count = delta(before, after, stageKey(name, 'count'));
    if (count > 0) stages[name] = (delta(before, after, stageKey(name, 'sum')) / count) * 1000;
  }
  const queueCount = delta(before, after, `inference_queue_delay_seconds_count{model_version="${version}"}`);
  const queueMs =
    (delta(before, after, `inference_queue_delay_seconds_sum{model_version="${version}"}`) / queueCount) * 1000;
  const childImages = delta(before, after, `inference_batch_size_sum{model_version="${COLOUR}"}`);
  const childRuns = delta(before, after, `inference_batch_size_count{model_version="${COLOUR}"}`);
  const cpuMs = cpuBefore && cpuAfter ? ((cpuAfter.server - cpuBefore.server) * 1000) / recorded : NaN;
  say(
    `${what}: ${run.rps.toFixed(1)} req/s, p50 ${run.p50.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms, ${run.errors} errors ${JSON.stringify(run.statuses)}`,
  );
  if (run.errors > 0) throw new Error(`${what}: ${run.errors} failed requests ${JSON.stringify(run.statuses)}`);
  return {
    run,
    stages,
    queueMs,
    cpuMs,
    child: { images: childImages, meanBatch: childRuns > 0 ? childImages / childRuns : NaN },
    recorded,
  };
}

interface SetResult {
  set: ImageSet;
  prepared: Prepared;
  pipeline: Figure;
  parent: Figure;
  child: Figure;
  /** crops the child ran per pipeline request in the window (metrics) */
  cropsPerRequest: number;
  separateRps: number;
  ratio: number;
}

const server = await startDemoServer({
  INFERENCE_API_KEY: KEY,
  EXECUTION_PROVIDERS: ep,
  ...(maxBatchSize && { MAX_BATCH_SIZE: maxBatchSize }),
});
const results: SetResult[] = [];
try {
  // Ready says the detector is loaded; the pipeline answers with children once the classifier is too.
  await waitFor(
    async () => predict(server, PIPELINE, sets[0]!.images[0]!).then(() => true),
    180_000,
    'the demo pipeline to answer with its children (is models/demo-colour there?)',
  );
  for (const set of sets) {
    const prepared = await prepare(server, set);
    const crops = prepared.images.reduce((a, i) => a + i.crops.length, 0);
    say(`${set.name}: ${set.images.length} image(s), ${crops} crops (n = ${prepared.n.toFixed(2)} per image)`);
    // Each crop's place in turn across the images, so that the connections share every image's crops.
    const longest = Math.max(...prepared.images.map((i) => i.crops.length));
    const dealt = Array.from({ length: longest }, (_, k) => prepared.images.flatMap((i) => i.crops[k] ?? [])).flat();
    const pipeline = await measure(server, PIPELINE, set.images, `${set.name}, pipeline`);
    const parent = await measure(server, DETECTOR, set.images, `${set.name}, parent alone`);
    const child = await measure(server, COLOUR, dealt, `${set.name}, child alone on the crops`);
    const separateRps = 1 / (1 / parent.run.rps + prepared.n / child.run.rps);
    results.push({
      set,
      prepared,
      pipeline,
      parent,
      child,
      cropsPerRequest: pipeline.child.images / pipeline.recorded,
      separateRps,
      ratio: pipeline.run.rps / separateRps,
    });
  }
} finally {
  await server.stop();
  await removeDir(server.dataDir);
}

const f = (v: number | undefined, digits = 1) => (v !== undefined && Number.isFinite(v) ? v.toFixed(digits) : '–');
const met = (r: SetResult) => (r.ratio >= TARGET ? '**met**' : '**not met**');

/**
 * What the pipeline can save, in server CPU per image: each crop request's
 * cost beyond the child's own run (HTTP, the crop's decode, its pre- and
 * postprocessing), never the parent's work or the child's runs. With its own
 * costs (the full-size decode, the crops, the hand-offs) free, it would cost
 * the parent alone plus n child runs: the separate way's CPU over that is
 * the most it can be faster on these cores.
 */
function ceiling(r: SetResult): { separateCpu: number; floorCpu: number; ratio: number } {
  const n = r.prepared.n;
  const separateCpu = r.parent.cpuMs + n * r.child.cpuMs;
  const floorCpu = r.parent.cpuMs + n * (r.child.stages.inference ?? 0);
  return { separateCpu, floorCpu, ratio: separateCpu / floorCpu };
}

/** Per image, in ms: the pipeline's request against the parent's request plus n crop requests. */
function stageTable(r: SetResult): string[] {
  const { pipeline, parent, child } = r;
  const n = r.prepared.n;
  const row = (label: string, p: number | undefined, a: number | undefined, c: number | undefined) => {
    const separate = (a ?? 0) + n * (c ?? 0);
    const both = a !== undefined || c !== undefined;
    return `| ${label} | ${f(p, 2)} | ${f(a, 2)} | ${f(c, 2)} | ${both ? f(separate, 2) : '–'} |`;
  };
  const inServer = (x: Figure) => (clients / x.run.rps) * 1000;
  const staged = (x: Figure) => Object.values(x.stages).reduce((a, v) => a + v, 0) + x.queueMs;
  return [
    `| ms per image | pipeline (1 request) | parent alone (1 request) | child alone (per crop request) | separate: parent + ${f(n, 2)} x child |`,
    '|---|---|---|---|---|',
    row('decode', pipeline.stages.decode, parent.stages.decode, child.stages.decode),
    row('preprocess', pipeline.stages.preprocess, parent.stages.preprocess, child.stages.preprocess),
    row(
      "queue before the run (the parent's; the child alone: its own)",
      pipeline.queueMs,
      parent.queueMs,
      child.queueMs,
    ),
    row(
      "inference (its share of the batch run): the parent's; the child alone: its own",
      pipeline.stages.inference,
      parent.stages.inference,
      child.stages.inference,
    ),
    row(
      "postprocess (the parent's; the child alone: its own)",
      pipeline.stages.postprocess,
      parent.stages.postprocess,
      child.stages.postprocess,
    ),
    row('crop (every crop cut and resampled, one task)', pipeline.stages.crop, undefined, undefined),
    row(
      "children (the crops through the child's slots and batcher: queue and runs)",
      pipeline.stages.children,
      undefined,
      undefined,
    ),
    row(
      "in no stage (the mean latency less the stages: HTTP, waiting for a worker or the main thread, the children's answers)",
      inServer(pipeline) - staged(pipeline),
      inServer(parent) - staged(parent),
      inServer(child) - staged(child),
    ),
    row('mean latency (clients / req/s)', inServer(pipeline), inServer(parent), inServer(child)),
    row('server CPU (its process, all threads)', pipeline.cpuMs, parent.cpuMs, child.cpuMs),
  ];
}

function ceilingNote(r: SetResult): string {
  const c = ceiling(r);
  const n = r.prepared.n;
  return (
    `The most the pipeline can gain on these cores: it saves the separate way each crop request's cost beyond the child's run (the child alone's CPU per crop, ${f(r.child.cpuMs, 2)} ms, less its inference, ${f(r.child.stages.inference, 2)} ms: HTTP, the crop's JPEG decode, its pre- and postprocessing), and none of the parent's work or of the child's runs. ` +
    `With its own costs free (the full-size decode, the crops, the hand-offs) it would still spend the parent alone's ${f(r.parent.cpuMs, 2)} ms and ${f(n, 2)} child runs, ${f(c.floorCpu, 2)} ms of CPU an image, against the separate way's ${f(c.separateCpu, 2)} ms: a ceiling of about **${f(c.ratio, 2)} x** in the server's CPU (a child run counted as its share of its batch's wall time, a little above its CPU on a busy core; throughput gains a little more than the server's CPU, as the separate way's requests also cost the load generator, on the same cores). ` +
    `It spends ${f(r.pipeline.cpuMs, 2)} ms (${f(c.separateCpu / r.pipeline.cpuMs, 2)} x in CPU; ${f(r.ratio, 2)} x in throughput): ${f(r.pipeline.cpuMs - c.floorCpu, 2)} ms of its own.`
  );
}

const command = `npm run bench -- pipeline${process.argv
  .slice(2)
  .filter((a) => a !== 'pipeline')
  .map((a) => ` ${a}`)
  .join('')}`;
const report = [
  '# Child stages against separate requests',
  '',
  `Command: \`${command}\``,
  '',
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores${ep === 'cpu' ? '' : `, ${gpuName()}`}, Node ${process.version}; the bundled demo models on ${ep === 'cpu' ? 'CPU' : `execution provider ${ep}`} with the server's defaults${maxBatchSize ? ` but MAX_BATCH_SIZE=${maxBatchSize} (the colour classifier batches up to 32 all the same, as its model.json says)` : ' (MAX_BATCH_SIZE 1: the detector runs one image at a time; the colour classifier batches up to 32, as its model.json says)'}, embedded PostgreSQL; the load generator on the same cores. ${new Date().toISOString().slice(0, 10)}.`,
  '',
  `The demo pipeline (\`${PIPELINE}\`: the demo detector with the colour classifier \`${COLOUR}\` as its stage, padding ${stage.crop.padding}, minSize ${stage.crop.minSize}, maxPerImage ${stage.maxPerImage}) against the same work as separate predicts on the same server: the detector alone (\`${DETECTOR}\`) on the same images, and the classifier alone on the same crops, cut here as the stage cuts them (crops.ts \`cropRect\`, at the image's own size) and sent one a request as JPEG quality 90. Each figure: ${clients} closed-loop clients (keep-alive connections, each sending one image or crop, dealt to them in turn), ${warmupMs / 1000} s of warm-up, then ${durationMs / 1000} s measured. n = the crops of an image (its detections with children in the pipeline's answer, averaged over the set); the separate way's images/s = 1 / (1/parent + n/child); the figure is the pipeline's req/s over it. Target: ${TARGET} x.`,
  '',
  '| image set | n crops per image | pipeline req/s | crops/s | p50 ms | p99 ms | parent alone req/s | child alone req/s (crops) | separate images/s | pipeline / separate | target ' +
    `${TARGET} x | ceiling in the server's CPU (see each set) |`,
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.set.name} | ${f(r.prepared.n, 2)} | ${f(r.pipeline.run.rps)} | ${f(r.pipeline.run.rps * r.prepared.n)} | ${f(r.pipeline.run.p50, 0)} | ${f(r.pipeline.run.p99, 0)} | ${f(r.parent.run.rps)} | ${f(r.child.run.rps)} | ${f(r.separateRps)} | **${f(r.ratio, 2)}** | ${met(r)} | ${f(ceiling(r).ratio, 2)} x |`,
  ),
  '',
  'p50 and p99 of the other figures: ' +
    results
      .map(
        (r) =>
          `${r.set.name}: parent alone ${f(r.parent.run.p50, 0)} / ${f(r.parent.run.p99, 0)} ms, child alone ${f(r.child.run.p50, 0)} / ${f(r.child.run.p99, 0)} ms`,
      )
      .join('; ') +
    '.',
  '',
  ...results.flatMap((r) => [
    `## ${r.set.name}`,
    '',
    `${r.set.description}.`,
    '',
    ...r.prepared.images.map(
      (i, k) =>
        `- image ${k + 1}: ${i.width}x${i.height}, ${i.detections} detections, ${i.withChildren} with children (crops, ${Math.round(i.crops.reduce((a, c) => a + c.length, 0) / Math.max(1, i.crops.length) / 1024)} KB a crop as JPEG)`,
    ),
    `- crops the classifier ran per pipeline request in the window (its batch sizes in /metrics): ${f(r.cropsPerRequest, 2)}, in batches of ${f(r.pipeline.child.meanBatch, 2)} on average; in the child-alone figure, batches of ${f(r.child.child.meanBatch, 2)}`,
    '',
    "Time per stage, mean ms per request of each figure (the child alone: per crop request; the last column: the parent's request and n crop requests), from each version's `inference_stage_duration_seconds` and `inference_queue_delay_seconds` histograms, their sums and counts before and after the measured window; wall times in the server's threads, waiting for a core included. The pipeline records its children as one wall time from the crops cut to the last crop's outputs (slots, the child's batcher and its runs); the decoding of the children's outputs and the nesting of their answers are in no stage. The mean latency is the clients over the req/s (Little's law), so the last column's is the clients over the separate way's images/s; the server's CPU is its process's (all its threads) over the requests its stages recorded.",
    '',
    ...stageTable(r),
    '',
    ceilingNote(r),
    '',
  ]),
].join('\n');
process.stdout.write(report);
if (!values.quick) {
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(join(ROOT, 'bench', 'results', values.out), report);
  say(`report written to bench/results/${values.out}`);
}
