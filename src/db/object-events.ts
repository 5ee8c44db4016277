// A streaming camera's objects still open: the last object event of each of
// its tracks, in a recent window, where that event is no object.end. What a
// stream read again (another replica took it over, or the server restarted)
// takes back, so that an object that stayed is not started twice.
import type { Queryable } from './database.js';

/** The last object event's payload of each track of the device seen within `withinSeconds`, for the tracks not ended. */
export async function openObjectEvents(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
  withinSeconds: number,
): Promise<Array<Record<string, unknown>>> {
  // Payloads read as text: the connection's camelCase transform would rename keys of user data (zone names).
  const rows = await sql<Array<{ payload: string }>>`
    SELECT payload FROM (
      SELECT DISTINCT ON (payload->>'trackId') payload::text AS payload, payload->>'type' AS type
        FROM events
       WHERE organization_id = ${organizationId} AND device_id = ${deviceId}
         AND server_received_at > now() - make_interval(secs => ${withinSeconds})
         AND payload->>'type' LIKE 'object.%'
       ORDER BY payload->>'trackId', server_received_at DESC, id DESC
    ) last WHERE type <> 'object.end'`;
  return rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}
