// HTTP/1.1 over one raw TCP socket, for tests about what happens on a kept-alive
// connection (fetch may pick any pooled socket, so it cannot show that).
import { connect } from 'node:net';

/**
 * Sends each request after the answer to the previous one has fully arrived,
 * all on one connection, and resolves with the raw answers (head and body).
 * An answer missing for `timeoutMs` rejects, naming the request it waited on.
 */
export function exchangeOnOneSocket(port: number, requests: Buffer[], timeoutMs = 8_000): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answers: string[] = [];
    let pending = Buffer.alloc(0);
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const sendNext = () => {
      const index = answers.length;
      if (index === requests.length) {
        clearTimeout(timer);
        socket.end();
        resolve(answers);
        return;
      }
      clearTimeout(timer);
      timer = setTimeout(() => fail(new Error(`no answer to request ${index + 1} within ${timeoutMs} ms`)), timeoutMs);
      socket.write(requests[index]!);
    };
    socket.on('connect', sendNext);
    socket.on('error', fail);
    socket.on('close', () => {
      if (answers.length < requests.length) fail(new Error(`connection closed after ${answers.length} answer(s)`));
    });
    socket.on('data', (data: Buffer) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        const total = headEnd + 4 + length;
        if (pending.length < total) return;
        answers.push(pending.subarray(0, total).toString('utf8'));
        pending = pending.subarray(total);
        sendNext();
      }
    });
  });
}

/**
 * Sends one request whose body the server may refuse before it has all
 * arrived, and reads the answer while still writing: a server that answers
 * and closes leaves the rest of the body unsent (EPIPE, or a reset), which
 * fetch reports as a failure even though the answer came. Resolves with the
 * status and the parsed JSON body; rejects when no whole answer arrived.
 */
export function answerWhileSending(
  port: number,
  head: string,
  body: Buffer,
  timeoutMs = 30_000,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const timer = setTimeout(() => finish(new Error(`no whole answer within ${timeoutMs} ms`)), timeoutMs);
    const finish = (error?: Error) => {
      if (settled) return;
      const answer = parse();
      if (!answer && !error) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (answer) resolve(answer);
      else reject(error);
    };
    const parse = () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const headText = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headText)?.[1] ?? NaN);
      if (!Number.isFinite(length) || received.length < end + 4 + length) return undefined;
      return {
        status: Number(headText.split(' ')[1]),
        body: JSON.parse(received.subarray(end + 4, end + 4 + length).toString('utf8')) as unknown,
      };
    };
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      finish();
    });
    socket.on('error', (error) => finish(error));
    socket.on('close', () =>
      finish(new Error(`connection closed before a whole answer: ${received.toString('latin1').slice(0, 200)}`)),
    );
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body);
    });
  });
}
