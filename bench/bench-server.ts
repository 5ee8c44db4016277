// A server for a benchmark: the test helper's, with production's settings
// where the tests' differ. Tests check every /v2 answer against its schema
// (RESPONSE_VALIDATION); a server in production does not, and a benchmark
// that did would measure the check (a JSON round trip and a zod parse of
// every answer) rather than the server.
import { startServer, type StartOptions, type TestServer } from '../test/helpers/server.js';

export function startBenchServer(options: StartOptions = {}): Promise<TestServer> {
  return startServer({ ...options, env: { RESPONSE_VALIDATION: 'false', ...options.env } });
}
