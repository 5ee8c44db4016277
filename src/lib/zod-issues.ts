// zod's issues as one line for a 400's `error` (or a model.json reason),
// naming each offending field by its path.
import type { z } from 'zod';
import { formatPath } from '../errors.js';

/** Turns zod issues into one line naming each offending field. */
export function describeIssues(error: z.ZodError): string {
  return (
    error.issues
      // A record key that failed names the key and says why, not just "Invalid key in record".
      .flatMap((issue) =>
        issue.code === 'invalid_key'
          ? issue.issues.map((inner) => ({ path: issue.path, message: inner.message }))
          : [issue],
      )
      .map((issue) => `${issue.path.length ? formatPath(issue.path) : '(root)'}: ${issue.message}`)
      .join('; ')
  );
}

/** What arrived, for an error that says "expected X, got Y": a short quote of a string, the kind of anything else. */
export function received(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
