// Who may read /metrics (the 'metrics' authentication scheme). It names
// every organization's model versions, so it is not public: with
// METRICS_TOKEN set it wants that bearer token (Prometheus' `authorization`
// setting); without, only clients on this host (the peer address, whatever
// a proxy says) may read it.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.js';
import { isLoopback, type Request } from './server.js';

export function metricsAccess(token: string | undefined): (req: Request) => void {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return (req) => {
    if (expected === undefined) {
      if (!isLoopback(req.peerAddress)) {
        throw new ApiError(403, 'forbidden', 'metrics are served to this host only; set METRICS_TOKEN to scrape them over the network');
      }
      return;
    }
    const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const given = Buffer.from(sent);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError(401, 'authentication required', 'metrics need "Authorization: Bearer <METRICS_TOKEN>"');
    }
  };
}
