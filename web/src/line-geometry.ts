// A counting line's arrow on a camera's frame. The server counts a crossing
// as `in` when an object moves from the left of the line's start → end
// vector to its right, as drawn on the image (x right, y down:
// src/lib/image-zones.ts sideOfLine). In those coordinates the right of a
// vector (dx, dy) is along (-dy, dx): for a line drawn top to bottom,
// (0, 1), that is (-1, 0), the left of the picture, where an object moving
// from x 0.8 to x 0.2 goes. The arrow is worked out in the frame's drawing
// units (its points already scaled to the frame's width and height), so that
// it stands square to the line as the line is shown; scaling x and y by
// positive factors keeps each side of the line on its side.

type Point = readonly [number, number];

export interface LineArrow {
  /** the arrow's tail: the line's middle */
  tail: [number, number];
  /** its tip, `length` away on the line's right (the side `in` crosses to) */
  tip: [number, number];
  /** its head, a triangle: the tip and two corners behind it */
  head: [[number, number], [number, number], [number, number]];
}

/**
 * The arrow showing a line's `in` direction: square to the line from its
 * middle, pointing from its left side to its right side (start → end, y
 * down). `start` and `end` are in drawing units; undefined for a line whose
 * ends coincide.
 */
export function inArrow(start: Point, end: Point, length = 28): LineArrow | undefined {
  const dx = end[0] - start[0];
  const dy = end[1] - start[1];
  const norm = Math.hypot(dx, dy);
  if (norm === 0) return undefined;
  // the unit normal on the right of start → end (y down)
  const nx = -dy / norm;
  const ny = dx / norm;
  const tail: [number, number] = [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2];
  const tip: [number, number] = [tail[0] + nx * length, tail[1] + ny * length];
  const back = Math.min(10, length / 2);
  const half = back * 0.6;
  const base: [number, number] = [tip[0] - nx * back, tip[1] - ny * back];
  // along the line's own direction (dx, dy)/norm = (ny, -nx)
  return {
    tail,
    tip,
    head: [tip, [base[0] + ny * half, base[1] - nx * half], [base[0] - ny * half, base[1] + nx * half]],
  };
}
