// The load generator's own ceiling: what it reaches against the cheapest
// server there is, a bare uWebSockets.js app in this very process answering
// "ok" to everything. A figure near it means the generator, not the server
// measured, was the limit; the server's trivial endpoint (GET
// /v2/health/live) is measured separately and named for what it is.
import { loadUws } from '../src/http/uws.js';
import { Logger } from '../src/log.js';
import { buildRequest, runLoad } from './load-generator.js';

export async function measureGeneratorCeiling(options: {
  connections: number;
  durationMs: number;
  warmupMs: number;
}): Promise<number> {
  const uws = loadUws(new Logger({ level: 'info', format: 'text' }));
  const app = uws.App();
  app.any('/*', (res) => {
    res.end('ok');
  });
  const socket = await new Promise<unknown>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('the bare uWS app could not listen')))),
  );
  const port = uws.us_socket_local_port(socket as never);
  try {
    const run = await runLoad({
      host: '127.0.0.1',
      port,
      request: buildRequest('GET', '/', {}),
      connections: options.connections,
      durationMs: options.durationMs,
      warmupMs: options.warmupMs,
    });
    return run.rps;
  } finally {
    uws.us_listen_socket_close(socket as never);
  }
}
