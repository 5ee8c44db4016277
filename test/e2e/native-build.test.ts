// The addon's build picks up libturbojpeg's header installed after a first
// build: `cmake-js compile` (what `npm ci` and `npm run build:native` run)
// only builds a build directory that already exists, so the header must be
// something the build watches. The sequence of the issue, in a build
// directory of its own (native/build is left alone): the header hidden (the
// search pointed at an empty prefix, since the system package cannot be
// uninstalled here), built; the header shown; the very same command again;
// the addon then has its JPEG decoder. And a server started with the first
// addon says which command rebuilds it.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { jpegDecoder, TURBOJPEG_HEADER } from '../../src/inference/pipeline/decode-image.js';
import type { JpegDecoderFacts } from '../../src/inference/native.js';
import { ROOT, removeDir } from '../helpers/server.js';

const run = promisify(execFile);
const CMAKE_JS = join(ROOT, 'node_modules/cmake-js/bin/cmake-js');
let work = '';

afterAll(async () => {
  if (work) await removeDir(work);
});

/** What a freshly loaded copy of the addon says of its JPEG decoder (a child process: each build is a new file to load). */
async function jpegFacts(addon: string): Promise<JpegDecoderFacts> {
  const script = `const a = require(${JSON.stringify(addon)}); console.log(JSON.stringify({ hasJpegDecoder: a.hasJpegDecoder, jpegDecoderMissing: a.jpegDecoderMissing, jpegDecoderBuilt: a.jpegDecoderBuilt }))`;
  const { stdout } = await run(process.execPath, ['-e', script]);
  return JSON.parse(stdout) as JpegDecoderFacts;
}

describe.skipIf(!existsSync(TURBOJPEG_HEADER))('the native build and libturbojpeg0-dev installed after it', () => {
  it('builds with the JPEG decoder at the next cmake-js compile, and the server names the command until then', async () => {
    work = await mkdtemp(join(tmpdir(), 'native-build-'));
    const prefix = join(work, 'prefix');
    const out = join(work, 'build');
    const addon = join(out, 'Release', 'sense_native.node');
    // Exactly npm's build:native, into its own directory, looking for the header only under `prefix`.
    const compile = () =>
      run(process.execPath, [CMAKE_JS, 'compile', '--directory', 'native', '--out', out], {
        cwd: ROOT,
        env: { ...process.env, SENSE_TURBOJPEG_PREFIX: prefix },
        maxBuffer: 16 * 1024 * 1024,
      });

    await mkdir(prefix);
    await compile();
    const before = await jpegFacts(addon);
    expect(before).toMatchObject({ hasJpegDecoder: false, jpegDecoderBuilt: false });
    expect(before.jpegDecoderMissing).toMatch(/built without turbojpeg\.h/);
    // The server with that addon, where the header is installed, names the rebuild.
    const started = jpegDecoder('auto', before, () => true);
    expect(started.decoder).toBe('sharp');
    expect(started.reason).toMatch(
      /turbojpeg\.h is installed .*but the native addon was built without it: run npm run build:native/,
    );

    await mkdir(join(prefix, 'include'));
    await copyFile(TURBOJPEG_HEADER, join(prefix, 'include', 'turbojpeg.h'));
    await compile();
    const after = await jpegFacts(addon);
    expect(after).toEqual({ hasJpegDecoder: true, jpegDecoderMissing: '', jpegDecoderBuilt: true });
    expect(jpegDecoder('auto', after, () => true)).toEqual({ decoder: 'libturbojpeg' });
  }, 300_000);
});
