// The one place ids are made: ULIDs (26 characters of Crockford base32,
// time-ordered), monotonic within a millisecond so events keep their
// arrival order. The ulid package draws each random character with its own
// crypto call; here random bytes come from a pooled buffer refilled 4 KiB at
// a time, which made id generation the top cost of ingestion before.
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const pool = new Uint8Array(4096);
let offset = pool.length;

/** A uniform number in [0, 1) from cryptographically random bytes. */
function random(): number {
  if (offset + 4 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const value = ((pool[offset]! << 24) | (pool[offset + 1]! << 16) | (pool[offset + 2]! << 8) | pool[offset + 3]!) >>> 0;
  offset += 4;
  return value / 0x1_0000_0000;
}

export const newId: () => string = monotonicFactory(random);
