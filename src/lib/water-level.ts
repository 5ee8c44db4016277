// Trimming holdings fairly to fit a total: the largest are cut first, all
// to one level, and those under the level keep all they have (max-min
// fairness, as water poured out of the tallest columns first).

/**
 * The level L such that the holdings, each cut to at most L, total
 * `total` (or less when they already do: then the largest holding, so
 * that nothing is cut).
 */
export function waterLevel(holdings: readonly number[], total: number): number {
  const sorted = [...holdings].sort((a, b) => b - a);
  let rest = sorted.reduce((sum, h) => sum + h, 0);
  if (rest <= total) return sorted[0] ?? 0;
  // Cut the k largest to one level; the others stay whole.
  for (let k = 1; k <= sorted.length; k++) {
    rest -= sorted[k - 1]!;
    const level = (total - rest) / k;
    if (level >= (sorted[k] ?? 0)) return Math.max(0, Math.floor(level));
  }
  return 0;
}
