// The first half of a prediction, up to the input tensor: image bytes out of
// the request body, decoded (sharp, shrink-on-load) and written by the
// native addon — resampled, padded, in the model's layout — straight into a
// tensor slot: as uint8 pixels for a prepared model (prepared-model.ts: the
// graph normalises them), or normalised float32/float16 for one whose
// rewrite was left out. Runs in a pipeline worker; pure functions, so tools
// can also run them in process.
import { performance } from 'node:perf_hooks';
import { decodeImage, type JpegDecoder } from './decode-image.js';
import { placeImage, type Placement } from './letterbox.js';
import type { CropRect } from './crops.js';
import type { ModelConfig } from '../versions/model-config.js';
import { native, type PreprocessSpec } from '../native.js';
import type { InputDtype } from '../instances/prepared-model.js';

export type InputConfig = ModelConfig['input'];

/** An input tensor's elements: float32, float16 (as IEEE half bits) or uint8 pixels. */
export type TensorArray = Float32Array | Uint16Array | Uint8Array;

/** Elements of one image's input tensor (3 channels). */
export function inputElements(input: InputConfig): number {
  return input.width * input.height * 3;
}

export function bytesPerElement(dtype: InputDtype): number {
  return dtype === 'uint8' ? 1 : dtype === 'float16' ? 2 : 4;
}

export function newTensorArray(dtype: InputDtype, elements: number): TensorArray {
  return dtype === 'uint8'
    ? new Uint8Array(elements)
    : dtype === 'float16'
      ? new Uint16Array(elements)
      : new Float32Array(elements);
}

/** A typed view of one image's tensor in `buffer` (a tensor slot). */
export function tensorView(dtype: InputDtype, input: InputConfig, buffer: ArrayBufferLike): TensorArray {
  const elements = inputElements(input);
  return dtype === 'uint8'
    ? new Uint8Array(buffer, 0, elements)
    : dtype === 'float16'
      ? new Uint16Array(buffer, 0, elements)
      : new Float32Array(buffer, 0, elements);
}

type Normalisation = Pick<PreprocessSpec, 'mul' | 'add' | 'pad' | 'bgr' | 'nhwc'>;

/** value = pixel * mul[c] + add[c] per RGB channel (mul = 1 / (scale * std), add = -mean / std), and the rest of the layout. */
export function normalisation(input: InputConfig): Normalisation {
  const { scale, mean, std, padValue, color, layout } = input;
  return {
    mul: [0, 1, 2].map((c) => 1 / (scale * std[c]!)) as [number, number, number],
    add: [0, 1, 2].map((c) => -mean[c]! / std[c]!) as [number, number, number],
    pad: [padValue, padValue, padValue],
    bgr: color === 'BGR',
    nhwc: layout === 'NHWC',
  };
}

/** Fills `tensor` with the letterbox border only: the input of warm-up runs. */
export function fillPadding(input: InputConfig, tensor: TensorArray): void {
  const placement = { dstWidth: input.width, dstHeight: input.height, rectX: 0, rectY: 0, rectWidth: 1, rectHeight: 1 };
  native.preprocess(new Uint8Array(3), 1, 1, 3, tensor, { ...placement, ...normalisation(input) });
}

export interface PreprocessResult {
  /** where the image landed in the input, to map boxes back */
  placement: Placement;
  decodeMs: number;
  preprocessMs: number;
  /** the decoded image at its own size, when asked to keep it (a version with child stages crops from it) */
  kept?: KeptImage;
  /** whether `kept` is in the buffer it was offered (`keep.into`), rather than in a new one */
  keptInOffered?: boolean;
}

/** A decoded image kept for its crops, in shared memory: any pipeline worker may cut them. */
export interface KeptImage {
  /** the pixels from its start (it may be longer: a reused buffer, kept-images.ts) */
  data: SharedArrayBuffer;
  width: number;
  height: number;
  channels: number;
}

/** Keep the decoded image at its own size, in `into` when it fits (a buffer reused from an earlier request). */
export interface KeepSettings {
  into?: SharedArrayBuffer | undefined;
}

/**
 * Decodes `image` and writes its input tensor into `tensor`; with `keep`,
 * decodes it at its own size and keeps those pixels too, in shared memory.
 * Throws DomainError for the client's mistakes.
 */
export async function preprocessInto(
  image: Uint8Array,
  input: InputConfig,
  tensor: TensorArray,
  maxPixels: number,
  jpeg?: JpegDecoder,
  keep?: KeepSettings,
): Promise<PreprocessResult> {
  const t0 = performance.now();
  const { width, height, resize, padValue } = input;
  const offered = keep?.into;
  const target = {
    width,
    height,
    resize,
    padValue,
    fullSize: keep !== undefined,
    into: offered && new Uint8Array(offered),
  };
  const { pixels, placement } = await decodeImage(image, target, maxPixels, jpeg);
  const t1 = performance.now();
  native.preprocess(pixels.data, pixels.width, pixels.height, pixels.channels, tensor, {
    ...placement,
    ...normalisation(input),
  });
  const result: PreprocessResult = { placement, decodeMs: t1 - t0, preprocessMs: 0 };
  if (keep) {
    let data = pixels.data.buffer;
    // Decoded elsewhere (sharp, BMP, a buffer too small): copied into shared memory, the offered buffer when it fits.
    if (data !== offered) {
      data =
        offered && offered.byteLength >= pixels.data.byteLength
          ? offered
          : new SharedArrayBuffer(pixels.data.byteLength);
      new Uint8Array(data).set(pixels.data);
    }
    result.kept = {
      data: data as SharedArrayBuffer,
      width: pixels.width,
      height: pixels.height,
      channels: pixels.channels,
    };
    result.keptInOffered = data === offered;
  }
  result.preprocessMs = performance.now() - t1;
  return result;
}

/**
 * Each crop of a kept image resampled into a child's input tensor in
 * `slots` (one each, in order; `input`, elements of `dtype`): cut and
 * resized in one pass by the addon, read in place. Answers where each crop
 * landed in its tensor.
 */
export function cropsInto(
  image: KeptImage,
  rects: readonly CropRect[],
  input: InputConfig,
  dtype: InputDtype,
  slots: readonly SharedArrayBuffer[],
): Placement[] {
  const pixels = new Uint8Array(image.data);
  const layout = normalisation(input);
  return rects.map((rect, i) => {
    const placement = placeImage(rect.width, rect.height, input.width, input.height, input.resize);
    native.preprocess(pixels, image.width, image.height, image.channels, tensorView(dtype, input, slots[i]!), {
      ...placement,
      ...layout,
      crop: rect,
    });
    return placement;
  });
}
