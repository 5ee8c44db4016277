// The cheapest one-to-one matching of rows (tracks) to columns (detections)
// under a cost matrix, pairs above `maxCost` refused: the linear assignment
// ByteTrack solves with lapjv, here the Hungarian method with potentials
// (O(n² m), n ≤ m after transposing), which for the tens of objects a camera
// sees is a few microseconds. Greedy matching by best IoU first would do
// almost as well, except where two paths cross, which is where a tracker is
// judged.

/** Pairs [row, column] of the cheapest matching whose every pair costs at most `maxCost`. */
export function assign(cost: readonly (readonly number[])[], maxCost: number): Array<[number, number]> {
  const rows = cost.length;
  const columns = rows === 0 ? 0 : cost[0]!.length;
  if (rows === 0 || columns === 0) return [];
  // Pairs past maxCost cost more than any matching of allowed pairs, so the solver avoids them; any it keeps are dropped after.
  const barrier = maxCost * Math.max(rows, columns) + 1;
  const at = (r: number, c: number) => {
    const value = cost[r]![c]!;
    return value > maxCost ? barrier : value;
  };
  const transposed = rows > columns;
  const [n, m] = transposed ? [columns, rows] : [rows, columns];
  const c = (i: number, j: number) => (transposed ? at(j, i) : at(i, j));
  // 1-based potentials u (rows), v (columns); match[j] = the row matched to column j (0: none).
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const match = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    match[0] = i;
    let j0 = 0;
    const minv = new Float64Array(m + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(m + 1);
    do {
      used[j0] = 1;
      const i0 = match[j0]!;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const reduced = c(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (reduced < minv[j]!) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[match[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (match[j0] !== 0);
    do {
      const j1 = way[j0]!;
      match[j0] = match[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const pairs: Array<[number, number]> = [];
  for (let j = 1; j <= m; j++) {
    const i = match[j]!;
    if (i === 0) continue;
    const [row, column] = transposed ? [j - 1, i - 1] : [i - 1, j - 1];
    if (cost[row]![column]! <= maxCost) pairs.push([row, column]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}
