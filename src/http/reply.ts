// The answer to one request: status line, headers and body written corked in
// one go, or a stream of chunks (server-sent events); safe to call after the
// client went away (then nothing is written). Every answer carries the
// request id, Vary and the CORS headers, and completing it (answered or
// abandoned) counts it once: the route's metrics, the requests in flight,
// the access log line.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { errorCode, type ErrorCode } from '../errors.js';
import type { ServerMetrics } from '../observability/metrics.js';
import { writeAccessLog } from './access-log.js';
import type { HttpContext } from './context.js';
import { CorsPolicy } from './cors.js';
import type { InFlight } from './draining.js';
import { ApiError } from './errors.js';
import type { Exchange } from './request.js';
import type { HttpResponse } from './uws.js';

const STATUS_LINES = new Map<number, string>(
  Object.entries(STATUS_CODES).map(([code, text]) => [Number(code), `${code} ${text}`]),
);

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
    if (!counter)
      this.byStatus.set(
        status,
        (counter = this.metrics.httpRequests.series({
          route: this.route,
          method: this.method,
          status: String(status),
        })),
      );
    counter.value++;
    this.duration.observe(seconds);
  }

  /** An error answered, by its code. */
  failed(code: ErrorCode): void {
    this.metrics.errors.count(code);
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
    /** the server's settings and shared state (the body readers take the upload rate from here) */
    readonly ctx: HttpContext,
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
      if (!closeConnection) this.resumeBody();
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
  stream(
    status: number,
    contentType: string,
    headers: Readonly<Record<string, string>>,
    first: string,
  ): ResponseStream {
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
      this.resumeBody();
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

  /**
   * A socket the body readers left paused after the body's end reads again
   * with the answer, for the connection's next request (unless the answer
   * closes the connection: a body refused unread is never read). Resumed
   * only now, not when the body ended: uWS's resume() re-arms its 10 s idle
   * timeout, which would close the connection under an answer that takes
   * longer.
   */
  private resumeBody(): void {
    if (!this.exchange.bodyPaused) return;
    this.exchange.bodyPaused = false;
    this.res.resume();
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
        for (const [name, value] of CorsPolicy.responseHeaders(this.exchange.corsOrigin))
          this.res.writeHeader(name, value);
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
        this.ctx.log.debug('request ended: client disconnected', { route: this.route, requestId: this.exchange.id });
      } else {
        this.ctx.log.warn('error after the client disconnected', {
          route: this.route,
          requestId: this.exchange.id,
          error: error as Error,
        });
      }
      return;
    }
    // The front end's own refusals (an ApiError of its own) have a status, not a code.
    const code = error instanceof ApiError ? error.code : errorCode(error);
    if (code !== undefined) this.routeMetrics.failed(code);
    if (!known) {
      this.ctx.log.error('unhandled error', {
        route: this.route,
        requestId: this.exchange.id,
        code: errorCode(error),
        error: error as Error,
        stack: (error as Error)?.stack,
      });
    }
    const apiError =
      known ?? new ApiError(500, 'internal server error', 'an unexpected error occurred; it has been logged');
    this.send(
      apiError.status,
      this.ctx.errorBody ? this.ctx.errorBody(apiError) : JSON.stringify(apiError.toBody()),
      'application/json',
      apiError.headers,
      closeConnection,
    );
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
      writeAccessLog(this.ctx.log, { method, path, status, ms, bytes: this.bytesOut, id, client });
    }
  }
}
