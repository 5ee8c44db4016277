// Typed access to the C++ addon (native/). Built by `npm ci` through cmake-js.
// An addon built from other sources than native/src holds (an older checkout's
// build left in native/build) is refused with the command that rebuilds it,
// so the code here may rely on everything the sources export.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../lib/sha256.js';

export interface PreprocessSpec {
  dstWidth: number;
  dstHeight: number;
  rectX: number;
  rectY: number;
  rectWidth: number;
  rectHeight: number;
  bgr: boolean;
  nhwc: boolean;
  /** value = pixel * mul[c] + add[c], per RGB channel */
  mul: [number, number, number];
  add: [number, number, number];
  /** RGB value of the letterbox border, before normalisation */
  pad: [number, number, number];
  /** the part of the source resampled into the rectangle (a detection's crop); the whole source when absent */
  crop?: { x: number; y: number; width: number; height: number };
}

interface DecodedBmp {
  width: number;
  height: number;
  channels: 3;
  /** a new Buffer, or the `into` passed to decodeJpeg when the pixels fit in it (written from its start) */
  data: Uint8Array;
}

interface DecodedJpeg {
  /** size of the image as displayed (EXIF orientation applied), full resolution */
  width: number;
  height: number;
  /** size of `data`: the image's rectangle in the model input (placeImage) */
  pixelsWidth: number;
  pixelsHeight: number;
  /** RGB, greyscale JPEGs included (as sharp returns them) */
  channels: 3;
  data: Buffer;
}

/** A tensor of the native runner: element type as ONNX Runtime names it, dims, data. */
interface NativeTensor<Data> {
  name: string;
  type: string;
  dims: readonly number[];
  data: Data;
}

/** One session of the native runner (native/src/ort_runner.cc): synchronous runs, host tensors in and out. */
export interface NativeSession {
  readonly inputs: Array<{ name: string; type: string; shape: Array<number | string> }>;
  readonly outputs: Array<{ name: string; type: string; shape: Array<number | string> }>;
  run(feeds: Array<NativeTensor<ArrayBufferView>>): Array<NativeTensor<ArrayBuffer>>;
  release(): void;
}

interface NativeSessionOptions {
  provider: string;
  deviceId: number;
  intraOpThreads: number;
  /** ONNX Runtime CUDA provider options by name */
  cuda: Readonly<Record<string, string>>;
  /** CUDA: inputs and outputs through page-locked host buffers */
  pinned: boolean;
}

interface NativeAddon {
  /** the digest of the sources it was built from (native/CMakeLists.txt) */
  sourcesDigest: string;
  /** Gives the free memory of glibc's heaps back to the system (malloc_trim); false where there is none to give or no glibc. */
  trimMemory(): boolean;
  /** Opens the ONNX Runtime library at `libraryPath` for the native runner (once per process). */
  ortOpen(libraryPath: string): { version: string; apiVersion: number };
  /** The native runner's session class. */
  OrtSession: new (
    source: string | Uint8Array,
    options: NativeSessionOptions,
  ) => NativeSession;
  decodeBmp(bytes: Uint8Array, maxPixels: number): DecodedBmp;
  /**
   * Decodes a JPEG with libturbojpeg straight to the rectangle it occupies in
   * a boxWidth x boxHeight model input (letterboxed or stretched), as sharp's
   * path does: DCT scaling where sharp's shrink-on-load would, the same
   * linear (triangle) reduce for the rest, EXIF orientation applied (pixels
   * within 2 levels of sharp's). null when it leaves the file to
   * sharp: no libturbojpeg (build or machine), CMYK, an embedded ICC profile, 12-bit
   * samples, an image smaller than its rectangle. Throws on corrupt data
   * (libjpeg warnings included) and, before decoding anything, when
   * width*height exceeds maxPixels.
   */
  /** boxWidth and boxHeight 0: the whole image at its own size; `into`: written into when the pixels fit (shared memory too) */
  decodeJpeg(
    bytes: Uint8Array,
    maxPixels: number,
    boxWidth: number,
    boxHeight: number,
    letterbox: boolean,
    into?: Uint8Array,
  ): DecodedJpeg | null;
  /** whether decodeJpeg can decode at all (built with turbojpeg.h, libturbojpeg.so.0 found at run time) */
  hasJpegDecoder: boolean;
  /** why not, when it cannot: every JPEG is then decoded by sharp, slower */
  jpegDecoderMissing: string;
  /** whether it was built with turbojpeg.h at all: false where `npm run build:native` would bring the decoder, if the header is installed */
  jpegDecoderBuilt: boolean;
  preprocess(
    src: Uint8Array,
    srcWidth: number,
    srcHeight: number,
    srcChannels: number,
    /** float32, float16 (IEEE half bits) or, not normalised, uint8 pixels */
    dst: Float32Array | Uint16Array | Uint8Array,
    spec: PreprocessSpec,
  ): void;
}

/** What an addon says of its JPEG decoder (decode-image.ts jpegDecoder). */
export type JpegDecoderFacts = Pick<NativeAddon, 'hasJpegDecoder' | 'jpegDecoderMissing' | 'jpegDecoderBuilt'>;

const ADDON = join('native', 'build', 'Release', 'sense_native.node');

/**
 * The addon in the nearest folder above this module that holds one: the
 * repository root both from src/inference (tsx) and from a compiled build
 * (dist/inference, or any out directory inside the checkout).
 */
function findAddon(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ADDON))) return join(dir, ADDON);
    if (dirname(dir) === dir) return fileURLToPath(new URL(`../../${ADDON}`, import.meta.url));
  }
}

const addonPath = findAddon();

/**
 * The digest native/CMakeLists.txt compiles in, of the sources in `dir`:
 * the sha256 of one "<name> <sha256>\n" line per .cc and .h file, sorted by
 * name. undefined where there are no sources (an installation without them).
 */
export function sourcesDigest(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cc') || name.endsWith('.h'))
    .sort();
  if (files.length === 0) return undefined;
  const lines = files.map((name) => `${name} ${sha256(readFileSync(join(dir, name)))}\n`).join('');
  return sha256(lines);
}

/** Throws, with the command that rebuilds it, when the addon was built from other sources than `sourcesDir` holds. */
export function checkBuild(built: string | undefined, sourcesDir: string): void {
  const sources = sourcesDigest(sourcesDir);
  if (sources === undefined || built === sources) return;
  throw new Error(
    `the native addon (${addonPath}) was built from other sources than ${sourcesDir} holds now ` +
      `(built from ${built ? built.slice(0, 12) : 'sources before digests'}, sources ${sources.slice(0, 12)}); run "npm run build:native"`,
  );
}

function load(): NativeAddon {
  let addon: NativeAddon;
  try {
    addon = createRequire(import.meta.url)(addonPath) as NativeAddon;
  } catch (error) {
    throw new Error(
      `the native addon is not built (${addonPath}); run "npm ci" or "npm run build:native": ${(error as Error).message}`,
    );
  }
  // <root>/native/build/Release/sense_native.node: its sources are <root>/native/src.
  checkBuild(addon.sourcesDigest, join(dirname(addonPath), '..', '..', 'src'));
  return addon;
}

export const native: NativeAddon = load();
