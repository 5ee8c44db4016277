// Queries of camera devices' vision profiles (migrations 017, 018, 024, 025). Every query is
// scoped to one organization. The jsonb columns are read as text and parsed
// here: the connection's camelCase transform would otherwise rename the
// keys of user data (a zone named `loading_zone`).
import type { Queryable } from './database.js';

export interface VisionRow {
  deviceId: string;
  organizationId: string;
  modelVersionId: string;
  options: Record<string, unknown>;
  zones: unknown[];
  /** counting lines (migration 024) */
  lines: unknown[];
  /** the tracker's settings (migration 024) */
  tracking: Record<string, unknown>;
  /** whether its frames' images are kept (migration 018) */
  keepFrames: boolean;
  /** the video it streams, its URL sealed (migration 025); null for a camera that pushes frames */
  stream: StoredStream | null;
  updatedAt: Date;
}

export interface StoredStream {
  /** sealed (platform/secrets.ts): it may carry the camera's credentials */
  url: string;
  fps: number;
  enabled: boolean;
}

type JsonColumn = 'options' | 'zones' | 'lines' | 'tracking';
type RawVisionRow = Omit<VisionRow, JsonColumn | 'stream'> & Record<JsonColumn, string> & { stream: string | null };

const toVision = (row: RawVisionRow): VisionRow => ({
  ...row,
  options: JSON.parse(row.options) as Record<string, unknown>,
  zones: JSON.parse(row.zones) as unknown[],
  lines: JSON.parse(row.lines) as unknown[],
  tracking: JSON.parse(row.tracking) as Record<string, unknown>,
  stream: row.stream === null ? null : (JSON.parse(row.stream) as StoredStream),
});

const columns = (sql: Queryable) =>
  sql`device_id, organization_id, model_version_id, options::text AS options, zones::text AS zones,
      lines::text AS lines, tracking::text AS tracking, keep_frames, stream::text AS stream, updated_at`;

/** The vision profile of a device of the organization; undefined when it has none. */
export async function findVision(
  sql: Queryable,
  organizationId: string,
  deviceId: string,
): Promise<VisionRow | undefined> {
  const [row] = await sql<RawVisionRow[]>`
    SELECT ${columns(sql)} FROM device_vision WHERE organization_id = ${organizationId} AND device_id = ${deviceId}`;
  return row && toVision(row);
}

/** Sets (replaces) the profile of a device of the organization; undefined when no such device. */
export async function upsertVision(
  sql: Queryable,
  profile: Omit<VisionRow, 'updatedAt'>,
): Promise<VisionRow | undefined> {
  const [options, zones, lines, tracking] = [profile.options, profile.zones, profile.lines, profile.tracking].map(
    (value) => JSON.stringify(value),
  );
  const stream = profile.stream === null ? null : JSON.stringify(profile.stream);
  const [row] = await sql<RawVisionRow[]>`
    INSERT INTO device_vision (device_id, organization_id, model_version_id, options, zones, lines, tracking, keep_frames, stream)
    SELECT id, organization_id, ${profile.modelVersionId}, ${options!}::text::jsonb, ${zones!}::text::jsonb,
           ${lines!}::text::jsonb, ${tracking!}::text::jsonb, ${profile.keepFrames}, ${stream}::text::jsonb
      FROM devices WHERE id = ${profile.deviceId} AND organization_id = ${profile.organizationId}
    ON CONFLICT (device_id) DO UPDATE
      SET model_version_id = EXCLUDED.model_version_id, options = EXCLUDED.options, zones = EXCLUDED.zones,
          lines = EXCLUDED.lines, tracking = EXCLUDED.tracking, keep_frames = EXCLUDED.keep_frames,
          stream = EXCLUDED.stream, updated_at = now()
    RETURNING ${columns(sql)}`;
  return row && toVision(row);
}

/** Removes a device's profile: it is a camera no more. False when it had none. */
export async function deleteVision(sql: Queryable, organizationId: string, deviceId: string): Promise<boolean> {
  const rows =
    await sql`DELETE FROM device_vision WHERE organization_id = ${organizationId} AND device_id = ${deviceId} RETURNING device_id`;
  return rows.length > 0;
}

/** How many of the organization's cameras other than `exceptDeviceId` have a stream enabled. */
export async function countEnabledStreams(
  sql: Queryable,
  organizationId: string,
  exceptDeviceId: string,
): Promise<number> {
  const [row] = await sql<Array<{ count: number }>>`
    SELECT count(*)::int AS count FROM device_vision
    WHERE organization_id = ${organizationId} AND device_id <> ${exceptDeviceId}
      AND (stream->>'enabled')::boolean`;
  return row!.count;
}

/** A camera whose stream is enabled, with the channel its events are stored under. */
export interface StreamingCameraRow extends VisionRow {
  channelId: string;
  stream: StoredStream;
  /** the replica whose lease on the stream still runs, if any */
  leasedBy: string | null;
}

/**
 * Every camera, of every organization, whose stream is enabled: what the
 * replicas share out, each with the replica whose lease on it still runs.
 */
export async function listStreamingCameras(sql: Queryable): Promise<StreamingCameraRow[]> {
  const rows = await sql<Array<RawVisionRow & { channelId: string; leasedBy: string | null }>>`
    SELECT ${columns(sql)}, (SELECT channel_id FROM devices d WHERE d.id = device_vision.device_id) AS channel_id,
      (SELECT replica_id FROM camera_streams c WHERE c.device_id = device_vision.device_id AND c.lease_until >= now())
        AS leased_by
    FROM device_vision WHERE (stream->>'enabled')::boolean`;
  return rows.map(
    (row) => ({ ...toVision(row), channelId: row.channelId, leasedBy: row.leasedBy }) as StreamingCameraRow,
  );
}
