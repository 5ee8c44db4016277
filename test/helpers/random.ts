// Deterministic pseudo-random numbers for generated-input tests, so a
// failure can be replayed from its seed.

/** mulberry32: numbers in [0, 1) from a 32-bit seed. */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
