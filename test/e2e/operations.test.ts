// What operators rely on: JSON logs without secrets, one access-log line per
// request (aborted ones as 499, never an error), X-Request-Id on every answer,
// CORS for browser apps, and HTTPS with TLS_CERT/TLS_KEY.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DomainError, notFound, OutOfOrganizationError } from '../../src/errors.js';
import { ApiError } from '../../src/http/errors.js';
import { requestId } from '../../src/http/request-id.js';
import { InFlight } from '../../src/http/draining.js';
import { ClientDisconnectedError, Reply, RouteMetrics } from '../../src/http/reply.js';
import { Exchange } from '../../src/http/request.js';
import type { HttpResponse } from '../../src/http/uws.js';
import { createServerMetrics } from '../../src/observability/metrics.js';
import { ModelLoadError } from '../../src/inference/instances/session.js';
import { Logger, REDACTED } from '../../src/log.js';
import { freePort, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

const DEMO = '01JDEM0DETECT0R00000000001';

/** Runs `fn` with stderr captured; returns the lines written. */
function captureStderr(fn: () => void): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l !== ''),
    );
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

describe('the logger', () => {
  it('writes one JSON object per line with time, level, msg and the fields', () => {
    const log = new Logger({ level: 'info', format: 'json' });
    const [line] = captureStderr(() => log.info('hello', { id: 'x1', count: 3, time: 'mine' }));
    const record = JSON.parse(line!);
    expect(record).toMatchObject({ level: 'info', msg: 'hello', id: 'x1', count: 3, _time: 'mine' });
    expect(new Date(record.time).toISOString()).toBe(record.time);
  });

  it('never writes secrets, whatever the field is called or nested in', () => {
    for (const format of ['text', 'json'] as const) {
      const log = new Logger({ level: 'info', format });
      const lines = captureStderr(() =>
        log.warn('careful', {
          password: 'hunter2-pw',
          authorization: 'Bearer tok-abc',
          apiKey: 'sk_live_1',
          api_key: 'sk_live_2',
          token: 'jwt.value.here',
          jwtSecret: 'shhh-secret',
          key: 'sk_live_3',
          config: { smtpPassword: 'smtp-pw', headers: { Authorization: 'Bearer nested-tok' } },
          keyPrefix: 'sk_Wm9',
        }),
      );
      const text = lines.join('\n');
      for (const secret of [
        'hunter2-pw',
        'tok-abc',
        'sk_live_1',
        'sk_live_2',
        'jwt.value.here',
        'shhh-secret',
        'sk_live_3',
        'smtp-pw',
        'nested-tok',
      ]) {
        expect(text, format).not.toContain(secret);
      }
      expect(text).toContain(REDACTED);
      expect(text).toContain('sk_Wm9'); // a prefix is how keys are meant to be logged
    }
  });

  it('serialises errors by their message, with the stack only at debug level', () => {
    const error = new TypeError('boom');
    const [info] = captureStderr(() => new Logger({ level: 'info', format: 'json' }).warn('failed', { error }));
    expect(JSON.parse(info!).error).toEqual({ message: 'boom', name: 'TypeError' });
    const [debug] = captureStderr(() => new Logger({ level: 'debug', format: 'json' }).warn('failed', { error }));
    expect(JSON.parse(debug!).error.stack).toContain('TypeError: boom');
    const [text] = captureStderr(() => new Logger({ level: 'info', format: 'text' }).warn('failed', { error }));
    expect(text).toMatch(/ warn  failed error="boom"$/);
  });

  it('writes a domain error with its code, in either format', () => {
    const error = new ModelLoadError('cannot load');
    const [json] = captureStderr(() => new Logger({ level: 'info', format: 'json' }).warn('failed', { error }));
    expect(JSON.parse(json!).error).toEqual({ message: 'cannot load', code: 'MODEL_LOAD_FAILED' });
    const [text] = captureStderr(() => new Logger({ level: 'info', format: 'text' }).warn('failed', { error }));
    expect(text).toMatch(/ warn  failed error="cannot load" code=MODEL_LOAD_FAILED$/);
  });
});

describe('request ids', () => {
  it('keeps a sane client id and generates distinct ones otherwise', () => {
    expect(requestId('abc-DEF_1.2:3')).toBe('abc-DEF_1.2:3');
    const generated = [
      requestId(undefined),
      requestId(''),
      requestId('x'.repeat(129)),
      requestId('a b'),
      requestId('a\nb'),
    ];
    for (const id of generated) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(new Set(generated).size).toBe(generated.length);
  });
});

/** Enough of uWS's HttpResponse for a Reply; `abort()` plays the client going away. */
function fakeResponse() {
  let onAborted = () => {};
  const written: { status?: string; headers: Record<string, string>; body?: string } = { headers: {} };
  const res = {
    onAborted: (handler: () => void) => (onAborted = handler),
    cork: (fn: () => void) => fn(),
    writeStatus: (status: string) => (written.status = status),
    writeHeader: (name: string, value: string) => (written.headers[name] = value),
    end: (body: string) => (written.body = String(body)),
    endWithoutBody: () => {},
  };
  return { res: res as unknown as HttpResponse, written, abort: () => onAborted() };
}

function reply(res: HttpResponse, metrics = createServerMetrics()): Reply {
  const ctx = {
    log: new Logger({ level: 'info', format: 'json' }),
    metrics,
    inFlight: new InFlight(),
    trustedProxies: 0,
    accessLog: true,
    cors: undefined,
  };
  const exchange = new Exchange(
    'POST',
    '/v2/things',
    'req-7',
    { getRemoteAddress: () => new Uint8Array([10, 0, 0, 1]).buffer },
    {},
    ctx,
  );
  return new Reply(res, new RouteMetrics(ctx.metrics, '/v2/things', 'POST'), exchange, ctx);
}

describe('the reply', () => {
  it('logs an unexpected 500 with its request id and stack, then its access line', () => {
    const { res, written } = fakeResponse();
    const lines = captureStderr(() => reply(res).error(new Error('a bug')));
    expect(written.status).toBe('500 Internal Server Error');
    expect(written.headers['X-Request-Id']).toBe('req-7');
    const [error, access] = lines.map((l) => JSON.parse(l));
    expect(error).toMatchObject({
      level: 'error',
      msg: 'unhandled error',
      requestId: 'req-7',
      error: { message: 'a bug' },
    });
    expect(error.stack).toContain('Error: a bug');
    expect(access).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/v2/things',
      status: 500,
      id: 'req-7',
      client: '10.0.0.1',
    });
    expect(access.bytes).toBe(Buffer.byteLength(written.body!));
  });

  it('writes a 499 when the client goes away, and nothing above debug for the disconnect itself', () => {
    const { res, written, abort } = fakeResponse();
    const r = reply(res);
    const lines = captureStderr(() => {
      abort();
      r.error(new ClientDisconnectedError());
      r.send(200, '{}');
    });
    expect(written.status).toBeUndefined();
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', status: 499, bytes: 0, id: 'req-7' }),
    ]);
    // A real failure after the client left is still reported, as a warning without a stack.
    const [late] = captureStderr(() => r.error(new Error('pipeline broke')));
    expect(JSON.parse(late!)).toEqual(
      expect.objectContaining({ level: 'warn', requestId: 'req-7', error: { message: 'pipeline broke' } }),
    );
  });
});

describe('the errors metric', () => {
  it("counts the errors answered by code: a domain error's, UNCODED for a bug, none for the front end's own refusals", () => {
    const metrics = createServerMetrics();
    const answer = (error: unknown) => captureStderr(() => reply(fakeResponse().res, metrics).error(error));
    answer(notFound('thing not found'));
    answer(new OutOfOrganizationError('channel', 'ch-1'));
    answer(notFound('other thing not found'));
    answer(ApiError.from(new DomainError('throttled', 'too many events', 'over 10 events/s', 1)));
    answer(new ApiError(413, 'request body too large'));
    answer(new Error('a bug'));
    expect(
      metrics.registry
        .render()
        .split('\n')
        .filter((line) => line.startsWith('errors_total')),
    ).toEqual([
      'errors_total{code="NOT_FOUND"} 2',
      'errors_total{code="OUT_OF_ORGANIZATION"} 1',
      'errors_total{code="THROTTLED"} 1',
      'errors_total{code="UNCODED"} 1',
    ]);
  });
});

describe('operations settings', () => {
  it('reads LOG_FORMAT, ACCESS_LOG and CORS_ORIGINS, refusing what cannot work', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({ logFormat: 'text', accessLog: false, corsOrigins: [], tls: undefined });
    expect(loadConfig({ LOG_FORMAT: 'json', ACCESS_LOG: 'true' })).toMatchObject({
      logFormat: 'json',
      accessLog: true,
    });
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be one of text, json, got "xml"');
    expect(() => loadConfig({ ACCESS_LOG: 'yes please' })).toThrow('ACCESS_LOG must be true or false');
    expect(loadConfig({ CORS_ORIGINS: 'https://App.example.com/, http://localhost:3000' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ CORS_ORIGINS: 'app.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/no path/);
    expect(() => loadConfig({ CORS_ORIGINS: '*, https://a.example' })).toThrow(/either \*/);
  });

  it('wants TLS_CERT and TLS_KEY together, readable, and matching', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sense-tls-'));
    try {
      const { cert, key } = selfSigned(dir);
      const other = selfSigned(dir, 'other');
      expect(loadConfig({ TLS_CERT: cert, TLS_KEY: key }).tls).toEqual({ certFile: cert, keyFile: key });
      expect(() => loadConfig({ TLS_CERT: cert })).toThrow(
        'TLS_CERT and TLS_KEY go together: TLS_CERT is set, TLS_KEY is not',
      );
      expect(() => loadConfig({ TLS_KEY: key })).toThrow('TLS_KEY is set, TLS_CERT is not');
      expect(() => loadConfig({ TLS_CERT: join(dir, 'missing.pem'), TLS_KEY: key })).toThrow(
        /TLS_CERT cannot be read: ENOENT/,
      );
      expect(() => loadConfig({ TLS_CERT: cert, TLS_KEY: other.key })).toThrow(
        /are not a PEM certificate and its private key/,
      );
      await writeFile(join(dir, 'junk.pem'), 'not a certificate');
      expect(() => loadConfig({ TLS_CERT: join(dir, 'junk.pem'), TLS_KEY: key })).toThrow(ConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

function selfSigned(dir: string, name = 'server'): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    {
      stdio: 'ignore',
    },
  );
  return { cert, key };
}

/** The server's JSON log lines (every line it writes must be one). */
function records(server: TestServer): Array<Record<string, any>> {
  return server
    .stderr()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

const accessLines = (server: TestServer) => records(server).filter((r) => r.msg === 'request');

/**
 * Announces a body of `declared` bytes, sends only `partial` of it, then
 * drops the connection: a client that goes away mid-upload. The server
 * reads what was sent before it sees the connection end (TCP keeps the
 * order), so nothing waits in between.
 */
function abortMidBody(port: number, head: string, partial: string, declared: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}Content-Length: ${declared}\r\nConnection: close\r\n\r\n${partial}`, () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

describe('a server with JSON logs and CORS', () => {
  let server: TestServer;
  const ORIGIN = 'https://app.example.com';

  beforeAll(async () => {
    server = await startServer({
      env: { LOG_FORMAT: 'json', ACCESS_LOG: 'true', CORS_ORIGINS: ORIGIN, INFERENCE_API_KEY: 'test-key' },
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await removeDir(server.dataDir);
  });

  it("answers every request with an X-Request-Id: the client's own when sane", async () => {
    const own = await fetch(`${server.url}/v2/health/live`, { headers: { 'X-Request-Id': 'trace-42.a:b' } });
    expect(own.headers.get('x-request-id')).toBe('trace-42.a:b');
    const insane = await fetch(`${server.url}/v2/health/live`, { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const notFound = await fetch(`${server.url}/no/such/route`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });

  it('writes one JSON access line per request, the path without its query string', async () => {
    const response = await fetch(`${server.url}/v2/health/live?api_key=sk_do_not_log_me`, {
      headers: { 'X-Request-Id': 'access-1' },
    });
    const id = response.headers.get('x-request-id');
    const line = await waitFor(async () => accessLines(server).find((r) => r.id === id), 5_000, 'the access line');
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/v2/health/live',
      status: 200,
      client: '127.0.0.1',
    });
    expect(line.bytes).toBe(Buffer.byteLength(await response.text()));
    expect(typeof line.ms).toBe('number');
    expect(server.stderr()).not.toContain('sk_do_not_log_me');
  });

  it('answers preflights of allowed origins for any route, and refuses others', async () => {
    const preflight = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowHeaders = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const header of ['authorization', 'content-type', 'x-request-id', 'idempotency-key'])
      expect(allowHeaders).toContain(header);
    expect(Number(preflight.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(preflight.headers.get('vary')).toBe('Origin');

    const refused = await fetch(`${server.url}/v2/login`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toEqual({
      status: 403,
      message: 'CORS preflight refused',
      error: 'origin https://evil.example is not in CORS_ORIGINS',
    });
  });

  it('adds Allow-Origin and Expose-Headers to answers for allowed origins only', async () => {
    const allowed = await fetch(`${server.url}/v2/health/live`, { headers: { Origin: ORIGIN } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-expose-headers')).toBe(
      'Retry-After, X-Request-Id, WWW-Authenticate, Accept-Post, Allow',
    );
    expect(allowed.headers.get('vary')).toBe('Origin');
    const error = await fetch(`${server.url}/v2/users/me`, { headers: { Origin: ORIGIN } });
    expect(error.status).toBe(401);
    expect(error.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const other = await fetch(`${server.url}/v2/health/live`, { headers: { Origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-expose-headers')).toBeNull();
  });

  it('logs clients that disconnect mid-body as 499, never as errors', async () => {
    // Predict reads its body only for an Active version with a valid key.
    await waitFor(
      async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
      120_000,
      'an Active model',
    );
    const boundary = 'XyZ';
    await abortMidBody(
      server.port,
      `POST /v1/models/${DEMO}/predict HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\n\xff\xd8\xff`,
      200_000,
    );
    await abortMidBody(
      server.port,
      'POST /v1/registration HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
      '{"apiKey": "ab',
      50_000,
    );
    // (a login's body may be 16 KiB at most: an unauthenticated route's)
    await abortMidBody(
      server.port,
      'POST /v2/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n',
      '{"email": "a',
      10_000,
    );
    // The lines come as soon as each disconnect is seen; the margin is for a
    // loaded CI machine, and a timeout says what was logged instead.
    const aborted = await waitFor(
      async () => {
        const lines = accessLines(server).filter((r) => r.status === 499);
        return lines.length >= 3 && lines;
      },
      30_000,
      'three 499 access lines',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the access lines: ${JSON.stringify(accessLines(server))}`);
    });
    expect(aborted.map((r) => r.path).sort()).toEqual([
      '/v1/models/01JDEM0DETECT0R00000000001/predict',
      '/v1/registration',
      '/v2/login',
    ]);
    for (const line of aborted) expect(line).toMatchObject({ level: 'info', method: 'POST', bytes: 0 });
    // Whatever was still running for them has settled, or been cut short
    // with everything else, once the server has shut down: its log is complete.
    // (The last test of this server: afterAll's stop() finds it stopped.)
    expect(await server.stop()).toBe(0);
    const noisy = records(server).filter(
      (r) => r.level === 'error' || r.level === 'warn' || JSON.stringify(r).includes('disconnected'),
    );
    expect(noisy).toEqual([]);
    expect(server.stderr()).not.toContain('"stack"');
  });
});

/** GET over HTTPS, trusting only the test's own certificate. */
function httpsGet(
  port: number,
  path: string,
  ca: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, ca, servername: 'localhost', checkServerIdentity: () => undefined },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a server with TLS and no access log', () => {
  let server: TestServer;
  let dir: string;
  let ca: string;
  let oipPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sense-tls-'));
    const { cert, key } = selfSigned(dir);
    ca = execFileSync('cat', [cert], { encoding: 'utf8' });
    oipPort = await freePort();
    server = await startServer({
      env: { TLS_CERT: cert, TLS_KEY: key, ACCESS_LOG: 'false', OIP_HTTP_PORT: String(oipPort) },
    });
  });

  afterAll(async () => {
    await server?.stop();
    if (server) await removeDir(server.dataDir);
    await rm(dir, { recursive: true, force: true });
  });

  it('speaks HTTPS only, with the configured certificate', async () => {
    expect(server.stderr()).toMatch(/listening host=\S+ port=\d+ tls=true/);
    const response = await httpsGet(server.port, '/v2/health/live', ca);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    // No CORS_ORIGINS: no CORS headers at all.
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    await expect(fetch(`${server.url}/v2/health/live`)).rejects.toThrow();
  });

  it("speaks HTTPS on the Open Inference Protocol's port too", async () => {
    expect(server.stderr()).toMatch(new RegExp(`oip rest listening host=\\S+ port=${oipPort} tls=true`));
    const response = await httpsGet(oipPort, '/v2/health/live', ca);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ live: true });
    await expect(fetch(`http://127.0.0.1:${oipPort}/v2/health/live`)).rejects.toThrow();
  });

  it('writes no access lines with ACCESS_LOG=false', async () => {
    await httpsGet(server.port, '/v2/health/live', ca);
    expect(server.stderr()).not.toMatch(/ info  request /);
  });
});
