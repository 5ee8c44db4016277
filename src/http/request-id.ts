// The id that ties a response, its access-log line and any error logged for it
// together. A client (or a proxy in front) that sends its own X-Request-Id keeps
// it, so one id follows a request across systems; anything else gets a cheap
// generated one: a random per-process prefix and a counter, unique across
// restarts and servers without a random draw per request.
import { randomBytes } from 'node:crypto';

/** What a client's id may look like: short, and nothing that could break a log line or a header. */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

export function requestId(fromClient: string | undefined): string {
  if (fromClient !== undefined && SANE.test(fromClient)) return fromClient;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${counter.toString(36)}`;
}
