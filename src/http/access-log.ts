// One info line per request, written when its reply completes (answered or
// aborted: 499). The path is logged without its query string, which may carry
// keys. It costs one short synchronous write per request, a few microseconds,
// next to the milliseconds a predict or an ingestion commit takes (docs/OPERATIONS.md,
// "Logs and request ids"); ACCESS_LOG=false turns it off.
import type { Logger } from '../log.js';

export interface AccessEntry {
  method: string;
  path: string;
  status: number;
  /** from the route handler's start to the end of the reply */
  ms: number;
  /** body bytes written (0 for aborted requests) */
  bytes: number;
  id: string;
  client: string;
}

/** Paths longer than this are cut: a log line per request should stay a line. */
const MAX_PATH = 512;

export function writeAccessLog(log: Logger, entry: AccessEntry): void {
  if (!log.logs('info')) return;
  log.info('request', {
    method: entry.method,
    path: entry.path.length > MAX_PATH ? `${entry.path.slice(0, MAX_PATH)}…` : entry.path,
    status: entry.status,
    ms: Math.round(entry.ms * 10) / 10,
    bytes: entry.bytes,
    id: entry.id,
    client: entry.client,
  });
}
