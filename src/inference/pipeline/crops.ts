// A child stage's crops: which of a parent's detections are cropped, the
// pixel rectangle each one's crop covers in the decoded image, and the way
// back from a child's answer on a crop (fractions of the crop) to fractions
// of the whole image. Pure functions, shared by the worker that cuts the
// crops and by anyone who must cut the same ones (tests, tools).
import type { Answer, Children } from './detections.js';
import { round } from './detections.js';

/** How a stage cuts a detection's crop (model-config.ts `stages[].crop`). */
export interface CropSettings {
  /** added on each side, as a fraction of the box's width (left, right) and height (top, bottom) */
  padding: number;
  /** the shorter side grown, around the centre, to the longer one (after padding) */
  square: boolean;
  /** a box whose crop is narrower or lower than this, in the image's pixels, is not run */
  minSize: number;
}

/** A crop: a rectangle of whole pixels inside the image. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A detection's box in fractions of the image, whatever its shape: a polygon's bounds; none for a point or a class. */
export function boxOf(answer: Answer): [number, number, number, number] | undefined {
  if (answer.type === 'rectangle')
    return [answer.data.min[0], answer.data.min[1], answer.data.max[0], answer.data.max[1]];
  if (answer.type === 'polygon' && answer.data.points.length > 0) {
    const xs = answer.data.points.map((p) => p[0]);
    const ys = answer.data.points.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  return undefined;
}

/**
 * The pixels a box's crop covers in a `width` x `height` image: the box in
 * pixels, padded, squared if asked, clamped to the image, then widened to
 * whole pixels (floor of the start, ceiling of the end). Undefined when it
 * is smaller than `minSize` either way, or empty.
 */
export function cropRect(
  box: readonly [number, number, number, number],
  width: number,
  height: number,
  settings: CropSettings,
): CropRect | undefined {
  let [x1, y1, x2, y2] = [box[0] * width, box[1] * height, box[2] * width, box[3] * height];
  const padX = (x2 - x1) * settings.padding;
  const padY = (y2 - y1) * settings.padding;
  x1 -= padX;
  x2 += padX;
  y1 -= padY;
  y2 += padY;
  if (settings.square) {
    const side = Math.max(x2 - x1, y2 - y1);
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    [x1, x2, y1, y2] = [cx - side / 2, cx + side / 2, cy - side / 2, cy + side / 2];
  }
  const left = Math.max(0, Math.floor(x1));
  const top = Math.max(0, Math.floor(y1));
  const right = Math.min(width, Math.ceil(x2));
  const bottom = Math.min(height, Math.ceil(y2));
  const rect = { x: left, y: top, width: right - left, height: bottom - top };
  if (rect.width <= 0 || rect.height <= 0) return undefined;
  if (rect.width < settings.minSize || rect.height < settings.minSize) return undefined;
  return rect;
}

/**
 * A child's answers on a crop (fractions of the crop) as fractions of the
 * whole `width` x `height` image: rectangles, polygons and points moved and
 * scaled, classes as they are; their own children too.
 */
export function toImage(answers: Record<string, Answer[]>, rect: CropRect, width: number, height: number): Children {
  const x = (v: number) => round((rect.x + v * rect.width) / width);
  const y = (v: number) => round((rect.y + v * rect.height) / height);
  const point = (p: [number, number]): [number, number] => [x(p[0]), y(p[1])];
  const moved = Object.create(null) as Children;
  for (const [label, list] of Object.entries(answers)) {
    moved[label] = list.map((a): Answer => {
      const children = toImage(a.children, rect, width, height);
      switch (a.type) {
        case 'rectangle':
          return { ...a, data: { min: point(a.data.min), max: point(a.data.max) }, children };
        case 'polygon':
          return { ...a, data: { points: a.data.points.map(point) }, children };
        case 'point':
          return { ...a, data: { point: point(a.data.point) }, children };
        case 'class':
          return { ...a, children };
      }
    });
  }
  return moved;
}
