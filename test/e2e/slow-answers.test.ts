// An answer that comes more than 10 s after its body (a model version
// validated before its upload is answered, a predict that waited its turn)
// still reaches the client, and the kept-alive connection then reads the
// next request. uWS closes a connection idle for 10 s, but not one whose
// body has ended; resuming a paused socket re-arms that timeout. The body
// readers once resumed the socket after the body's last chunk (a model
// upload's stream, a buffered body whose memory was granted after it had
// all arrived), and an upload validated for longer than 10 s then got
// "other side closed" instead of its answer. Now the Reply resumes a paused
// socket as it answers (src/http/reply.ts, body-readers.ts).
//
// A real uWS server over loopback, with routes that read a body as the
// product's do (openBodyStream, readGatedBody) and hold the answer past uWS's
// timeout; the client is a raw socket, so the second request provably uses
// the same connection.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/lib/body-budget.js';
import { openBodyStream, readGatedBody } from '../../src/http/body-readers.js';
import type { HttpContext } from '../../src/http/context.js';
import { InFlight } from '../../src/http/draining.js';
import { ApiError } from '../../src/http/errors.js';
import { HttpServer } from '../../src/http/server.js';
import { loadUws } from '../../src/http/uws.js';
import { createServerMetrics } from '../../src/observability/metrics.js';
import { testLog } from '../helpers/log.js';

/**
 * Past uWS's idle timeout: HTTP_IDLE_TIMEOUT_S is 10 s, fixed in uWS, and
 * its sockets' timers tick every 4 s, so it fires 12 to 16 s after it is armed.
 */
const HELD_MS = 17_000;

/** The slow part of the answer (validation, inference), held past uWS's idle timeout. */
const slowWork = () => new Promise<void>((done) => setTimeout(done, HELD_MS));

/**
 * Resolves once the client's last request has been handed to the kernel and
 * the server's loop has turned twice since: a body of 100 KiB, sent with its
 * head, has then arrived whole (uWS hands a paused socket's first read,
 * about 128 KiB, to onData all the same). The server waits on it the way
 * it waits on a database lookup: the caller is known after the body.
 */
let clientWrote: Promise<void> = Promise.resolve();
const afterTheBody = async () => {
  await clientWrote;
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((next) => setImmediate(next));
};

let server: HttpServer;
let port: number;

beforeAll(async () => {
  const ctx: HttpContext = {
    log: testLog,
    metrics: createServerMetrics(),
    inFlight: new InFlight(),
    trustedProxies: 0,
    accessLog: false,
    cors: undefined,
  };
  const budget = new BodyBudget(64 * 1024 * 1024);
  server = new HttpServer(loadUws(testLog), ctx);
  port = await server.listen({ host: '127.0.0.1', port: 0, tls: undefined }, [
    {
      // As a model upload: streamed once its caller is known.
      method: 'post',
      path: '/streamed',
      handler: async (req, reply) => {
        const stream = openBodyStream(req, reply, 16 * 1024 * 1024);
        await afterTheBody();
        let sum = 0;
        const bytes = await stream.start((chunk) => {
          for (const byte of chunk) sum += byte;
        });
        await slowWork();
        reply.json(200, { bytes, sum });
      },
    },
    {
      // As a predict: buffered once its caller is let through, with memory reserved first.
      method: 'post',
      path: '/gated',
      handler: async (req, reply) => {
        const body = await readGatedBody(
          req,
          reply,
          {
            limit: 16 * 1024 * 1024,
            budget,
            strangers: budget,
            unauthenticated: false,
            holdMs: 1000,
            tooLarge: () => new ApiError(413, 'too large', 'too large'),
          },
          afterTheBody,
        );
        if (!body) return;
        let sum = 0;
        for (const byte of body.bytes) sum += byte;
        body.release();
        await slowWork();
        reply.json(200, { bytes: body.bytes.byteLength, sum });
      },
    },
    { method: 'get', path: '/next', handler: (_req, reply) => reply.json(200, { next: true }) },
  ]);
});

afterAll(() => server.stop(5000));

/** One connection; each `ask` writes a request and resolves with its answer's status and JSON body. */
function connection(): Promise<{
  socket: Socket;
  ask: (head: string, body?: Uint8Array) => Promise<{ status: number; json: unknown }>;
}> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buffered = Buffer.alloc(0);
    let waiting: ((answer: { status: number; json: unknown }) => void) | undefined;
    let failed: ((error: Error) => void) | undefined;
    socket.on('close', () => failed?.(new Error('the server closed the connection before answering')));
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString();
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      const body = buffered.subarray(end + 4, end + 4 + length).toString();
      buffered = buffered.subarray(end + 4 + length);
      waiting?.({ status: Number(head.split(' ')[1]), json: JSON.parse(body) });
    });
    socket.on('error', reject);
    socket.on('connect', () =>
      resolve({
        socket,
        ask: (head, body) =>
          new Promise((answered, fail) => {
            waiting = answered;
            failed = fail;
            clientWrote = new Promise((wrote) =>
              socket.write(body ? Buffer.concat([Buffer.from(head), body]) : head, () => wrote()),
            );
          }),
      }),
    );
  });
}

const payload = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) % 251);
const sumOf = (bytes: Uint8Array) => bytes.reduce((a, b) => a + b, 0);

describe('an answer later than uWS idle timeout after its body', () => {
  it('reaches the client, and the kept-alive connection reads the next request', { timeout: 60_000 }, async () => {
    // Bodies that arrive whole while the socket is paused for the caller's
    // check: a model upload; a buffered body past the 64 KiB read meanwhile.
    const body = payload(100 * 1024);
    await Promise.all(
      ['/streamed', '/gated'].map(async (path) => {
        const { socket, ask } = await connection();
        const answer = await ask(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.byteLength}\r\n\r\n`,
          body,
        );
        expect(answer, path).toEqual({ status: 200, json: { bytes: body.byteLength, sum: sumOf(body) } });
        expect(
          await ask('GET /next HTTP/1.1\r\nHost: x\r\n\r\n'),
          `${path}: the next request on the connection`,
        ).toEqual({ status: 200, json: { next: true } });
        socket.destroy();
      }),
    );
  });
});
