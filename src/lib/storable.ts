// What PostgreSQL can store, checked before a request's values reach it.
// Stored, these fail the statement, and an ingestion statement is a group
// commit: one such value answered 500 to every request batched with it.
//  - Text: no U+0000 (text and jsonb have no NUL) and no surrogate without
//    its pair (not Unicode; jsonb refuses its \u escape, and text columns
//    would silently get U+FFFD). JSON carries both as \u escapes, protobuf
//    carries NUL as a byte.
//  - JSON nesting: PostgreSQL parses jsonb recursively and gives up (stack
//    depth limit) between 3,000 and 5,000 levels.
//  - Times: JavaScript writes a Date past the year 9999 or before the year 0
//    with a six-digit year, which PostgreSQL does not read.
import { formatPath } from '../errors.js';

/** The first and last milliseconds of the four-digit years (0000-9999), which both write and read. */
export const EARLIEST_TIME_MS = -62_167_219_200_000;
export const LATEST_TIME_MS = 253_402_300_799_999;

const UNSTORABLE = /[\u0000\p{Cs}]/u; // with /u, \p{Cs} matches only unpaired surrogates

export const UNSTORABLE_TEXT = 'must not contain U+0000 or an unpaired surrogate';

/** Deepest nesting of objects and arrays accepted in free-form JSON (IoT payloads, management API bodies). */
export const MAX_JSON_DEPTH = 64;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** What stopped a walk: the keys from the failing value up to the root, and why. */
interface Unstorable {
  keysUpward: string[];
  reason: string;
}

/**
 * Walks `value` in document order, a key before what it holds. The path is
 * built only on failure, as the calls return: a valid list of a million
 * numbers formats no string (a path per element cost a 3.8 MB event about
 * a second of the event loop). Recursion stops at MAX_JSON_DEPTH levels, so
 * deep nesting cannot exhaust the stack.
 */
function firstUnstorable(value: unknown, depth: number): Unstorable | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : { keysUpward: [], reason: UNSTORABLE_TEXT };
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth === MAX_JSON_DEPTH) return { keysUpward: [], reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUnstorable(value[i], depth + 1);
      if (found) return upward(found, String(i));
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (!isStorableText(key)) return { keysUpward: [key], reason: UNSTORABLE_TEXT };
    const found = firstUnstorable((value as Record<string, unknown>)[key], depth + 1);
    if (found) return upward(found, key);
  }
  return undefined;
}

function upward(found: Unstorable, key: string): Unstorable {
  found.keysUpward.push(key);
  return found;
}

/**
 * Why a parsed JSON value could not be stored, as `path: reason` for the
 * first key or string (in document order) that is not storable text or the
 * first value nested deeper than MAX_JSON_DEPTH; undefined when it can be.
 */
export function whyUnstorable(value: unknown): string | undefined {
  const found = firstUnstorable(value, 0);
  if (!found) return undefined;
  const path = formatPath(found.keysUpward.reverse());
  return `${path || '(body)'}: ${found.reason}`;
}
