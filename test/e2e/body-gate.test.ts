// Ingestion bodies are read only for an authenticated device, with memory
// reserved from the one budget all routes share (MAX_BUFFERED_BYTES), and
// must keep arriving at MIN_UPLOAD_RATE.
// Before: every body was buffered whole before its token was looked at, so
// connections announcing 4 MiB each grew the process by gigabytes.
import { connect, type Socket } from 'node:net';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];
let deviceToken: string;

beforeAll(async () => {
  // 1 MiB of body memory for the whole server; 1.5 s of waiting for it.
  ({ database, server, sql, admin } = await startPlatform({
    MAX_BUFFERED_BYTES: String(1024 * 1024),
    QUEUE_HOLD_MS: '1500',
    MIN_UPLOAD_RATE: '10000',
  }));
  const channel = (await admin.post('/v2/channels', { name: 'phones', type: 'android' })).body.data;
  const registered = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey, properties: {} }),
  });
  deviceToken = ((await registered.json()) as { token: string }).token;
});

afterAll(() => stopPlatform({ sql, server, database }));

/** Sends only the head of a request announcing `length` body bytes; resolves with the socket. */
function headOnly(
  path: string,
  length: number,
  authorization?: string,
): Promise<{ socket: Socket; answer: Promise<string>; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${auth}\r\n`,
      );
      let text = '';
      const answer = new Promise<string>((done) =>
        socket.on('data', (chunk) => ((text += chunk), text.includes('\r\n\r\n') && done(text))),
      );
      const closed = new Promise<void>((done) => socket.on('close', () => done()));
      socket.on('error', () => {});
      resolve({ socket, answer, closed });
    });
  });
}

describe('ingestion bodies', () => {
  it('refuses a bad token before a byte of its body is sent, and closes a large one', async () => {
    const { answer, closed } = await headOnly('/v1/mobile/events/batch', 4_000_000, 'Bearer not.a.token');
    expect(await answer).toMatch(/^HTTP\/1\.1 401 /);
    await closed; // the announced 4 MB are never read
    const missing = await headOnly('/v1/iot/events', 4_000_000);
    expect(await missing.answer).toContain('missing Authorization header with the device token');
    await missing.closed;
  });

  it('limits registration bodies, which carry their key inside, to 64 KiB', async () => {
    const { answer, socket } = await headOnly('/v1/registration', 100_000);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('100000 bytes is over the limit of 65536 bytes');
    socket.destroy();
  });

  it('holds an authenticated body unread while the shared budget is spent, then answers 503', async () => {
    // Two bodies of 800 KB against the 1 MiB budget, neither sent: whichever
    // the server reserves memory for first holds it (its body never comes);
    // the other waits for memory, unread, and is refused after QUEUE_HOLD_MS.
    // Which one is which does not matter, so nothing waits for the first to be reserved.
    const started = Date.now();
    const both = await Promise.all([
      headOnly('/v1/mobile/events/batch', 800_000, deviceToken),
      headOnly('/v1/mobile/events/batch', 800_000, deviceToken),
    ]);
    const [index, text] = await Promise.race(
      both.map((request, i) => request.answer.then((answer) => [i, answer] as const)),
    );
    const [refused, holder] = [both[index]!, both[1 - index]!];
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toContain('too many request bodies in memory');
    expect(text).toMatch(/Retry-After: 1/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    await refused.closed;
    holder.socket.destroy();
    // Memory comes back when the holder leaves: a small batch goes through.
    await waitFor(
      async () =>
        (
          await fetch(`${server.url}/v1/mobile/events/batch`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: deviceToken },
            body: JSON.stringify({ events: [{ timestamp: 1_700_000_000_000 }] }),
          })
        ).status === 204,
      10_000,
      'a small batch answered 204',
    );
  });
});

describe('management bodies', () => {
  it('authenticates before reading a body: a refused caller never has it read', async () => {
    // Before: up to 1 MiB was buffered for anyone before the token was looked at.
    const anonymous = await headOnly('/v2/projects', 900_000);
    expect(await anonymous.answer).toMatch(/^HTTP\/1\.1 401 [\s\S]*missing Authorization header/);
    await anonymous.closed;
    const forged = await headOnly('/v2/rules', 900_000, 'Bearer not.a.token');
    expect(await forged.answer).toMatch(/^HTTP\/1\.1 401 /);
    await forged.closed;
  });
});

describe('trickling bodies', () => {
  it('answers 408 and closes the connection of a body that arrives slower than MIN_UPLOAD_RATE', async () => {
    // Before: 100 bytes every 500 ms held the connection (and its body memory) for as long as the client liked.
    const { socket, answer, closed } = await headOnly('/v1/registration', 60_000);
    const trickle = setInterval(() => socket.write('x'.repeat(100)), 500);
    try {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toContain('the body arrived slower than 10000 bytes/s (MIN_UPLOAD_RATE)');
      await closed;
    } finally {
      clearInterval(trickle);
    }
  });

  it('lets a body that keeps up finish', async () => {
    const body = JSON.stringify({
      events: Array.from({ length: 300 }, (_, i) => ({
        timestamp: 1_700_000_000_000 + i,
        attributes: { pad: 'p'.repeat(200) },
      })),
    });
    const { socket, answer } = await headOnly('/v1/mobile/events/batch', Buffer.byteLength(body), deviceToken);
    // ~70 KB over ~6 s: 12 KB/s, above the 10,000 bytes/s minimum, past the 5 s grace.
    let sent = 0;
    const chunk = Math.ceil(body.length / 12);
    const timer = setInterval(() => {
      socket.write(body.slice(sent, sent + chunk));
      sent += chunk;
      if (sent >= body.length) clearInterval(timer);
    }, 500);
    expect(await answer).toMatch(/^HTTP\/1\.1 204 /);
    socket.destroy();
  });
});
