// A predict request whose body arrives in two parts, for tests that need a
// request in progress for exactly as long as they like, whatever the speed
// of the host: from its head on it holds its queue place, its
// organization's share and its body memory, until `finish` sends the rest.
import { connect } from 'node:net';

export interface HeldRequest {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<{ status: number; body: unknown }>;
}

/** Sends the head and half the multipart body of a predict request; resolves once they are written. */
export function heldPredict(
  port: number,
  versionId: string,
  image: Uint8Array,
  key = 'test-key',
): Promise<HeldRequest> {
  const boundary = 'held-request-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const head =
    `POST /v1/models/${versionId}/predict HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
  const half = Math.floor(body.length / 2);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const answer = new Promise<{ status: number; body: unknown }>((done, fail) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const text = received.subarray(0, headEnd).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(text)?.[1] ?? 0);
        if (received.length < headEnd + 4 + length) return;
        socket.destroy();
        done({
          status: Number(text.split(' ')[1]),
          body: JSON.parse(received.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8')),
        });
      });
      socket.on('close', () => fail(new Error('connection closed before the answer')));
    });
    answer.catch(() => {}); // awaited through finish(), if the test gets that far
    socket.on('error', reject);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, half)]), () =>
        resolve({
          finish: () => {
            socket.write(body.subarray(half));
            return answer;
          },
        }),
      );
    });
  });
}
