// The C++ addon: BMP decoding in every supported layout, and the one-pass
// preprocessing checked pixel by pixel against a plain JavaScript reference.
import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBuild, native, sourcesDigest } from '../../src/inference/native.js';
import { encodeBmp, pattern } from '../helpers/images.js';

describe('the addon build', () => {
  const sources = resolve(import.meta.dirname, '../../native/src');

  it('was built from the sources native/src holds: the loader computes the digest CMake compiled in', () => {
    expect(native.sourcesDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(sourcesDigest(sources)).toBe(native.sourcesDigest);
  });

  it('is refused, with the command that rebuilds it, once a source changes', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'native-src-'));
    try {
      await cp(sources, copy, { recursive: true });
      expect(() => checkBuild(native.sourcesDigest, copy)).not.toThrow();
      await appendFile(join(copy, 'bmp.h'), '\n// edited\n');
      expect(() => checkBuild(native.sourcesDigest, copy)).toThrow(
        /was built from other sources than .* holds now .*run "npm run build:native"/,
      );
      // An addon from before digests says so.
      expect(() => checkBuild(undefined, copy)).toThrow(/built from sources before digests/);
      // An installation without the sources has nothing to compare.
      expect(() => checkBuild('0'.repeat(64), join(copy, 'absent'))).not.toThrow();
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

function bmp16(rgb: Buffer, width: number, height: number): Buffer {
  // 16-bit BI_RGB, 5-5-5, bottom-up
  const stride = Math.ceil((16 * width) / 32) * 4;
  const buf = encodeBmp(rgb, width, height); // reuse its headers, then rewrite
  const out = Buffer.alloc(54 + stride * height);
  buf.copy(out, 0, 0, 54);
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt16LE(16, 28);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 3;
      const v = ((rgb[s]! >> 3) << 10) | ((rgb[s + 1]! >> 3) << 5) | (rgb[s + 2]! >> 3);
      out.writeUInt16LE(v, 54 + stride * (height - 1 - y) + x * 2);
    }
  }
  return out;
}

function bmp1(bits: number[][], palette: Array<[number, number, number]>): Buffer {
  const height = bits.length;
  const width = bits[0]!.length;
  const stride = Math.ceil(width / 32) * 4;
  const offset = 14 + 40 + 8;
  const buf = Buffer.alloc(offset + stride * height);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(offset, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(1, 28);
  palette.forEach(([r, g, b], i) => {
    buf[54 + i * 4] = b;
    buf[55 + i * 4] = g;
    buf[56 + i * 4] = r;
  });
  bits.forEach((row, y) =>
    row.forEach((bit, x) => {
      if (bit) buf[offset + stride * (height - 1 - y) + (x >> 3)]! |= 0x80 >> (x & 7);
    }),
  );
  return buf;
}

describe('decodeBmp', () => {
  const width = 37; // odd width: rows need padding to 4 bytes
  const height = 23;
  const rgb = pattern(width, height);

  it.each([
    ['24-bit bottom-up', { bitsPerPixel: 24 }],
    ['24-bit top-down', { bitsPerPixel: 24, topDown: true }],
    ['32-bit bottom-up', { bitsPerPixel: 32 }],
    ['32-bit top-down', { bitsPerPixel: 32, topDown: true }],
  ] as const)('decodes %s exactly', (_name, options) => {
    const decoded = native.decodeBmp(encodeBmp(rgb, width, height, options), 1e9);
    expect([decoded.width, decoded.height, decoded.channels]).toEqual([width, height, 3]);
    expect(Buffer.compare(decoded.data, rgb)).toBe(0);
  });

  it('decodes an 8-bit palette image exactly', () => {
    const few = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) few.set([(i % 7) * 30, (i % 5) * 50, (i % 3) * 80], i * 3);
    const decoded = native.decodeBmp(encodeBmp(few, width, height, { bitsPerPixel: 8 }), 1e9);
    expect(Buffer.compare(decoded.data, few)).toBe(0);
  });

  it('decodes 1-bit palette and 16-bit 5-5-5 images', () => {
    const mono = native.decodeBmp(
      bmp1(
        [
          [1, 0, 1],
          [0, 1, 0],
        ],
        [
          [0, 0, 0],
          [255, 128, 7],
        ],
      ),
      1e9,
    );
    expect([...mono.data]).toEqual([255, 128, 7, 0, 0, 0, 255, 128, 7, 0, 0, 0, 255, 128, 7, 0, 0, 0]);
    const decoded = native.decodeBmp(bmp16(rgb, width, height), 1e9);
    for (let i = 0; i < rgb.length; i++) expect(Math.abs(decoded.data[i]! - rgb[i]!)).toBeLessThanOrEqual(8);
  });

  it('refuses truncated, malformed and over-limit images with a reason', () => {
    const good = encodeBmp(rgb, width, height);
    expect(() => native.decodeBmp(good.subarray(0, 20), 1e9)).toThrow('truncated header');
    expect(() => native.decodeBmp(good.subarray(0, good.length - 1), 1e9)).toThrow('truncated pixel data');
    const rle = Buffer.from(good);
    rle.writeUInt32LE(1, 30);
    expect(() => native.decodeBmp(rle, 1e9)).toThrow('unsupported BMP compression 1');
    expect(() => native.decodeBmp(good, 100)).toThrow(`image is ${width}x${height} pixels, over the limit of 100`);
    const zero = Buffer.from(good);
    zero.writeInt32LE(0, 18);
    expect(() => native.decodeBmp(zero, 1e9)).toThrow('invalid BMP dimensions');
    expect(() => native.decodeBmp('nope' as never, 1)).toThrow(TypeError);
  });
});

/** Straightforward reference of the addon's preprocessing (bilinear, pixel centres aligned). */
function reference(
  src: Uint8Array,
  sw: number,
  sh: number,
  spec: { dstWidth: number; dstHeight: number; rectX: number; rectY: number; rectWidth: number; rectHeight: number },
  mul: number[],
  add: number[],
  pad: number,
): Float32Array {
  const { dstWidth: W, dstHeight: H } = spec;
  const out = new Float32Array(W * H * 3);
  const sample = (axisSrc: number, axisDst: number, d: number) => {
    let s = ((d + 0.5) * axisSrc) / axisDst - 0.5;
    if (s < 0) s = 0;
    const a = Math.min(Math.floor(s), axisSrc - 1);
    return [a, Math.min(a + 1, axisSrc - 1), s - a] as const;
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside =
        x >= spec.rectX && x < spec.rectX + spec.rectWidth && y >= spec.rectY && y < spec.rectY + spec.rectHeight;
      for (let c = 0; c < 3; c++) {
        let v = pad;
        if (inside) {
          const [x0, x1, wx] = sample(sw, spec.rectWidth, x - spec.rectX);
          const [y0, y1, wy] = sample(sh, spec.rectHeight, y - spec.rectY);
          const p = (xx: number, yy: number) => src[(yy * sw + xx) * 3 + c]!;
          const top = p(x0, y0) + (p(x1, y0) - p(x0, y0)) * wx;
          const bottom = p(x0, y1) + (p(x1, y1) - p(x0, y1)) * wx;
          v = top + (bottom - top) * wy;
        }
        out[c * W * H + y * W + x] = v * mul[c]! + add[c]!;
      }
    }
  }
  return out;
}

describe('preprocess', () => {
  const sw = 50;
  const sh = 30;
  const src = pattern(sw, sh);
  const placement = { dstWidth: 40, dstHeight: 40, rectX: 0, rectY: 8, rectWidth: 40, rectHeight: 24 };
  const mul: [number, number, number] = [1 / 255 / 0.229, 1 / 255 / 0.224, 1 / 255 / 0.225];
  const add: [number, number, number] = [-0.485 / 0.229, -0.456 / 0.224, -0.406 / 0.225];

  it('resizes, pads and normalises in one pass like the reference (NCHW float32)', () => {
    const dst = new Float32Array(40 * 40 * 3);
    native.preprocess(src, sw, sh, 3, dst, { ...placement, bgr: false, nhwc: false, mul, add, pad: [114, 114, 114] });
    const want = reference(src, sw, sh, placement, mul, add, 114);
    let worst = 0;
    for (let i = 0; i < dst.length; i++) worst = Math.max(worst, Math.abs(dst[i]! - want[i]!));
    expect(worst).toBeLessThan(1e-4);
    expect(dst[0]).toBeCloseTo(114 * mul[0] + add[0], 5); // a padding pixel
  });

  it('copies without resampling when the image already has the rectangle size', () => {
    const dst = new Float32Array(60 * 60 * 3);
    const one = [1, 1, 1] as [number, number, number];
    native.preprocess(src, sw, sh, 3, dst, {
      dstWidth: 60,
      dstHeight: 60,
      rectX: 5,
      rectY: 15,
      rectWidth: sw,
      rectHeight: sh,
      bgr: false,
      nhwc: false,
      mul: one,
      add: [0, 0, 0],
      pad: [0, 0, 0],
    });
    for (const [x, y] of [
      [0, 0],
      [49, 29],
      [17, 3],
    ] as const) {
      for (let c = 0; c < 3; c++) expect(dst[c * 3600 + (y + 15) * 60 + (x + 5)]).toBe(src[(y * sw + x) * 3 + c]);
    }
  });

  it('writes BGR, NHWC and float16 as asked', () => {
    const nchw = new Float32Array(40 * 40 * 3);
    const base = { ...placement, mul, add, pad: [114, 114, 114] as [number, number, number] };
    native.preprocess(src, sw, sh, 3, nchw, { ...base, bgr: false, nhwc: false });
    const bgrNhwc = new Float32Array(40 * 40 * 3);
    native.preprocess(src, sw, sh, 3, bgrNhwc, { ...base, bgr: true, nhwc: true });
    const half = new Uint16Array(40 * 40 * 3);
    native.preprocess(src, sw, sh, 3, half, { ...base, bgr: false, nhwc: false });
    const toFloat = (h: number) => {
      const e = (h >> 10) & 0x1f;
      const f = h & 0x3ff;
      const v = e === 0 ? 2 ** -14 * (f / 1024) : 2 ** (e - 15) * (1 + f / 1024);
      return h & 0x8000 ? -v : v;
    };
    for (const i of [0, 123, 40 * 20 + 17, 1599]) {
      for (let c = 0; c < 3; c++) {
        const v = nchw[c * 1600 + i]!;
        expect(bgrNhwc[i * 3 + (2 - c)]).toBeCloseTo(v, 6);
        expect(toFloat(half[c * 1600 + i]!)).toBeCloseTo(v, 2);
      }
    }
  });

  it('expands grey and drops alpha channels', () => {
    const grey = Uint8Array.from({ length: 4 }, (_, i) => i * 60);
    const rgba = new Uint8Array(16);
    grey.forEach((g, i) => rgba.set([g, g, g, 255], i * 4));
    const spec = {
      dstWidth: 2,
      dstHeight: 2,
      rectX: 0,
      rectY: 0,
      rectWidth: 2,
      rectHeight: 2,
      bgr: false,
      nhwc: true,
      mul: [1, 1, 1] as [number, number, number],
      add: [0, 0, 0] as [number, number, number],
      pad: [0, 0, 0] as [number, number, number],
    };
    const a = new Float32Array(12);
    const b = new Float32Array(12);
    native.preprocess(grey, 2, 2, 1, a, spec);
    native.preprocess(rgba, 2, 2, 4, b, spec);
    expect([...a]).toEqual([0, 0, 0, 60, 60, 60, 120, 120, 120, 180, 180, 180]);
    expect([...b]).toEqual([...a]);
  });

  it("resamples a crop of the source in place as it resamples the crop's own pixels", () => {
    // rows 5-24, columns 12-43 of the pattern, by itself and read in place
    const crop = { x: 12, y: 5, width: 32, height: 20 };
    const alone = new Uint8Array(crop.width * crop.height * 3);
    for (let y = 0; y < crop.height; y++)
      alone.set(
        src.subarray(((crop.y + y) * sw + crop.x) * 3, ((crop.y + y) * sw + crop.x + crop.width) * 3),
        y * crop.width * 3,
      );
    const spec = { ...placement, bgr: false, nhwc: false, mul, add, pad: [114, 114, 114] as [number, number, number] };
    const inPlace = new Float32Array(40 * 40 * 3);
    native.preprocess(src, sw, sh, 3, inPlace, { ...spec, crop });
    const copied = new Float32Array(40 * 40 * 3);
    native.preprocess(alone, crop.width, crop.height, 3, copied, spec);
    expect([...inPlace]).toEqual([...copied]);
    // and a crop of the rectangle's size is copied as it is
    const exact = new Float32Array(40 * 40 * 3);
    native.preprocess(src, sw, sh, 3, exact, { ...spec, crop: { x: 3, y: 2, width: 40, height: 24 } });
    const one = (x: number, y: number, c: number) => exact[c * 1600 + (y + 8) * 40 + x]!;
    expect(one(0, 0, 0)).toBeCloseTo(src[(2 * sw + 3) * 3]! * mul[0] + add[0], 5);
    expect(one(39, 23, 2)).toBeCloseTo(src[(25 * sw + 42) * 3 + 2]! * mul[2] + add[2], 5);
  });

  it('refuses arguments that would read or write out of bounds', () => {
    const dst = new Float32Array(10);
    const spec = { ...placement, bgr: false, nhwc: false, mul, add, pad: [0, 0, 0] as [number, number, number] };
    expect(() => native.preprocess(src, sw, sh, 3, dst, spec)).toThrow('dst must hold dstWidth*dstHeight*3 elements');
    expect(() => native.preprocess(src.subarray(0, 10), sw, sh, 3, new Float32Array(4800), spec)).toThrow(
      'src is smaller',
    );
    expect(() => native.preprocess(src, sw, sh, 3, new Float32Array(4800), { ...spec, rectX: 30 })).toThrow(
      'the image rectangle must lie inside the destination',
    );
    expect(() =>
      native.preprocess(src, sw, sh, 3, new Float32Array(4800), {
        ...spec,
        crop: { x: 40, y: 0, width: 11, height: 5 },
      }),
    ).toThrow('spec.crop must lie inside the source');
  });
});
