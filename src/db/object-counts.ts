// Counts of a camera's object events (object.start, object.update,
// object.end: ingest/streams/camera-stream.ts) per hour or day: the lines
// its objects crossed, by direction, and the zones they entered, by label.
// Scoped to one organization. An event's time is its frame's
// (client_sent_at; server_received_at when it has none), truncated in UTC.
// The events table is partitioned by day of server_received_at (migration
// 014): that key is bounded by the range too, widened by a day on each
// side for the camera's clock, so that only the range's partitions are
// read. Names (lines, zones, labels) are read as text values, never as
// jsonb columns, so the connection's camelCase transform leaves them as
// they were named; a payload whose fields are not of their shape counts
// nothing rather than failing the statement.
import type { Queryable } from './database.js';

/** One count of one bucket: a line crossed in a direction, or a zone entered by a label. */
export type ObjectCountRow =
  | { bucket: Date; kind: 'crossing'; name: string; detail: 'in' | 'out'; count: number }
  | { bucket: Date; kind: 'entry'; name: string; detail: string; count: number };

/**
 * The counts of a device's object events whose time is in [from, to), per
 * bucket of `interval` (UTC), in time order; nothing for a device of
 * another organization or one with no object events.
 */
export async function countObjectEvents(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
  range: { from: Date; to: Date; interval: 'hour' | 'day' },
): Promise<ObjectCountRow[]> {
  const { from, to, interval } = range;
  return sql<ObjectCountRow[]>`
    WITH object_events AS (
      SELECT date_trunc(${interval}::text, coalesce(client_sent_at, server_received_at), 'UTC') AS bucket, payload
        FROM events
       WHERE organization_id = ${organizationId} AND device_id = ${deviceId}
         AND server_received_at >= ${from}::timestamptz - interval '1 day'
         AND server_received_at < ${to}::timestamptz + interval '1 day'
         AND coalesce(client_sent_at, server_received_at) >= ${from}::timestamptz
         AND coalesce(client_sent_at, server_received_at) < ${to}::timestamptz
         AND payload->>'type' LIKE 'object.%'
    )
    SELECT bucket, 'crossing' AS kind, crossed->>'line' AS name, crossed->>'direction' AS detail, count(*)::int AS count
      FROM object_events,
           jsonb_array_elements(CASE WHEN jsonb_typeof(payload->'crossed') = 'array' THEN payload->'crossed' ELSE '[]'::jsonb END) AS crossed
     WHERE jsonb_typeof(crossed->'line') = 'string' AND crossed->>'direction' IN ('in', 'out')
     GROUP BY 1, 3, 4
    UNION ALL
    SELECT bucket, 'entry' AS kind, entered #>> '{}' AS name, payload->>'label' AS detail, count(*)::int AS count
      FROM object_events,
           jsonb_array_elements(CASE WHEN jsonb_typeof(payload->'entered') = 'array' THEN payload->'entered' ELSE '[]'::jsonb END) AS entered
     WHERE jsonb_typeof(entered) = 'string' AND jsonb_typeof(payload->'label') = 'string'
     GROUP BY 1, 3, 4
     ORDER BY bucket, kind, name, detail`;
}
