// Who may read /metrics (the 'metrics' authentication scheme). It names
// every organization's model versions, so it is not public: with
// METRICS_TOKEN set it wants that bearer token (Prometheus' `authorization`
// setting); without, only a scraper on this host talking to the server
// directly: a loopback peer with no forwarding header. A reverse proxy on
// the same host (the usual way in front of TRUST_PROXY) is a loopback peer
// too, but it relays the world's requests and says so in X-Forwarded-For.
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.js';
import { isLoopback } from './client-address.js';
import type { Request } from './request.js';

/** Headers a proxy adds to the requests it relays. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

export function metricsAccess(token: string | undefined): (req: Request) => void {
  const expected = token === undefined ? undefined : Buffer.from(token);
  return (req) => {
    if (expected === undefined) {
      const relayed = FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined);
      if (!isLoopback(req.peerAddress) || relayed) {
        throw new ApiError(
          403,
          'forbidden',
          'metrics are served to this host only, not through a proxy; set METRICS_TOKEN to scrape them over the network',
        );
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
