import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/lib/fifo.js';

describe('Fifo', () => {
  it('gives items back in the order they came, peeking without taking', () => {
    const fifo = new Fifo<string>();
    expect(fifo.shift()).toBeUndefined();
    expect(fifo.peek()).toBeUndefined();
    fifo.push('a');
    fifo.push('b');
    expect(fifo.peek()).toBe('a');
    expect(fifo.length).toBe(2);
    expect(fifo.shift()).toBe('a');
    fifo.push('c');
    expect([fifo.shift(), fifo.shift(), fifo.shift()]).toEqual(['b', 'c', undefined]);
    expect(fifo.length).toBe(0);
  });

  it('keeps the order across the cuts of a long queue drained while it grows', () => {
    const fifo = new Fifo<number>();
    const taken: number[] = [];
    let next = 0;
    // Three in, two out: the queue grows past the cut-off while its head is taken.
    for (let round = 0; round < 5000; round++) {
      for (let i = 0; i < 3; i++) fifo.push(next++);
      taken.push(fifo.shift()!, fifo.shift()!);
      expect(fifo.length).toBe(next - taken.length);
    }
    while (fifo.length > 0) taken.push(fifo.shift()!);
    expect(taken).toEqual(Array.from({ length: next }, (_, i) => i));
  });
});
