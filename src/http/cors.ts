// Cross-origin access for browser apps (CORS_ORIGINS). Allowed origins get
// Access-Control-Allow-Origin echoed on every answer, and preflight OPTIONS
// requests are answered for any path. A disallowed origin gets no CORS header
// at all, and its preflight a 403, so the refusal is visible in the browser's
// network panel and in the access log rather than only as a console error.
// Authentication is by the Authorization header, never cookies, so no
// Allow-Credentials is sent.
import { ApiError } from './errors.js';
import type { Route } from './router.js';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, X-Request-Id, Idempotency-Key';
/**
 * Response headers scripts may read besides the CORS-safelisted ones: the
 * hints that say what a refused request should have been (the Bearer
 * challenge of a 401, the body types of a 400, the methods of a 405) too.
 */
const EXPOSE_HEADERS = 'Retry-After, X-Request-Id, WWW-Authenticate, Accept-Post, Allow';
/** How long browsers may cache a preflight answer (seconds; Chromium caps at 7200). */
const MAX_AGE = '600';

export class CorsPolicy {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes('*');
    this.origins = new Set(origins);
  }

  /** The policy for CORS_ORIGINS, or undefined when it is empty (no CORS headers at all). */
  static from(origins: readonly string[]): CorsPolicy | undefined {
    return origins.length === 0 ? undefined : new CorsPolicy(origins);
  }

  allows(origin: string | undefined): origin is string {
    return origin !== undefined && origin !== '' && (this.any || this.origins.has(origin.toLowerCase()));
  }

  /** Headers of any answer to a request from an allowed `origin`. */
  static responseHeaders(origin: string): Array<[string, string]> {
    return [
      ['Access-Control-Allow-Origin', origin],
      ['Access-Control-Expose-Headers', EXPOSE_HEADERS],
    ];
  }
}

/** OPTIONS on any path: 204 with what the browser asked about, or 403 for an origin not allowed. */
export function preflightRoute(policy: CorsPolicy): Route {
  return {
    method: 'options',
    path: '/*',
    name: 'preflight',
    handler(req, reply) {
      const origin = req.headers.origin;
      if (!policy.allows(origin)) {
        throw new ApiError(
          403,
          'CORS preflight refused',
          origin ? `origin ${origin} is not in CORS_ORIGINS` : 'no Origin header',
        );
      }
      reply.send(204, '', 'application/json', {
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': MAX_AGE,
      });
    },
  };
}
