// Where an image lands inside the model's input tensor, and the way back.
// Kept in one place so preprocessing and box decoding cannot disagree.

export interface Placement {
  /** the model input (tensor) size */
  dstWidth: number;
  dstHeight: number;
  /** the rectangle the whole image occupies inside the input */
  rectX: number;
  rectY: number;
  rectWidth: number;
  rectHeight: number;
}

export function placeImage(
  srcWidth: number,
  srcHeight: number,
  dstWidth: number,
  dstHeight: number,
  mode: 'letterbox' | 'stretch',
): Placement {
  if (mode === 'stretch') {
    return { dstWidth, dstHeight, rectX: 0, rectY: 0, rectWidth: dstWidth, rectHeight: dstHeight };
  }
  const ratio = Math.min(dstWidth / srcWidth, dstHeight / srcHeight);
  const rectWidth = Math.min(dstWidth, Math.max(1, Math.round(srcWidth * ratio)));
  const rectHeight = Math.min(dstHeight, Math.max(1, Math.round(srcHeight * ratio)));
  return {
    dstWidth,
    dstHeight,
    rectX: Math.floor((dstWidth - rectWidth) / 2),
    rectY: Math.floor((dstHeight - rectHeight) / 2),
    rectWidth,
    rectHeight,
  };
}

/** Input-tensor x (pixels) to a fraction of the original image width: outside [0, 1] past its edges. */
export function fractionX(p: Placement, x: number): number {
  return (x - p.rectX) / p.rectWidth;
}

export function fractionY(p: Placement, y: number): number {
  return (y - p.rectY) / p.rectHeight;
}

/** Input-tensor x (pixels) to a 0-1 fraction of the original image width, clamped. */
export function normaliseX(p: Placement, x: number): number {
  return clamp01(fractionX(p, x));
}

export function normaliseY(p: Placement, y: number): number {
  return clamp01(fractionY(p, y));
}

export function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
