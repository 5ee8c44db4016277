// npm run bench -- decode [--against <checkout>]: what decoding a JPEG to a
// model's input size costs, in process, through each of the two decoders
// (the native addon's libturbojpeg path and sharp), at 320 and 640 on
// 1280x720 images: the benchmark photograph (bench/images.ts) and the demo
// scene (samples/scene.jpg stretched to 1280x720, a flat synthetic image).
// 1280x720 into 640 is an exact 2x shrink, where the native path decodes at
// full size as sharp does (src/inference/pipeline/decode-image.ts). With --against,
// the other checkout's decodeImage (its addon build included) runs on the
// same bytes right after, in the same process, for a before/after pair.
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { ROOT } from '../test/helpers/server.js';
import { thisProcessCpuMs as cpuMs } from './process-cpu.js';
import { stat } from './report.js';
import { benchImage } from './images.js';

const HELP = `Usage: npm run bench -- decode [--against <checkout>] [--reps 9] [--images 50]

  --against <dir>  another checkout: its decoders are measured too, on the same images
  --reps <n>       runs per figure; figures are medians (default: 9)
  --images <n>     decodes per run (default: 50)
`;

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    reps: { type: 'string', default: '9' },
    images: { type: 'string', default: '50' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: true,
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const DECODERS = ['libturbojpeg', 'sharp'] as const;
const SIZES = [320, 640];
const photo = (await benchImage('jpeg-1280x720', join(ROOT, 'bench', '.cache'))).bytes;
const scene = await sharp(join(ROOT, 'samples', 'scene.jpg'))
  .resize(1280, 720, { fit: 'fill' })
  .jpeg({ quality: 90 })
  .toBuffer();
const IMAGES: Array<[string, Buffer]> = [
  ['photograph 1280x720', photo],
  ['demo scene 1280x720', scene],
];

type Figure = { image: string; size: number; decoder: string; ms: number; min: number; max: number };

/** CPU ms per decode for each image, size and decoder, through `checkout`'s decodeImage. */
async function measure(checkout: string): Promise<Figure[]> {
  const { decodeImage } = await import(join(checkout, 'src', 'inference', 'decode-image.ts'));
  const figures: Figure[] = [];
  for (const [image, bytes] of IMAGES) {
    for (const size of SIZES) {
      const target = { width: size, height: size, resize: 'letterbox', padValue: 114 };
      for (const decoder of DECODERS) {
        for (let i = 0; i < 10; i++) await decodeImage(bytes, target, 100_000_000, decoder); // warm-up
        const runs: number[] = [];
        for (let rep = 0; rep < Number(values.reps); rep++) {
          const started = cpuMs();
          for (let i = 0; i < Number(values.images); i++) await decodeImage(bytes, target, 100_000_000, decoder);
          runs.push((cpuMs() - started) / Number(values.images));
        }
        const { median: ms, min, max } = stat(runs);
        figures.push({ image, size, decoder, ms, min, max });
      }
    }
  }
  return figures;
}

const sides: Array<[string, string]> = [['this checkout', ROOT]];
if (values.against) sides.unshift([`${values.against} (A)`, resolve(values.against)]);
const measured: Array<{ name: string; figures: Figure[] }> = [];
for (const [name, checkout] of sides) measured.push({ name, figures: await measure(checkout) });

const f = (v: number) => v.toFixed(2);
const lines = [
  '# JPEG decoding per image, in process',
  '',
  `Command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
  '',
  `Machine: ${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, node ${process.version}. CPU ms per decode (user + system time of this process), median of ${values.reps} runs of ${values.images} (min–max), letterboxed into a square of the size given.`,
  '',
  `| image | size | decoder | ${measured.map((m) => `${m.name}: ms`).join(' | ')} |${measured.length === 2 ? ' B/A |' : ''}`,
  `|---|---|---|${measured.map(() => '---|').join('')}${measured.length === 2 ? '---|' : ''}`,
  ...measured[0]!.figures.map(({ image, size, decoder }, i) => {
    const cells = measured.map((m) => `${f(m.figures[i]!.ms)} (${f(m.figures[i]!.min)}–${f(m.figures[i]!.max)})`);
    const ratio =
      measured.length === 2 ? ` ${(measured[1]!.figures[i]!.ms / measured[0]!.figures[i]!.ms).toFixed(2)} |` : '';
    return `| ${image} | ${size} | ${decoder} | ${cells.join(' | ')} |${ratio}`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
