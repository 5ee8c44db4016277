// What a device reads back from the ingestion API: its configuration, the
// iBeacons to whitelist, its push notifications and the edge rules to run.
import type { Sql } from 'postgres';
import { findDeviceConfiguration } from '../db/device-state.js';
import { listChannelBeacons } from '../db/landmarks.js';
import { listDeviceNotifications } from '../db/notifications.js';
import { listChannelRules } from '../db/rules.js';
import type { DeviceClaims } from '../platform/auth/tokens.js';
import { presentActions } from '../platform/rules/actions.js';

/** Assigned to every device unless its state carries an override (`state.configuration`). */
export const DEFAULT_CONFIGURATION = {
  enabled: true,
  cadence: 60_000,
  useSensors: ['location', 'wifi', 'beacon', 'power', 'activity'],
  eventTtl: 6_000_000,
  maxStorage: 6_000_000,
};

export interface Beacon {
  uuid: string;
  major?: number;
  minor?: number;
}

export class DeviceReadModel {
  constructor(private readonly sql: Sql) {}

  async configuration(device: DeviceClaims): Promise<typeof DEFAULT_CONFIGURATION & { uuid: string }> {
    const row = await findDeviceConfiguration(this.sql, device.organizationId, device.deviceId);
    return { uuid: device.deviceId, ...DEFAULT_CONFIGURATION, ...(row?.configuration ?? {}) };
  }

  /** Beacons named in the attributes (`ibeacon: {uuid, major, minor}`) of landmarks of the device's projects. */
  async ibeacons(device: DeviceClaims, count: number): Promise<Beacon[]> {
    return listChannelBeacons<Beacon>(this.sql, device.organizationId, device.channelId, count);
  }

  async notifications(
    device: DeviceClaims,
    range: { startTime?: number | undefined; endTime?: number | undefined; limit: number },
  ): Promise<{ notifications: Array<Record<string, unknown>>; hasMoreData: boolean }> {
    const lastMs = 253_402_300_799_999; // 9999-12-31, PostgreSQL's comfortable end of time
    const from = new Date(Math.min(range.startTime ?? 0, lastMs));
    const to = new Date(Math.min(range.endTime ?? lastMs, lastMs));
    const rows = await listDeviceNotifications(
      this.sql,
      device.organizationId,
      device.deviceId,
      from,
      to,
      range.limit + 1,
    );
    return {
      notifications: rows.slice(0, range.limit).map((r) => ({
        ...r.payload,
        id: r.id,
        timestamp: r.createdAt.getTime(),
        deviceId: device.deviceId,
        ruleId: r.ruleId ?? undefined,
        actionId: r.actionId ?? undefined,
      })),
      hasMoreData: rows.length > range.limit,
    };
  }

  /** Enabled edge rules of the projects that include the device's channel, in the SDK's Rule shape. */
  async rules(device: DeviceClaims, ruleType: string | undefined): Promise<Array<Record<string, unknown>>> {
    const type = ruleType === undefined || /edge/.test(ruleType) ? 'edge' : ruleType;
    const rows = await listChannelRules(this.sql, device.organizationId, device.channelId, type);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      enabled: r.enabled,
      conditions: r.conditions,
      conditionObject: JSON.stringify(r.conditionsObject ?? null),
      // Devices get the actions without secrets (webhook passwords, signing keys).
      actionsJson: JSON.stringify(presentActions(r.actions as Record<string, unknown>[])),
      description: r.description,
      createdAt: r.createdAt.getTime(),
      updatedAt: r.updatedAt.getTime(),
      generator: r.generator,
      organizationId: device.organizationId,
      channelIds: r.channelIds,
      projectId: r.projectId,
      tags: [],
      throttleInSeconds: r.throttleInSeconds,
    }));
  }
}
