// Group commit of ingested events. Requests hand their events to the writer
// and wait; the writer commits everything that arrived within a few
// milliseconds in ONE transaction (one multi-row insert), together with what
// the events change: device state, rule throttles, fired actions. A request
// is acknowledged only after that commit, so nothing acknowledged is lost,
// and the cost of a commit (an fsync) is shared by every event in it.
import { performance } from 'node:perf_hooks';
import type { Sql, TransactionSql } from 'postgres';
import { log } from '../log.js';

export interface IncomingEvent {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  source: 'mobile' | 'iot';
  serverReceivedAt: Date;
  clientSentAt: Date | null;
  payload: Record<string, unknown>;
  dedupKey: string;
}

/** What happens inside the commit after the events are stored (rules, device state). */
export interface EventProcessor {
  /**
   * Called inside the transaction with the batch, in arrival order, while
   * its INSERT is still running (so the processor can send its own queries
   * at once: they are pipelined on the connection). `stored` resolves to the
   * ids that were new; retries of stored events are left out.
   */
  process(tx: TransactionSql, events: IncomingEvent[], stored: Promise<Set<string>>): Promise<void>;
}

export interface WriterOptions {
  /** events per transaction at most */
  maxBatch: number;
  /** how long the first event of a batch waits for company */
  maxDelayMs: number;
  /**
   * transactions in flight at once; their devices never overlap, so each
   * device's events still commit in order
   */
  maxConcurrent: number;
}

interface Pending {
  events: IncomingEvent[];
  devices: Set<string>;
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface WriterStats {
  commits: number;
  events: number;
  duplicates: number;
  lastCommitMs: number;
}

export class EventWriter {
  private queue: Pending[] = [];
  private queuedEvents = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushing = new Set<Promise<void>>();
  /** devices with events in a transaction in flight */
  private readonly busy = new Set<string>();
  private stopped = false;
  readonly stats: WriterStats = { commits: 0, events: 0, duplicates: 0, lastCommitMs: 0 };

  constructor(
    private readonly sql: Sql,
    private readonly processor: EventProcessor,
    private readonly options: WriterOptions = { maxBatch: 2000, maxDelayMs: 2, maxConcurrent: 4 },
  ) {}

  /** Resolves once the events are committed (retries of stored events count as committed). */
  write(events: IncomingEvent[]): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('the event writer is stopped'));
    return new Promise((resolve, reject) => {
      this.queue.push({ events, devices: new Set(events.map((e) => e.deviceId)), resolve, reject });
      this.queuedEvents += events.length;
      if (this.queuedEvents >= this.options.maxBatch) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.options.maxDelayMs);
    });
  }

  get backlog(): number {
    return this.queuedEvents;
  }

  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing.size < this.options.maxConcurrent && this.queue.length) {
      const batch = this.takeBatch();
      if (batch.length === 0) return; // everything queued waits for a device in flight
      const flush: Promise<void> = this.flush(batch).finally(() => {
        this.flushing.delete(flush);
        // What arrived during the commit forms the next batch at once.
        if (this.queue.length) this.kick();
      });
      this.flushing.add(flush);
    }
  }

  /**
   * Takes queued requests up to maxBatch events. A request of a device that
   * is in flight waits, and so does every later request of a device that
   * has one waiting: each device's events commit in arrival order.
   */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const held = new Set(this.busy);
    let count = 0;
    for (const pending of this.queue) {
      const full = count > 0 && count + pending.events.length > this.options.maxBatch;
      if (full || [...pending.devices].some((d) => held.has(d))) {
        rest.push(pending);
        for (const d of pending.devices) held.add(d);
        continue;
      }
      count += pending.events.length;
      batch.push(pending);
    }
    this.queue = rest;
    this.queuedEvents -= count;
    return batch;
  }

  private async flush(batch: Pending[]): Promise<void> {
    const events = batch.flatMap((p) => p.events);
    const devices = new Set(events.map((e) => e.deviceId));
    for (const d of devices) this.busy.add(d);
    const started = performance.now();
    try {
      await this.sql.begin(async (tx) => {
        const stored = tx<{ id: string }[]>`
          INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, client_sent_at, payload, dedup_key)
          SELECT id, org, channel, device, source, received, sent, payload::jsonb, dedup FROM unnest(
            ${events.map((e) => e.id)}::text[],
            ${events.map((e) => e.organizationId)}::text[],
            ${events.map((e) => e.channelId)}::text[],
            ${events.map((e) => e.deviceId)}::text[],
            ${events.map((e) => e.source)}::text[],
            ${events.map((e) => e.serverReceivedAt.toISOString())}::timestamptz[],
            ${events.map((e) => e.clientSentAt?.toISOString() ?? null)}::timestamptz[],
            ${events.map((e) => JSON.stringify(e.payload))}::text[],
            ${events.map((e) => e.dedupKey)}::text[]
          ) AS u(id, org, channel, device, source, received, sent, payload, dedup)
          ON CONFLICT (device_id, dedup_key) DO NOTHING
          RETURNING id`.then((rows) => new Set(rows.map((r) => r.id)));
        // The processor's reads go out now, pipelined behind the INSERT.
        await Promise.all([stored, this.processor.process(tx, events, stored)]);
        this.stats.duplicates += events.length - (await stored).size;
      });
      this.stats.commits++;
      this.stats.events += events.length;
      this.stats.lastCommitMs = performance.now() - started;
      if (process.env.DEBUG_WRITER) log.debug('flush', { events: events.length, ms: Math.round(this.stats.lastCommitMs * 10) / 10, inFlight: this.flushing.size, queued: this.queuedEvents });
      for (const p of batch) p.resolve();
    } catch (error) {
      log.error('event commit failed', { events: events.length, error: error as Error });
      for (const p of batch) p.reject(error as Error);
    } finally {
      for (const d of devices) this.busy.delete(d);
    }
  }

  /** Commits what is queued, then refuses new events. */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.queue.length || this.flushing.size) {
      this.kick();
      await Promise.all(this.flushing);
    }
  }
}
