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

/**
 * Why a parsed JSON value could not be stored, as `path: reason` for the
 * first key or string that is not storable text or the first value nested
 * deeper than MAX_JSON_DEPTH; undefined when it can be. Iterative, so
 * deep nesting cannot exhaust the stack.
 */
export function whyUnstorable(value: unknown): string | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  const join = (path: string, key: string) => (path ? `${path}.${formatPath([key])}` : formatPath([key]));
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return `${path || '(body)'}: ${UNSTORABLE_TEXT}`;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth === MAX_JSON_DEPTH) return `${path}: nested deeper than ${MAX_JSON_DEPTH} levels`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(path, String(i)), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (!isStorableText(key)) return `${join(path, key)}: ${UNSTORABLE_TEXT}`;
      stack.push({ value: (v as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}
