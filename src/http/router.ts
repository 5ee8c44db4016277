// The route table as uWS holds it: each Route registered once with its
// parameter names and metric series resolved up front, and per request the
// dispatch: the Reply and Request snapshot made, a malformed path or a
// draining server answered, the handler run and whatever it throws answered
// (Reply.error). Unmatched paths get the 404 fallback.
import type { HttpContext } from './context.js';
import { ApiError } from './errors.js';
import { Reply, RouteMetrics } from './reply.js';
import { exchangeOf, readHeaders, snapshot, type Request } from './request.js';
import type { TemplatedApp } from './uws.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'del' | 'options';

export interface Route {
  method: Method;
  /** uWS pattern, e.g. /v1/models/:modelVersionId/predict */
  path: string;
  /** metrics label; defaults to the pattern */
  name?: string;
  handler: (req: Request, reply: Reply) => void | Promise<void>;
}

export function addRoute(app: TemplatedApp, route: Route, ctx: HttpContext): void {
  const paramNames = route.path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1));
  const name = route.name ?? route.path;
  const method = route.method === 'del' ? 'DELETE' : route.method.toUpperCase();
  const metrics = new RouteMetrics(ctx.metrics, name, method);
  app[route.method](route.path, (res, uwsReq) => {
    const headers = readHeaders(uwsReq);
    const reply = new Reply(res, metrics, exchangeOf(uwsReq, res, headers, ctx), ctx);
    let req: Request;
    try {
      req = snapshot(uwsReq, res, paramNames, headers, reply.exchange);
    } catch {
      reply.error(new ApiError(400, 'malformed request', 'invalid percent-encoding in the path'));
      return;
    }
    if (ctx.inFlight.draining) {
      reply.error(
        new ApiError(503, 'server is shutting down', 'retry on another instance', { 'Retry-After': '1' }),
        true,
      );
      return;
    }
    try {
      const result = route.handler(req, reply);
      if (result) result.catch((error: unknown) => reply.error(error));
    } catch (error) {
      reply.error(error);
    }
  });
}

const METHOD_NAMES: Readonly<Record<Method, string>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  del: 'DELETE',
  options: 'OPTIONS',
};

/**
 * The answer to a request no route took: 405 with `Allow` when its path is
 * a route's under another method (GET on predict: `Allow: POST`), else 404.
 * Patterns are matched segment by segment, `:name` matching any one; the
 * catch-alls (`/*`: the console, the CORS preflight) name no route. Worked
 * out only for unmatched requests.
 */
export function unmatchedRoute(routes: readonly Route[]): (method: string, path: string) => ApiError {
  const patterns = routes
    .filter((route) => !route.path.includes('*'))
    .map((route) => ({ segments: route.path.split('/'), method: METHOD_NAMES[route.method] }));
  return (method, path) => {
    const segments = path.split('/');
    const allowed = new Set<string>();
    for (const pattern of patterns) {
      if (pattern.segments.length !== segments.length) continue;
      if (
        pattern.segments.every((segment, i) => (segment.startsWith(':') ? segments[i] !== '' : segment === segments[i]))
      )
        allowed.add(pattern.method);
    }
    if (allowed.size === 0 || allowed.has(method))
      return new ApiError(404, 'route not found', `no route for ${method} ${path}`);
    const allow = [...allowed].join(', ');
    return new ApiError(405, 'method not allowed', `${method} is not served on ${path}: its methods are ${allow}`, {
      Allow: allow,
    });
  };
}

/** Unknown paths answer 404 (405 for a known path under another method) in the error shape instead of uWS's empty default. */
export function addFallback(
  app: TemplatedApp,
  ctx: HttpContext,
  unmatched: (method: string, path: string) => ApiError = unmatchedRoute([]),
): void {
  const byMethod = new Map<string, RouteMetrics>();
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod();
    // A series per method, resolved once; past a few dozen (a client making
    // methods up) they share one, so nobody grows the metrics at will.
    const label = byMethod.has(method) || byMethod.size < 32 ? method : 'OTHER';
    let metrics = byMethod.get(label);
    if (!metrics) byMethod.set(label, (metrics = new RouteMetrics(ctx.metrics, 'unmatched', label)));
    const reply = new Reply(res, metrics, exchangeOf(req, res, readHeaders(req), ctx), ctx);
    reply.error(unmatched(method, req.getUrl()));
  });
}
