// Schemas shared by the /v2 endpoints.
import { z } from 'zod';
import { OutOfOrganizationError } from '../../../errors.js';
import { ApiError } from '../../errors.js';

/** ULID: 26 characters of Crockford base32. */
export const id = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/, 'must be a ULID')
  .transform((s) => s.toUpperCase());

export const idParam = <K extends string>(name: K) => z.object({ [name]: id } as Record<K, typeof id>);

/** Gen B search bodies: {limit, offset, sort: {field, order}, filter}. */
export const searchBody = <F extends string>(sortFields: readonly [F, ...F[]], extra: z.ZodRawShape = {}) =>
  z
    .object({
      limit: z.number().int().min(1).max(1000).default(20),
      offset: z.number().int().min(0).default(0),
      sort: z
        .object({ field: z.enum(sortFields).default(sortFields[0]), order: z.enum(['asc', 'desc']).default('desc') })
        .strict()
        .default({ field: sortFields[0], order: 'desc' }),
      filter: z.record(z.string(), z.unknown()).default({}),
      ...extra,
    })
    .strict();

export const tags = z.array(z.string().trim().min(1).max(64)).max(100);

/**
 * A project, channel or device named as the scope of a request (in its body)
 * that is not the organization's is answered 401 with the platform's
 * wording (docs/CONTRACT.md#v2-errors); one addressed by the path stays a plain 404.
 */
export async function foreignScope<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof OutOfOrganizationError)
      throw new ApiError(401, `you dont have access to this ${error.resource}`, error.detail);
    throw error;
  }
}
