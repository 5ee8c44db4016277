// One camera's stream, read on this replica (stream-supervisor.ts decides
// which): its source (stream-source.ts: ffmpeg), each frame run through the
// profile's model version with predict's admission (the organization's
// share, the version's queue), its boxes tracked (vision/object-lifecycle.ts),
// and each object's start, updates and end stored as events of the camera
// through the group commit, rather than an event per frame.
//
// One frame runs at a time; while it runs, the newest frames wait, at most
// a second of them (`waitingSeconds`, two frames at least), and a newer one
// pushes the oldest out (dropped, and counted): a model slower than the
// stream never queues frames without bound, while a pause shorter than a
// second (a busy moment of the cores, ffmpeg's output read in one go by a
// busy event loop) delays frames rather than losing them. A source that
// fails or ends is opened again after a backoff (1 s doubling to 30 s, back
// to 1 s once frames flow), its objects kept across a short outage and
// ended after a long one.
//
//   connecting → running (frames flow) → retrying (reason) → connecting ...
//   any → stopped (stop(): disabled, handed over or shutting down)
import sharp from 'sharp';
import type { DeployedVersion } from '../../inference/inference-service.js';
import { native } from '../../inference/native.js';
import { RAW_IMAGE_CONTENT_TYPE } from '../../inference/pipeline/request-body.js';
import { predictOptions } from '../../inference/predict-options.js';
import { bufferedBody, type PredictAdmission } from '../../inference/scheduling/admission.js';
import { DomainError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../log.js';
import type { VisionProfile } from '../../platform/vision.js';
import { type ObjectEvent, ObjectLifecycle } from '../../vision/object-lifecycle.js';
import { trackedInput } from '../camera-tracks.js';
import type { EventWriter, IncomingEvent } from '../event-writer.js';
import type { DetectionsByLabel } from '../frames.js';
import { UNIQUE_KEY_PREFIX } from '../../db/events.js';
import { type OpenedSource, openSource, type SourceSettings } from './stream-source.js';

export type StreamState = 'connecting' | 'running' | 'retrying' | 'stopped';

const CAMERA_STREAM_TUNING = {
  /** the first wait before a failed source is opened again (ms); it doubles up to maxBackoffMs */
  firstBackoffMs: 1_000,
  maxBackoffMs: 30_000,
  /** a source that gave no frame this long is closed and opened again (ms) */
  stallMs: 15_000,
  /** the stream's seconds of frames that may wait while one runs (two frames at least); a newer one past them drops the oldest */
  waitingSeconds: 1,
  /** frames whose latency the p50 and p99 are taken over */
  latencyWindow: 200,
  /** the window fps in and out are measured over (ms) */
  rateWindowMs: 10_000,
} as const;

/** A camera that streams, as the supervisor hands it over. */
export interface StreamingCamera {
  deviceId: string;
  organizationId: string;
  channelId: string;
  profile: VisionProfile & { stream: NonNullable<VisionProfile['stream']> };
}

export interface CameraStreamDeps {
  admission: PredictAdmission<DeployedVersion>;
  writer: EventWriter;
  source: SourceSettings;
  log: Logger;
  /** the last object events of the camera's tracks not ended (db/object-events.ts openObjectEvents) */
  openObjects: (organizationId: string, deviceId: string) => Promise<Array<Record<string, unknown>>>;
  /** the seconds in each zone the rules seeing the camera's channel ask of objects (RulesEngine.dwellMarks) */
  dwellMarks: (organizationId: string, channelId: string) => Promise<Map<string, number[]>>;
}

/** A stream's figures, as GET /v2/devices/{id}/vision and /metrics show them. */
export interface StreamStats {
  framesIn: number;
  framesOut: number;
  /** frames pushed out of the waiting ones by a newer one while the model was busy */
  drops: number;
  /** frames admission refused (the organization's share or the version's queue full) */
  refused: number;
  /** frames whose run failed */
  failed: number;
  fpsIn: number;
  fpsOut: number;
  /** from a frame's arrival to its objects' events committed (or its run's end, without events) */
  latencyMs: { p50: number; p99: number } | null;
  /** objects followed now */
  objects: number;
  /** milliseconds spent tracking (the objects' step, frames' boxes in, events out), all frames together: tracking's cost */
  trackingMs: number;
  objectEvents: number;
  restarts: number;
  /** when the state last changed (ISO 8601) */
  since: string;
}

interface Frame {
  bmp: Buffer;
  at: number;
}

/** An object as its stored event's payload tells it (the inverse of objectEventPayload); undefined for a payload of another shape. */
function objectFromPayload(payload: Record<string, unknown>): ObjectEvent | undefined {
  const { trackId, label, score, box, zones, timeInZones, crossings, firstSeen, lastSeen } = payload;
  const ms = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : Number.NaN);
  if (
    typeof trackId !== 'number' ||
    typeof label !== 'string' ||
    !Array.isArray(box) ||
    box.length !== 4 ||
    !box.every((v) => typeof v === 'number') ||
    !Array.isArray(zones) ||
    !Array.isArray(crossings) ||
    typeof timeInZones !== 'object' ||
    timeInZones === null ||
    Number.isNaN(ms(firstSeen)) ||
    Number.isNaN(ms(lastSeen))
  )
    return undefined;
  return {
    type: 'object.update',
    trackId,
    label,
    score: typeof score === 'number' ? score : 1,
    box: box as unknown as ObjectEvent['box'],
    zones: zones as ObjectEvent['zones'],
    timeInZones: timeInZones as Record<string, number>,
    entered: [],
    left: [],
    crossed: [],
    dwelled: [],
    inZone: {},
    crossings: (crossings as Array<{ line: string; direction: 'in' | 'out'; at: string }>).map((c) => ({
      ...c,
      at: ms(c.at),
    })),
    firstSeen: ms(firstSeen),
    lastSeen: ms(lastSeen),
  };
}

/** The object event's payload: the object, with times as ISO 8601 and its box as [x1, y1, x2, y2]. */
function objectEventPayload(event: ObjectEvent, modelVersionId: string): Record<string, unknown> {
  return {
    type: event.type,
    trackId: event.trackId,
    label: event.label,
    score: event.score,
    box: [...event.box],
    zones: event.zones,
    timeInZones: event.timeInZones,
    entered: event.entered,
    left: event.left,
    crossed: event.crossed,
    dwelled: event.dwelled,
    inZone: event.inZone,
    crossings: event.crossings.map((c) => ({ ...c, at: new Date(c.at).toISOString() })),
    firstSeen: new Date(event.firstSeen).toISOString(),
    lastSeen: new Date(event.lastSeen).toISOString(),
    modelVersionId,
  };
}

export class CameraStream {
  state: StreamState = 'connecting';
  reason: string | null = null;
  private stateSince = Date.now();
  private source: OpenedSource | undefined;
  private objects: ObjectLifecycle;
  private running: Promise<void> | undefined;
  private readonly waiting: Frame[] = [];
  private stopped = false;
  private backoffMs: number = CAMERA_STREAM_TUNING.firstBackoffMs;
  private retryTimer: NodeJS.Timeout | undefined;
  private stallTimer: NodeJS.Timeout | undefined;
  private lastFrameAt = 0;
  private trackingMs = 0;
  private readonly counts = {
    framesIn: 0,
    framesOut: 0,
    drops: 0,
    refused: 0,
    failed: 0,
    objectEvents: 0,
    restarts: 0,
  };
  private readonly latencies: number[] = [];
  private readonly arrivals: number[] = [];
  private readonly departures: number[] = [];
  /** the last frame run, with its boxes (their trackIds): the camera's page shows it */
  latest: { bmp: Buffer; detections: DetectionsByLabel; at: number } | undefined;

  constructor(
    readonly camera: StreamingCamera,
    private readonly deps: CameraStreamDeps,
  ) {
    this.objects = new ObjectLifecycle(camera.profile, Date.now() * 1000);
  }

  start(): void {
    void this.connect();
  }

  /** The rules' dwell marks of its zones, read again on every round of the supervisor (rules change). */
  setDwellMarks(marks: ReadonlyMap<string, readonly number[]>): void {
    this.objects.setDwellMarks(marks);
  }

  /** Stops reading; `endObjects`: its objects end (the stream was disabled), else they are left as they are (handed over). */
  async stop(endObjects: boolean): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.stallTimer);
    this.source?.stop();
    this.waiting.length = 0;
    await this.running;
    if (endObjects) await this.store(this.objects.end()).catch(() => {});
    this.setState('stopped', null);
  }

  /** The last frame run, as a JPEG, with its boxes (their trackIds) and when it arrived; undefined before the first. */
  async latestFrame(): Promise<
    { jpeg: Buffer; width: number; height: number; detections: DetectionsByLabel; at: Date } | undefined
  > {
    const latest = this.latest;
    if (!latest) return undefined;
    const { data, width, height } = native.decodeBmp(latest.bmp, latest.bmp.length);
    const jpeg = await sharp(data, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { jpeg, width, height, detections: latest.detections, at: new Date(latest.at) };
  }

  stats(): StreamStats {
    const now = Date.now();
    const rate = (times: number[]) => {
      while (times.length > 0 && times[0]! < now - CAMERA_STREAM_TUNING.rateWindowMs) times.shift();
      return Math.round((times.length / CAMERA_STREAM_TUNING.rateWindowMs) * 1000 * 100) / 100;
    };
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
    return {
      ...this.counts,
      fpsIn: rate(this.arrivals),
      fpsOut: rate(this.departures),
      latencyMs: sorted.length > 0 ? { p50: at(0.5), p99: at(0.99) } : null,
      objects: this.objects.size,
      trackingMs: Math.round(this.trackingMs * 100) / 100,
      since: new Date(this.stateSince).toISOString(),
    };
  }

  private setState(state: StreamState, reason: string | null): void {
    if (state !== this.state) this.stateSince = Date.now();
    this.state = state;
    this.reason = reason;
  }

  private resumed = false;

  private async connect(): Promise<void> {
    if (this.stopped) return;
    this.setState('connecting', null);
    const { profile } = this.camera;
    try {
      // Once, before the first frame: the objects a previous reading of the camera left open.
      if (!this.resumed) {
        const open = await this.deps.openObjects(this.camera.organizationId, this.camera.deviceId);
        this.objects.resume(open.flatMap((payload) => objectFromPayload(payload) ?? []));
        this.resumed = true;
      }
      const { version } = this.deps.admission.admit(profile.modelVersionId, this.camera.organizationId);
      const { width, height, resize } = version.config.input;
      const source = await openSource(
        { url: profile.stream.url, fps: profile.stream.fps, width, height, keepAspect: resize === 'letterbox' },
        this.deps.source,
        { frame: (bmp) => this.arrived(bmp), closed: (reason) => this.closed(reason) },
      );
      if (this.stopped) source.stop();
      this.source = source;
      this.watchStall();
    } catch (error) {
      this.retry(error instanceof Error ? error.message : String(error));
    }
  }

  private closed(reason: string): void {
    this.source = undefined;
    clearTimeout(this.stallTimer);
    if (this.stopped) return;
    this.retry(reason);
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.counts.restarts++;
    this.setState('retrying', reason);
    this.deps.log.warn('camera stream retrying', { deviceId: this.camera.deviceId, reason, inMs: this.backoffMs });
    this.retryTimer = setTimeout(() => void this.connect(), this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, CAMERA_STREAM_TUNING.maxBackoffMs);
  }

  private watchStall(): void {
    clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => {
      this.source?.stop();
    }, CAMERA_STREAM_TUNING.stallMs);
    this.stallTimer.unref();
  }

  private arrived(bmp: Buffer): void {
    if (this.stopped) return;
    const at = Date.now();
    // After an outage longer than the tracker keeps a lost object, its objects ended while it was away.
    const { lostFrames = 30 } = this.camera.profile.tracking;
    if (this.lastFrameAt > 0 && at - this.lastFrameAt > (lostFrames / this.camera.profile.stream.fps) * 1000) {
      const ended = this.objects.end();
      if (ended.length > 0) void this.store(ended).catch(() => {});
    }
    this.lastFrameAt = at;
    this.counts.framesIn++;
    this.arrivals.push(at);
    if (this.state !== 'running') this.setState('running', null);
    this.backoffMs = CAMERA_STREAM_TUNING.firstBackoffMs;
    this.watchStall();
    this.waiting.push({ bmp, at });
    const room = Math.max(2, Math.ceil(this.camera.profile.stream.fps * CAMERA_STREAM_TUNING.waitingSeconds));
    if (this.waiting.length > room) {
      this.waiting.shift();
      this.counts.drops++;
    }
    if (!this.running) this.running = this.drain();
  }

  /** Runs the waiting frames, oldest first, until none waits. */
  private async drain(): Promise<void> {
    while (this.waiting.length > 0 && !this.stopped) {
      const frame = this.waiting.shift()!;
      await this.run(frame);
    }
    this.running = undefined;
  }

  private async run(frame: Frame): Promise<void> {
    const { profile, organizationId } = this.camera;
    let detections: DetectionsByLabel;
    try {
      const admitted = this.deps.admission.admit(profile.modelVersionId, organizationId);
      const options = predictOptions(profile.options, admitted.version.config.defaults);
      const pass = this.deps.admission.enter(admitted, 0);
      // The frame is handed to a worker (transferred); the page's copy is kept first.
      const shown = Buffer.from(frame.bmp);
      const answer = await pass.run(bufferedBody(frame.bmp), RAW_IMAGE_CONTENT_TYPE, options);
      detections = JSON.parse(answer!.json) as DetectionsByLabel;
      this.latest = { bmp: shown, detections, at: frame.at };
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unavailable') this.counts.refused++;
      else {
        this.counts.failed++;
        this.deps.log.warn('a camera stream frame failed', { deviceId: this.camera.deviceId, error: error as Error });
      }
      return;
    }
    const trackingStarted = performance.now();
    const inputs = [];
    const boxes = [];
    for (const [label, list] of Object.entries(detections)) {
      for (const detection of list as Array<DetectionsByLabel[string][number] & { trackId?: number }>) {
        const input = trackedInput(label, detection);
        if (input) {
          inputs.push(input);
          boxes.push(detection);
        }
      }
    }
    const { trackIds, events } = this.objects.step(inputs, frame.at);
    for (const [i, trackId] of trackIds.entries()) if (trackId !== undefined) boxes[i]!.trackId = trackId;
    this.trackingMs += performance.now() - trackingStarted;
    try {
      await this.store(events);
    } catch (error) {
      this.counts.failed++;
      this.deps.log.error('camera stream object events not stored', {
        deviceId: this.camera.deviceId,
        error: error as Error,
      });
      return;
    }
    const done = Date.now();
    this.counts.framesOut++;
    this.departures.push(done);
    this.latencies.push(done - frame.at);
    if (this.latencies.length > CAMERA_STREAM_TUNING.latencyWindow) this.latencies.shift();
  }

  /** Stores object events through the group commit; resolves once committed. */
  private async store(events: ObjectEvent[]): Promise<void> {
    if (events.length === 0) return;
    const { deviceId, organizationId, channelId, profile } = this.camera;
    const now = new Date();
    const incoming: IncomingEvent[] = events.map((event) => {
      const id = newId();
      return {
        id,
        organizationId,
        channelId,
        deviceId,
        source: 'iot',
        object: true,
        serverReceivedAt: now,
        clientSentAt: new Date(event.lastSeen),
        payload: objectEventPayload(event, profile.modelVersionId),
        dedupKey: `${UNIQUE_KEY_PREFIX}${id}`,
      };
    });
    await this.deps.writer.write(incoming);
    this.counts.objectEvents += events.length;
  }
}
