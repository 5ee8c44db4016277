// Sanity check of the ground truth: renders scenes with their boxes drawn on top.
//   node --import tsx scripts/demo-model/preview.ts --out /tmp/demo-model/preview --seed-start 9000000 --count 8
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { annotatedSvg, makeScene } from './scenes.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    'seed-start': { type: 'string', default: '9000000' },
    count: { type: 'string', default: '8' },
  },
});
if (!values.out) throw new Error('--out DIR is required');
await mkdir(values.out, { recursive: true });
const start = Number(values['seed-start']);
for (let i = 0; i < Number(values.count); i++) {
  const seed = start + i;
  const scene = makeScene(seed);
  const png = await sharp(Buffer.from(annotatedSvg(scene)), { density: 72 })
    .removeAlpha()
    .png()
    .toBuffer();
  await writeFile(join(values.out, `${seed}.png`), png);
  console.log(
    seed,
    `${scene.width}x${scene.height}`,
    scene.objects.map((o) => `${o.label}[${o.box.join(',')}]`).join(' '),
  );
}
