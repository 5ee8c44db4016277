// decodeImage's JPEG fast path (native/src/jpeg.cc, libturbojpeg): the same
// sizes, placement, orientation, errors and pixel limit as the sharp path it
// replaces, pixels close to sharp's, and everything it does not take left to
// sharp. Where the addon was built without libturbojpeg the native-only
// checks are skipped and the rest runs against the sharp path.
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { ApiError } from '../../src/http/errors.js';
import { decodeImage, type DecodeTarget, type DecodedImage } from '../../src/inference/pipeline/decode-image.js';
import { placeImage } from '../../src/inference/pipeline/letterbox.js';
import { native } from '../../src/inference/native.js';
import { photo } from '../helpers/images.js';

const hasNative = native.hasJpegDecoder === true;
const letterbox: DecodeTarget = { width: 320, height: 320, resize: 'letterbox', padValue: 114 };
const stretch: DecodeTarget = { ...letterbox, resize: 'stretch' };
const MAX = 40_000_000;

/**
 * Something like a photograph: gradients, shapes with hard edges at every
 * scale, a little noise. (An 8-pixel checkerboard, as pattern() draws, is
 * the worst case for any resampler and says little about real images.)
 */
function scene(width: number, height: number): Buffer {
  const rgb = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      const disc = (u - 0.3) ** 2 + (v - 0.4) ** 2 < 0.04;
      const bar = Math.floor(u * 12) % 2 === 0 && v > 0.7;
      const ring = Math.abs(Math.hypot(u - 0.7, v - 0.35) - 0.15) < 0.01;
      const base = [40 + 160 * u, 60 + 120 * v, 200 - 150 * u * v];
      const colour = disc ? [220, 40, 40] : bar ? [30, 30, 30] : ring ? [250, 250, 120] : base;
      for (let c = 0; c < 3; c++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        rgb[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, colour[c]! + ((seed >>> 16) % 13) - 6));
      }
    }
  }
  return rgb;
}

/** Inserts an EXIF segment (APP1) holding only an orientation tag, after SOI. */
function withOrientation(jpegBytes: Buffer, orientation: number, littleEndian: boolean): Buffer {
  const tiff = Buffer.alloc(26);
  const u16 = (v: number, at: number) => (littleEndian ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
  const u32 = (v: number, at: number) => (littleEndian ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
  tiff.write(littleEndian ? 'II' : 'MM', 0, 'latin1');
  u16(42, 2);
  u32(8, 4); // IFD0
  u16(1, 8); // one entry
  u16(0x0112, 10); // Orientation
  u16(3, 12); // SHORT
  u32(1, 14); // one value
  u16(orientation, 18);
  u32(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([jpegBytes.subarray(0, 2), header, payload, jpegBytes.subarray(2)]);
}

function jpeg(width: number, height: number, build: (s: Sharp) => Sharp = (s) => s.jpeg({ quality: 90 })) {
  return build(sharp(scene(width, height), { raw: { width, height, channels: 3 } })).toBuffer();
}

/** What decodeImage returned before the native path: sharp, metadata first. */
async function sharpReference(bytes: Buffer, target: DecodeTarget) {
  const metadata = await sharp(bytes).metadata();
  const { width, height } = metadata.autoOrient;
  const placement = placeImage(width, height, target.width, target.height, target.resize);
  const pad = target.padValue;
  const { data, info } = await sharp(bytes)
    .autoOrient()
    .resize(placement.rectWidth, placement.rectHeight, { fit: 'fill', kernel: 'linear' })
    .flatten({ background: { r: pad, g: pad, b: pad } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width, height, placement, data, channels: info.channels };
}

function meanAbsDiff(a: Uint8Array, b: Uint8Array): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Decodes with both paths and checks everything but the exact pixel values; returns their mean absolute difference. */
async function compare(bytes: Buffer, target: DecodeTarget): Promise<{ mad: number; decoded: DecodedImage }> {
  const decoded = await decodeImage(bytes, target, MAX);
  const ref = await sharpReference(bytes, target);
  expect(decoded.format).toBe('jpeg');
  expect([decoded.width, decoded.height]).toEqual([ref.width, ref.height]);
  expect(decoded.placement).toEqual(ref.placement);
  // Pixels come at the size of the image's rectangle, as sharp's do.
  expect([decoded.pixels.width, decoded.pixels.height, decoded.pixels.channels]).toEqual([
    ref.placement.rectWidth,
    ref.placement.rectHeight,
    ref.channels,
  ]);
  return { mad: meanAbsDiff(decoded.pixels.data, ref.data), decoded };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // thrown by the domain, answered with the status the front end gives its kind
  expect(error).toBeInstanceOf(DomainError);
  return ApiError.from(error)!;
}

describe.skipIf(!hasNative)('native JPEG decoding', () => {
  it.each([
    // [width, height, target]: DCT 1/4 exact, odd sizes (a partial last DCT block), 1/2 plus a reduce, portrait, 1/8
    [1280, 720, letterbox],
    [1281, 721, letterbox],
    [1000, 750, letterbox],
    [640, 480, letterbox],
    [500, 1000, letterbox],
    [2600, 1500, letterbox],
    [1920, 1080, stretch],
    [333, 500, stretch],
  ] as const)('%ix%i (%o) matches the sharp path: size, placement, pixels', async (width, height, target) => {
    const bytes = await jpeg(width, height);
    expect(native.decodeJpeg!(bytes, MAX, target.width, target.height, target.resize === 'letterbox')).not.toBeNull();
    const { mad, decoded } = await compare(bytes, target);
    // The DCT scale sharp picks and its filter: within 2 levels everywhere
    // (measured: mean 0-0.15). It used to be 0.05-1.2 on average, more at
    // edges, while exact 2x/4x reductions were left to the DCT alone.
    expect(mad).toBeLessThan(0.3);
    expect(differences(decoded.pixels.data, (await sharpReference(bytes, target)).data).max).toBeLessThanOrEqual(2);
  });

  it('applies every EXIF orientation as sharp does', async () => {
    const width = 800;
    const height = 600;
    const plain = await jpeg(width, height);
    // The same compressed image under every orientation: the native path must
    // differ from sharp by as much as when nothing is rotated - no more.
    const upright = (await compare(plain, letterbox)).mad;
    for (let orientation = 1; orientation <= 8; orientation++) {
      for (const littleEndian of [true, false]) {
        const bytes = withOrientation(plain, orientation, littleEndian);
        expect((await sharp(bytes).metadata()).orientation ?? 1).toBe(orientation);
        const fast = native.decodeJpeg!(bytes, MAX, 320, 320, true);
        expect(fast, `orientation ${orientation}`).not.toBeNull();
        expect([fast!.width, fast!.height]).toEqual(orientation >= 5 ? [height, width] : [width, height]);
        const { mad } = await compare(bytes, letterbox);
        expect(Math.abs(mad - upright), `orientation ${orientation}`).toBeLessThan(0.05);
      }
    }
  });

  it('decodes greyscale JPEGs to RGB, as sharp does', async () => {
    const bytes = await jpeg(1000, 750, (s) => s.toColourspace('b-w').jpeg({ quality: 90 }));
    expect((await sharp(bytes).metadata()).channels).toBe(1);
    expect(native.decodeJpeg!(bytes, MAX, 320, 320, true)?.channels).toBe(3);
    const { mad } = await compare(bytes, letterbox);
    expect(mad).toBeLessThan(1);
  });

  it('places the image exactly as letterbox.ts does, for any size', async () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return 1 + ((seed >>> 8) % n);
    };
    for (let i = 0; i < 25; i++) {
      const width = 100 + next(1400);
      const height = 100 + next(1400);
      const bytes = await sharp({ create: { width, height, channels: 3, background: '#4080c0' } })
        .jpeg()
        .toBuffer();
      for (const [box, resize] of [
        [320, 'letterbox'],
        [640, 'letterbox'],
        [320, 'stretch'],
      ] as const) {
        const rect = placeImage(width, height, box, box, resize);
        const fast = native.decodeJpeg!(bytes, MAX, box, box, resize === 'letterbox');
        if (rect.rectWidth > width || rect.rectHeight > height) {
          expect(fast, `${width}x${height} into ${box} is enlarged: sharp's`).toBeNull();
        } else {
          expect([fast!.pixelsWidth, fast!.pixelsHeight], `${width}x${height} ${resize} ${box}`).toEqual([
            rect.rectWidth,
            rect.rectHeight,
          ]);
          // A flat image stays flat through DCT scaling and the reduce.
          for (let c = 0; c < 3; c++) {
            let low = 255;
            let high = 0;
            for (let i = c; i < fast!.data.length; i += 3)
              [low, high] = [Math.min(low, fast!.data[i]!), Math.max(high, fast!.data[i]!)];
            expect(high - low).toBeLessThanOrEqual(2);
          }
        }
      }
    }
  });

  it('leaves to sharp what sharp decodes differently: ICC profiles, CMYK, enlarging', async () => {
    const icc = await jpeg(640, 480, (s) => s.jpeg({ quality: 90 }).withIccProfile('p3'));
    const cmyk = await jpeg(640, 480, (s) => s.toColourspace('cmyk').jpeg({ quality: 90 }));
    const small = await jpeg(200, 150);
    for (const bytes of [icc, cmyk, small]) {
      expect(native.decodeJpeg!(bytes, MAX, 320, 320, true)).toBeNull();
      expect((await compare(bytes, letterbox)).mad).toBe(0);
    }
  });

  it('refuses an image over the pixel limit before decoding it', async () => {
    const bytes = await sharp({ create: { width: 2500, height: 2000, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    expect(() => native.decodeJpeg!(bytes, 4_000_000, 320, 320, true)).toThrow(
      /2500x2000 pixels, over the limit of 4000000/,
    );
    expect(native.decodeJpeg!(bytes, 5_000_000, 320, 320, true)).not.toBeNull();
  });

  it('throws a JavaScript error, never crashes, on corrupt and truncated data', async () => {
    const bytes = await jpeg(160, 120);
    expect(() => native.decodeJpeg!(bytes.subarray(0, bytes.length / 2), MAX, 64, 64, true)).toThrow(/premature end/i);
    expect(() => native.decodeJpeg!(Buffer.from([0xff, 0xd8, 0xff]), MAX, 64, 64, true)).toThrow();
    // Every truncation, and random corruption past the markers: each either
    // decodes or throws; the process survives all of them.
    let outcomes = 0;
    for (let end = 0; end < bytes.length; end += 37) {
      try {
        native.decodeJpeg!(bytes.subarray(0, end), MAX, 64, 64, true);
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
      }
      outcomes++;
    }
    let seed = 99;
    for (let i = 0; i < 300; i++) {
      const broken = Buffer.from(bytes);
      for (let k = 0; k < 1 + (i % 8); k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        broken[(seed >>> 8) % broken.length] = seed & 0xff;
      }
      try {
        const out = native.decodeJpeg!(broken, MAX, 64, 64, i % 2 === 0);
        if (out) expect(out.data.length).toBe(out.pixelsWidth * out.pixelsHeight * out.channels);
      } catch (error) {
        expect(error).toBeInstanceOf(Error);
      }
      outcomes++;
    }
    expect(outcomes).toBeGreaterThan(300);
  });

  it('decodes the whole image at its own size for a version with child stages, as sharp does, orientation applied', async () => {
    for (const orientation of [1, 6]) {
      const bytes = withOrientation(await jpeg(640, 360), orientation, true);
      const whole = native.decodeJpeg!(bytes, MAX, 0, 0, true);
      const size = orientation === 6 ? [360, 640] : [640, 360];
      expect([whole!.width, whole!.height, whole!.pixelsWidth, whole!.pixelsHeight]).toEqual([...size, ...size]);
      const decoded = await decodeImage(bytes, { ...letterbox, fullSize: true }, MAX, 'libturbojpeg');
      expect([decoded.pixels.width, decoded.pixels.height]).toEqual(size);
      // the placement is still the model input's
      expect(decoded.placement).toEqual((await decodeImage(bytes, letterbox, MAX, 'libturbojpeg')).placement);
      const reference = await sharp(bytes).autoOrient().raw().toBuffer();
      expect(differences(decoded.pixels.data, reference).max).toBeLessThanOrEqual(2);
    }
  });

  it('decodes the whole image into shared memory it is given when it fits, else into its own', async () => {
    const bytes = await jpeg(640, 360);
    const own = await decodeImage(bytes, { ...letterbox, fullSize: true }, MAX, 'libturbojpeg');
    const size = 640 * 360 * 3;
    // a reused buffer: bigger than the image, and dirty from an earlier one
    const roomy = new Uint8Array(new SharedArrayBuffer(size + 4096)).fill(7);
    const into = await decodeImage(bytes, { ...letterbox, fullSize: true, into: roomy }, MAX, 'libturbojpeg');
    expect(into.pixels.data.buffer).toBe(roomy.buffer);
    expect(into.pixels.data.byteLength).toBe(size);
    expect(Buffer.from(into.pixels.data).equals(Buffer.from(own.pixels.data))).toBe(true);
    const small = new Uint8Array(new SharedArrayBuffer(size - 1)).fill(7);
    const apart = await decodeImage(bytes, { ...letterbox, fullSize: true, into: small }, MAX, 'libturbojpeg');
    expect(apart.pixels.data.buffer).not.toBe(small.buffer);
    expect(small.every((v) => v === 7)).toBe(true);
    expect(Buffer.from(apart.pixels.data).equals(Buffer.from(own.pixels.data))).toBe(true);
    // only the whole image goes there: one sized for the model input does not
    const sized = await decodeImage(bytes, { ...letterbox, into: roomy.fill(7) }, MAX, 'libturbojpeg');
    expect(sized.pixels.data.buffer).not.toBe(roomy.buffer);
    expect(roomy.every((v) => v === 7)).toBe(true);
  });

  it('validates its arguments', () => {
    const call = native.decodeJpeg as unknown as (...args: unknown[]) => unknown;
    expect(() => call(new Uint8Array(10), MAX, 320, 320, true, new Float32Array(4))).toThrow(
      /into must be a Uint8Array/,
    );
    expect(() => call('not bytes', MAX, 320, 320, true)).toThrow(/decodeJpeg\(bytes/);
    expect(() => call(new Uint8Array(10), MAX, 0, 320, true)).toThrow(/invalid box dimensions/);
    expect(() => call(new Uint16Array(10), MAX, 320, 320, true)).toThrow(/Uint8Array/);
  });
});

/** Per-value differences, in levels: mean, max, and the share (%) more than 2 apart. */
function differences(a: Uint8Array, b: Uint8Array): { mean: number; max: number; over2: number } {
  expect(a.length).toBe(b.length);
  let sum = 0;
  let max = 0;
  let over = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    sum += d;
    max = Math.max(max, d);
    if (d > 2) over++;
  }
  return { mean: sum / a.length, max, over2: (100 * over) / a.length };
}

describe.skipIf(!hasNative)('native JPEG decoding of textured photographs', () => {
  // One photograph-like image (fine texture and grain: where a scaled IDCT
  // and a filtered reduction part ways), cut to sizes that reach every DCT
  // scale, with a partial last block (odd sizes), in both chroma layouts.
  const source = photo(1281, 721, 7);
  const cut = (width: number, height: number, chromaSubsampling: string) =>
    sharp(source, { raw: { width: 1281, height: 721, channels: 3 } })
      .extract({ left: 0, top: 0, width, height })
      .jpeg({ quality: 90, chromaSubsampling })
      .toBuffer();

  it.each([
    // [width, height, box, resize]: the DCT scale sharp picks (1/1, 1/2, 1/4, 1/8), then the rest with its filter
    [1280, 720, 320, 'letterbox'], // exactly 4x: 1/2 then 2x (never 1/4 alone)
    [1280, 720, 640, 'letterbox'], // exactly 2x: full decode then 2x (never 1/2 alone)
    [1281, 721, 320, 'letterbox'], // 1/2 leaves 640x360 of 641x361
    [1281, 721, 640, 'letterbox'],
    [1000, 720, 320, 'letterbox'],
    [1000, 720, 640, 'letterbox'],
    [540, 721, 320, 'letterbox'], // portrait
    [1281, 721, 160, 'letterbox'], // 1/4
    [1281, 721, 128, 'letterbox'], // 1/8
    [1281, 721, 320, 'stretch'], // 4x across: a box average first, as libvips
    [1280, 720, 100, 'stretch'],
  ] as const)('%ix%i into %i (%s): within 2 levels of sharp, 4:2:0 and 4:4:4', async (width, height, box, resize) => {
    const target: DecodeTarget = { width: box, height: box, resize, padValue: 114 };
    for (const chroma of ['4:2:0', '4:4:4']) {
      const bytes = await cut(width, height, chroma);
      expect(native.decodeJpeg!(bytes, MAX, box, box, resize === 'letterbox'), chroma).not.toBeNull();
      const { decoded } = await compare(bytes, target);
      const ref = await sharpReference(bytes, target);
      // Measured before this path followed sharp's DCT scale: at 1280x720
      // into 320 and 640, a mean of 2.1-3.1 levels, up to 29-48 at some
      // pixels, 33-48 % of the values more than 2 apart.
      const diff = differences(decoded.pixels.data, ref.data);
      expect(diff.max, `${chroma}: ${JSON.stringify(diff)}`).toBeLessThanOrEqual(2);
      expect(diff.mean, chroma).toBeLessThan(0.3);
    }
  });
});

describe('decodeImage JPEG behaviour, whichever decoder runs', () => {
  it('words corrupt and truncated JPEGs as before', async () => {
    const bytes = await jpeg(200, 200);
    for (const broken of [
      bytes.subarray(0, bytes.length / 2),
      Buffer.concat([bytes.subarray(0, 200), Buffer.alloc(3000, 0x5a)]),
    ]) {
      const error = await rejection(decodeImage(broken, letterbox, MAX));
      expect(error.message).toBe('could not parse image');
      expect(error.detail).toMatch(/^image: jpeg: /);
    }
  });

  it('refuses a JPEG over the pixel limit with the explicit message, in displayed orientation', async () => {
    const bomb = await sharp({ create: { width: 2500, height: 2000, channels: 3, background: '#777' } })
      .jpeg()
      .toBuffer();
    expect((await rejection(decodeImage(bomb, letterbox, 4_000_000))).detail).toBe(
      'image: 2500x2000 pixels exceeds the limit of 4000000 pixels',
    );
    const rotated = withOrientation(bomb, 6, true);
    expect((await rejection(decodeImage(rotated, letterbox, 4_000_000))).detail).toBe(
      'image: 2000x2500 pixels exceeds the limit of 4000000 pixels',
    );
  });

  it('falls back to sharp, unchanged, when the addon has no JPEG decoder', async () => {
    const bytes = await jpeg(1280, 720);
    const addon = native as { hasJpegDecoder?: boolean };
    const saved = addon.hasJpegDecoder;
    addon.hasJpegDecoder = false;
    try {
      expect((await compare(bytes, letterbox)).mad).toBe(0);
    } finally {
      addon.hasJpegDecoder = saved;
    }
  });
});
