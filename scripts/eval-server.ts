// What the evaluations through the HTTP API share (scripts/eval.ts,
// scripts/eval-seg.ts): the server they predict through, and the scenes
// spread over concurrent clients.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { startServer, type TestServer } from '../test/helpers/server.js';

/**
 * Runs `evaluate` once the server is ready (its versions Active): the one at
 * --url with --key, or one started here on embedded defaults (the bundled
 * models) with a fresh inference key, stopped and removed afterwards.
 */
export async function withEvalServer<T>(
  target: { url?: string; key?: string },
  evaluate: (url: string, key: string) => Promise<T>,
  /** settings of a server started here */
  env: Record<string, string> = {},
): Promise<T> {
  let server: TestServer | undefined;
  let { url, key } = target;
  if (url) {
    if (!key) throw new Error('--key is required with --url');
  } else {
    key = `eval-${randomBytes(12).toString('hex')}`;
    process.stderr.write('starting a server on embedded defaults ...\n');
    server = await startServer({ env: { ...env, INFERENCE_API_KEY: key } });
    url = server.url;
  }
  try {
    await untilReady(url);
    return await evaluate(url, key!);
  } finally {
    await server?.stop();
    if (server) await rm(server.dataDir, { recursive: true, force: true });
  }
}

async function untilReady(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${url}/v2/health/ready`).catch(() => undefined);
    if (res?.status === 200) return;
    if (tries > 600) throw new Error('the server never became ready');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs `work(i)` for every i below `count`, `concurrency` at a time, saying every 50 how far it is. */
export async function forEachScene(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let done = 0;
  const client = async () => {
    for (let i = next++; i < count; i = next++) {
      await work(i);
      if (++done % 50 === 0) process.stderr.write(`${done}/${count} images\n`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
}
