// The pool of kept-image buffers (src/inference/pipeline/kept-images.ts):
// the buffer given back last is lent first, a buffer is lent to one
// request at a time, and the free buffers stay under the pool's bytes.
import { describe, expect, it } from 'vitest';
import { KeptImagePool } from '../../src/inference/pipeline/kept-images.js';

describe('KeptImagePool', () => {
  it('lends the buffer given back last, each to one borrower, none when empty', () => {
    const pool = new KeptImagePool(1000);
    expect(pool.lend()).toBeUndefined();
    const [a, b] = [new SharedArrayBuffer(100), new SharedArrayBuffer(200)];
    pool.give(a);
    pool.give(b);
    expect(pool.heldBytes).toBe(300);
    expect(pool.lend()).toBe(b);
    expect(pool.lend()).toBe(a);
    expect(pool.lend()).toBeUndefined();
    expect(pool.heldBytes).toBe(0);
  });

  it('keeps its free buffers under its bytes: the oldest make room, one bigger than the pool is not kept', () => {
    const pool = new KeptImagePool(1000);
    const [a, b, c] = [new SharedArrayBuffer(400), new SharedArrayBuffer(400), new SharedArrayBuffer(400)];
    pool.give(a);
    pool.give(b);
    pool.give(c);
    expect(pool.heldBytes).toBe(800);
    pool.give(new SharedArrayBuffer(1001));
    expect(pool.heldBytes).toBe(800);
    expect(pool.lend()).toBe(c);
    expect(pool.lend()).toBe(b);
    expect(pool.lend()).toBeUndefined();
  });
});
