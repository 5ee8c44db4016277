// The request as a handler sees it. uWS's HttpRequest lives only during the
// route callback, so what a handler may read is copied then (headers, path
// parameters, the raw query); the rest is worked out only when first read
// (the parsed query, the peer and client addresses, the CORS origin), as
// most requests never ask. The Exchange is the part the Reply shares: what
// the access log and the response headers need to know of the request.
import type { HttpContext } from './context.js';
import { addressText, clientAddress } from './client-address.js';
import { requestId } from './request-id.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** Everything a handler may read from the request, copied while uWS allows it. */
export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: Record<string, string>;
  /** the address of the connection's other end (a proxy, if there is one) */
  peerAddress: string;
  /** the client's address: the peer's, or the one the trusted proxies report (TRUST_PROXY) */
  clientAddress: string;
  /** X-Request-Id of the answer: the client's own if sane, else generated */
  requestId: string;
  /** set while the server holds the body unread (pauseBody/resumeBody) */
  bodyPaused?: boolean;
  /** set once the body's last chunk has arrived (see resumeBody) */
  bodyEnded?: boolean;
  /** the HttpResponse, for reading the body; see readBody */
  raw: HttpResponse;
}

/**
 * What the access log and the response headers need to know of a request,
 * read before anything can fail. The addresses and the CORS origin are
 * worked out when first read: most answers need neither (no access log, no
 * route that throttles by address, no Origin header), and working them out
 * on every request (the peer parsed, the proxy list read) cost a fifth of a
 * trivial request's time.
 */
export class Exchange {
  private peerText: string | undefined;
  private clientText: string | undefined;
  private cors: string | null | undefined;
  /** answered or abandoned: uWS's response may no longer be asked for the peer */
  done = false;
  /**
   * The socket is paused (body-readers' pauseBody): the Reply resumes it as
   * it answers, so that a kept-alive connection's next request is read.
   */
  bodyPaused = false;
  /** the body's last chunk has arrived */
  bodyEnded = false;

  constructor(
    readonly method: string,
    /** without the query string, which may carry keys */
    readonly path: string,
    readonly id: string,
    /** where the peer's address is read, while the response lives */
    private readonly res: Pick<HttpResponse, 'getRemoteAddress'>,
    private readonly headers: Readonly<Record<string, string>>,
    private readonly ctx: HttpContext,
  ) {
    // The access log reads the client once the answer is out: then it must be known before.
    if (ctx.accessLog) void this.client;
  }

  /** the connection's other end, canonical (see canonicalAddress); read while the request is handled */
  get peer(): string {
    if (this.peerText === undefined)
      this.peerText = this.done ? '' : addressText(new Uint8Array(this.res.getRemoteAddress()));
    return this.peerText;
  }

  /** the client as TRUST_PROXY says to read it */
  get client(): string {
    return (this.clientText ??= clientAddress(this.peer, this.headers['x-forwarded-for'], this.ctx.trustedProxies));
  }

  /** the Origin header when CORS_ORIGINS allows it; undefined otherwise */
  get corsOrigin(): string | undefined {
    if (this.cors === undefined) this.cors = this.ctx.cors?.allows(this.headers.origin) ? this.headers.origin! : null;
    return this.cors ?? undefined;
  }
}

/** Every header, a repeated one's values joined with ", ". */
export function readHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  });
  return headers;
}

/** Cannot fail: the reply, its request id and access-log line exist even for a malformed request. */
export function exchangeOf(
  req: HttpRequest,
  res: HttpResponse,
  headers: Record<string, string>,
  ctx: HttpContext,
): Exchange {
  return new Exchange(
    req.getCaseSensitiveMethod(),
    req.getUrl(),
    requestId(headers['x-request-id']),
    res,
    headers,
    ctx,
  );
}

/** A request's snapshot: what uWS gives only during the callback copied now, the rest worked out when read. */
class RequestSnapshot implements Request {
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    private readonly exchange: Exchange,
    readonly params: Record<string, string>,
    readonly headers: Record<string, string>,
    private readonly rawQuery: string,
    readonly raw: HttpResponse,
  ) {}

  get method(): string {
    return this.exchange.method;
  }
  // The body's flow is the Exchange's, which the Reply shares: it resumes a paused socket as it answers.
  get bodyPaused(): boolean {
    return this.exchange.bodyPaused;
  }
  set bodyPaused(paused: boolean) {
    this.exchange.bodyPaused = paused;
  }
  get bodyEnded(): boolean {
    return this.exchange.bodyEnded;
  }
  set bodyEnded(ended: boolean) {
    this.exchange.bodyEnded = ended;
  }
  get path(): string {
    return this.exchange.path;
  }
  get requestId(): string {
    return this.exchange.id;
  }
  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.rawQuery));
  }
  get peerAddress(): string {
    return this.exchange.peer;
  }
  get clientAddress(): string {
    return this.exchange.client;
  }
}

/** Throws on invalid percent-encoding in the path. */
export function snapshot(
  req: HttpRequest,
  res: HttpResponse,
  paramNames: string[],
  headers: Record<string, string>,
  exchange: Exchange,
): Request {
  const params: Record<string, string> = {};
  paramNames.forEach((name, i) => {
    params[name] = decodeURIComponent(req.getParameter(i) ?? '');
  });
  return new RequestSnapshot(exchange, params, headers, req.getQuery() ?? '', res);
}
