// Numeric query parameters declared once: the zod schema validates the
// string the client sent, converts it, and documents itself as a number in
// /openapi.json. Each route keeps its own wording of what is wrong, since
// the APIs it re-implements word them differently.
import { z } from 'zod';
import { ApiError } from './errors.js';

/**
 * The query as one value per name. A name given twice (`frameId=a&frameId=b`)
 * is refused, naming it: no route takes a list this way, and keeping either
 * value would silently drop the other.
 */
export function singleValued(query: URLSearchParams): Record<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of query) {
    const first = values.get(name);
    if (first !== undefined) {
      throw new ApiError(
        400,
        'invalid query parameter',
        `${name}: given more than once (${JSON.stringify(first.slice(0, 40))} and ${JSON.stringify(value.slice(0, 40))}); send it once`,
      );
    }
    values.set(name, value);
  }
  return Object.fromEntries(values);
}

export interface QueryNumber {
  /** JSON Schema of the value, for the OpenAPI document */
  doc: { type: 'number' | 'integer'; minimum?: number; maximum?: number; description?: string };
  /** the value a raw parameter stands for, or undefined when it is not acceptable */
  parse(raw: string): number | undefined;
  /** why it is not, e.g. 'must be an integer between 1 and 1000' */
  message(raw: string): string;
  /** `name=` with nothing after it counts as absent (else it is checked like any value) */
  blankIsAbsent?: boolean;
}

/** An optional numeric query parameter. */
export function queryNumber(spec: QueryNumber) {
  return z
    .string()
    .transform((raw, ctx) => {
      if (spec.blankIsAbsent && raw === '') return undefined;
      const value = spec.parse(raw);
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: spec.message(raw) });
        return z.NEVER;
      }
      return value;
    })
    .optional()
    .meta(spec.doc);
}

/** A number in [min, max]; blank is not a number. */
export function numberBetween(min: number, max: number, raw: string): number | undefined {
  const value = raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= min && value <= max ? value : undefined;
}

/** An optional boolean query parameter: `true` or `1`, `false` or `0`. */
export function queryFlag(description: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      ctx.addIssue({ code: 'custom', message: `must be true or false, got "${raw}"` });
      return z.NEVER;
    })
    .optional()
    .meta({ type: 'boolean', description });
}
