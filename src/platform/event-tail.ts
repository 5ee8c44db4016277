// The live tail of an organization's events (GET /v2/events/stream). Each
// server polls PostgreSQL for the organizations that have streams open on
// it: one query per organization per EVENT_STREAM_POLL_MS, shared by all of
// that organization's streams, and none while it has none. Ingestion does
// nothing for the tail (no NOTIFY, no extra write), and every server sees
// what every other committed, since all read the same table.
//
// A poll reads the events received in the last TAIL_LOOKBACK_MS that it has
// not read before (their ids are remembered until they fall out of that
// window). An event's arrival time is stamped before its group commit, and
// servers' clocks differ a little, so an event can become visible after
// later ones were read: looking back a few seconds instead of from the last
// event read catches it. An event whose commit lands later than that after
// its stamp (or one from a server whose clock is further behind) is not
// tailed; the search always has it.
import type { Queryable } from '../db/database.js';
import * as db from '../db/events.js';
import type { EventRow } from '../db/events.js';
import { DomainError } from '../errors.js';
import type { Logger } from '../log.js';
import type { EventService } from './events.js';

/** How far back each poll looks for events that became visible late. */
const TAIL_LOOKBACK_MS = 5_000;
/** The most events one poll reads; an organization sending more per interval is tailed behind, and skips what falls out of the window. */
const TAIL_BATCH = 1_000;

export interface TailSettings {
  /** how often an organization with streams open is polled */
  pollMs: number;
  /** streams one organization may have open on this server */
  perOrganization: number;
  /** streams this server may have open, all organizations together */
  perServer: number;
}

/** Which of the organization's events a stream wants (none given: all). */
export interface TailFilter {
  channelId?: string | undefined;
  deviceId?: string | undefined;
}

export interface TailListener {
  /** the tail reads for this stream from now on: events committed from here are delivered */
  ready(): void;
  /** new events that match the filter, oldest first */
  events(rows: EventRow[]): void;
}

/** One stream's place in the tail, taken by EventTail.subscribe and given back by close(). */
export class TailSubscription {
  private listener: TailListener | undefined;
  private closed = false;

  constructor(
    readonly organizationId: string,
    readonly filter: TailFilter,
    private readonly owner: EventTail,
  ) {}

  /** Starts delivering to `listener`; nothing once closed. */
  start(listener: TailListener): void {
    if (this.closed || this.listener) return;
    this.listener = listener;
    this.owner.attach(this);
  }

  /** Gives the place back and stops delivering; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.owner.release(this);
  }

  /** @internal the poller's calls */
  ready(): void {
    this.call((listener) => listener.ready());
  }

  /** @internal */
  deliver(rows: readonly EventRow[]): void {
    const { channelId, deviceId } = this.filter;
    const wanted = rows.filter(
      (row) => (!channelId || row.channelId === channelId) && (!deviceId || row.deviceId === deviceId),
    );
    if (wanted.length) this.call((listener) => listener.events(wanted));
  }

  private call(fn: (listener: TailListener) => void): void {
    if (this.closed || !this.listener) return;
    try {
      fn(this.listener);
    } catch (error) {
      this.owner.log.error('event tail: a stream failed to take events', {
        organizationId: this.organizationId,
        error: error as Error,
      });
      this.close();
    }
  }
}

export class EventTail {
  private readonly pollers = new Map<string, OrganizationPoller>();
  private readonly places = new Map<string, number>();
  private openCount = 0;
  private stopped = false;

  constructor(
    private readonly sql: Queryable,
    private readonly events: EventService,
    private readonly settings: TailSettings,
    readonly log: Logger,
  ) {}

  /** Streams open on this server. */
  get open(): number {
    return this.openCount;
  }

  /**
   * A place for one stream of the organization's events: its channel and
   * device, when given, must be the organization's (OutOfOrganizationError);
   * past the per-organization or per-server cap, 'throttled'.
   */
  async subscribe(organizationId: string, filter: TailFilter): Promise<TailSubscription> {
    await this.events.checkScope(organizationId, filter.channelId, filter.deviceId);
    if (this.stopped)
      throw new DomainError('unavailable', 'server is shutting down', 'open the stream again on another server', 1);
    const mine = this.places.get(organizationId) ?? 0;
    if (mine >= this.settings.perOrganization) {
      throw new DomainError(
        'throttled',
        'too many event streams',
        `this organization has ${mine} event streams open on this server, the most it may (EVENT_STREAMS_PER_ORGANIZATION); close one first`,
      );
    }
    if (this.openCount >= this.settings.perServer) {
      throw new DomainError(
        'throttled',
        'too many event streams',
        `this server has ${this.openCount} event streams open, the most it may (EVENT_STREAMS_PER_SERVER)`,
      );
    }
    this.places.set(organizationId, mine + 1);
    this.openCount++;
    return new TailSubscription(organizationId, { ...filter }, this);
  }

  /** @internal a subscription starts: its organization's poller runs while it has any */
  attach(subscription: TailSubscription): void {
    if (this.stopped) return;
    let poller = this.pollers.get(subscription.organizationId);
    if (!poller) {
      poller = new OrganizationPoller(this.sql, subscription.organizationId, this.settings.pollMs, this.log);
      this.pollers.set(subscription.organizationId, poller);
    }
    poller.add(subscription);
  }

  /** @internal a subscription closed: its place back, and its poller stopped when it was the last */
  release(subscription: TailSubscription): void {
    const { organizationId } = subscription;
    const left = (this.places.get(organizationId) ?? 1) - 1;
    if (left > 0) this.places.set(organizationId, left);
    else this.places.delete(organizationId);
    this.openCount--;
    const poller = this.pollers.get(organizationId);
    if (poller && poller.remove(subscription) === 0) {
      poller.stop();
      this.pollers.delete(organizationId);
    }
  }

  /** Polls no more (shutdown; the front end has ended the streams already). */
  stop(): void {
    this.stopped = true;
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
  }
}

/** One organization's polling, shared by its streams on this server. */
class OrganizationPoller {
  private readonly subscribers = new Set<TailSubscription>();
  /** events read, by id, with their arrival time (ms): left out of later polls until they fall out of the window */
  private readonly seen = new Map<string, number>();
  /** the first poll has noted what was there before any stream: from then on, what it reads is new */
  private primed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  private stopped = false;

  constructor(
    private readonly sql: Queryable,
    private readonly organizationId: string,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  add(subscription: TailSubscription): void {
    this.subscribers.add(subscription);
    if (this.primed) subscription.ready();
    if (!this.started) {
      this.started = true;
      void this.poll();
    }
  }

  /** Resolves to the subscribers left. */
  remove(subscription: TailSubscription): number {
    this.subscribers.delete(subscription);
    return this.subscribers.size;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.subscribers.clear();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    const since = Date.now() - TAIL_LOOKBACK_MS;
    for (const [id, at] of this.seen) if (at <= since) this.seen.delete(id);
    try {
      if (!this.primed) {
        // What is there already is not news: noted, not sent.
        for (const row of await db.eventIdsSince(this.sql, this.organizationId, new Date(since)))
          this.seen.set(row.id, row.serverReceivedAt.getTime());
        if (this.stopped) return;
        this.primed = true;
        for (const subscriber of [...this.subscribers]) subscriber.ready();
      } else {
        const rows = await db.eventsSince(this.sql, {
          organizationId: this.organizationId,
          since: new Date(since),
          seenIds: [...this.seen.keys()],
          limit: TAIL_BATCH,
        });
        if (this.stopped) return;
        for (const row of rows) this.seen.set(row.id, row.serverReceivedAt.getTime());
        if (rows.length) for (const subscriber of [...this.subscribers]) subscriber.deliver(rows);
      }
    } catch (error) {
      // The database away for a moment: the streams stay open, and the next poll reads what was missed.
      this.log.warn('event tail: reading new events failed', {
        organizationId: this.organizationId,
        error: error as Error,
      });
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.poll(), this.pollMs);
  }
}
