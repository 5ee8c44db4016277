// An image's own bytes end where its format says (inference/pipeline/image-extent.ts):
// what follows the end marker is not the image's, however it is padded; a
// structure that breaks off has no end told.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageExtent } from '../../src/inference/pipeline/image-extent.js';
import { sniffImageFormat } from '../../src/inference/pipeline/image-format.js';
import { encodeBmp, FORMATS, makeImage, photo } from '../helpers/images.js';

/** What a hostile camera appends: bytes that look like more of the format (0xFF, chunk-like text), then zeros. */
const PADDING = Buffer.concat([Buffer.from([0xff, 0xd9, 0xff, 0x00]), Buffer.from('IEND;RIFF'), Buffer.alloc(100_000)]);

describe('imageExtent', () => {
  it.each(FORMATS)('finds the end of a %s image, padded or not', async (format) => {
    const image = await makeImage(format, 97, 61);
    expect(sniffImageFormat(image)).toBe(format);
    expect(imageExtent(image, format)).toBe(image.length);
    expect(imageExtent(Buffer.concat([image, PADDING]), format)).toBe(image.length);
  });

  it('finds the end of a progressive JPEG with metadata, an interlaced PNG, a tiled TIFF and a 32-bit BMP', async () => {
    const rgb = photo(160, 120, 7);
    const raw = { raw: { width: 160, height: 120, channels: 3 as const } };
    const images = [
      await sharp(rgb, raw).jpeg({ progressive: true, quality: 80 }).withMetadata().toBuffer(),
      await sharp(rgb, raw).png({ progressive: true }).toBuffer(),
      await sharp(rgb, raw).tiff({ tile: true, tileWidth: 64, tileHeight: 64 }).toBuffer(),
      encodeBmp(rgb, 160, 120, { bitsPerPixel: 32 }),
    ];
    for (const image of images) {
      const format = sniffImageFormat(image)!;
      expect(imageExtent(Buffer.concat([image, PADDING]), format), format).toBe(image.length);
    }
  });

  it('tells no end of an image that breaks off', async () => {
    for (const format of FORMATS) {
      const image = await makeImage(format, 97, 61);
      const cut = image.subarray(0, Math.floor(image.length / 2));
      expect(imageExtent(cut, format), format).toBeUndefined();
    }
  });
});
