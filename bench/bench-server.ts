// A server for a benchmark: the test helper's, with production's settings
// where the tests' differ. Tests check every /v2 answer against its schema
// (RESPONSE_VALIDATION); a server in production does not, and a benchmark
// that did would measure the check (a JSON round trip and a zod parse of
// every answer) rather than the server. Tests run two pipeline workers; a
// server in production runs one per core, and so does a benchmark's (on a
// 16-core GPU host, two workers were the whole server's limit).
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ADMIN } from '../test/helpers/api.js';
import { ROOT, startServer, type StartOptions, type TestServer, waitFor } from '../test/helpers/server.js';

export function startBenchServer(options: StartOptions = {}): Promise<TestServer> {
  return startServer({
    ...options,
    env: { RESPONSE_VALIDATION: 'false', WORKERS: String(availableParallelism()), ...options.env },
  });
}

/** A bench server with the bundled models and the test admin, once the demo model is loaded (ready). */
export async function startDemoServer(env: Record<string, string>, dataDir?: string): Promise<TestServer> {
  const server = await startBenchServer({
    dataDir,
    env: { MODELS_DIR: join(ROOT, 'models'), ADMIN_PASSWORD: ADMIN.password, ...env },
  });
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    180_000,
    'the demo model to load',
  );
  return server;
}
