// The frames cameras keep (a vision profile's keepFrames): each image is
// kept where the model store keeps models' files, in PostgreSQL (the row's
// `data`) or in the S3 bucket (frames/<organization>/<event id>, with its
// SHA-256 checked when read back), and recorded in kept_frames (migrations
// 018, 021) under the frame's event. Only the image's own bytes are kept
// (inference/pipeline/image-extent.ts: what a body carries after the image's end is
// not kept, nor counted), and what is kept is what is counted.
//
// A frame is kept as long as its event (EVENT_RETENTION_DAYS: an hourly
// sweep) and within three quotas, each past its limit removing its oldest
// frames down to 90% of it:
// - KEPT_FRAMES_MAX_MB per organization, so a camera always has its latest
//   frames;
// - KEPT_FRAMES_ACCOUNT_MAX_MB per account, the user who created the
//   organization (organizations are free to create: without it, one user
//   with many organizations keeps as much as they like);
// - KEPT_FRAMES_TOTAL_MAX_MB for the whole store, what the disk is sized
//   for: past it, the accounts keeping the most lose their oldest frames
//   first, down to a level all of them share, so that whoever fills the
//   store (many accounts at their quota) cannot push out an account that
//   keeps less.
// A frame over 90% of the smallest of them is not kept at all: keeping it
// would remove every other frame of its organization, and then itself.
//
// In PostgreSQL a removed frame's row and TOAST chunks stay on disk, dead,
// until VACUUM marks their space free for the next frames; autovacuum comes
// once a minute at best, and a camera sending frames at the quota's edge
// would grow the table by what it sends meanwhile, never given back. So
// every removal is followed by a VACUUM of kept_frames (one at a time per
// server, the removals meanwhile taken by the next): the table then holds
// about the quotas' bytes plus what is kept while one VACUUM runs. Rewriting
// rows in a ring of slots would not help (an UPDATE also leaves the old
// version dead), and VACUUM FULL would lock the table and rewrite it whole.
import type { Sql } from 'postgres';
import {
  accountHoldings,
  accountKeptFrameBytes,
  deleteFramesKeptBefore,
  deleteKeptFrame,
  deleteOldestAccountFramesBeyond,
  deleteOldestFramesBeyond,
  deleteOrganizationFrames,
  findKeptFrame,
  insertKeptFrame,
  keptFrameBytes,
  organizationAccount,
  reclaimKeptFramesSpace,
  totalKeptFrameBytes,
  type KeptFrameRow,
  type RemovedFrame,
} from '../db/kept-frames.js';
import { DomainError, notFound } from '../errors.js';
import { imageExtent } from '../inference/pipeline/image-extent.js';
import { sniffImageFormat } from '../inference/pipeline/image-format.js';
import { S3Client, SHA256_HEADER, type S3Settings } from '../lib/s3-client.js';
import { waterLevel } from '../lib/water-level.js';
import type { Logger } from '../log.js';
import { sha256 } from '../lib/sha256.js';

const DAY_MS = 86_400_000;
const SWEEP_INTERVAL_MS = 3_600_000;
/** Frames removed per statement of the sweep. */
const SWEEP_PAGE = 500;
/** How long a usage, read from the database, is trusted before it is read again. */
const USAGE_TTL_MS = 30_000;
/** Past a quota, the oldest frames are removed down to this share of it; a frame over this share of a quota is not kept. */
const EVICT_TO = 0.9;

/** The keys of the usages this server counts: an organization's, an account's, the store's. */
const organizationKey = (organizationId: string) => `organization:${organizationId}`;
const accountKey = (accountId: string) => `account:${accountId}`;
const TOTAL_KEY = 'total';

export interface KeptFramesSettings {
  /** the most bytes of frames an organization keeps; 0: none are kept */
  quotaBytes: number;
  /** the most bytes of frames the organizations an account created keep together */
  accountQuotaBytes: number;
  /** the most bytes of frames the store keeps, every organization together */
  totalQuotaBytes: number;
  /** days a frame is kept (its event's retention); 0: until a quota removes it */
  retentionDays: number;
}

export interface FrameToKeep {
  eventId: string;
  organizationId: string;
  deviceId: string;
  /** the image as the camera sent it (JPEG, PNG, ...), maybe with bytes after its end */
  image: Uint8Array;
}

/** Whether a frame was kept, and why not when it was not. */
export type KeepOutcome = { kept: true } | { kept: false; reason: string };

export interface FrameImage {
  contentType: string;
  body: Buffer;
}

/** What this server last knew of a quota's usage. */
interface Usage {
  bytes: number;
  readAt: number;
  evicting: boolean;
}

/** One of the quotas a kept frame counts against: its usage's key, its limit, how to read its usage and remove its oldest frames. */
interface Quota {
  key: string;
  limit: number;
  read(): Promise<number>;
  evict(keepBytes: number): Promise<RemovedFrame[]>;
}

export class KeptFrames {
  private readonly usage = new Map<string, Usage>();
  /** organization → its account (an organization's creator never changes) */
  private readonly accounts = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> = Promise.resolve();
  /** the removals past quotas and the VACUUM in flight */
  private readonly inFlight = new Set<Promise<void>>();
  /** whether a VACUUM is in flight, and whether removals came since it began */
  private reclaiming = false;
  private reclaimAgain = false;

  constructor(
    private readonly sql: Sql,
    /** where the images are, when not in the database */
    private readonly bucket: FrameBucket | undefined,
    private readonly settings: KeptFramesSettings,
    private readonly log: Logger,
  ) {}

  /** The most bytes one frame may have to be kept: 90% of the smallest quota. */
  get largestFrameBytes(): number {
    const { quotaBytes, accountQuotaBytes, totalQuotaBytes } = this.settings;
    return Math.floor(Math.min(quotaBytes, accountQuotaBytes, totalQuotaBytes) * EVICT_TO);
  }

  /**
   * Keeps a frame's image (its own bytes) under its event; not when a quota
   * is 0, when its end cannot be told, when it is over 90% of a quota, or
   * when the store failed (logged). The frame's event is stored all the
   * same, as its detections are what was asked for.
   */
  async keep(frame: FrameToKeep): Promise<KeepOutcome> {
    if (this.largestFrameBytes <= 0)
      return {
        kept: false,
        reason:
          'this server keeps no frames (KEPT_FRAMES_MAX_MB, KEPT_FRAMES_ACCOUNT_MAX_MB or KEPT_FRAMES_TOTAL_MAX_MB is 0)',
      };
    const format = sniffImageFormat(frame.image);
    const end = format && imageExtent(frame.image, format);
    if (!end)
      return {
        kept: false,
        reason: `the image's end could not be found in its ${format ?? 'unknown'} structure, so its own bytes are not known`,
      };
    const image = Buffer.from(frame.image.buffer, frame.image.byteOffset, end);
    if (end > this.largestFrameBytes) {
      return {
        kept: false,
        reason: `the image's ${end} bytes are over ${this.largestFrameBytes}, 90% of the smallest kept-frames quota: keeping it would remove every other frame`,
      };
    }
    const row = {
      eventId: frame.eventId,
      organizationId: frame.organizationId,
      deviceId: frame.deviceId,
      contentType: `image/${format}`,
      bytes: end,
      sha256: sha256(image),
    };
    try {
      const accountId = await this.accountOf(frame.organizationId);
      // The image first: a row always names an image that exists.
      if (this.bucket) await this.bucket.put(row, image);
      await insertKeptFrame(this.sql, { ...row, accountId }, this.bucket ? null : image);
      for (const quota of this.quotasOf(frame.organizationId, accountId)) await this.count(quota, row.bytes);
    } catch (error) {
      this.log.warn("could not keep a camera's frame; its event is stored without it", {
        device: frame.deviceId,
        event: frame.eventId,
        error: error as Error,
      });
      return { kept: false, reason: 'the frame store failed (logged)' };
    }
    return { kept: true };
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
    if (!this.bucket)
      throw notFound('frame not found: it is kept in the S3 bucket, and this server has no bucket (MODEL_STORE)');
    const body = await this.bucket.get(row);
    return { contentType: row.contentType, body };
  }

  /**
   * Removes every frame of an organization about to be deleted: its rows
   * would go with it, but not its images in a bucket.
   */
  async forgetOrganization(organizationId: string): Promise<void> {
    await this.removeAll(() => deleteOrganizationFrames(this.sql, organizationId, SWEEP_PAGE));
    this.usage.delete(organizationKey(organizationId));
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
    await this.settled();
  }

  /** Resolves once no removal past a quota, and no VACUUM, of this server's is in flight. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  /** Removes the frames kept longer than the retention; how many. */
  async sweep(now = Date.now()): Promise<number> {
    if (this.settings.retentionDays <= 0) return 0;
    const horizon = new Date(now - this.settings.retentionDays * DAY_MS);
    const total = await this.removeAll(() => deleteFramesKeptBefore(this.sql, horizon, SWEEP_PAGE));
    if (total > 0) this.log.info('removed frames kept past the retention', { frames: total });
    return total;
  }

  private runSweep(): Promise<void> {
    this.sweeping = this.sweeping.then(() =>
      this.sweep().then(
        () => {},
        (error: unknown) =>
          this.log.warn('the sweep of kept frames failed; trying again in an hour', { error: error as Error }),
      ),
    );
    return this.sweeping;
  }

  private async accountOf(organizationId: string): Promise<string> {
    let account = this.accounts.get(organizationId);
    if (account === undefined) {
      account = await organizationAccount(this.sql, organizationId);
      this.accounts.set(organizationId, account);
    }
    return account;
  }

  /** The quotas a frame of the organization counts against. */
  private quotasOf(organizationId: string, accountId: string): Quota[] {
    return [
      {
        key: organizationKey(organizationId),
        limit: this.settings.quotaBytes,
        read: () => keptFrameBytes(this.sql, organizationId),
        evict: (keepBytes) => deleteOldestFramesBeyond(this.sql, organizationId, keepBytes),
      },
      {
        key: accountKey(accountId),
        limit: this.settings.accountQuotaBytes,
        read: () => accountKeptFrameBytes(this.sql, accountId),
        evict: (keepBytes) => deleteOldestAccountFramesBeyond(this.sql, accountId, keepBytes),
      },
      {
        key: TOTAL_KEY,
        limit: this.settings.totalQuotaBytes,
        read: () => totalKeptFrameBytes(this.sql),
        evict: (keepBytes) => this.evictLargestAccounts(keepBytes),
      },
    ];
  }

  /**
   * Counts a kept frame against a quota: the usage is read from the
   * database at most every USAGE_TTL_MS (every server keeps frames) and
   * counted here between reads. Past the quota, the oldest frames are
   * removed, one removal at a time per quota.
   */
  private async count(quota: Quota, bytes: number): Promise<void> {
    let usage = this.usage.get(quota.key);
    if (!usage || Date.now() - usage.readAt > USAGE_TTL_MS) {
      const read = await quota.read().catch(() => undefined);
      if (read === undefined) return; // the next frame reads it again
      usage = { bytes: read, readAt: Date.now(), evicting: usage?.evicting ?? false };
      this.usage.set(quota.key, usage);
    } else {
      usage.bytes += bytes;
    }
    if (usage.bytes <= quota.limit || usage.evicting) return;
    usage.evicting = true;
    this.track(this.evict(quota, usage));
  }

  /** Removes the oldest frames past the quota, again while frames kept meanwhile leave it past it. */
  private async evict(quota: Quota, usage: Usage): Promise<void> {
    try {
      do {
        await this.removed(await quota.evict(Math.floor(quota.limit * EVICT_TO)));
        usage.bytes = await quota.read();
        usage.readAt = Date.now();
      } while (usage.bytes > quota.limit);
    } catch (error) {
      this.log.warn('could not remove the oldest kept frames past a quota; the next frame tries again', {
        quota: quota.key,
        error: error as Error,
      });
    } finally {
      usage.evicting = false;
    }
  }

  /**
   * The store past its total: the accounts keeping the most lose their
   * oldest frames, each down to the level that brings the total to
   * `keepBytes` (those under it keep all of theirs).
   */
  private async evictLargestAccounts(keepBytes: number): Promise<RemovedFrame[]> {
    const holdings = await accountHoldings(this.sql);
    const level = waterLevel(
      holdings.map((h) => h.bytes),
      keepBytes,
    );
    const removed: RemovedFrame[] = [];
    for (const holding of holdings) {
      if (holding.bytes <= level) break;
      removed.push(...(await deleteOldestAccountFramesBeyond(this.sql, holding.accountId, level)));
    }
    return removed;
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

  /** Removes the images of frames whose rows are gone, counts them off their usages, and has their space reclaimed. */
  private async removed(frames: RemovedFrame[]): Promise<void> {
    if (frames.length === 0) return;
    for (const frame of frames) {
      for (const key of [organizationKey(frame.organizationId), accountKey(frame.accountId), TOTAL_KEY]) {
        const usage = this.usage.get(key);
        if (usage) usage.bytes -= frame.bytes;
      }
    }
    if (this.bucket) await this.bucket.remove(frames);
    else this.reclaim();
  }

  /** A VACUUM of kept_frames after removals: one at a time, and one more when removals came during it. */
  private reclaim(): void {
    if (this.reclaiming) {
      this.reclaimAgain = true;
      return;
    }
    this.reclaiming = true;
    this.track(
      (async () => {
        do {
          this.reclaimAgain = false;
          await reclaimKeptFramesSpace(this.sql).catch((error: unknown) =>
            this.log.warn("could not vacuum the kept frames' table; autovacuum will", { error: error as Error }),
          );
        } while (this.reclaimAgain);
        this.reclaiming = false;
      })(),
    );
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
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

  async put(
    frame: Pick<KeptFrameRow, 'organizationId' | 'eventId' | 'contentType' | 'sha256'>,
    image: Buffer,
  ): Promise<void> {
    const res = await this.s3.send({
      method: 'PUT',
      key: this.keyOf(frame),
      headers: {
        'content-length': String(image.byteLength),
        'content-type': frame.contentType,
        [SHA256_HEADER]: frame.sha256,
      },
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
    if (length !== frame.bytes || sha256(body) !== frame.sha256) {
      res.destroy();
      throw new DomainError(
        'failed',
        'the kept frame in the bucket is not the one that was kept',
        `frame of event ${frame.eventId}: size or SHA-256 differs`,
      );
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
