// The HTTP front end on uWebSockets.js: route registration with a request
// snapshot, a Reply that is safe to use after the client went away, body
// reading with an early size limit and a global memory budget, metrics, the
// access log, request ids, CORS headers and draining on shutdown. Route
// handlers stay thin and call domain code.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import type * as UwsTypes from 'uWebSockets.js';
import { ApiError } from './errors.js';
import { log } from '../log.js';
import type { ServerMetrics } from '../observability/metrics.js';
import { writeAccessLog } from './access-log.js';
import { CorsPolicy } from './cors.js';
import { internalReason } from '../lib/ip-ranges.js';
import type { BodyBudget } from './body-budget.js';
import { requestId } from './request-id.js';
import { watchBodyRate } from './slow-bodies.js';
import { loadUwsBuild } from './uws-loader.js';

export type Uws = typeof UwsTypes;
export type HttpResponse = UwsTypes.HttpResponse;
export type TemplatedApp = UwsTypes.TemplatedApp;

/**
 * Loads the first uWebSockets.js build whose native binding runs on this Node
 * and libc (see uws-loader.ts for the order), and refuses to go on if none
 * does, saying why for each: the fork's package would otherwise fall back
 * silently to a slow JS shim.
 */
export function loadUws(): Uws {
  const { uws, candidate } = loadUwsBuild();
  log.debug('uWebSockets.js build', { package: candidate.source, node: process.version, abi: process.versions.modules });
  return uws;
}

const STATUS_LINES = new Map<number, string>(
  Object.entries(STATUS_CODES).map(([code, text]) => [Number(code), `${code} ${text}`]),
);

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
  /** the HttpResponse, for reading the body; see readBody */
  raw: HttpResponse;
}

/**
 * After answering "too large", the rest of a body is read and discarded so
 * the client, still sending, can read the answer (closing at once makes most
 * clients fail with EPIPE instead). Past this many bytes the connection is
 * closed instead.
 */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * The client went away before its body was read. Not a server fault: the
 * access log records the request as 499, and nothing above debug is logged.
 */
export class ClientDisconnectedError extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientDisconnectedError';
  }
}

export class BodyTooLargeError extends Error {
  constructor(
    /** the declared Content-Length, or the bytes seen when the limit was crossed */
    readonly bytes: number,
    /** whether to close the connection rather than discard the rest of the body */
    readonly closeConnection: boolean,
    /** what an OverflowMeasure counted in the whole body, if it could */
    readonly measured?: number,
  ) {
    super(`request body of ${bytes} bytes is over the limit`);
  }
}

/**
 * Counts something in a body too large to keep (predict: the image's size)
 * while the rest of it is read and dropped; see readBody.
 */
export interface OverflowMeasure {
  feed(chunk: Uint8Array): void;
  result(): number | undefined;
}


/** Counts requests in progress so shutdown can wait for them. */
export class InFlight {
  private count = 0;
  private ended = 0;
  private waiters: Array<() => void> = [];
  private drainListeners = new Set<() => void>();
  draining = false;
  /**
   * Shutdown begins: new requests are refused (503), and the answers that
   * would otherwise never end (event streams) are told to end now.
   */
  drain(): void {
    this.draining = true;
    for (const listener of [...this.drainListeners]) listener();
    this.drainListeners.clear();
  }
  /** `listener` runs when drain() is called (at once if it was); returns its removal. */
  onDrain(listener: () => void): () => void {
    if (this.draining) {
      listener();
      return () => {};
    }
    this.drainListeners.add(listener);
    return () => void this.drainListeners.delete(listener);
  }
  start(): void {
    this.count++;
  }
  end(): void {
    this.count--;
    this.ended++;
    if (this.count === 0) for (const w of this.waiters.splice(0)) w();
  }
  /** requests answered (or abandoned) since start */
  get answered(): number {
    return this.ended;
  }
  get size(): number {
    return this.count;
  }
  /** Resolves true when nothing is in flight, false when the timeout hit first. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
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
    if (this.peerText === undefined) this.peerText = this.done ? '' : addressText(new Uint8Array(this.res.getRemoteAddress()));
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

/**
 * An answer written in chunks over time (server-sent events), opened by
 * Reply.stream. The request stays in flight until the stream is over, and
 * shutdown (InFlight.drain) ends it, so SIGTERM never waits on it.
 */
export interface ResponseStream {
  /** Writes a chunk; false when part of it waits behind a slow client (then wait for onWritable). Nothing once closed. */
  write(chunk: string): boolean;
  /** Runs when a client that could not take a write can take more. */
  onWritable(handler: () => void): void;
  /** Ends the answer normally (the last, empty chunk). */
  end(): void;
  /** Drops the connection at once: a client too slow to keep up. */
  close(): void;
  /** Runs once when the stream is over: ended, closed, the client gone, or shutdown. */
  onClose(handler: () => void): void;
  readonly closed: boolean;
}

/**
 * A route's series of the request metrics, resolved once when the route is
 * added rather than keyed on every answer: its duration histogram and one
 * counter per status it has answered.
 */
export class RouteMetrics {
  private readonly duration: { observe(seconds: number): void };
  private readonly byStatus = new Map<number, { value: number }>();

  constructor(
    private readonly metrics: ServerMetrics,
    readonly route: string,
    private readonly method: string,
  ) {
    this.duration = metrics.httpDuration.labeled({ route });
  }

  answered(status: number, seconds: number): void {
    let counter = this.byStatus.get(status);
    if (!counter) this.byStatus.set(status, (counter = this.metrics.httpRequests.series({ route: this.route, method: this.method, status: String(status) })));
    counter.value++;
    this.duration.observe(seconds);
  }
}

export class Reply {
  aborted = false;
  finished = false;
  /** a ResponseStream answers this request: send() and error() write nothing more */
  private streaming = false;
  private onAbortHandlers: Array<() => void> = [];
  private readonly startedAt = performance.now();
  private bytesOut = 0;
  private readonly inFlight: InFlight;
  private readonly route: string;

  constructor(
    private readonly res: HttpResponse,
    private readonly routeMetrics: RouteMetrics,
    readonly exchange: Exchange,
    private readonly ctx: HttpContext,
  ) {
    this.route = routeMetrics.route;
    this.inFlight = ctx.inFlight;
    this.inFlight.start();
    res.onAborted(() => {
      this.aborted = true;
      for (const handler of this.onAbortHandlers.splice(0)) handler();
      this.complete(499);
    });
  }

  /** Runs when the client disconnects before the response was written. */
  onAbort(handler: () => void): void {
    if (this.aborted) handler();
    else this.onAbortHandlers.push(handler);
  }

  send(
    status: number,
    body: string | Uint8Array,
    contentType = 'application/json',
    headers?: Readonly<Record<string, string>>,
    closeConnection = false,
  ): void {
    if (this.finished || this.aborted || this.streaming) return;
    this.onAbortHandlers = [];
    this.res.cork(() => {
      this.res.writeStatus(STATUS_LINES.get(status) ?? String(status));
      if (body.length > 0 || status !== 204) this.res.writeHeader('Content-Type', contentType);
      if (headers) for (const [name, value] of Object.entries(headers)) this.res.writeHeader(name, value);
      this.writeCommonHeaders();
      if (status === 204) this.res.endWithoutBody(0, closeConnection);
      else this.res.end(body, closeConnection);
    });
    if (this.ctx.accessLog) this.bytesOut = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    this.complete(status);
  }

  /**
   * Starts a streamed answer: the status line, headers and `first` chunk now
   * (chunked encoding), the rest through the returned stream. A request
   * already answered or abandoned gets a stream that is closed from the start.
   */
  stream(status: number, contentType: string, headers: Readonly<Record<string, string>>, first: string): ResponseStream {
    const closeHandlers: Array<() => void> = [];
    let writable: (() => void) | undefined;
    let closed = false;
    let undrain = () => {};
    const finish = () => {
      if (closed) return false;
      closed = true;
      undrain();
      this.complete(status);
      for (const handler of closeHandlers.splice(0)) handler();
      return true;
    };
    const stream: ResponseStream = {
      get closed() {
        return closed;
      },
      write: (chunk) => {
        if (closed) return false;
        let ok = false;
        this.res.cork(() => {
          ok = this.res.write(chunk);
        });
        if (this.ctx.accessLog) this.bytesOut += Buffer.byteLength(chunk);
        return ok;
      },
      onWritable: (handler) => {
        writable = handler;
      },
      end: () => {
        if (finish()) this.res.cork(() => this.res.end());
      },
      close: () => {
        if (finish()) this.res.close();
      },
      onClose: (handler) => {
        if (closed) handler();
        else closeHandlers.push(handler);
      },
    };
    if (this.finished || this.aborted || this.streaming) {
      closed = true;
      return stream;
    }
    this.streaming = true;
    this.onAbortHandlers.push(() => void finish());
    this.res.onWritable(() => {
      writable?.();
      return true;
    });
    this.res.cork(() => {
      this.res.writeStatus(STATUS_LINES.get(status) ?? String(status));
      this.res.writeHeader('Content-Type', contentType);
      for (const [name, value] of Object.entries(headers)) this.res.writeHeader(name, value);
      this.writeCommonHeaders();
      this.res.write(first);
    });
    if (this.ctx.accessLog) this.bytesOut = Buffer.byteLength(first);
    undrain = this.inFlight.onDrain(() => stream.end());
    return stream;
  }

  /** Request headers the answer depends on beyond CORS's Origin (Vary), for caches to key on. */
  private varies: string | undefined;

  /** The answer depends on request header `name` (e.g. Accept: GET / answers a browser the console, a client the API). */
  varyOn(name: string): void {
    this.varies = this.varies ? `${this.varies}, ${name}` : name;
  }

  /** X-Request-Id, Vary and, for an allowed origin, the CORS headers: on every answer. */
  private writeCommonHeaders(): void {
    this.res.writeHeader('X-Request-Id', this.exchange.id);
    if (this.varies) this.res.writeHeader('Vary', this.varies);
    if (this.ctx.cors) {
      // The answer depends on the Origin header: shared caches must key on it.
      this.res.writeHeader('Vary', 'Origin');
      if (this.exchange.corsOrigin !== undefined) {
        for (const [name, value] of CorsPolicy.responseHeaders(this.exchange.corsOrigin)) this.res.writeHeader(name, value);
      }
    }
  }

  json(status: number, value: unknown, headers?: Readonly<Record<string, string>>): void {
    this.send(status, JSON.stringify(value), 'application/json', headers);
  }

  /** Answers any thrown value: domain and API errors with their status (errors.ts), anything else as a logged 500. */
  error(error: unknown, closeConnection = false): void {
    const known = ApiError.from(error);
    // Answered already (e.g. 408 for a trickling body, whose reader then
    // ends as disconnected) or nobody left to answer.
    if (this.aborted || (this.finished && error instanceof ClientDisconnectedError)) {
      // Nobody to answer; the access log has the 499. A disconnect is the
      // client's doing, anything else failing after it is still worth a warning.
      if (error instanceof ClientDisconnectedError || known) {
        log.debug('request ended: client disconnected', { route: this.route, requestId: this.exchange.id });
      } else {
        log.warn('error after the client disconnected', { route: this.route, requestId: this.exchange.id, error: error as Error });
      }
      return;
    }
    if (!known) {
      log.error('unhandled error', { route: this.route, requestId: this.exchange.id, error: error as Error, stack: (error as Error)?.stack });
    }
    const apiError = known ?? new ApiError(500, 'internal server error', 'an unexpected error occurred; it has been logged');
    this.send(apiError.status, JSON.stringify(apiError.toBody()), 'application/json', apiError.headers, closeConnection);
  }

  private complete(status: number): void {
    if (this.finished) return;
    this.finished = true;
    this.exchange.done = true;
    const ms = performance.now() - this.startedAt;
    this.routeMetrics.answered(status, ms / 1000);
    this.inFlight.end();
    if (this.ctx.accessLog) {
      const { method, path, id, client } = this.exchange;
      writeAccessLog({ method, path, status, ms, bytes: this.bytesOut, id, client });
    }
  }
}

/** Stops reading the body from the socket: the server's own wait, which the upload rate does not count. */
export function pauseBody(req: Request): void {
  if (req.bodyPaused) return;
  req.bodyPaused = true;
  req.raw.pause();
}

/** Reads on; only after pauseBody (uWS stalls a response resumed without a pause). */
export function resumeBody(req: Request): void {
  if (!req.bodyPaused) return;
  req.bodyPaused = false;
  req.raw.resume();
}

/** The rate watch of a body being read: answers 408 and closes the connection when it trickles. */
function watchBody(req: Request, reply: Reply, received: () => number, abandon: () => void): () => void {
  return watchBodyRate({
    received,
    paused: () => req.bodyPaused === true,
    fail: (error) => {
      abandon();
      reply.error(error, true);
    },
  });
}

/** Bodies up to this size are read rather than left unread when refused: cheaper than a new connection. */
export const SMALL_BODY_BYTES = 64 * 1024;

export interface GatedBodyOptions {
  limit: number;
  /** the memory budget every route's buffered bodies share, each organization a part */
  budget: BodyBudget;
  /**
   * The budget of bodies whose sender is not known, each client address a
   * part: an unauthenticated route's, and a small body read while its caller
   * is checked. Kept apart so that strangers never hold what tenants' bodies need.
   */
  strangers: BodyBudget;
  /** the route authenticates nobody: its body is only ever a stranger's */
  unauthenticated: boolean;
  /** how long to wait for body memory before 503 */
  holdMs: number;
  /** the answer for a body over `limit` */
  tooLarge: (error: BodyTooLargeError) => ApiError;
  /** whose part of the budget a large body counts against, once `gate` has passed (its organization) */
  owner?: () => string | undefined;
}

export interface GatedBody {
  bytes: Uint8Array;
  /** gives the body's memory back to the budget; call once done with `bytes` */
  release(): void;
}

/** Memory held for a body: in which budget, under whose part. */
interface Held {
  budget: BodyBudget;
  owner: string | undefined;
}

/**
 * Reads a request body only for a caller `gate` lets through (it
 * authenticates, and throws to refuse), with memory for it reserved first.
 * A large body waits in the client's socket (paused) until both are
 * settled, so a refused caller has it never read: the connection is closed
 * after the answer. A small one is read meanwhile, as it usually came with
 * the headers anyway, counted in the strangers' budget under the client's
 * address (if that address's part is full, it waits for its caller to be
 * known like a large one); an unauthenticated route's body is only ever
 * counted there. Resolves undefined when the request has been answered
 * (refused, or the client went away). Must be called synchronously inside
 * the route handler, as uWS requires.
 */
export function readGatedBody(req: Request, reply: Reply, options: GatedBodyOptions, gate: () => Promise<void>): Promise<GatedBody | undefined> {
  const { limit, budget, strangers } = options;
  const reserve = Math.min(declaredLength(req) ?? limit, limit);
  const large = reserve > SMALL_BODY_BYTES;
  const body = readBody(req, reply, limit);
  let complete = false;
  body.then(
    () => (complete = true),
    () => {}, // awaited below, unless refused before
  );
  const address = req.clientAddress;
  let held: Held | undefined = (!large || options.unauthenticated) && strangers.tryReserve(reserve, address) ? { budget: strangers, owner: address } : undefined;
  if (!held) pauseBody(req);
  const release = () => {
    if (held) held.budget.release(reserve, held.owner);
    held = undefined;
  };
  const refuse = async (error: unknown) => {
    release();
    // A body still arriving is not waited for: the connection closes after the answer.
    if (large || !complete) {
      reply.error(error, true);
      return undefined;
    }
    reply.error(error);
    return undefined;
  };
  return (async () => {
    try {
      await gate();
    } catch (error) {
      return refuse(error);
    }
    if (!held) {
      const target: Held = options.unauthenticated ? { budget: strangers, owner: address } : { budget, owner: options.owner?.() };
      if (!(await target.budget.reserve(reserve, target.owner, options.holdMs))) {
        return refuse(new ApiError(503, 'server busy', 'too many request bodies in memory; retry shortly', { 'Retry-After': '1' }));
      }
      held = target;
      if (reply.aborted) {
        release();
        return undefined;
      }
      resumeBody(req);
    }
    try {
      return { bytes: await body, release };
    } catch (error) {
      release();
      if (error instanceof BodyTooLargeError) {
        reply.error(options.tooLarge(error), error.closeConnection);
        return undefined;
      }
      if (reply.aborted) return undefined;
      throw error;
    }
  })();
}

/**
 * The body size the client announced, if it did. Anything but a decimal
 * count of bytes (e.g. "-1", "1e3", "12, 12") is the client's mistake: 400,
 * before a byte is read or allocated.
 */
export function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw new ApiError(400, 'malformed request', `invalid Content-Length: ${JSON.stringify(raw.slice(0, 32))}`);
  return Number(raw.trim());
}

/**
 * Reads the whole request body, counting bytes as they arrive. Past `limit`
 * it stops buffering at once and rejects with BodyTooLargeError: at once
 * (a declared Content-Length over the limit before any byte is read), later
 * chunks dropped unread; or, given a `measurer`, at the body's end, every
 * chunk fed to the measure it makes and dropped (not past MAX_DISCARD_BYTES: beyond, at once).
 * Must be called synchronously inside the route handler, as uWS requires.
 */
export function readBody(req: Request, reply: Reply, limit: number, measurer?: () => OverflowMeasure): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req);
    // With a measure, a body over the limit is still read to its end (up to
    // MAX_DISCARD_BYTES), each chunk fed to the measure and dropped.
    const measurable = (remaining: number) => measurer !== undefined && remaining <= MAX_DISCARD_BYTES;
    let measure: OverflowMeasure | undefined; // made on overflow only: most bodies fit
    if (declared !== undefined && declared > limit && !measurable(declared)) {
      reject(new BodyTooLargeError(declared, declared > MAX_DISCARD_BYTES));
      req.raw.onData(() => {}); // discard
      return;
    }
    // With a declared length the body lands in one exactly-sized, unshared
    // ArrayBuffer that can later be transferred to a worker without a copy.
    // It is allocated with the first chunk: a body held paused (its memory
    // not yet granted) holds none.
    let buffer: Uint8Array | undefined;
    let overflowed = declared !== undefined && declared > limit;
    let received = 0;
    let settled = false;
    const unwatch = watchBody(req, reply, () => received, () => {
      settled = true;
      reject(new ClientDisconnectedError());
    });
    reply.onAbort(() => {
      settled = true;
      unwatch();
      reject(new ClientDisconnectedError());
    });
    req.raw.onData((chunk, isLast) => {
      if (settled) return;
      const size = chunk.byteLength;
      if (!buffer && !overflowed) buffer = new Uint8Array(new ArrayBuffer(Math.min(declared ?? 64 * 1024, limit)));
      if (buffer && received + size > limit) {
        // Crossing the limit: keep nothing more, measure what is left if possible.
        if (!measurable((declared ?? received + size) - received)) {
          settled = true;
          unwatch();
          const bytes = declared ?? received + size;
          reject(new BodyTooLargeError(bytes, declared !== undefined && declared - received > MAX_DISCARD_BYTES));
          return;
        }
        measure = measurer!();
        measure.feed(buffer.subarray(0, received));
        buffer = undefined; // over the limit: nothing more is kept
        overflowed = true;
      }
      if (!buffer) {
        measure ??= measurer!();
        measure.feed(new Uint8Array(chunk));
        received += size;
        if (isLast) {
          settled = true;
          unwatch();
          reject(new BodyTooLargeError(received, false, measure.result()));
        }
        return;
      }
      if (received + size > buffer.byteLength) {
        const grown = new Uint8Array(new ArrayBuffer(Math.min(limit, Math.max(buffer.byteLength * 2, received + size))));
        grown.set(buffer.subarray(0, received));
        buffer = grown;
      }
      // uWS reuses the chunk's memory after this callback returns: copy now.
      buffer.set(new Uint8Array(chunk), received);
      received += size;
      if (isLast) {
        settled = true;
        unwatch();
        resolve(received === buffer.byteLength ? buffer : buffer.slice(0, received));
      }
    });
  });
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'del' | 'options';

export interface Route {
  method: Method;
  /** uWS pattern, e.g. /v1/models/:modelVersionId/predict */
  path: string;
  /** metrics label; defaults to the pattern */
  name?: string;
  handler: (req: Request, reply: Reply) => void | Promise<void>;
}

export interface HttpContext {
  metrics: ServerMetrics;
  inFlight: InFlight;
  /** reverse proxies in front of the server whose X-Forwarded-For entries are believed */
  trustedProxies: number;
  /** one info line per completed request (ACCESS_LOG) */
  accessLog: boolean;
  /** allowed browser origins (CORS_ORIGINS); undefined: no CORS headers */
  cors: CorsPolicy | undefined;
}

/**
 * The address throttles key on. Behind `trusted` proxies, each appends the
 * address it received from to X-Forwarded-For, so the client is the entry
 * that many places from the end; anything further left is the client's own
 * claim and could be forged. Without a header (a direct call) the peer.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: number): string {
  if (trusted === 0 || !forwardedFor) return peer;
  const hops = forwardedFor.split(',').map((part) => part.trim()).filter((part) => part !== '');
  return hops[Math.max(0, hops.length - trusted)] ?? peer;
}

/**
 * An address as people write it. uWS writes IPv6 in full (a dual-stack
 * listener sees IPv4 clients as 0000:…:ffff:7f00:0001): compressed here, and
 * IPv4-mapped addresses as plain IPv4, so one client is one throttle key.
 */
export function canonicalAddress(raw: string): string {
  if (!raw.includes(':')) return raw;
  let compressed: string;
  try {
    compressed = new URL(`http://[${raw}]/`).hostname.slice(1, -1);
  } catch {
    return raw;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The canonical text of an address as uWS gives it in binary (4 or 16
 * bytes): IPv4 dotted, IPv4-mapped IPv6 (a dual-stack listener's IPv4
 * clients) as IPv4, other IPv6 compressed (RFC 5952) — canonicalAddress
 * without parsing text.
 */
export function addressText(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (bytes.length !== 16) return '';
  let mapped = bytes[10] === 0xff && bytes[11] === 0xff;
  for (let i = 0; i < 10 && mapped; i++) if (bytes[i] !== 0) mapped = false;
  if (mapped) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of two or more zero groups becomes "::" (the first of equals).
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const hex = (from: number, to: number) => groups.slice(from, to).map((g) => g.toString(16)).join(':');
  return bestStart < 0 ? hex(0, 8) : `${hex(0, bestStart)}::${hex(bestStart + bestLength, 8)}`;
}

/** 127.0.0.0/8 or ::1 (and their IPv4-carrying IPv6 forms), by the same ranges the webhook guard uses. */
export function isLoopback(address: string): boolean {
  return internalReason(address) === 'loopback';
}

function readHeaders(req: UwsTypes.HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  });
  return headers;
}

/** Cannot fail: the reply, its request id and access-log line exist even for a malformed request. */
function exchangeOf(req: UwsTypes.HttpRequest, res: HttpResponse, headers: Record<string, string>, ctx: HttpContext): Exchange {
  return new Exchange(req.getCaseSensitiveMethod(), req.getUrl(), requestId(headers['x-request-id']), res, headers, ctx);
}

/** A request's snapshot: what uWS gives only during the callback copied now, the rest worked out when read. */
class RequestSnapshot implements Request {
  private parsedQuery: URLSearchParams | undefined;
  bodyPaused?: boolean;

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
function snapshot(req: UwsTypes.HttpRequest, res: HttpResponse, paramNames: string[], headers: Record<string, string>, exchange: Exchange): Request {
  const params: Record<string, string> = {};
  paramNames.forEach((name, i) => {
    params[name] = decodeURIComponent(req.getParameter(i) ?? '');
  });
  return new RequestSnapshot(exchange, params, headers, req.getQuery() ?? '', res);
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

export interface BodyStream {
  /** Starts reading; resolves with the byte count once the last chunk was consumed. */
  start(onChunk: (chunk: Buffer) => void | Promise<void>): Promise<number>;
  /** Drops whatever was not consumed (call before answering early, e.g. on an auth error). */
  discard(): void;
}

/**
 * A request body read chunk by chunk, for bodies too large to hold (model
 * uploads). The socket is paused until start() (so the caller can
 * authenticate first) and whenever onChunk is busy (backpressure down to
 * TCP). Past `limit` bytes it rejects with BodyTooLargeError. Must be
 * opened synchronously inside the route handler.
 */
export function openBodyStream(req: Request, reply: Reply, limit: number): BodyStream {
  const declared = declaredLength(req);
  const queue: Array<{ chunk: Buffer; last: boolean }> = [];
  let consumer: ((chunk: Buffer) => void | Promise<void>) | undefined;
  let received = 0;
  let busy = false;
  let settled = false;
  let resolveDone!: (n: number) => void;
  let rejectDone!: (e: Error) => void;
  const done = new Promise<number>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  done.catch(() => {}); // observed through start()
  let unwatch = () => {};
  const fail = (error: Error) => {
    if (settled) return;
    settled = true;
    unwatch();
    rejectDone(error);
    // Keep reading (and dropping) the rest, so the client can read the answer.
    if (!reply.aborted && !reply.finished) resumeBody(req);
  };
  reply.onAbort(() => fail(new ClientDisconnectedError()));

  const pump = async () => {
    if (busy || !consumer) return;
    busy = true;
    try {
      while (queue.length && !settled) {
        const { chunk, last } = queue.shift()!;
        if (chunk.length) await consumer(chunk);
        if (last) {
          settled = true;
          unwatch();
          resolveDone(received);
        }
      }
    } catch (error) {
      fail(error as Error);
    } finally {
      busy = false;
    }
    // Also once the last chunk is consumed: the socket may have been paused
    // while it waited, and a kept-alive connection's next request must be read.
    if (!reply.aborted && !reply.finished) resumeBody(req);
  };

  if (declared !== undefined && declared > limit) {
    fail(new BodyTooLargeError(declared, declared > MAX_DISCARD_BYTES));
    req.raw.onData(() => {});
  } else {
    unwatch = watchBody(req, reply, () => received, () => fail(new ClientDisconnectedError()));
    req.raw.onData((chunk, isLast) => {
      if (settled) return;
      received += chunk.byteLength;
      if (received > limit) {
        fail(new BodyTooLargeError(declared ?? received, declared !== undefined && declared - received > MAX_DISCARD_BYTES));
        return;
      }
      queue.push({ chunk: Buffer.from(chunk.slice(0)), last: isLast }); // uWS reuses chunk memory
      if (busy || !consumer) pauseBody(req);
      void pump();
    });
    pauseBody(req);
  }

  return {
    start(onChunk) {
      consumer = onChunk;
      if (!settled) {
        resumeBody(req);
        void pump();
      }
      return done;
    },
    discard() {
      fail(new Error('body discarded'));
    },
  };
}
