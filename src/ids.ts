// The one place ids are made: ULIDs (26 characters of Crockford base32: 10
// of milliseconds since 1970, 16 of randomness, 80 bits), monotonic so that
// events keep their arrival order: within a millisecond (or while the clock
// stands behind the last id's time) the random part of the last id is
// incremented instead of drawn again, as the ULID specification's
// monotonic mode does.
//
// Made here rather than with the ulid package's monotonic factory: ingestion
// makes one per event, and that factory draws each random character with its
// own call and rebuilds the whole string each time (0.8 µs of the 23 µs the
// server spends per event in protobuf batches, CPU profile of `npm run bench
// -- ingest`). Here a millisecond's time part is encoded once, random bytes
// come from a pooled buffer, and an increment touches the last characters.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_CHARS = 16;
const TIME_CHARS = 10;
/** The largest time a ULID holds: 2^48 - 1 ms, in the year 10889. */
const MAX_TIME = 2 ** 48 - 1;

const pool = new Uint8Array(4096);
let offset = pool.length;

/** A random character index (0-31): the low 5 bits of a random byte, uniform since 256 is a multiple of 32. */
function randomIndex(): number {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++]! & 31;
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0, t = ms; i < TIME_CHARS; i++, t = Math.floor(t / 32)) out = ALPHABET[t % 32]! + out;
  return out;
}

let lastTime = -1;
let timePart = '';
/** the random part of the last id, as character indices */
const digits = new Uint8Array(RANDOM_CHARS);
/** its first 15 characters, rebuilt only when an increment carries into them */
let head = '';

function rebuildHead(): void {
  head = '';
  for (let i = 0; i < RANDOM_CHARS - 1; i++) head += ALPHABET[digits[i]!];
}

/** A new ULID, greater than every one this process made before. */
export function newId(): string {
  const now = Date.now();
  if (now > lastTime) {
    if (now > MAX_TIME) throw new Error('the clock is past the last time a ULID can hold');
    lastTime = now;
    timePart = encodeTime(now);
    for (let i = 0; i < RANDOM_CHARS; i++) digits[i] = randomIndex();
    rebuildHead();
  } else {
    // Base-32 increment of the random part; a carry past its first digit would wrap it.
    let i = RANDOM_CHARS - 1;
    while (i >= 0 && digits[i] === 31) digits[i--] = 0;
    if (i < 0) throw new Error('2^80 ids in one millisecond: the ULID random part overflowed');
    digits[i] = digits[i]! + 1;
    if (i < RANDOM_CHARS - 1) rebuildHead();
  }
  return timePart + head + ALPHABET[digits[RANDOM_CHARS - 1]!];
}
