// Request bodies, read the three ways a route may want them, with the
// helpers they share (the declared length, the size limit and what is
// discarded past it, pausing the socket, the upload rate watch):
//  - readGatedBody: buffered whole, only for a caller the gate lets through,
//    with memory reserved first from the shared body budget;
//  - readBody: buffered whole under a limit (optionally measuring what
//    overflows), for handlers that read the body themselves (HandlerBody:
//    predict's, paused and resumed by its admission pass);
//  - openBodyStream: chunk by chunk with backpressure, for bodies too large
//    to hold (model uploads).
// Each must be started synchronously inside the route handler, as uWS
// requires. The minimum upload rate is the server's (HttpContext.uploadRate).
import type { PassBody } from '../inference/scheduling/admission.js';
import type { BodyBudget } from '../lib/body-budget.js';
import { ApiError } from './errors.js';
import type { WatchedBody } from './slow-bodies.js';
import { ClientDisconnectedError, type Reply } from './reply.js';
import type { Request } from './request.js';

/**
 * After answering "too large", the rest of a body is read and discarded so
 * the client, still sending, can read the answer (closing at once makes most
 * clients fail with EPIPE instead). Past this many bytes the connection is
 * closed instead.
 */
const MAX_DISCARD_BYTES = 64 * 1024 * 1024;

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

/** Stops reading the body from the socket: the server's own wait, which the upload rate does not count. */
function pauseBody(req: Request): void {
  if (req.bodyPaused) return;
  req.bodyPaused = true;
  req.raw.pause();
}

/**
 * Reads on; only after pauseBody (uWS stalls a response resumed without a
 * pause). Not once the body has ended: uWS's resume() re-arms its 10 s idle
 * timeout, which a complete body has disarmed, and an answer that then takes
 * longer (a model version validated before the upload is answered) finds its
 * connection closed. The Reply resumes such a socket as it answers
 * (reply.ts), for the connection's next request.
 */
function resumeBody(req: Request): void {
  if (!req.bodyPaused || req.bodyEnded) return;
  req.bodyPaused = false;
  req.raw.resume();
}

/** uWS's onData, noting the body's end for resumeBody. */
function onBody(req: Request, handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
  req.raw.onData((chunk, isLast) => {
    if (isLast) req.bodyEnded = true;
    handler(chunk, isLast);
  });
}

const unwatched = () => {};

/** How much of a body has arrived, shared by its reader and its rate watch. */
interface Progress {
  received: number;
}

/**
 * A body under the server's rate watch (MIN_UPLOAD_RATE): answered 408, its
 * connection closed, when it trickles. A class, not closures: one is made
 * per request read.
 */
class WatchedRequestBody implements WatchedBody {
  constructor(
    private readonly req: Request,
    private readonly reply: Reply,
    private readonly progress: Progress,
    private readonly abandon: () => void,
  ) {}

  received(): number {
    return this.progress.received;
  }

  paused(): boolean {
    return this.req.bodyPaused === true;
  }

  fail(error: ApiError): void {
    this.abandon();
    this.reply.error(error, true);
  }
}

/** Watches a body's rate; returns the function that ends the watch. */
function watchBody(req: Request, reply: Reply, progress: Progress, abandon: () => void): () => void {
  return reply.ctx.uploadRate?.watch(new WatchedRequestBody(req, reply, progress, abandon)) ?? unwatched;
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

/** A caller authenticated before its body was read (see readGatedBody): whose part of the budget its body counts against. */
export interface KnownCaller {
  owner: string | undefined;
}

/** Memory held for a body: in which budget, under whose part. */
interface Held {
  budget: BodyBudget;
  owner: string | undefined;
}

/** A body's memory, once reserved, until released (once). */
class HeldMemory {
  constructor(
    private readonly bytes: number,
    public held: Held | undefined,
  ) {}

  release(): void {
    this.held?.budget.release(this.bytes, this.held.owner);
    this.held = undefined;
  }
}

/**
 * Answers a refused body's request, its memory given back. A body still
 * arriving (or a large one, left unread) is not waited for: the connection
 * closes after the answer.
 */
function refuseBody(memory: HeldMemory, reply: Reply, error: unknown, closeConnection: boolean): undefined {
  memory.release();
  reply.error(error, closeConnection);
  return undefined;
}

/** A body read whole, with its memory held until release(). */
class HeldBody implements GatedBody {
  constructor(
    readonly bytes: Uint8Array,
    private readonly memory: HeldMemory,
  ) {}

  release(): void {
    this.memory.release();
  }
}

/**
 * Reads a request body only for a caller `gate` lets through (it
 * authenticates, and throws to refuse), with memory for it reserved first.
 * A caller known before its body (a KnownCaller for `gate`: a device whose
 * token and registration were checked recently) has its body counted in its
 * owner's part of the shared budget straight away.
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
export function readGatedBody(
  req: Request,
  reply: Reply,
  options: GatedBodyOptions,
  gate: (() => Promise<void>) | KnownCaller,
): Promise<GatedBody | undefined> {
  const { limit, budget, strangers } = options;
  const reserve = Math.min(declaredLength(req) ?? limit, limit);
  const large = reserve > SMALL_BODY_BYTES;
  const body = readBody(req, reply, limit);
  let complete = false;
  body.then(
    () => (complete = true),
    () => {}, // awaited below, unless refused before
  );
  const known = typeof gate === 'function' ? undefined : gate;
  let held: Held | undefined;
  if (known) {
    // Its sender known already: counted in its part of the shared budget, the strangers' untouched.
    if (budget.tryReserve(reserve, known.owner)) held = { budget, owner: known.owner };
  } else if (!large || options.unauthenticated) {
    const address = req.clientAddress; // read only here: the peer's address costs a call into uWS
    if (strangers.tryReserve(reserve, address)) held = { budget: strangers, owner: address };
  }
  if (!held) pauseBody(req);
  const memory = new HeldMemory(reserve, held);
  return (async () => {
    if (typeof gate === 'function') {
      try {
        await gate();
      } catch (error) {
        return refuseBody(memory, reply, error, large || !complete);
      }
    }
    if (!memory.held) {
      const target: Held = options.unauthenticated
        ? { budget: strangers, owner: req.clientAddress }
        : { budget, owner: known ? known.owner : options.owner?.() };
      if (!(await target.budget.reserve(reserve, target.owner, options.holdMs))) {
        return refuseBody(
          memory,
          reply,
          new ApiError(503, 'server busy', 'too many request bodies in memory; retry shortly', { 'Retry-After': '1' }),
          large || !complete,
        );
      }
      memory.held = target;
      if (reply.aborted) {
        memory.release();
        return undefined;
      }
      resumeBody(req);
    }
    try {
      return new HeldBody(await body, memory);
    } catch (error) {
      memory.release();
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
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw new ApiError(400, 'malformed request', `invalid Content-Length: ${JSON.stringify(raw.slice(0, 32))}`);
  return Number(raw.trim());
}

/** With a measure, a body over the limit is still read to its end (up to MAX_DISCARD_BYTES), each chunk fed to the measure and dropped. */
function measurable(measurer: (() => OverflowMeasure) | undefined, remaining: number): boolean {
  return measurer !== undefined && remaining <= MAX_DISCARD_BYTES;
}

/**
 * Reads the whole request body, counting bytes as they arrive. Past `limit`
 * it stops buffering at once and rejects with BodyTooLargeError: at once
 * (a declared Content-Length over the limit before any byte is read), later
 * chunks dropped unread; or, given a `measurer`, at the body's end, every
 * chunk fed to the measure it makes and dropped (not past MAX_DISCARD_BYTES: beyond, at once).
 * Must be called synchronously inside the route handler, as uWS requires.
 */
export function readBody(
  req: Request,
  reply: Reply,
  limit: number,
  measurer?: () => OverflowMeasure,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req);
    let measure: OverflowMeasure | undefined; // made on overflow only: most bodies fit
    if (declared !== undefined && declared > limit && !measurable(measurer, declared)) {
      reject(new BodyTooLargeError(declared, declared > MAX_DISCARD_BYTES));
      onBody(req, () => {}); // discard
      return;
    }
    // With a declared length the body lands in one exactly-sized, unshared
    // ArrayBuffer that can later be transferred to a worker without a copy.
    // It is allocated with the first chunk: a body held paused (its memory
    // not yet granted) holds none.
    let buffer: Uint8Array | undefined;
    let overflowed = declared !== undefined && declared > limit;
    const progress: Progress = { received: 0 };
    let settled = false;
    const unwatch = watchBody(req, reply, progress, () => {
      settled = true;
      reject(new ClientDisconnectedError());
    });
    reply.onAbort(() => {
      settled = true;
      unwatch();
      reject(new ClientDisconnectedError());
    });
    onBody(req, (chunk, isLast) => {
      if (settled) return;
      let received = progress.received;
      const size = chunk.byteLength;
      if (!buffer && !overflowed) buffer = new Uint8Array(new ArrayBuffer(Math.min(declared ?? 64 * 1024, limit)));
      if (buffer && received + size > limit) {
        // Crossing the limit: keep nothing more, measure what is left if possible.
        if (!measurable(measurer, (declared ?? received + size) - received)) {
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
        progress.received = received += size;
        if (isLast) {
          settled = true;
          unwatch();
          reject(new BodyTooLargeError(received, false, measure.result()));
        }
        return;
      }
      if (received + size > buffer.byteLength) {
        const grown = new Uint8Array(
          new ArrayBuffer(Math.min(limit, Math.max(buffer.byteLength * 2, received + size))),
        );
        grown.set(buffer.subarray(0, received));
        buffer = grown;
      }
      // uWS reuses the chunk's memory after this callback returns: copy now.
      buffer.set(new Uint8Array(chunk), received);
      progress.received = received += size;
      if (isLast) {
        settled = true;
        unwatch();
        resolve(received === buffer.byteLength ? buffer : buffer.slice(0, received));
      }
    });
  });
}

const ignore = () => {};

/**
 * The body of a request its handler reads once admission lets it (predict:
 * the port its pass drives, inference/scheduling/admission.ts PassBody). Started at
 * once, as uWS requires; left unread in the client's socket while the
 * request is held; after a refused hold, a small body is read through (the
 * connection stays: cheaper than a new one) and a large one left for the
 * answer to close the connection. One object per request, no closures.
 */
export class HandlerBody implements PassBody {
  private reading: Promise<Uint8Array> | undefined;

  constructor(
    private readonly req: Request,
    private readonly reply: Reply,
    private readonly limit: number,
    /** over SMALL_BODY_BYTES: refused unread, its connection closed */
    private readonly large: boolean,
    private readonly measurer?: () => OverflowMeasure,
  ) {}

  read(): Promise<Uint8Array> {
    const reading = readBody(this.req, this.reply, this.limit, this.measurer);
    reading.catch(ignore); // awaited by the pass, unless the request ends before
    this.reading = reading;
    return reading;
  }

  pause(): void {
    pauseBody(this.req);
  }

  resume(): void {
    resumeBody(this.req);
  }

  refused(): Promise<unknown> | undefined {
    if (this.large || !this.reading) return undefined;
    resumeBody(this.req);
    return this.reading.catch(ignore);
  }
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
  const progress: Progress = { received: 0 };
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
          resolveDone(progress.received);
        }
      }
    } catch (error) {
      fail(error as Error);
    } finally {
      busy = false;
    }
    // More of the body to read (once it has ended, the Reply resumes the socket as it answers).
    if (!reply.aborted && !reply.finished) resumeBody(req);
  };

  if (declared !== undefined && declared > limit) {
    fail(new BodyTooLargeError(declared, declared > MAX_DISCARD_BYTES));
    onBody(req, () => {});
  } else {
    unwatch = watchBody(req, reply, progress, () => fail(new ClientDisconnectedError()));
    onBody(req, (chunk, isLast) => {
      if (settled) return;
      const received = (progress.received += chunk.byteLength);
      if (received > limit) {
        fail(
          new BodyTooLargeError(
            declared ?? received,
            declared !== undefined && declared - received > MAX_DISCARD_BYTES,
          ),
        );
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
