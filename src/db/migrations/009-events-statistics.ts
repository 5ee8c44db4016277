// A smaller ANALYZE sample for the events table. Autovacuum analyzes a table
// each time a tenth of it is new: at 10,000 events/s into 2 million events,
// every 20 s. With the default statistics target (100) ANALYZE samples
// 30,000 rows, ~1.2 s of a core here, and on a 2-core machine the group
// commits waited for CPU meanwhile: 5-13 ms instead of ~1.5, so 32 devices
// paced at 10,000 events/s fell behind by 100-250 ms. Reproduced by a manual
// ANALYZE (autovacuum's cost delay) in the middle of 10 s paced runs of
// single JSON events over 2 million events: p99 38-162 ms with the default
// (6 runs), 12-22 ms with 30 (3 runs, ANALYZE 0.3 s), 11-29 ms with 10 (6).
//
// 30 keeps 30 most common values and 30 histogram buckets per column: the
// searches need selectivities by organization, channel, device and time
// range, and a time bound past the histogram is read from the index anyway.
// The payload gets no statistics: a whole jsonb value is never compared, the
// searches filter on expressions over it (`payload #> path`), which use
// none, and sorting 30,000 payloads was most of ANALYZE's CPU.
import type { Migration } from '../migrations.js';

const SAMPLED = [
  'id',
  'organization_id',
  'channel_id',
  'device_id',
  'source',
  'server_received_at',
  'client_sent_at',
  'dedup_key',
];

export const migration009: Migration = {
  version: 9,
  name: 'events: a smaller statistics sample',
  sql: `
    ALTER TABLE events ${SAMPLED.map((column) => `ALTER COLUMN ${column} SET STATISTICS 30`).join(', ')},
      ALTER COLUMN payload SET STATISTICS 0;
  `,
};
