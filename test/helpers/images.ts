// Test images in every supported format, built here (no binary fixtures).
import sharp from 'sharp';

export type Format = 'jpeg' | 'png' | 'gif' | 'bmp' | 'tiff' | 'webp';
export const FORMATS: readonly Format[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff', 'webp'];

/** RGB pixels with a gradient and a few blocks, so images are not flat. */
export function pattern(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = ((x >> 3) ^ (y >> 3)) & 1 ? 200 : 40;
    }
  }
  return data;
}

/**
 * Something like a textured photograph: value noise at several scales down
 * to 2 pixels (foliage, fabric, gravel), shapes with hard edges, and grain -
 * the high frequencies on which DCT scaling and filtered reduction part
 * ways, which smooth synthetic scenes hardly have. Deterministic per seed.
 */
export function photo(width: number, height: number, seed = 1): Buffer {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0; // mulberry32
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const v = new Float32Array(width * height * 3).fill(128);
  for (const [cell, amplitude] of [
    [96, 120],
    [32, 120],
    [11, 60],
    [4, 45],
    [2, 35],
  ] as const) {
    const gw = Math.ceil(width / cell) + 2;
    const gh = Math.ceil(height / cell) + 2;
    const grid = Float32Array.from({ length: gw * gh * 3 }, () => random() - 0.5);
    for (let y = 0; y < height; y++) {
      const iy = Math.floor(y / cell);
      const ty = y / cell - iy;
      const sy = ty * ty * (3 - 2 * ty);
      for (let x = 0; x < width; x++) {
        const ix = Math.floor(x / cell);
        const tx = x / cell - ix;
        const sx = tx * tx * (3 - 2 * tx);
        const a = (iy * gw + ix) * 3;
        const b = a + gw * 3;
        for (let c = 0; c < 3; c++) {
          const top = grid[a + c]! + (grid[a + 3 + c]! - grid[a + c]!) * sx;
          const bottom = grid[b + c]! + (grid[b + 3 + c]! - grid[b + c]!) * sx;
          v[(y * width + x) * 3 + c]! += (top + (bottom - top) * sy) * amplitude;
        }
      }
    }
  }
  for (let k = 0; k < 40; k++) {
    const [cx, cy, r, square] = [random() * width, random() * height, 5 + random() * 80, random() < 0.5];
    const colour = [random() * 255, random() * 255, random() * 255];
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, cy + r); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, cx + r); x++) {
        const inside = square ? Math.abs(y - cy) < r * 0.6 : (x - cx) ** 2 + (y - cy) ** 2 < r * r;
        if (!inside) continue;
        for (let c = 0; c < 3; c++) v[(y * width + x) * 3 + c] = v[(y * width + x) * 3 + c]! * 0.3 + colour[c]! * 0.7;
      }
    }
  }
  const rgb = Buffer.alloc(v.length);
  for (let i = 0; i < v.length; i++) rgb[i] = Math.max(0, Math.min(255, Math.round(v[i]! + (random() - 0.5) * 24)));
  return rgb;
}

export interface BmpOptions {
  bitsPerPixel?: 24 | 32 | 8;
  topDown?: boolean;
}

/** An uncompressed BMP (BITMAPINFOHEADER) of RGB pixels; 8-bit uses a palette of the colours present. */
export function encodeBmp(rgb: Buffer, width: number, height: number, options: BmpOptions = {}): Buffer {
  const bpp = options.bitsPerPixel ?? 24;
  const stride = Math.ceil((bpp * width) / 32) * 4;
  const palette: number[] = [];
  const index = new Map<number, number>();
  if (bpp === 8) {
    for (let i = 0; i < width * height; i++) {
      const c = (rgb[i * 3]! << 16) | (rgb[i * 3 + 1]! << 8) | rgb[i * 3 + 2]!;
      if (!index.has(c)) {
        if (index.size === 256) throw new Error('more than 256 colours');
        index.set(c, index.size);
        palette.push(c);
      }
    }
  }
  const paletteBytes = palette.length * 4;
  const offset = 14 + 40 + paletteBytes;
  const size = offset + stride * height;
  const buf = Buffer.alloc(size);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(size, 2);
  buf.writeUInt32LE(offset, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(options.topDown ? -height : height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(bpp, 28);
  buf.writeUInt32LE(0, 30);
  buf.writeUInt32LE(stride * height, 34);
  buf.writeUInt32LE(palette.length, 46);
  palette.forEach((c, i) => {
    buf[54 + i * 4] = c & 0xff;
    buf[54 + i * 4 + 1] = (c >> 8) & 0xff;
    buf[54 + i * 4 + 2] = (c >> 16) & 0xff;
  });
  for (let y = 0; y < height; y++) {
    const row = offset + stride * (options.topDown ? y : height - 1 - y);
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 3;
      if (bpp === 8) {
        buf[row + x] = index.get((rgb[s]! << 16) | (rgb[s + 1]! << 8) | rgb[s + 2]!)!;
      } else {
        const d = row + x * (bpp / 8);
        buf[d] = rgb[s + 2]!;
        buf[d + 1] = rgb[s + 1]!;
        buf[d + 2] = rgb[s]!;
        if (bpp === 32) buf[d + 3] = 255;
      }
    }
  }
  return buf;
}

export async function makeImage(format: Format, width: number, height: number): Promise<Buffer> {
  const rgb = pattern(width, height);
  if (format === 'bmp') return encodeBmp(rgb, width, height);
  const image = sharp(rgb, { raw: { width, height, channels: 3 } });
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 90 }).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'tiff':
      return image.tiff().toBuffer();
    case 'webp':
      return image.webp({ quality: 90 }).toBuffer();
  }
}
