// Polygons out of binary masks, for instance segmentation: the outer
// boundary of a mask's largest 4-connected part, traced along the cells'
// edges (so a traced polygon covers exactly the part's cells, holes filled),
// and Douglas-Peucker simplification of closed polygons. Coordinates are in
// cells: cell (column x, row y) spans (x, y) to (x + 1, y + 1).

export type Vertex = [number, number];

/** A row-major grid of cells; nonzero cells are in the mask. */
export interface Grid {
  cells: Uint8Array;
  width: number;
  height: number;
}

/**
 * The largest 4-connected part of the mask (the first in row-major order
 * among equals), as a grid of its own; undefined when the mask is empty.
 * Parts touching only at a corner are separate: their traced outlines
 * would otherwise meet at a point.
 */
export function largestPart(mask: Grid): Grid | undefined {
  const { cells, width, height } = mask;
  const part = new Int32Array(cells.length); // 0: not visited, else part number
  const stack: number[] = [];
  let best = 0;
  let bestSize = 0;
  let parts = 0;
  for (let start = 0; start < cells.length; start++) {
    if (!cells[start] || part[start]) continue;
    parts++;
    part[start] = parts;
    stack.push(start);
    let size = 0;
    while (stack.length > 0) {
      const i = stack.pop()!;
      size++;
      const x = i % width;
      const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width];
      for (const n of neighbours) {
        if (n >= 0 && n < cells.length && cells[n] && !part[n]) {
          part[n] = parts;
          stack.push(n);
        }
      }
    }
    if (size > bestSize) {
      best = parts;
      bestSize = size;
    }
  }
  if (!best) return undefined;
  return { cells: Uint8Array.from(part, (p) => (p === best ? 1 : 0)), width, height };
}

// Headings east, south, west, north: clockwise on screen, where y grows downwards.
const DX = [1, 0, -1, 0] as const;
const DY = [0, 1, 0, -1] as const;
// Offsets from a vertex to the cell ahead and to the left of each heading;
// the cell ahead and to the right is the next heading's left one.
const LEFT_X = [0, 0, -1, -1] as const;
const LEFT_Y = [-1, 0, 0, -1] as const;

/**
 * The outer boundary of a 4-connected part (as `largestPart` gives),
 * clockwise on screen from the top-left corner of its first cell in
 * row-major order, one vertex per corner. Holes do not show: the boundary
 * followed is the one the part's first cell lies on, and that is the outer one.
 */
export function traceOuterContour(part: Grid): Vertex[] {
  const { cells, width, height } = part;
  const first = cells.indexOf(1);
  if (first < 0) return [];
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < width && y < height && cells[y * width + x] === 1;
  const x0 = first % width;
  const y0 = Math.floor(first / width);
  // Walk the cell edges keeping the part on the right: turn right where the
  // cell ahead-right is outside, left where the cell ahead-left is inside.
  const vertices: Vertex[] = [[x0, y0]];
  let [x, y, heading] = [x0, y0, 0];
  for (;;) {
    x += DX[heading]!;
    y += DY[heading]!;
    if (x === x0 && y === y0) return vertices;
    const right = (heading + 1) % 4;
    const next = !inside(x + LEFT_X[right]!, y + LEFT_Y[right]!)
      ? right
      : inside(x + LEFT_X[heading]!, y + LEFT_Y[heading]!)
        ? (heading + 3) % 4
        : heading;
    if (next !== heading) vertices.push([x, y]);
    heading = next;
  }
}

/** Distance from p to the segment a-b. */
function segmentDistance(p: Vertex, a: Vertex, b: Vertex): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Douglas-Peucker on an open polyline: its ends are kept. */
function simplifyOpen(line: Vertex[], tolerance: number): Vertex[] {
  const keep = new Uint8Array(line.length);
  keep[0] = keep[line.length - 1] = 1;
  const spans: Array<[number, number]> = [[0, line.length - 1]];
  while (spans.length > 0) {
    const [from, to] = spans.pop()!;
    let farthest = -1;
    let distance = tolerance;
    for (let i = from + 1; i < to; i++) {
      const d = segmentDistance(line[i]!, line[from]!, line[to]!);
      if (d > distance) {
        farthest = i;
        distance = d;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    spans.push([from, farthest], [farthest, to]);
  }
  return line.filter((_, i) => keep[i]);
}

/**
 * Douglas-Peucker on a closed polygon: no vertex of the result is farther
 * than `tolerance` from the outline it replaces. The ring is cut at its
 * first vertex and the vertex farthest from it, both kept. A polygon that
 * would shrink below 3 vertices (a mask smaller than the tolerance) is
 * returned as it was.
 */
export function simplifyClosed(polygon: Vertex[], tolerance: number): Vertex[] {
  if (polygon.length <= 3) return polygon;
  const start = polygon[0]!;
  let cut = 1;
  for (let i = 2; i < polygon.length; i++) {
    if (
      Math.hypot(polygon[i]![0] - start[0], polygon[i]![1] - start[1]) >
      Math.hypot(polygon[cut]![0] - start[0], polygon[cut]![1] - start[1])
    )
      cut = i;
  }
  const first = simplifyOpen(polygon.slice(0, cut + 1), tolerance);
  const second = simplifyOpen([...polygon.slice(cut), start], tolerance);
  const simplified = [...first.slice(0, -1), ...second.slice(0, -1)];
  return simplified.length >= 3 ? simplified : polygon;
}
