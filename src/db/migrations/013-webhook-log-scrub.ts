// Webhook delivery logs kept what tenants must not read back: the response
// body of each call (with SSRF, the body of an internal service) and the
// values of the webhook's custom headers (often tokens). The server no longer
// writes either (platform/rules/actions.ts); this clears what earlier versions wrote:
// bodies are dropped, and header values other than the server's own are
// masked.
import type { Migration } from '../migrations.js';

export const migration013: Migration = {
  version: 13,
  name: 'scrub webhook delivery logs',
  sql: `
    UPDATE action_deliveries SET
      response = NULL,
      request = CASE
        WHEN jsonb_typeof(request -> 'headers') = 'object' THEN jsonb_set(request, '{headers}', (
          SELECT coalesce(jsonb_object_agg(h.key,
            CASE WHEN h.key IN ('user-agent', 'idempotency-key', 'content-type', 'x-sense-timestamp') THEN h.value ELSE '"********"'::jsonb END), '{}'::jsonb)
          FROM jsonb_each(request -> 'headers') AS h))
        ELSE request
      END
    WHERE response IS NOT NULL OR request ? 'headers';
  `,
};
