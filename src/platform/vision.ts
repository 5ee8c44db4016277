// Cameras are devices: a device with a vision profile sends frames
// (POST /v1/iot/frames, ingest/frames.ts) that are run through the profile's
// model version, and each frame becomes an event carrying its detections
// and the zones they lie in. The profile: which model version, the predict
// options that override the version's defaults, named zones drawn in
// image coordinates (lib/image-zones.ts), each following a box's centre or
// its bottom edge and entered after some frames inside (its inertia),
// counting lines, the settings of the camera's object tracker
// (vision/object-tracker.ts), and whether the frames' images are kept
// (platform/kept-frames.ts).
import type { Sql } from 'postgres';
import * as db from '../db/device-vision.js';
import { findDevice } from '../db/devices.js';
import { found, invalid } from '../errors.js';
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
  updatedAt: Date;
}

export interface VisionProfileInput {
  modelVersionId: string;
  options?: VisionOptions | undefined;
  zones?: PlacedZone[] | undefined;
  lines?: PlacedLine[] | undefined;
  tracking?: Partial<TrackerOptions> | undefined;
  keepFrames?: boolean | undefined;
}

/** Which model versions an organization may run (InferenceService.visible). */
export type VersionVisibility = (versionId: string, organizationId: string) => boolean;

const toProfile = (row: db.VisionRow): VisionProfile => ({
  deviceId: row.deviceId,
  modelVersionId: row.modelVersionId,
  options: row.options as VisionOptions,
  zones: row.zones as PlacedZone[],
  lines: row.lines as PlacedLine[],
  tracking: row.tracking as Partial<TrackerOptions>,
  keepFrames: row.keepFrames,
  updatedAt: row.updatedAt,
});

export function presentVision(profile: VisionProfile) {
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
    updatedAt: profile.updatedAt,
  };
}

export class VisionService {
  constructor(
    private readonly sql: Sql,
    private readonly visible: VersionVisibility,
  ) {}

  /** The profile of a device of the organization (404 for no such device, or a device that is no camera). */
  async get(organizationId: string, deviceId: string): Promise<VisionProfile> {
    const row = await db.findVision(this.sql, organizationId, deviceId);
    if (!row) {
      found(await findDevice(this.sql, organizationId, deviceId), 'device');
      found(undefined, 'vision profile'); // the device exists but is no camera
    }
    return toProfile(row!);
  }

  /** The profile a frame of this device is run with; undefined when the device has none. */
  async ofDevice(organizationId: string, deviceId: string): Promise<VisionProfile | undefined> {
    const row = await db.findVision(this.sql, organizationId, deviceId);
    return row && toProfile(row);
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
    const row = await db.upsertVision(this.sql, {
      deviceId,
      organizationId,
      modelVersionId: input.modelVersionId,
      options: (input.options ?? {}) as Record<string, unknown>,
      zones: input.zones ?? [],
      lines: input.lines ?? [],
      tracking: (input.tracking ?? {}) as Record<string, unknown>,
      keepFrames: input.keepFrames ?? false,
    });
    return toProfile(found(row, 'device'));
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
