// The first half of a prediction, up to the input tensor: image bytes out of
// the request body, decoded (sharp, shrink-on-load) and written by the
// native addon — resampled, padded, normalised, in the model's layout and
// dtype — straight into a tensor slot. Runs in a pipeline worker; pure
// functions, so tools can also run them in process.
import { performance } from 'node:perf_hooks';
import { decodeImage } from './decode-image.js';
import type { Placement } from './letterbox.js';
import type { ModelConfig } from './model-config.js';
import { native, type PreprocessSpec } from './native.js';

export type InputConfig = ModelConfig['input'];

/** Elements of one image's input tensor (3 channels). */
export function inputElements(input: InputConfig): number {
  return input.width * input.height * 3;
}

export function bytesPerElement(input: InputConfig): number {
  return input.dtype === 'float16' ? 2 : 4;
}

/** A typed view of one image's tensor in `buffer` at `byteOffset`. */
export function tensorView(input: InputConfig, buffer: ArrayBufferLike, byteOffset = 0): Float32Array | Uint16Array {
  const elements = inputElements(input);
  return input.dtype === 'float16' ? new Uint16Array(buffer, byteOffset, elements) : new Float32Array(buffer, byteOffset, elements);
}

type Normalisation = Pick<PreprocessSpec, 'mul' | 'add' | 'pad' | 'bgr' | 'nhwc'>;

function normalisation(input: InputConfig): Normalisation {
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
export function fillPadding(input: InputConfig, tensor: Float32Array | Uint16Array): void {
  const placement = { dstWidth: input.width, dstHeight: input.height, rectX: 0, rectY: 0, rectWidth: 1, rectHeight: 1 };
  native.preprocess(new Uint8Array(3), 1, 1, 3, tensor, { ...placement, ...normalisation(input) });
}

export interface PreprocessResult {
  /** where the image landed in the input, to map boxes back */
  placement: Placement;
  decodeMs: number;
  preprocessMs: number;
}

/** Decodes `image` and writes its input tensor into `tensor`. Throws DomainError for the client's mistakes. */
export async function preprocessInto(
  image: Uint8Array,
  input: InputConfig,
  tensor: Float32Array | Uint16Array,
  maxPixels: number,
): Promise<PreprocessResult> {
  const t0 = performance.now();
  const { width, height, resize, padValue } = input;
  const { pixels, placement } = await decodeImage(image, { width, height, resize, padValue }, maxPixels);
  const t1 = performance.now();
  native.preprocess(pixels.data, pixels.width, pixels.height, pixels.channels, tensor, { ...placement, ...normalisation(input) });
  return { placement, decodeMs: t1 - t0, preprocessMs: performance.now() - t1 };
}
