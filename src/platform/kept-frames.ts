// The frames cameras keep (a vision profile's keepFrames): each image is
// kept where the model store keeps models' files, in PostgreSQL (the row's
// `data`) or in the S3 bucket (frames/<organization>/<event id>, with its
// SHA-256 checked when read back), and recorded in kept_frames (migration
// 018) under the frame's event. A frame is kept as long as its event
// (EVENT_RETENTION_DAYS: an hourly sweep), and an organization keeps at most
// KEPT_FRAMES_MAX_MB: past it, its oldest frames are removed, so a camera
// always has its latest frames and one tenant's cameras cannot fill the
// database or the bucket.
import { createHash } from 'node:crypto';
import type { Sql } from 'postgres';
import {
  deleteFramesKeptBefore,
  deleteKeptFrame,
  deleteOrganizationFrames,
  deleteOldestFramesBeyond,
  findKeptFrame,
  insertKeptFrame,
  keptFrameBytes,
  type KeptFrameRow,
  type RemovedFrame,
} from '../db/kept-frames.js';
import { DomainError, notFound } from '../errors.js';
import { sniffImageFormat } from '../inference/image-format.js';
import { S3Client, SHA256_HEADER, type S3Settings } from '../lib/s3-client.js';
import { log } from '../log.js';

const DAY_MS = 86_400_000;
const SWEEP_INTERVAL_MS = 3_600_000;
/** Frames removed per statement of the sweep. */
const SWEEP_PAGE = 500;
/** How long an organization's usage, read from the database, is trusted before it is read again. */
const USAGE_TTL_MS = 30_000;
/** Past its quota, an organization's oldest frames are removed down to this share of it. */
const EVICT_TO = 0.9;

export interface KeptFramesSettings {
  /** the most bytes of frames an organization keeps; 0: none are kept */
  quotaBytes: number;
  /** days a frame is kept (its event's retention); 0: until the quota removes it */
  retentionDays: number;
}

export interface FrameToKeep {
  eventId: string;
  organizationId: string;
  deviceId: string;
  /** the image as the camera sent it (JPEG, PNG, ...) */
  image: Uint8Array;
}

export interface FrameImage {
  contentType: string;
  body: Buffer;
}

/** What this server last knew of an organization's kept bytes. */
interface Usage {
  bytes: number;
  readAt: number;
  evicting: boolean;
}

export class KeptFrames {
  private readonly usage = new Map<string, Usage>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: Sql,
    /** where the images are, when not in the database */
    private readonly bucket: FrameBucket | undefined,
    private readonly settings: KeptFramesSettings,
  ) {}

  /**
   * Keeps a frame's image under its event; false when it is not kept (the
   * quota is 0, or the store failed: logged; the frame's event is stored
   * all the same, as its detections are what was asked for).
   */
  async keep(frame: FrameToKeep): Promise<boolean> {
    if (this.settings.quotaBytes <= 0) return false;
    const format = sniffImageFormat(frame.image);
    const row = {
      eventId: frame.eventId,
      organizationId: frame.organizationId,
      deviceId: frame.deviceId,
      contentType: format ? `image/${format}` : 'application/octet-stream',
      bytes: frame.image.byteLength,
      sha256: createHash('sha256').update(frame.image).digest('hex'),
    };
    const image = Buffer.from(frame.image.buffer, frame.image.byteOffset, frame.image.byteLength);
    try {
      // The image first: a row always names an image that exists.
      if (this.bucket) await this.bucket.put(row, image);
      await insertKeptFrame(this.sql, row, this.bucket ? null : image);
    } catch (error) {
      log.warn("could not keep a camera's frame; its event is stored without it", { device: frame.deviceId, event: frame.eventId, error: error as Error });
      return false;
    }
    await this.count(frame.organizationId, row.bytes);
    return true;
  }

  /** Removes a frame kept for an event that was not stored (a retried frame id: the first one's event and frame stand). */
  async discard(organizationId: string, eventId: string): Promise<void> {
    await this.removed(await deleteKeptFrame(this.sql, organizationId, eventId));
  }

  /** A device's kept frame (404 when it was never kept, or is kept no more). */
  async image(organizationId: string, deviceId: string, eventId: string): Promise<FrameImage> {
    const row = await findKeptFrame(this.sql, organizationId, deviceId, eventId);
    if (!row) throw notFound('frame not found: it was not kept, or is kept no more');
    if (row.data !== null) return { contentType: row.contentType, body: row.data };
    // Kept in a bucket, by a server whose MODEL_STORE was s3.
    if (!this.bucket) throw notFound('frame not found: it is kept in the S3 bucket, and this server has no bucket (MODEL_STORE)');
    const body = await this.bucket.get(row);
    return { contentType: row.contentType, body };
  }

  /**
   * Removes every frame of an organization about to be deleted: its rows
   * would go with it, but not its images in a bucket.
   */
  async forgetOrganization(organizationId: string): Promise<void> {
    await this.removeAll(() => deleteOrganizationFrames(this.sql, organizationId, SWEEP_PAGE));
    this.usage.delete(organizationId);
  }

  /** Sweeps at start and hourly (with EVENT_RETENTION_DAYS set); a failed sweep is logged, and the next one tries again. */
  async start(): Promise<void> {
    if (this.settings.retentionDays <= 0) return;
    await this.runSweep();
    this.timer = setInterval(() => void this.runSweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Removes the frames kept longer than the retention; how many. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.settings.retentionDays <= 0) return 0;
    const horizon = new Date(now - this.settings.retentionDays * DAY_MS);
    const total = await this.removeAll(() => deleteFramesKeptBefore(this.sql, horizon, SWEEP_PAGE));
    if (total > 0) log.info('removed frames kept past the retention', { frames: total });
    return total;
  }

  private runSweep(): Promise<void> {
    this.sweeping = this.sweeping.then(() =>
      this.sweep().then(
        () => {},
        (error: unknown) => log.warn('the sweep of kept frames failed; trying again in an hour', { error: error as Error }),
      ),
    );
    return this.sweeping;
  }

  /**
   * Counts a kept frame against its organization's quota: the usage is read
   * from the database at most every USAGE_TTL_MS (every server keeps
   * frames) and counted here between reads. Past the quota, the oldest
   * frames are removed, one removal at a time per organization.
   */
  private async count(organizationId: string, bytes: number): Promise<void> {
    let usage = this.usage.get(organizationId);
    if (!usage || Date.now() - usage.readAt > USAGE_TTL_MS) {
      const read = await keptFrameBytes(this.sql, organizationId).catch(() => undefined);
      if (read === undefined) return; // the next frame reads it again
      usage = { bytes: read, readAt: Date.now(), evicting: usage?.evicting ?? false };
      this.usage.set(organizationId, usage);
    } else {
      usage.bytes += bytes;
    }
    if (usage.bytes <= this.settings.quotaBytes || usage.evicting) return;
    usage.evicting = true;
    void this.evict(organizationId, usage);
  }

  private async evict(organizationId: string, usage: Usage): Promise<void> {
    try {
      const removed = await deleteOldestFramesBeyond(this.sql, organizationId, Math.floor(this.settings.quotaBytes * EVICT_TO));
      await this.removed(removed);
      usage.bytes = await keptFrameBytes(this.sql, organizationId);
      usage.readAt = Date.now();
    } catch (error) {
      log.warn("could not remove an organization's oldest frames past its quota; the next frame tries again", { organization: organizationId, error: error as Error });
    } finally {
      usage.evicting = false;
    }
  }

  /** Removes frames a page at a time (`page` deletes up to SWEEP_PAGE rows), until a page is not full; how many. */
  private async removeAll(page: () => Promise<RemovedFrame[]>): Promise<number> {
    let total = 0;
    for (;;) {
      const frames = await page();
      await this.removed(frames);
      total += frames.length;
      if (frames.length < SWEEP_PAGE) return total;
    }
  }

  /** Removes the images of frames whose rows are gone, and counts them off their organizations' usage. */
  private async removed(frames: RemovedFrame[]): Promise<void> {
    for (const frame of frames) {
      const usage = this.usage.get(frame.organizationId);
      if (usage) usage.bytes -= frame.bytes;
    }
    if (this.bucket && frames.length) await this.bucket.remove(frames);
  }
}

/** Frames' images in the S3 bucket (MODEL_STORE=s3), each with its SHA-256 in its metadata. */
export class FrameBucket {
  private readonly s3: S3Client;

  constructor(settings: S3Settings) {
    this.s3 = new S3Client(settings, 'frame store');
  }

  private keyOf(frame: Pick<KeptFrameRow, 'organizationId' | 'eventId'>): string {
    return `frames/${frame.organizationId}/${frame.eventId}`;
  }

  async put(frame: Omit<KeptFrameRow, 'keptAt'>, image: Buffer): Promise<void> {
    const res = await this.s3.send({
      method: 'PUT',
      key: this.keyOf(frame),
      headers: { 'content-length': String(image.byteLength), 'content-type': frame.contentType, [SHA256_HEADER]: frame.sha256 },
      body: image,
      payloadSha256: frame.sha256,
    });
    await this.s3.expect(res, 'PUT', 'a frame', [200]);
    res.resume();
  }

  /** The image, whole, checked against the SHA-256 it was kept with. */
  async get(frame: KeptFrameRow): Promise<Buffer> {
    const res = await this.s3.send({ method: 'GET', key: this.keyOf(frame) });
    await this.s3.expect(res, 'GET', 'a frame', [200]);
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > frame.bytes) break;
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    if (length !== frame.bytes || createHash('sha256').update(body).digest('hex') !== frame.sha256) {
      res.destroy();
      throw new DomainError('failed', 'the kept frame in the bucket is not the one that was kept', `frame of event ${frame.eventId}: size or SHA-256 differs`);
    }
    return body;
  }

  /** Removes frames' images; one that is gone already is not an error. */
  async remove(frames: readonly Pick<KeptFrameRow, 'organizationId' | 'eventId'>[]): Promise<void> {
    for (const frame of frames) {
      const res = await this.s3.send({ method: 'DELETE', key: this.keyOf(frame) });
      await this.s3.expect(res, 'DELETE', 'a frame', [200, 204, 404]);
      res.resume();
    }
  }
}
