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
      reply.error(new ApiError(503, 'server is shutting down', 'retry on another instance', { 'Retry-After': '1' }), true);
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

/** Unknown paths answer 404 in the error shape instead of uWS's empty default. */
export function addFallback(app: TemplatedApp, ctx: HttpContext): void {
  const byMethod = new Map<string, RouteMetrics>();
  app.any('/*', (res, req) => {
    const method = req.getCaseSensitiveMethod();
    // A series per method, resolved once; past a few dozen (a client making
    // methods up) they share one, so nobody grows the metrics at will.
    const label = byMethod.has(method) || byMethod.size < 32 ? method : 'OTHER';
    let metrics = byMethod.get(label);
    if (!metrics) byMethod.set(label, (metrics = new RouteMetrics(ctx.metrics, 'unmatched', label)));
    const reply = new Reply(res, metrics, exchangeOf(req, res, readHeaders(req), ctx), ctx);
    reply.error(new ApiError(404, 'route not found', `no route for ${req.getCaseSensitiveMethod()} ${req.getUrl()}`));
  });
}
