// Memory of large request bodies goes back to the system once they are
// freed and the server is quiet: the native addon's trimMemory
// (malloc_trim, native/src/addon.cc), which the server calls when idle
// (lib/idle-trim.ts). glibc's mmap threshold rises to the largest block
// freed so far, so after one large body every body of a few MiB comes from
// a heap, a small allocation made meanwhile keeps the memory around it, and
// a server idle after a flood of uploads stayed at gigabytes. Here in a
// child process (a clean heap): one large buffer, then 300 bodies of ~3 MiB
// with small long-lived allocations among them, all freed.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ADDON = join(import.meta.dirname, '..', '..', 'native', 'build', 'Release', 'sense_native.node');

const SCENARIO = `
const { readFileSync } = require('node:fs');
const addon = require(${JSON.stringify(ADDON)});
const rss = () => Number(/VmRSS:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
const start = rss();
let big = new Uint8Array(30 * 1024 * 1024); big.fill(1); big = null; globalThis.gc();
const keep = []; let bodies = [];
for (let i = 0; i < 300; i++) {
  const b = new Uint8Array(3 * 1024 * 1024 + (i % 7) * 4096); b.fill(2); bodies.push(b);
  if (i % 10 === 0) keep.push(new Uint8Array(64 * 1024 + i));
}
const peak = rss(); bodies = null; globalThis.gc();
// V8 frees dead ArrayBuffers' memory on a background thread after the GC:
// measured once node's allocator has seen it back (process.memoryUsage().arrayBuffers).
const measure = () => {
  const freed = rss();
  addon.trimMemory();
  console.log(JSON.stringify({ start, peak, freed, after: rss(), kept: keep.length, waitedMs: Date.now() - freedAt, arrayBuffers: process.memoryUsage().arrayBuffers }));
};
const freedAt = Date.now();
const deadline = freedAt + 10000;
const whenFreed = () => (process.memoryUsage().arrayBuffers < 100 * 1024 * 1024 || Date.now() > deadline ? measure() : setImmediate(whenFreed));
whenFreed();
`;

describe('memory of freed request bodies', () => {
  it.runIf(process.platform === 'linux')('goes back to the system once trimmed: within 2x the start', () => {
    const out = JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '-e', SCENARIO], { encoding: 'utf8' }).trim(),
    ) as Record<string, number>;
    const MB = 1024 * 1024;
    expect(out.peak! - out.start!).toBeGreaterThan(800 * MB); // the bodies were really there
    expect(out.freed! - out.start!).toBeGreaterThan(800 * MB); // freed, and still held by the allocator
    // what it measured, should it fail: the wait for V8 to free the buffers included
    expect(out.after!, JSON.stringify(out)).toBeLessThan(2 * out.start!);
  });
});
