// The HTTP server, composed from its parts: a uWS app per port (HTTPS with
// TLS files) with the routes mounted, the CORS preflight and the 404
// fallback; listening; and stopping (the drain, the listen sockets closed,
// the wait for the requests in flight). The parts: uws.ts (the binding),
// router.ts (dispatch), request.ts, reply.ts, body-readers.ts,
// client-address.ts, draining.ts. Settings come in the HttpContext
// (context.ts) the server is made with; none is a process global.
import type * as UwsTypes from 'uWebSockets.js';
import type { HttpContext } from './context.js';
import type { ApiError } from './errors.js';
import { preflightRoute } from './cors.js';
import { addFallback, addRoute, unmatchedRoute, type Route } from './router.js';
import type { Uws } from './uws.js';

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT */
const EXCLUSIVE_PORT = 1;

export interface ListenOptions {
  host: string;
  port: number;
  /** HTTPS with these files (TLS_CERT/TLS_KEY); undefined: plain HTTP */
  tls: { certFile: string; keyFile: string } | undefined;
  /** this port's error answers in another protocol's shape (HttpContext.errorBody); the API's when absent */
  errorBody?: (error: ApiError) => string;
}

/** The server: one uWS app per port it listens on, all sharing one HttpContext. */
export class HttpServer {
  private readonly sockets: UwsTypes.us_listen_socket[] = [];

  constructor(
    private readonly uws: Uws,
    readonly ctx: HttpContext,
  ) {}

  /** One uWS app on one port serving `routes`; resolves with the port it listens on (options.port 0: one the system chose). */
  async listen(options: ListenOptions, routes: readonly Route[]): Promise<number> {
    const { uws } = this;
    // The port's own context only where it answers errors in a shape of its own: the state (metrics, requests in flight) stays shared.
    const ctx = options.errorBody ? { ...this.ctx, errorBody: options.errorBody } : this.ctx;
    const app = options.tls
      ? uws.SSLApp({ cert_file_name: options.tls.certFile, key_file_name: options.tls.keyFile })
      : uws.App();
    for (const route of routes) addRoute(app, route, ctx);
    if (ctx.cors) addRoute(app, preflightRoute(ctx.cors), ctx);
    addFallback(app, ctx, unmatchedRoute(routes));
    // Exclusive: without it uWS sets SO_REUSEPORT, and a second server started
    // on a port in use would silently share (split) its traffic.
    const listenExclusive = app.listen as unknown as (
      host: string,
      port: number,
      options: number,
      cb: (socket: UwsTypes.us_listen_socket | false) => void,
    ) => void;
    const socket = await new Promise<UwsTypes.us_listen_socket>((resolve, reject) =>
      listenExclusive.call(app, options.host, options.port, EXCLUSIVE_PORT, (s) =>
        s
          ? resolve(s)
          : reject(
              new Error(
                `cannot listen on ${options.host}:${options.port}: the port is in use (another server?) or not permitted`,
              ),
            ),
      ),
    );
    this.sockets.push(socket);
    return uws.us_socket_local_port(socket as never);
  }

  /**
   * Refuses new requests and ends the event streams, which would otherwise
   * never finish (InFlight.drain); stops listening; then waits up to
   * `timeoutMs` for the requests in flight.
   */
  async stop(timeoutMs: number): Promise<void> {
    const { inFlight } = this.ctx;
    inFlight.drain();
    for (const socket of this.sockets.splice(0)) this.uws.us_listen_socket_close(socket);
    this.ctx.log.info('shutting down: draining in-flight requests', { inFlight: inFlight.size });
    if (!(await inFlight.idle(timeoutMs))) {
      this.ctx.log.warn('shutdown timeout reached with requests still in flight', { inFlight: inFlight.size });
    }
  }
}
