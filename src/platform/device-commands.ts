// Commands down to devices, between the rules' `mqtt` action, which writes
// them (db/device-commands.ts, in its job's transaction), and the MQTT front
// end, which sends them. Every replica LISTENs on `device_commands` (the
// payload is a device id): the one holding a connection of that device
// subscribed to its commands topic claims them under a lease, so two
// replicas never send one at once. A periodic round expires what is past its
// time (logged 'failure', never sent) and asks again for the devices
// subscribed here, in case a NOTIFY was missed or a dead replica's lease ran
// out.
import type { Sql } from 'postgres';
import {
  abandonDeviceCommand,
  acknowledgeDeviceCommand,
  claimDeviceCommands,
  devicesWithClaimableCommands,
  expireDeviceCommands,
  notifyDeviceCommands,
  releaseDeviceCommands,
  type DeviceCommandRow,
} from '../db/device-commands.js';
import type { Logger } from '../log.js';

export type DeviceCommand = DeviceCommandRow;

/** Where a device's commands are published: the one topic it may subscribe to. */
export function commandsTopic(deviceId: string): string {
  return `devices/${deviceId}/commands`;
}

/** The front end that sends commands: told which devices have some waiting, asked which it holds. */
export interface CommandSink {
  /** devices that have commands to claim now (their connections here should claim them) */
  pending(deviceIds: readonly string[]): void;
  /** the devices with a connection here subscribed to their commands */
  subscribedDevices(): string[];
}

/** Device commands' tuning, named once here (docs/ARCHITECTURE.md, "Tuning constants", lists it). */
const DEVICE_COMMANDS_TUNING = {
  /** a claimed command's lease: past it, a command a dead replica sent may be sent again */
  leaseSeconds: 60,
  /** how often expired commands are marked and the subscribed devices asked for again */
  roundMs: 10_000,
  /** commands expired in one statement of a round */
  expireBatch: 1000,
} as const;

export class DeviceCommands {
  private sink: CommandSink | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  /** commands this server expired (for /metrics) */
  expired = 0;

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    // onlisten runs on every (re)connection of the listening connection: what
    // was notified while it was down is found by asking once more.
    const { unlisten } = await this.sql.listen(
      'device_commands',
      (deviceId) => this.sink?.pending([deviceId]),
      () => this.kick(),
    );
    this.unlisten = unlisten;
    this.timer = setInterval(() => this.kick(), DEVICE_COMMANDS_TUNING.roundMs);
    this.timer.unref();
  }

  /** The front end that holds connections on this server (one: the MQTT server). */
  attach(sink: CommandSink): void {
    this.sink = sink;
  }

  private kick(): void {
    this.round = this.round.then(async () => {
      try {
        let expired: number;
        do {
          expired = await expireDeviceCommands(this.sql, undefined, DEVICE_COMMANDS_TUNING.expireBatch);
          this.expired += expired;
        } while (expired === DEVICE_COMMANDS_TUNING.expireBatch);
        if (this.sink) {
          const ready = await devicesWithClaimableCommands(this.sql, this.sink.subscribedDevices());
          if (ready.length) this.sink.pending(ready);
        }
      } catch (error) {
        this.log.warn('device commands round failed', { error: error as Error });
      }
    });
  }

  /**
   * The device's commands to send on one connection (`holder`), oldest
   * first: at most `limit`, and past the first no more than `byteBudget`
   * bytes, sent at `maxQos` at most (the subscription's). Its expired ones
   * are marked first, so they are never sent.
   */
  async claim(
    device: { organizationId: string; deviceId: string },
    holder: string,
    limit: number,
    byteBudget: number,
    maxQos: 0 | 1,
  ): Promise<DeviceCommand[]> {
    this.expired += await expireDeviceCommands(this.sql, device.deviceId, DEVICE_COMMANDS_TUNING.expireBatch);
    return claimDeviceCommands(this.sql, {
      organizationId: device.organizationId,
      deviceId: device.deviceId,
      holder,
      limit,
      byteBudget,
      maxQos,
      leaseSeconds: DEVICE_COMMANDS_TUNING.leaseSeconds,
    });
  }

  /** The device acknowledged the command (PUBACK). */
  async acknowledge(organizationId: string, commandId: string): Promise<void> {
    await acknowledgeDeviceCommand(this.sql, organizationId, commandId);
  }

  /** The device cannot take the command (larger than its maximum packet size): given up, logged 'failure'. */
  async abandon(organizationId: string, commandId: string, reason: string): Promise<void> {
    await abandonDeviceCommand(this.sql, organizationId, commandId, reason);
  }

  /**
   * A connection closed with these commands unacknowledged: released, and
   * the device's other connections (on any replica) told they may take them.
   */
  async release(holder: string, commandIds: readonly string[]): Promise<void> {
    const devices = await releaseDeviceCommands(this.sql, holder, commandIds);
    await notifyDeviceCommands(this.sql, devices);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.sink = undefined;
    await this.unlisten?.().catch(() => {});
    await this.round;
  }
}
