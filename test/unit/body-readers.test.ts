// Request bodies without a socket (src/http/body-readers.ts, slow-bodies.ts):
// readBody, readGatedBody, HandlerBody and declaredLength on a fake of just what they
// call on uWS's response (onData, pause, resume) and on the Reply (onAbort,
// error, aborted, ctx); the budgets are the real BodyBudget. And the
// minimum upload rate's watch, on fake timers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyBudget } from '../../src/lib/body-budget.js';
import {
  BodyTooLargeError,
  declaredLength,
  HandlerBody,
  readBody,
  readGatedBody,
  SMALL_BODY_BYTES,
  type GatedBodyOptions,
} from '../../src/http/body-readers.js';
import { ApiError } from '../../src/http/errors.js';
import { ClientDisconnectedError, type Reply } from '../../src/http/reply.js';
import type { Request } from '../../src/http/request.js';
import { UploadRateWatch } from '../../src/http/slow-bodies.js';

/** A request whose body the test delivers chunk by chunk, as uWS does. */
function fakeRequest(headers: Record<string, string> = {}, clientAddress = '192.0.2.1') {
  let onData: ((chunk: ArrayBuffer, isLast: boolean) => void) | undefined;
  const log: string[] = [];
  const raw = {
    onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void) {
      onData = handler;
    },
    pause: () => log.push('pause'),
    resume: () => log.push('resume'),
  };
  const req = {
    method: 'POST',
    path: '/x',
    query: new URLSearchParams(),
    params: {},
    headers,
    peerAddress: clientAddress,
    clientAddress,
    requestId: 'r',
    raw,
  } as unknown as Request;
  /** Delivers `bytes` as uWS does: in a buffer it reuses (zeroed here) once the callback returns. */
  const send = (bytes: Uint8Array, isLast: boolean) => {
    if (!onData) throw new Error('nobody reads the body');
    const chunk = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(chunk).set(bytes);
    onData(chunk, isLast);
    new Uint8Array(chunk).fill(0);
  };
  return { req, send, log, listening: () => onData !== undefined };
}

/** The Reply as the readers use it: its abort handlers, its answers, its upload-rate watch. */
function fakeReply(uploadRate?: UploadRateWatch) {
  const aborts: Array<() => void> = [];
  const errors: Array<{ error: unknown; close: boolean }> = [];
  const reply = {
    aborted: false,
    ctx: { uploadRate },
    onAbort: (handler: () => void) => aborts.push(handler),
    error: (error: unknown, close = false) => errors.push({ error, close }),
  };
  const abort = () => {
    reply.aborted = true;
    for (const handler of aborts.splice(0)) handler();
  };
  return { reply: reply as unknown as Reply, errors, abort };
}

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

afterEach(() => vi.useRealTimers());

describe('declaredLength', () => {
  it('reads a decimal Content-Length, none when absent', () => {
    expect(declaredLength(fakeRequest({ 'content-length': '1234' }).req)).toBe(1234);
    expect(declaredLength(fakeRequest({ 'content-length': ' 0 ' }).req)).toBe(0);
    expect(declaredLength(fakeRequest().req)).toBeUndefined();
  });

  it('answers 400 for anything else, before a byte is read', () => {
    for (const value of ['-1', '1e3', '12, 12', '', 'abc', '1234567890123456']) {
      let error: unknown;
      try {
        declaredLength(fakeRequest({ 'content-length': value }).req);
      } catch (e) {
        error = e;
      }
      expect(error, value).toBeInstanceOf(ApiError);
      expect((error as ApiError).status, value).toBe(400);
    }
  });
});

describe('readBody', () => {
  it('assembles the chunks, copying each before uWS reuses its memory', async () => {
    const { req, send } = fakeRequest({ 'content-length': '10' });
    const body = readBody(req, fakeReply().reply, 100);
    send(bytes(4, 1), false);
    send(bytes(6, 2), true);
    expect([...(await body)]).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
  });

  it('grows its buffer for a body of undeclared length, and returns exactly what came', async () => {
    const { req, send } = fakeRequest();
    const body = readBody(req, fakeReply().reply, 1 << 20);
    for (let i = 0; i < 5; i++) send(bytes(40_000, i), false);
    send(bytes(1, 9), true);
    const result = await body;
    expect(result.byteLength).toBe(200_001);
    expect(result[39_999]).toBe(0);
    expect(result[40_000]).toBe(1);
    expect(result[200_000]).toBe(9);
  });

  it('refuses at once a declared length over the limit, discarding the rest (closing past 64 MiB)', async () => {
    const small = fakeRequest({ 'content-length': '101' });
    await expect(readBody(small.req, fakeReply().reply, 100)).rejects.toMatchObject({
      bytes: 101,
      closeConnection: false,
    });
    expect(small.listening()).toBe(true); // the rest is read and dropped
    const huge = fakeRequest({ 'content-length': String(65 * 1024 * 1024) });
    await expect(readBody(huge.req, fakeReply().reply, 100)).rejects.toMatchObject({ closeConnection: true });
  });

  it('refuses a body of undeclared length once it crosses the limit', async () => {
    const { req, send } = fakeRequest();
    const body = readBody(req, fakeReply().reply, 100);
    send(bytes(60), false);
    send(bytes(60), false);
    const error = await body.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).bytes).toBe(120);
  });

  it('with a measurer, reads an oversized body to its end, feeding every byte to the measure', async () => {
    const { req, send } = fakeRequest({ 'content-length': '150' });
    let fed = 0;
    const body = readBody(req, fakeReply().reply, 100, () => ({
      feed: (chunk) => (fed += chunk.byteLength),
      result: () => 4242,
    }));
    send(bytes(80), false);
    send(bytes(70), true);
    const error = (await body.catch((e: unknown) => e)) as BodyTooLargeError;
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect(error).toMatchObject({ bytes: 150, closeConnection: false, measured: 4242 });
    expect(fed).toBe(150);
  });

  it('rejects with ClientDisconnectedError when the client goes away, and ignores chunks after', async () => {
    const { req, send } = fakeRequest({ 'content-length': '10' });
    const { reply, abort } = fakeReply();
    const body = readBody(req, reply, 100);
    send(bytes(4), false);
    abort();
    send(bytes(6), true);
    await expect(body).rejects.toBeInstanceOf(ClientDisconnectedError);
  });
});

describe('HandlerBody (the body port of a predict pass)', () => {
  it('reads at once, leaves the body in the socket while paused, and reads on when resumed', async () => {
    const { req, send, log, listening } = fakeRequest({ 'content-length': '3' });
    const { reply } = fakeReply();
    const body = new HandlerBody(req, reply, 100, false);
    const read = body.read();
    expect(listening()).toBe(true);
    body.pause();
    body.pause();
    expect(log).toEqual(['pause']);
    body.resume();
    expect(log).toEqual(['pause', 'resume']);
    send(bytes(3), true);
    expect(await read).toEqual(bytes(3));
  });

  it('after a refused hold reads a small body through (the connection stays) and leaves a large one unread', async () => {
    const small = fakeRequest({ 'content-length': '3' });
    const smallBody = new HandlerBody(small.req, fakeReply().reply, 100, false);
    void smallBody.read();
    smallBody.pause();
    const drained = smallBody.refused();
    expect(small.log).toEqual(['pause', 'resume']);
    small.send(bytes(3), true);
    await drained;

    const large = fakeRequest({ 'content-length': String(SMALL_BODY_BYTES + 1) });
    const largeBody = new HandlerBody(large.req, fakeReply().reply, SMALL_BODY_BYTES + 1, true);
    void largeBody.read();
    largeBody.pause();
    expect(largeBody.refused()).toBeUndefined();
    expect(large.log).toEqual(['pause']);
  });
});

describe('readGatedBody', () => {
  const options = (
    budget: BodyBudget,
    strangers: BodyBudget,
    extra: Partial<GatedBodyOptions> = {},
  ): GatedBodyOptions => ({
    limit: 1 << 20,
    budget,
    strangers,
    unauthenticated: false,
    holdMs: 50,
    tooLarge: (error) => new ApiError(413, 'too large', `${error.bytes}`),
    owner: () => 'org-1',
    ...extra,
  });

  it('reads a small body while the caller is checked, counted in the strangers budget, and gives it back on release', async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20), new BodyBudget(1 << 20)];
    const { req, send, log } = fakeRequest({ 'content-length': '100' });
    let letThrough!: () => void;
    const body = readGatedBody(
      req,
      fakeReply().reply,
      options(budget, strangers),
      () => new Promise<void>((r) => (letThrough = r)),
    );
    expect(strangers.inUse).toBe(100);
    expect(log).toEqual([]); // not paused: read at once
    send(bytes(100, 3), true);
    letThrough();
    const read = await body;
    expect(read!.bytes.byteLength).toBe(100);
    expect(budget.inUse).toBe(0);
    read!.release();
    expect(strangers.inUse).toBe(0);
  });

  it('leaves a large body unread until the gate passes, then reserves it in the shared budget under its owner', async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20, 1 << 20), new BodyBudget(1 << 20)];
    const size = SMALL_BODY_BYTES + 1;
    const { req, send, log } = fakeRequest({ 'content-length': String(size) });
    let letThrough!: () => void;
    const body = readGatedBody(
      req,
      fakeReply().reply,
      options(budget, strangers),
      () => new Promise<void>((r) => (letThrough = r)),
    );
    expect(log).toEqual(['pause']);
    expect(budget.inUse + strangers.inUse).toBe(0); // nothing reserved for an unknown caller's large body
    letThrough();
    await vi.waitFor(() => expect(log).toEqual(['pause', 'resume']));
    expect(budget.inUse).toBe(size);
    send(bytes(size), true);
    const read = await body;
    read!.release();
    expect(budget.inUse).toBe(0);
  });

  it("counts a known caller's body in its owner's part at once: no gate, no strangers' memory, no peer address read", async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20, 1 << 20), new BodyBudget(1 << 20)];
    const { req, send, log } = fakeRequest({ 'content-length': '100' });
    let peerReads = 0;
    Object.defineProperty(req, 'clientAddress', { get: () => (peerReads++, '192.0.2.1') });
    const body = readGatedBody(req, fakeReply().reply, options(budget, strangers, { owner: () => 'not asked' }), {
      owner: 'org-7',
    });
    expect([budget.inUse, strangers.inUse, log]).toEqual([100, 0, []]); // read at once, in the tenant's budget
    expect(budget.tryReserve(1 << 20, 'org-7')).toBe(false); // under org-7's part
    send(bytes(100, 3), true);
    const read = await body;
    expect(read!.bytes).toEqual(bytes(100, 3));
    read!.release();
    expect(budget.inUse).toBe(0);
    expect(peerReads).toBe(0);
  });

  it("leaves a known caller's body unread while its owner's part is full, then reads it", async () => {
    const [budget, strangers] = [new BodyBudget(1000, 1000), new BodyBudget(1 << 20)];
    expect(budget.tryReserve(1000, 'someone')).toBe(true);
    const { req, send, log } = fakeRequest({ 'content-length': '100' });
    const body = readGatedBody(req, fakeReply().reply, options(budget, strangers, { holdMs: 5000 }), {
      owner: 'org-7',
    });
    expect(log).toEqual(['pause']);
    budget.release(1000, 'someone');
    await vi.waitFor(() => expect(log).toEqual(['pause', 'resume']));
    expect([budget.inUse, strangers.inUse]).toEqual([100, 0]);
    send(bytes(100), true);
    (await body)!.release();
    expect(budget.inUse).toBe(0);
  });

  it('answers a refused caller without reading a large body, and closes the connection', async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20), new BodyBudget(1 << 20)];
    const { req } = fakeRequest({ 'content-length': String(SMALL_BODY_BYTES * 4) });
    const { reply, errors } = fakeReply();
    const refusal = new ApiError(401, 'unauthorized', 'no');
    expect(
      await readGatedBody(req, reply, options(budget, strangers), async () => Promise.reject(refusal)),
    ).toBeUndefined();
    expect(errors).toEqual([{ error: refusal, close: true }]);
    expect(budget.inUse + strangers.inUse).toBe(0);
  });

  it('keeps the connection for a refused small body that has fully arrived, and releases its memory', async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20), new BodyBudget(1 << 20)];
    const { req, send } = fakeRequest({ 'content-length': '10' });
    const { reply, errors } = fakeReply();
    const refusal = new ApiError(401, 'unauthorized', 'no');
    let refuse!: () => void;
    const body = readGatedBody(
      req,
      reply,
      options(budget, strangers),
      () => new Promise<void>((_, reject) => (refuse = () => reject(refusal))),
    );
    send(bytes(10), true);
    await Promise.resolve(); // the body's completion is noted
    refuse();
    expect(await body).toBeUndefined();
    expect(errors).toEqual([{ error: refusal, close: false }]);
    expect(strangers.inUse).toBe(0);
  });

  it('answers 503 with Retry-After when the memory does not come within holdMs', async () => {
    vi.useFakeTimers();
    const [budget, strangers] = [new BodyBudget(SMALL_BODY_BYTES * 2), new BodyBudget(1 << 20)];
    expect(budget.tryReserve(SMALL_BODY_BYTES * 2, 'someone')).toBe(true); // the budget is spent
    const { req } = fakeRequest({ 'content-length': String(SMALL_BODY_BYTES + 1) });
    const { reply, errors } = fakeReply();
    const body = readGatedBody(req, reply, options(budget, strangers, { holdMs: 1500 }), async () => {});
    await vi.advanceTimersByTimeAsync(1499);
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await body).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.close).toBe(true);
    expect(errors[0]!.error).toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
  });

  it('answers a body over the limit with the route’s own error', async () => {
    const [budget, strangers] = [new BodyBudget(1 << 20), new BodyBudget(1 << 20)];
    const { req } = fakeRequest({ 'content-length': '2000' });
    const { reply, errors } = fakeReply();
    expect(
      await readGatedBody(req, reply, options(budget, strangers, { limit: 1000 }), async () => {}),
    ).toBeUndefined();
    expect(errors[0]!.error).toMatchObject({ status: 413 });
    expect(budget.inUse + strangers.inUse).toBe(0);
  });
});

describe('the minimum upload rate', () => {
  function watched(rate: number) {
    vi.useFakeTimers();
    const watch = new UploadRateWatch(rate);
    const state = { received: 0, paused: false, failed: undefined as ApiError | undefined };
    const stop = watch.watch({
      received: () => state.received,
      paused: () => state.paused,
      fail: (error) => (state.failed = error),
    });
    return { state, stop };
  }

  it('answers 408 a body slower than the rate once the grace period is over', () => {
    const { state } = watched(1000);
    state.received = 100;
    vi.advanceTimersByTime(4000);
    expect(state.failed).toBeUndefined(); // within the grace period
    vi.advanceTimersByTime(2000);
    expect(state.failed).toMatchObject({ status: 408 });
  });

  it('lets a body at the rate go on', () => {
    const { state } = watched(1000);
    for (let s = 1; s <= 10; s++) {
      state.received = 1000 * s;
      vi.advanceTimersByTime(1000);
    }
    expect(state.failed).toBeUndefined();
  });

  it('does not count the time the server kept the body paused', () => {
    const { state } = watched(1000);
    state.paused = true;
    vi.advanceTimersByTime(60_000);
    expect(state.failed).toBeUndefined();
  });

  it('stops watching when told, and watches nothing at rate 0', () => {
    const { state, stop } = watched(1000);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(state.failed).toBeUndefined();
    const off = watched(0);
    vi.advanceTimersByTime(60_000);
    expect(off.state.failed).toBeUndefined();
  });
});
