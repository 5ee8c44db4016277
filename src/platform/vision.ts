// Cameras are devices: a device with a vision profile sends frames
// (POST /v1/iot/frames, ingest/frames.ts) that are run through the profile's
// model version, and each frame becomes an event carrying its detections
// and the zones they lie in. The profile: which model version, the predict
// options that override the version's defaults, named zones drawn in
// image coordinates (lib/image-zones.ts), each following a box's centre or
// its bottom edge and entered after some frames inside (its inertia),
// counting lines, the settings of the camera's object tracker
// (vision/object-tracker.ts), whether the frames' images are kept
// (platform/kept-frames.ts), and the video it streams, if it does: then a
// replica reads the stream itself (ingest/streams/) and writes its state
// where any replica's GET reads it. A stream's URL is sealed at rest (it
// may carry the camera's password) and shown masked.
import type { Sql } from 'postgres';
import { findStreamLease } from '../db/camera-streams.js';
import * as db from '../db/device-vision.js';
import { findDevice } from '../db/devices.js';
import { countObjectEvents } from '../db/object-counts.js';
import { found, invalid } from '../errors.js';
import { parseIso8601 } from '../lib/client-time.js';
import { LATEST_TIME_MS } from '../lib/storable.js';
import { maskStreamUrl, parseStreamUrl } from '../lib/stream-url.js';
import type { Secrets } from './secrets.js';
import type { PlacedLine, PlacedZone } from '../vision/object-places.js';
import type { TrackerOptions } from '../vision/object-tracker.js';

/** Predict options a profile may set; each overrides the model version's default. */
interface VisionOptions {
  threshold?: number;
  iou?: number;
  maxDetections?: number;
  topK?: number;
  keypointThreshold?: number;
}

export interface VisionProfile {
  deviceId: string;
  modelVersionId: string;
  options: VisionOptions;
  zones: PlacedZone[];
  lines: PlacedLine[];
  /** the settings its tracker takes from the profile; the others are the tracker's defaults */
  tracking: Partial<TrackerOptions>;
  /** whether its frames' images are kept (platform/kept-frames.ts), as long as their events */
  keepFrames: boolean;
  /** the video it streams, its URL opened (undefined: it pushes frames) */
  stream?: CameraStreamSettings | undefined;
  updatedAt: Date;
}

interface CameraStreamSettings {
  url: string;
  /** frames a second run through the model (default 5) */
  fps: number;
  enabled: boolean;
}

/** A stream's state, as the replica reading it last wrote it. */
export interface StreamStatus {
  state: 'connecting' | 'running' | 'retrying' | 'stopped';
  reason?: string;
  /** the replica reading it */
  replica?: string;
  /** its figures (ingest/streams/camera-stream.ts StreamStats) */
  stats?: Record<string, unknown>;
  updatedAt?: Date;
}

export interface StreamSettings {
  secrets: Secrets;
  /** STREAM_FILES_DIR: where file:// streams may be; undefined refuses them */
  filesDir: string | undefined;
  /** STREAMS_PER_ORGANIZATION */
  perOrganization: number;
}

const DEFAULT_STREAM_FPS = 5;

export interface VisionProfileInput {
  modelVersionId: string;
  options?: VisionOptions | undefined;
  zones?: PlacedZone[] | undefined;
  lines?: PlacedLine[] | undefined;
  tracking?: Partial<TrackerOptions> | undefined;
  keepFrames?: boolean | undefined;
  stream?: { url: string; fps?: number | undefined; enabled?: boolean | undefined } | undefined;
}

/** What GET /v2/devices/{device}/counts asks: ISO 8601 times as sent, and the size of a bucket. */
export interface CountsQuery {
  /** inclusive; default `to` less 24 hours */
  from?: string | undefined;
  /** exclusive; default now */
  to?: string | undefined;
  interval: CountsInterval;
}

type CountsInterval = 'hour' | 'day';

/** A camera's counts per bucket: only buckets with something counted, in time order. */
export interface ObjectCounts {
  deviceId: string;
  from: Date;
  to: Date;
  interval: CountsInterval;
  buckets: Array<{
    start: Date;
    crossings: Array<{ line: string; direction: 'in' | 'out'; count: number }>;
    entries: Array<{ zone: string; label: string; count: number }>;
  }>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The longest range of each interval: a month of hours, a year of days (a leap year's). */
const LONGEST_RANGE_DAYS: Readonly<Record<CountsInterval, number>> = { hour: 31, day: 366 };

/** An ISO 8601 time of the query (`name`), or the invalid-parameter error naming it. */
function queryTime(name: string, text: string): Date {
  const ms = parseIso8601(text);
  if (ms === undefined || ms < 0 || ms > LATEST_TIME_MS) {
    const quoted = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
    throw invalid(
      'invalid query parameter',
      `${name}: expected an ISO 8601 time with a date and a zone, such as 2026-01-01T10:00:00Z, in the years 1970 to 9999, got ${quoted}`,
    );
  }
  return new Date(ms);
}

/** Which model versions an organization may run (InferenceService.visible). */
export type VersionVisibility = (versionId: string, organizationId: string) => boolean;

/** A profile from its row; its stream's URL opened with `secrets`. */
export const toProfile = (row: db.VisionRow, secrets: Secrets): VisionProfile => ({
  deviceId: row.deviceId,
  modelVersionId: row.modelVersionId,
  options: row.options as VisionOptions,
  zones: row.zones as PlacedZone[],
  lines: row.lines as PlacedLine[],
  tracking: row.tracking as Partial<TrackerOptions>,
  keepFrames: row.keepFrames,
  ...(row.stream && { stream: { ...row.stream, url: secrets.open(row.stream.url) } }),
  updatedAt: row.updatedAt,
});

export function presentVision(profile: VisionProfile, status?: StreamStatus) {
  return {
    deviceId: profile.deviceId,
    modelVersionId: profile.modelVersionId,
    options: profile.options,
    zones: profile.zones.map((zone) => ({
      name: zone.name,
      polygon: zone.polygon.map(([x, y]) => [x, y] as [number, number]),
      ...(zone.anchor !== undefined && { anchor: zone.anchor }),
      ...(zone.inertia !== undefined && { inertia: zone.inertia }),
    })),
    lines: profile.lines.map((line) => ({
      name: line.name,
      line: line.line.map(([x, y]) => [x, y] as [number, number]) as [[number, number], [number, number]],
      ...(line.anchor !== undefined && { anchor: line.anchor }),
    })),
    tracking: profile.tracking,
    keepFrames: profile.keepFrames,
    ...(profile.stream && {
      stream: {
        url: maskStreamUrl(profile.stream.url),
        fps: profile.stream.fps,
        enabled: profile.stream.enabled,
        ...(status && { status }),
      },
    }),
    updatedAt: profile.updatedAt,
  };
}

export class VisionService {
  constructor(
    private readonly sql: Sql,
    private readonly visible: VersionVisibility,
    private readonly streams: StreamSettings,
  ) {}

  /** The profile of a device of the organization (404 for no such device, or a device that is no camera). */
  async get(organizationId: string, deviceId: string): Promise<VisionProfile> {
    const row = await db.findVision(this.sql, organizationId, deviceId);
    if (!row) {
      found(await findDevice(this.sql, organizationId, deviceId), 'device');
      found(undefined, 'vision profile'); // the device exists but is no camera
    }
    return toProfile(row!, this.streams.secrets);
  }

  /** The state of a camera's stream: as its replica wrote it, or why none reads it. */
  async streamStatus(organizationId: string, profile: VisionProfile): Promise<StreamStatus | undefined> {
    if (!profile.stream) return undefined;
    if (!profile.stream.enabled) return { state: 'stopped', reason: 'the stream is not enabled' };
    const lease = await findStreamLease(this.sql, organizationId, profile.deviceId);
    if (!lease || lease.leaseUntil.getTime() < Date.now())
      return { state: 'connecting', reason: 'waiting for a replica to take the stream' };
    return {
      state: lease.state as StreamStatus['state'],
      ...(lease.reason !== null && { reason: lease.reason }),
      replica: lease.replicaId,
      stats: lease.stats,
      updatedAt: lease.updatedAt,
    };
  }

  /** The profile a frame of this device is run with; undefined when the device has none. */
  async ofDevice(organizationId: string, deviceId: string): Promise<VisionProfile | undefined> {
    const row = await db.findVision(this.sql, organizationId, deviceId);
    return row && toProfile(row, this.streams.secrets);
  }

  /**
   * A device's object events counted per hour or day (UTC) of their frames'
   * times in [from, to): the lines crossed per direction, the zones entered
   * per label. 404 for a device of another organization; a device that
   * never streamed (no camera) has no buckets.
   */
  async counts(organizationId: string, deviceId: string, query: CountsQuery): Promise<ObjectCounts> {
    const { interval } = query;
    const to = query.to === undefined ? new Date() : queryTime('to', query.to);
    const from = query.from === undefined ? new Date(to.getTime() - 24 * HOUR_MS) : queryTime('from', query.from);
    if (from.getTime() >= to.getTime())
      throw invalid('invalid query parameter', `from: must be before to (${to.toISOString()})`);
    const longest = LONGEST_RANGE_DAYS[interval];
    if (to.getTime() - from.getTime() > longest * DAY_MS) {
      throw invalid(
        'invalid query parameter',
        `from: the range from ${from.toISOString()} to ${to.toISOString()} is longer than ${longest} days, the most interval=${interval} counts`,
      );
    }
    found(await findDevice(this.sql, organizationId, deviceId), 'device');
    const buckets = new Map<number, ObjectCounts['buckets'][number]>();
    for (const row of await countObjectEvents(this.sql, organizationId, deviceId, { from, to, interval })) {
      let bucket = buckets.get(row.bucket.getTime());
      if (!bucket) {
        bucket = { start: row.bucket, crossings: [], entries: [] };
        buckets.set(row.bucket.getTime(), bucket);
      }
      if (row.kind === 'crossing') bucket.crossings.push({ line: row.name, direction: row.detail, count: row.count });
      else bucket.entries.push({ zone: row.name, label: row.detail, count: row.count });
    }
    return { deviceId, from, to, interval, buckets: [...buckets.values()] };
  }

  /** Sets (replaces) a device's profile: a new model version must be one the organization can run. */
  async put(organizationId: string, deviceId: string, input: VisionProfileInput): Promise<VisionProfile> {
    // The device first: another organization's device is not found, whatever the body says.
    found(await findDevice(this.sql, organizationId, deviceId), 'device');
    // A new model version must be one the organization can run; keeping the
    // current one is always allowed (its zones can be edited even while the
    // version is gone, its frames refused until another is set).
    const current = await db.findVision(this.sql, organizationId, deviceId);
    if (current?.modelVersionId !== input.modelVersionId && !this.visible(input.modelVersionId, organizationId)) {
      throw invalid(
        'invalid request body',
        `modelVersionId: no model version ${JSON.stringify(input.modelVersionId)} this organization can run`,
      );
    }
    uniqueNames(input.zones ?? [], 'zones', 'zone');
    uniqueNames(input.lines ?? [], 'lines', 'line');
    const stream = input.stream && (await this.storedStream(organizationId, deviceId, input.stream, current));
    const row = await db.upsertVision(this.sql, {
      deviceId,
      organizationId,
      modelVersionId: input.modelVersionId,
      options: (input.options ?? {}) as Record<string, unknown>,
      zones: input.zones ?? [],
      lines: input.lines ?? [],
      tracking: (input.tracking ?? {}) as Record<string, unknown>,
      keepFrames: input.keepFrames ?? false,
      stream: stream ?? null,
    });
    return toProfile(found(row, 'device'), this.streams.secrets);
  }

  /**
   * A profile's stream as stored: its URL checked and sealed (the masked
   * URL the API showed stands for the stored one), and within the
   * organization's number of enabled streams.
   */
  private async storedStream(
    organizationId: string,
    deviceId: string,
    input: NonNullable<VisionProfileInput['stream']>,
    current: db.VisionRow | undefined,
  ): Promise<db.StoredStream> {
    const { secrets, filesDir, perOrganization } = this.streams;
    const stored = current?.stream;
    const keep = stored && input.url === maskStreamUrl(secrets.open(stored.url));
    if (!keep) {
      try {
        parseStreamUrl(input.url, filesDir);
      } catch (error) {
        throw invalid('invalid request body', `stream.url: ${(error as Error).message}`);
      }
    }
    const enabled = input.enabled ?? true;
    if (enabled && (await db.countEnabledStreams(this.sql, organizationId, deviceId)) >= perOrganization) {
      throw invalid(
        'invalid request body',
        `stream.enabled: the organization has ${perOrganization} streams enabled, the most it may (STREAMS_PER_ORGANIZATION)`,
      );
    }
    return { url: keep ? stored.url : secrets.seal(input.url), fps: input.fps ?? DEFAULT_STREAM_FPS, enabled };
  }

  /** The device is a camera no more (404 when it was none). */
  async remove(organizationId: string, deviceId: string): Promise<void> {
    if (!(await db.deleteVision(this.sql, organizationId, deviceId))) {
      found(await findDevice(this.sql, organizationId, deviceId), 'device');
      found(undefined, 'vision profile');
    }
  }
}

/** Refuses a list in which two items share a name: rules and counts name them. */
function uniqueNames(items: ReadonlyArray<{ name: string }>, field: string, what: string): void {
  const names = new Set<string>();
  for (const [index, item] of items.entries()) {
    if (names.has(item.name))
      throw invalid('invalid request body', `${field}.${index}.name: "${item.name}" names another ${what} already`);
    names.add(item.name);
  }
}
