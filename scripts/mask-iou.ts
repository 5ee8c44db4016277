// Mask overlap for the demo segmentation model's evaluation (scripts/eval-seg.ts
// and test/e2e/demo-seg-model.test.ts): a polygon answered by the server,
// rasterised on the image's pixel grid, against the generator's ground-truth
// instance map (scenes.ts instanceMask(): pixel (i, j) belongs to an object
// when the point (i + 0.5, j + 0.5) is a visible part of it).

export type Point = readonly [number, number];

/** The pixels of an image whose centre lies inside a polygon (even-odd rule), over the polygon's bounding box. */
export interface Raster {
  x0: number;
  y0: number;
  width: number;
  height: number;
  cells: Uint8Array;
  area: number;
}

/** Rasterises a polygon given in image pixels, clipped to the image, by the pixel-centre rule (as the ground truth is sampled). */
export function rasterisePolygon(points: readonly Point[], imageWidth: number, imageHeight: number): Raster {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of points) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const x0 = Math.max(0, Math.floor(minX));
  const y0 = Math.max(0, Math.floor(minY));
  const x1 = Math.min(imageWidth, Math.ceil(maxX));
  const y1 = Math.min(imageHeight, Math.ceil(maxY));
  const width = Math.max(0, x1 - x0);
  const height = Math.max(0, y1 - y0);
  const cells = new Uint8Array(width * height);
  let area = 0;
  const crossings: number[] = [];
  for (let j = 0; j < height; j++) {
    const y = y0 + j + 0.5;
    crossings.length = 0;
    for (let a = 0, b = points.length - 1; a < points.length; b = a++) {
      const [xa, ya] = points[a]!;
      const [xb, yb] = points[b]!;
      if (ya > y !== yb > y) crossings.push(xa + ((y - ya) * (xb - xa)) / (yb - ya));
    }
    crossings.sort((p, q) => p - q);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      // pixel i is inside when crossings[k] <= i + 0.5 < crossings[k + 1]
      const from = Math.max(x0, Math.ceil(crossings[k]! - 0.5));
      const to = Math.min(x1, Math.ceil(crossings[k + 1]! - 0.5));
      for (let i = from; i < to; i++) {
        cells[j * width + (i - x0)] = 1;
        area++;
      }
    }
  }
  return { x0, y0, width, height, cells, area };
}

/** Pixel count of every instance id of `ids` (row-major, imageWidth wide): index k is id k. */
export function instanceAreas(ids: Uint8Array): number[] {
  const areas = new Array<number>(256).fill(0);
  for (const v of ids) areas[v]!++;
  return areas;
}

/** How many pixels of the raster each instance id covers: index k is id k. */
export function overlapByInstance(raster: Raster, ids: Uint8Array, imageWidth: number): number[] {
  const counts = new Array<number>(256).fill(0);
  for (let j = 0; j < raster.height; j++) {
    const row = (raster.y0 + j) * imageWidth + raster.x0;
    for (let i = 0; i < raster.width; i++) {
      if (raster.cells[j * raster.width + i]) counts[ids[row + i]!]!++;
    }
  }
  return counts;
}

/** IoU of a raster with each object of an instance map: result[k] is objects[k]'s (id k + 1). */
export function maskIous(
  raster: Raster,
  ids: Uint8Array,
  imageWidth: number,
  areas: readonly number[],
  objects: number,
): number[] {
  const overlap = overlapByInstance(raster, ids, imageWidth);
  return Array.from({ length: objects }, (_, k) => {
    const inter = overlap[k + 1]!;
    const union = raster.area + areas[k + 1]! - inter;
    return union > 0 ? inter / union : 0;
  });
}
