// npm run bench -- postprocess [--model dense] [--against <checkout>]: what
// postprocess costs per image, in process, on one model's outputs (the
// model rewritten as the server runs it, a 1280x720 image letterboxed):
// the CPU time of postprocess() alone, without the server's other threads
// on the same cores, for a few predict options. With --against, the other
// checkout's code (its rewrite, decoders and NMS) runs on the same outputs'
// model right after, in the same process, for a before/after pair.
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../test/helpers/server.js';
import { thisProcessCpuMs as cpuMs } from './process-cpu.js';
import { stat } from './report.js';
import { modelDirectory } from './models.js';

const HELP = `Usage: npm run bench -- postprocess [--model dense] [--against <checkout>] [--reps 7] [--images 100]

  --model <m>      dense (default: an 80-class head whose anchors pass the threshold in thousands),
                   dense-crowd (a few objects every anchor sees: NMS never fills, every row is read),
                   demo, or a model directory
  --against <dir>  another checkout: its postprocess is measured too, on the same model
  --reps <n>       runs per figure; figures are medians (default: 7)
  --images <n>     images per run (default: 100)
`;

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'dense' },
    against: { type: 'string' },
    reps: { type: 'string', default: '7' },
    images: { type: 'string', default: '100' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: true,
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const OPTION_SETS: Array<[string, Record<string, number>]> = [
  ['defaults (threshold 0.25, max_detections 100)', {}],
  ['max_detections=300', { maxDetections: 300 }],
  ['threshold=0.5&max_detections=300 (NMS never full: every row read)', { threshold: 0.5, maxDetections: 300 }],
  ['max_detections=1000 (the most a request may ask for)', { maxDetections: 1000 }],
];

/** Per option set: candidate rows the model let out, and postprocess's CPU ms per image (median, min, max). */
async function measure(
  checkout: string,
  modelDir: string,
): Promise<Array<{ rows: number; ms: number; min: number; max: number }>> {
  const load = (file: string) => import(join(checkout, 'src', 'inference', file));
  const [
    { ModelBackend },
    { readModelConfig },
    { createOutputDecoder },
    { inputElements, newTensorArray },
    { postprocess },
    { placeImage },
    { predictOptions, resolvePredictOptions },
  ] = await Promise.all(
    [
      'backend.ts',
      'model-config.ts',
      'outputs/index.ts',
      'preprocess.ts',
      'postprocess.ts',
      'letterbox.ts',
      'predict-options.ts',
    ].map(load),
  );
  // The checkout's logger, where its backend is handed one (before, it logged through a module of its own).
  const { Logger } = (await import(join(checkout, 'src', 'log.ts'))) as {
    Logger?: new (settings: { level: string; format: string }) => unknown;
  };
  const config = await readModelConfig(modelDir);
  const backend = await ModelBackend.load(
    modelDir,
    config,
    {
      providers: ['cpu'],
      deviceId: 0,
      intraOpThreads: 1,
      maxBatchSize: 1,
      preparation: { rewrite: true },
    },
    Logger && new Logger({ level: 'info', format: 'text' }),
  );
  try {
    const decoder = createOutputDecoder(config, backend.info.outputs);
    const placement = placeImage(1280, 720, config.input.width, config.input.height, 'letterbox');
    const image = newTensorArray(backend.info.inputDtype, inputElements(config.input)).fill(
      backend.info.inputDtype === 'uint8' ? 115 : 115 / 255,
    );
    const results = [];
    for (const [, requested] of OPTION_SETS) {
      const options = predictOptions(requested, config.defaults);
      const [outputs] = (await backend.run([image], [resolvePredictOptions(options, false).threshold])).outputs;
      const head = Object.values(outputs as Record<string, { dims: number[]; compact?: unknown }>).find(
        (t) => t.compact,
      );
      const runs: number[] = [];
      for (let rep = 0; rep < Number(values.reps); rep++) {
        const started = cpuMs();
        for (let i = 0; i < Number(values.images); i++)
          postprocess(decoder, config.labels, outputs, placement, options);
        runs.push((cpuMs() - started) / Number(values.images));
      }
      const { median: ms, min, max } = stat(runs);
      results.push({ rows: head?.dims[0] ?? NaN, ms, min, max });
    }
    return results;
  } finally {
    await backend.release();
  }
}

const modelDir = await modelDirectory(values.model);
const sides: Array<[string, string]> = [['this checkout', ROOT]];
if (values.against) sides.unshift([`${values.against} (A)`, resolve(values.against)]);
const measured: Array<{ name: string; results: Awaited<ReturnType<typeof measure>> }> = [];
for (const [name, checkout] of sides) measured.push({ name, results: await measure(checkout, modelDir) });

const f = (v: number) => v.toFixed(3);
const lines = [
  `# postprocess per image, in process: ${values.model}`,
  '',
  `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
  '',
  `Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, node ${process.version}. CPU ms of postprocess() per image (its thread's user + system time, so that other processes on the cores count less), median of ${values.reps} runs of ${values.images} images (min–max); "rows": the candidate rows the rewritten model let out.`,
  '',
  `| options | ${measured.map((m) => `${m.name}: rows | ${m.name}: ms`).join(' | ')} |${measured.length === 2 ? ' B/A |' : ''}`,
  `|---|${measured.map(() => '---|---').join('|')}|${measured.length === 2 ? '---|' : ''}`,
  ...OPTION_SETS.map(([label], i) => {
    const cells = measured.map(
      (m) => `${m.results[i]!.rows} | ${f(m.results[i]!.ms)} (${f(m.results[i]!.min)}–${f(m.results[i]!.max)})`,
    );
    const ratio =
      measured.length === 2 ? ` ${(measured[1]!.results[i]!.ms / measured[0]!.results[i]!.ms).toFixed(2)} |` : '';
    return `| ${label} | ${cells.join(' | ')} |${ratio}`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
