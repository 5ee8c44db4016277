// Starts the real server as a child process (the same command users run),
// on a free port, with its own data directory and database: the embedded
// PostgreSQL by default, or a fresh database on the server named by
// TEST_DATABASE_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';
import postgres from 'postgres';

export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The node command line of `npm start` (package.json of the checkout in
 * `cwd`), so that tests and benchmarks run the server exactly as users do,
 * V8 flags included: node's arguments, without the `exec` that hands npm's
 * signals to the server (older checkouts have none).
 */
export function startCommand(cwd = ROOT): string[] {
  const start = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const words = start.trim().split(/\s+/);
  const [program, ...args] = words[0] === 'exec' ? words.slice(1) : words;
  if (program !== 'node') throw new Error(`package.json's start script should run node: ${start}`);
  return args;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Waits until a line matching `pattern` appears on stderr. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

export interface StartOptions {
  env?: Record<string, string>;
  modelsDir?: string;
  /** reuse a data directory (restart tests); a fresh temporary one otherwise */
  dataDir?: string;
  databaseUrl?: string;
  timeoutMs?: number;
  /** the checkout to run (benchmarks comparing with an older one); this one by default */
  cwd?: string;
  /** node's arguments instead of `npm start`'s (e.g. a compiled dist/main.js) */
  args?: string[];
}

/**
 * A fresh database on TEST_DATABASE_URL's server, or undefined for the
 * embedded default. `replicas`: for tests of several servers on one
 * database, which take TEST_REPLICAS_DATABASE_URL too, so that CI (.ci/run
 * sets it when a PostgreSQL service answers) runs them on an external
 * server as replicas are deployed, and every other test on the embedded one.
 */
export async function createTestDatabase({
  replicas = false,
} = {}): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base = process.env.TEST_DATABASE_URL ?? (replicas ? process.env.TEST_REPLICAS_DATABASE_URL : undefined);
  if (!base) return undefined;
  const name = `sense_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(base, { max: 1, onnotice: () => {} });
      await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await sql.end();
    },
  };
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'sense-test-')));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: '0',
    // a Mosquitto may hold 1883 on a developer's machine: MQTT only where a test asks for it, on a free port
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MODELS_DIR: options.modelsDir ?? join(ROOT, 'models'),
    WORKERS: '2',
    LOG_LEVEL: 'info',
    // the Open Inference Protocol's listeners only where a test asks for them (never Triton's 8000/8001)
    OIP_HTTP_PORT: '0',
    OIP_GRPC_PORT: '0',
    // every /v2 answer of every test is checked against its documented schema
    RESPONSE_VALIDATION: 'true',
    ...options.env,
  };
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;

  const child = spawn(process.execPath, options.args ?? startCommand(), {
    cwd: options.cwd ?? ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners: Array<() => void> = [];
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => {
    err += d;
    for (const l of listeners) l();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const waitForLog = (pattern: RegExp, timeoutMs = options.timeoutMs ?? 60_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(err);
        if (match) {
          resolve(match[0]);
          return true;
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stderr:\n${err}`)), timeoutMs);
      const listener = () => {
        if (check()) {
          clearTimeout(timer);
          listeners.splice(listeners.indexOf(listener), 1);
        }
      };
      listeners.push(listener);
      void exited.then((code) => {
        if (!check()) {
          clearTimeout(timer);
          reject(new Error(`server exited with ${code} before ${pattern}; stderr:\n${err}`));
        }
      });
    });

  // The text line (listening host=… port=…) or its LOG_FORMAT=json form.
  const line = await waitForLog(/listening host=\S+ port=(\d+)|"msg":"listening","host":"[^"]*","port":(\d+)/).catch(
    (error: Error) => {
      child.kill('SIGKILL');
      throw error;
    },
  );
  const port = Number(/port"?[=:](\d+)/.exec(line)![1]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process: child,
    stdout: () => out,
    stderr: () => err,
    waitForLog,
    stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A port nobody listens on now (the system's choice, released): for listeners that take 0 as "off". */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Polls until `check` returns a truthy value. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Version ids by model name, from the server's registration log lines. */
export function registeredVersions(server: TestServer): Record<string, string> {
  const ids: Record<string, string> = {};
  // names may have hyphens (the bundled demo-seg): \w+ alone would file it under "demo"
  for (const m of server.stderr().matchAll(/registered model version id=(\w+) name=([\w-]+)/g)) ids[m[2]!] = m[1]!;
  return ids;
}

/** A server that answers ready (every version it found at start has loaded, one is Active): startServer, then /v2/health/ready. */
export async function startReadyServer(options: StartOptions = {}): Promise<TestServer> {
  const server = await startServer(options);
  await waitFor(async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200, 60_000, 'ready');
  return server;
}

/**
 * A server over a fresh models directory (made by `makeModels`), started
 * once every version has left Initializing; stop() removes everything.
 */
export async function startWithModels(makeModels: () => Promise<string>, env: Record<string, string>) {
  const modelsDir = await makeModels();
  const server = await startServer({ modelsDir, env: { INFERENCE_API_KEY: 'test-key', ...env } });
  await waitFor(
    async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${server.url}/metrics`)).text()),
    120_000,
  );
  return {
    server,
    ids: registeredVersions(server),
    stop: async () => {
      await server.stop();
      await removeDir(server.dataDir);
      await removeDir(modelsDir);
    },
  };
}
