// From image bytes to pixels sized for the model. JPEG goes first to the
// native addon (libturbojpeg, native/src/jpeg.cc): it decodes as sharp's
// path below does - DCT scaling (1/2, 1/4, 1/8) where sharp's
// shrink-on-load would, then the same linear (triangle) reduce to the
// image's place in the model input - so its pixels are sharp's within 2
// levels, photographs included, without libvips' pipeline overhead. Whatever it does not take (CMYK, ICC profiles,
// images to enlarge, corrupt or truncated data, an addon built without
// libturbojpeg) goes to sharp as before, which also words every error.
// sharp decodes PNG, GIF (first frame), TIFF (first page) and WebP straight
// to the size the image will occupy in the model input (JPEG DCT scaling
// too); the native addon decodes BMP, which libvips cannot read, at full
// size and leaves the resize to the preprocessing pass.
import { CodedError, revivable } from '../../errors.js';
import { existsSync } from 'node:fs';
import sharp, { type Metadata } from 'sharp';
import { sniffImageFormat, type ImageFormat } from './image-format.js';
import { placeImage, type Placement } from './letterbox.js';
import { type JpegDecoderFacts, native } from '../native.js';
import { predictErrors } from '../predict-errors.js';

// Workers already run one request each in parallel; libvips threads on top
// of that would only fight over the same cores.
sharp.concurrency(1);
sharp.cache(false);

export type JpegDecoder = 'libturbojpeg' | 'sharp';

export class JpegDecoderError extends CodedError {
  readonly code = 'JPEG_DECODER_FAILED';
  static {
    revivable('JPEG_DECODER_FAILED', ({ message }) => new JpegDecoderError(message));
  }
}

/** Where libturbojpeg0-dev puts the header the addon's JPEG path is compiled against. */
export const TURBOJPEG_HEADER = '/usr/include/turbojpeg.h';

/**
 * Which decoder JPEGs get, as JPEG_DECODER asks: auto takes libturbojpeg
 * through the addon where it was built with it, else sharp for all of them
 * (slower); either may be pinned. Their pixels agree within 2 levels (the
 * native path decodes at sharp's DCT scale and reduces with its filter),
 * so the choice is one of speed. Logged at start and answered
 * by readiness, so that two servers answering differently can be told
 * apart. The reason says why sharp is used - with the command that
 * rebuilds the addon when it was built before libturbojpeg0-dev was
 * installed; throws JpegDecoderError when libturbojpeg is asked for and
 * this addon has none.
 */
export function jpegDecoder(
  wanted: 'auto' | JpegDecoder = 'auto',
  addon: JpegDecoderFacts = native,
  headerInstalled: () => boolean = () => existsSync(TURBOJPEG_HEADER),
): { decoder: JpegDecoder; reason?: string } {
  if (wanted === 'sharp') return { decoder: 'sharp', reason: 'JPEG_DECODER=sharp' };
  if (addon.hasJpegDecoder) return { decoder: 'libturbojpeg' };
  const reason =
    !addon.jpegDecoderBuilt && headerInstalled()
      ? `turbojpeg.h is installed (${TURBOJPEG_HEADER}), but the native addon was built without it: run npm run build:native to rebuild it with libturbojpeg`
      : addon.jpegDecoderMissing;
  if (wanted === 'libturbojpeg')
    throw new JpegDecoderError(`JPEG_DECODER=libturbojpeg, but the native addon has no JPEG decoder: ${reason}`);
  return { decoder: 'sharp', reason };
}

interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

export interface DecodedImage {
  format: ImageFormat;
  /** size of the image as displayed (EXIF orientation applied) */
  width: number;
  height: number;
  /** pixels to preprocess; already at placement size, except BMP and a fullSize target's (full size) */
  pixels: RawPixels;
  placement: Placement;
}

export interface DecodeTarget {
  width: number;
  height: number;
  resize: 'letterbox' | 'stretch';
  /** letterbox colour, used to flatten transparent images */
  padValue: number;
  /**
   * Decoded at the image's own size (the placement still says where it
   * lands in the model input): a version with child stages crops its
   * detections from these pixels, and the addon resamples the model's input.
   */
  fullSize?: boolean;
  /**
   * Where a fullSize JPEG decoded by the addon is written when it fits (a
   * reused kept-image buffer, kept-images.ts): the pixels are then a view of
   * it. Other decoders leave it alone; compare `pixels.data.buffer` to know.
   */
  into?: Uint8Array;
}

function checkPixels(width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw predictErrors.unreadableImage(`${width}x${height} pixels exceeds the limit of ${maxPixels} pixels`);
  }
}

/** libvips messages carry a trailing newline and sometimes several lines; keep the first. */
function cleanMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n').find((line) => line.trim() !== '') ?? 'decoding failed').trim();
}

/**
 * The native JPEG path, or undefined to leave the file to sharp: a file it
 * declines (see native.decodeJpeg), and any failure (corrupt or truncated
 * data, over maxPixels - checked before decoding), so that sharp words the
 * error exactly as it always has or, being more lenient, decodes it.
 */
function decodeJpegNatively(bytes: Uint8Array, target: DecodeTarget, maxPixels: number): DecodedImage | undefined {
  let jpeg;
  try {
    const box = target.fullSize ? [0, 0] : [target.width, target.height];
    const into = target.fullSize ? target.into : undefined;
    jpeg = native.decodeJpeg(bytes, maxPixels, box[0]!, box[1]!, target.resize === 'letterbox', into);
  } catch {
    return undefined;
  }
  if (!jpeg) return undefined;
  return {
    format: 'jpeg',
    width: jpeg.width,
    height: jpeg.height,
    pixels: {
      data: jpeg.data.subarray(0, jpeg.pixelsWidth * jpeg.pixelsHeight * jpeg.channels),
      width: jpeg.pixelsWidth,
      height: jpeg.pixelsHeight,
      channels: jpeg.channels,
    },
    placement: placeImage(jpeg.width, jpeg.height, target.width, target.height, target.resize),
  };
}

export async function decodeImage(
  bytes: Uint8Array,
  target: DecodeTarget,
  maxPixels: number,
  jpeg: JpegDecoder = jpegDecoder().decoder,
): Promise<DecodedImage> {
  const format = sniffImageFormat(bytes);
  if (!format) throw predictErrors.unknownFormat();

  if (format === 'bmp') {
    let bmp;
    try {
      bmp = native.decodeBmp(bytes, maxPixels);
    } catch (error) {
      throw predictErrors.unreadableImage(`bmp: ${cleanMessage(error)}`);
    }
    return {
      format,
      width: bmp.width,
      height: bmp.height,
      pixels: { data: bmp.data, width: bmp.width, height: bmp.height, channels: 3 },
      placement: placeImage(bmp.width, bmp.height, target.width, target.height, target.resize),
    };
  }

  if (format === 'jpeg' && jpeg === 'libturbojpeg' && native.hasJpegDecoder) {
    const decoded = decodeJpegNatively(bytes, target, maxPixels);
    if (decoded) return decoded;
  }

  const options = { limitInputPixels: maxPixels, failOn: 'error' as const, sequentialRead: true };
  let metadata: Metadata;
  try {
    // Reading the header allocates nothing: no pixel limit here, so a bomb
    // gets the explicit message below rather than libvips' generic one.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch (error) {
    throw predictErrors.unreadableImage(`${format}: ${cleanMessage(error)}`);
  }
  // The byte signature decides the format; a decoder that sees something else
  // (e.g. a TIFF-wrapped camera raw) is not what the client claimed to send.
  const decoderFormat = metadata.format;
  if (decoderFormat !== format) throw predictErrors.unknownFormat();
  const { width, height } = metadata.autoOrient ?? metadata;
  if (!width || !height) throw predictErrors.unreadableImage(`${format}: missing dimensions`);
  checkPixels(width, height, maxPixels);

  const placement = placeImage(width, height, target.width, target.height, target.resize);
  const pad = target.padValue;
  try {
    const decoder = sharp(bytes, options).autoOrient();
    if (!target.fullSize) decoder.resize(placement.rectWidth, placement.rectHeight, { fit: 'fill', kernel: 'linear' });
    const { data, info } = await decoder
      .flatten({ background: { r: pad, g: pad, b: pad } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      format,
      width,
      height,
      pixels: { data, width: info.width, height: info.height, channels: info.channels },
      placement,
    };
  } catch (error) {
    throw predictErrors.unreadableImage(`${format}: ${cleanMessage(error)}`);
  }
}
