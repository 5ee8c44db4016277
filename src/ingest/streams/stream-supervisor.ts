// Which cameras' streams this replica reads, and their lives. Every few
// seconds it lists the enabled streams of every organization, takes the
// leases (db/camera-streams.ts) of those it reads already and of free ones
// up to its fair part (the streams over the live replicas, rounded up), so
// that replicas share them out and one whose lease runs out (killed,
// partitioned) sees its streams taken over by the others within the
// lease's length. A stream whose profile changed is started again with the
// new one; one disabled or removed is stopped and its objects ended. Each
// stream's state and figures are written to its lease row on every round,
// where any replica's GET reads them, and its dwell marks (the seconds in a
// zone its rules ask of objects) are read again.
import type { Sql } from 'postgres';
import {
  deleteDisabledStreams,
  leaseStreams,
  liveReplicaCount,
  releaseStreams,
  reportStreams,
} from '../../db/camera-streams.js';
import { listStreamingCameras } from '../../db/device-vision.js';
import type { Logger } from '../../log.js';
import { Gauge, type Registry } from '../../observability/metrics.js';
import { STALE_SECONDS } from '../../platform/replicas.js';
import type { Secrets } from '../../platform/secrets.js';
import { toProfile } from '../../platform/vision.js';
import { CameraStream, type CameraStreamDeps, type StreamingCamera } from './camera-stream.js';

const STREAM_SUPERVISOR_TUNING = {
  /** how often the streams are shared out again and their leases renewed (ms) */
  roundMs: 2_000,
  /** a lease's length: a replica silent this long loses its streams to the others (s) */
  leaseSeconds: 15,
} as const;

interface Held {
  stream: CameraStream;
  /** the profile's updatedAt it was started with */
  profileSetAt: number;
}

export class StreamSupervisor {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly sql: Sql,
    private readonly replicaId: string,
    private readonly secrets: Secrets,
    private readonly deps: CameraStreamDeps,
    private readonly log: Logger,
  ) {}

  start(): void {
    const tick = () => {
      this.round ??= this.share()
        .catch((error) => this.log.warn('sharing out camera streams failed', { error: error as Error }))
        .finally(() => {
          this.round = undefined;
        });
    };
    tick();
    this.timer = setInterval(tick, STREAM_SUPERVISOR_TUNING.roundMs);
    this.timer.unref();
  }

  /** Stops every stream this replica reads (its objects left as they are) and gives their leases back. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.round;
    await Promise.all([...this.held.values()].map(({ stream }) => stream.stop(false)));
    this.held.clear();
    await releaseStreams(this.sql, this.replicaId);
  }

  /** The stream this replica reads for a camera of the organization, if it does. */
  streamOf(organizationId: string, deviceId: string): CameraStream | undefined {
    const stream = this.held.get(deviceId)?.stream;
    return stream?.camera.organizationId === organizationId ? stream : undefined;
  }

  registerMetrics(registry: Registry): void {
    const streams = () => [...this.held.values()].map(({ stream }) => stream);
    registry.register(
      new Gauge('camera_streams', "cameras' streams this replica reads, by state", ['state'], () => {
        const byState = new Map<string, number>();
        for (const stream of streams()) byState.set(stream.state, (byState.get(stream.state) ?? 0) + 1);
        return [...byState].map(([state, value]) => ({ labels: { state }, value }));
      }),
    );
    registry.register(
      new Gauge(
        'camera_stream_frames_total',
        "frames of each camera's stream read on this replica: in (decoded), out (run and tracked), dropped (replaced by a newer while the model was busy), refused (admission), failed",
        ['device', 'outcome'],
        () =>
          streams().flatMap((stream) => {
            const s = stream.stats();
            const device = stream.camera.deviceId;
            return (
              [
                ['in', s.framesIn],
                ['out', s.framesOut],
                ['dropped', s.drops],
                ['refused', s.refused],
                ['failed', s.failed],
              ] as const
            ).map(([outcome, value]) => ({ labels: { device, outcome }, value }));
          }),
        'counter',
      ),
    );
    registry.register(
      new Gauge(
        'camera_stream_latency_ms',
        "from a stream frame's arrival to its object events committed, over its last 200 frames",
        ['device', 'quantile'],
        () =>
          streams().flatMap((stream) => {
            const latency = stream.stats().latencyMs;
            const device = stream.camera.deviceId;
            return latency
              ? [
                  { labels: { device, quantile: '0.5' }, value: latency.p50 },
                  { labels: { device, quantile: '0.99' }, value: latency.p99 },
                ]
              : [];
          }),
      ),
    );
  }

  /** One round: lease, start, stop and report. */
  private async share(): Promise<void> {
    if (this.stopping) return;
    const rows = await listStreamingCameras(this.sql);
    const replicas = await liveReplicaCount(this.sql, STALE_SECONDS);
    const fairPart = Math.ceil(rows.length / replicas);
    const mine = rows.filter((row) => this.held.has(row.deviceId));
    // Free: no live lease (never taken, or its replica gone); another's live lease is left alone.
    const free = rows
      .filter((row) => !this.held.has(row.deviceId) && (row.leasedBy === null || row.leasedBy === this.replicaId))
      .slice(0, Math.max(0, fairPart - mine.length));
    const leased = new Set(
      await leaseStreams(this.sql, this.replicaId, [...mine, ...free], STREAM_SUPERVISOR_TUNING.leaseSeconds),
    );
    if (this.stopping) return;

    const enabled = new Map(rows.map((row) => [row.deviceId, row]));
    const released: string[] = [];
    for (const [deviceId, { stream, profileSetAt }] of this.held) {
      const row = enabled.get(deviceId);
      if (row && leased.has(deviceId) && row.updatedAt.getTime() === profileSetAt) continue;
      // Disabled, changed or removed: its objects end; taken by another replica: they go on there.
      const ended = !row || row.updatedAt.getTime() !== profileSetAt;
      this.held.delete(deviceId);
      await stream.stop(ended);
      if (!row) released.push(deviceId);
      this.log.info('camera stream stopped here', {
        deviceId,
        why: !row ? 'disabled' : ended ? 'changed' : 'taken over',
      });
    }
    for (const deviceId of leased) {
      if (this.held.has(deviceId)) continue;
      const row = enabled.get(deviceId)!;
      let profile: StreamingCamera['profile'];
      try {
        profile = toProfile(row, this.secrets) as StreamingCamera['profile'];
      } catch (error) {
        // A URL sealed with another key (SECRETS_KEY changed): this stream cannot be read; the others can.
        this.log.error('camera stream not started: its profile cannot be read', { deviceId, error: error as Error });
        continue;
      }
      const camera: StreamingCamera = {
        deviceId,
        organizationId: row.organizationId,
        channelId: row.channelId,
        profile,
      };
      const stream = new CameraStream(camera, this.deps);
      this.held.set(deviceId, { stream, profileSetAt: row.updatedAt.getTime() });
      stream.start();
      this.log.info('camera stream started here', { deviceId });
    }
    // The rules change: each stream's dwell marks are read again every round (from the rules engine's cache).
    for (const { stream } of this.held.values()) {
      const { organizationId, channelId } = stream.camera;
      stream.setDwellMarks(await this.deps.dwellMarks(organizationId, channelId));
    }
    await releaseStreams(this.sql, this.replicaId, released);
    await reportStreams(
      this.sql,
      this.replicaId,
      [...this.held.values()].map(({ stream }) => ({
        deviceId: stream.camera.deviceId,
        state: stream.state,
        reason: stream.reason,
        stats: stream.stats() as unknown as Record<string, unknown>,
      })),
    );
    await deleteDisabledStreams(this.sql);
  }
}
