// What every request of one server shares: its settings (TRUST_PROXY,
// ACCESS_LOG, CORS_ORIGINS, MIN_UPLOAD_RATE, RESPONSE_VALIDATION), its logger
// (LOG_LEVEL, LOG_FORMAT) and state (metrics, the requests in flight). Made
// once by the composition root and passed to the router, which hands it to
// each request's Exchange and Reply: no module keeps a setting of its own, so
// two servers in one process (the tests) may be configured differently.
import type { Logger } from '../log.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { CorsPolicy } from './cors.js';
import type { ApiError } from './errors.js';
import type { InFlight } from './draining.js';
import type { UploadRateWatch } from './slow-bodies.js';

export interface HttpContext {
  /** the server's logger (LOG_LEVEL, LOG_FORMAT): error answers, access lines, schema mismatches */
  log: Logger;
  metrics: ServerMetrics;
  inFlight: InFlight;
  /** reverse proxies in front of the server whose X-Forwarded-For entries are believed */
  trustedProxies: number;
  /** one info line per completed request (ACCESS_LOG) */
  accessLog: boolean;
  /** allowed browser origins (CORS_ORIGINS); undefined: no CORS headers */
  cors: CorsPolicy | undefined;
  /** the minimum upload rate bodies are held to (MIN_UPLOAD_RATE); undefined: bodies are not watched */
  uploadRate?: UploadRateWatch;
  /** success bodies and stream messages checked against their declared schemas (RESPONSE_VALIDATION); off when absent */
  responseValidation?: boolean;
  /**
   * The body of an error answer, for a listener that speaks another
   * protocol's error shape (the Open Inference Protocol's `{"error": "..."}`);
   * absent: the API's `{status, message, error}`
   */
  errorBody?: (error: ApiError) => string;
}
