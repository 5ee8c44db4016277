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
