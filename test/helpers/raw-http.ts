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
