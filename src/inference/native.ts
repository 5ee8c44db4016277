// Typed access to the C++ addon (native/). Built by `npm ci` through cmake-js.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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
}

export interface DecodedBmp {
  width: number;
  height: number;
  channels: 3;
  data: Buffer;
}

interface NativeAddon {
  decodeBmp(bytes: Uint8Array, maxPixels: number): DecodedBmp;
  preprocess(
    src: Uint8Array,
    srcWidth: number,
    srcHeight: number,
    srcChannels: number,
    dst: Float32Array | Uint16Array,
    spec: PreprocessSpec,
  ): void;
}

const addonPath = fileURLToPath(new URL('../../native/build/Release/sense_native.node', import.meta.url));

function load(): NativeAddon {
  try {
    return createRequire(import.meta.url)(addonPath) as NativeAddon;
  } catch (error) {
    throw new Error(`the native addon is not built (${addonPath}); run "npm ci" or "npm run build:native": ${(error as Error).message}`);
  }
}

export const native: NativeAddon = load();
