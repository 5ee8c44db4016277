// Benchmark images made from real photographs. Flat synthetic images decode
// unrealistically fast, and no dataset can be downloaded here, so the photo
// comes from an npm package that ships one: @vladmandic/human's
// assets/samples.jpg (1280x1158, a crowded indoor group photo under its
// overlays). Its photographic lower part is cropped and scaled (cover) to
// each size, then encoded as JPEG (quality 90) or PNG.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

const PACKAGE = '@vladmandic/human@3.3.6';
const MEMBER = 'package/assets/samples.jpg';

export interface BenchImage {
  name: string;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  bytes: Buffer;
}

/** One fetch however many images are made from the photo at once. */
let photo: Promise<Buffer> | undefined;
function sourcePhoto(cacheDir: string): Promise<Buffer> {
  photo ??= fetchSourcePhoto(cacheDir);
  return photo;
}

async function fetchSourcePhoto(cacheDir: string): Promise<Buffer> {
  const path = join(cacheDir, 'samples.jpg');
  if (!existsSync(path)) {
    await mkdir(cacheDir, { recursive: true });
    process.stderr.write(`fetching the benchmark photograph from npm (${PACKAGE}) ...\n`);
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: cacheDir, encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['xzf', tarball, MEMBER], { cwd: cacheDir });
    execFileSync('mv', [MEMBER, 'samples.jpg'], { cwd: cacheDir });
    execFileSync('rm', ['-rf', 'package', tarball], { cwd: cacheDir });
  }
  return readFile(path);
}

/** Parses names like "jpeg-640x480" or "png-1920x1080". */
function parseImageSpec(spec: string): { format: 'jpeg' | 'png'; width: number; height: number } {
  const match = /^(jpeg|jpg|png)-(\d+)x(\d+)$/.exec(spec);
  if (!match) throw new Error(`image "${spec}" must look like jpeg-640x480 or png-1920x1080`);
  return { format: match[1] === 'png' ? 'png' : 'jpeg', width: Number(match[2]), height: Number(match[3]) };
}

export async function benchImage(spec: string, cacheDir: string): Promise<BenchImage> {
  const { format, width, height } = parseImageSpec(spec);
  const file = join(cacheDir, `${format}-${width}x${height}.${format === 'png' ? 'png' : 'jpg'}`);
  if (!existsSync(file)) {
    const photo = await sourcePhoto(cacheDir);
    // The group photo occupies rows ~100..1158 of the source, below a strip of thumbnails.
    const scene = sharp(photo)
      .extract({ left: 0, top: 100, width: 1280, height: 1058 })
      .resize(width, height, { fit: 'cover' });
    await writeFile(
      file,
      format === 'png' ? await scene.png().toBuffer() : await scene.jpeg({ quality: 90 }).toBuffer(),
    );
  }
  return { name: `${format}-${width}x${height}`, format, width, height, bytes: await readFile(file) };
}
