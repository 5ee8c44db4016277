// The events table's day partitions (migration 014), kept by every server:
// today's and the next days' partitions exist before their first event, and
// with EVENT_RETENTION_DAYS set, days past it are dropped whole. Servers
// sharing a database all run it; what one did, the others find done.
import {
  createEventPartition,
  deleteDefaultPartitionEvents,
  deleteEventKeys,
  dropEventPartition,
  eventPartitions,
} from '../db/event-partitions.js';
import type { Sql } from 'postgres';
import type { Logger } from '../log.js';

const DAY_MS = 86_400_000;

/**
 * Days created ahead of today: a server that cannot create one (its DDL
 * waits too long for locks) tries again every hour for two days before
 * the events of that day go to the DEFAULT partition.
 */
const DAYS_AHEAD = 2;

const INTERVAL_MS = 3_600_000;

const dayOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/** events_YYYYMMDD, the UTC day the partition starts */
const partitionName = (from: number) => `events_${new Date(from).toISOString().slice(0, 10).replaceAll('-', '')}`;

export interface MaintenanceOutcome {
  created: string[];
  dropped: string[];
}

/**
 * Creates the missing partitions of today and DAYS_AHEAD days after it, in
 * UTC; with retentionDays > 0, drops partitions whose events are all older
 * than that, and deletes what is as old in the DEFAULT partition and among
 * the idempotency keys.
 */
export async function maintainEventPartitions(
  sql: Sql,
  retentionDays: number,
  now = Date.now(),
): Promise<MaintenanceOutcome> {
  let partitions = await eventPartitions(sql);
  const created: string[] = [];
  for (let from = dayOf(now); from <= dayOf(now) + DAYS_AHEAD * DAY_MS; from += DAY_MS) {
    if (partitions.some((p) => (p.from === null || p.from.getTime() <= from) && p.to.getTime() > from)) continue;
    const name = partitionName(from);
    await createEventPartition(sql, name, new Date(from), new Date(from + DAY_MS));
    created.push(name);
  }
  const dropped: string[] = [];
  if (retentionDays > 0) {
    const horizon = now - retentionDays * DAY_MS;
    if (created.length) partitions = await eventPartitions(sql);
    for (const p of partitions.filter((p) => p.to.getTime() <= horizon)) {
      await dropEventPartition(sql, p.name);
      dropped.push(p.name);
    }
    await deleteDefaultPartitionEvents(sql, new Date(horizon));
    // A key must stay as long as its event: the oldest partition kept may
    // start before the horizon, and then bounds which keys go.
    const kept = partitions.filter((p) => p.to.getTime() > horizon);
    if (kept.every((p) => p.from !== null)) {
      const oldest = Math.min(horizon, ...kept.map((p) => p.from!.getTime()));
      await deleteEventKeys(sql, new Date(oldest));
    }
  }
  return { created, dropped };
}

/** Runs the maintenance at start and hourly; a failed run is logged, and the next one tries again. */
export class EventPartitionMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly sql: Sql,
    private readonly retentionDays: number,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    await this.run();
    this.timer = setInterval(() => void this.run(), INTERVAL_MS);
    this.timer.unref();
  }

  private run(): Promise<void> {
    this.running = this.running.then(() =>
      maintainEventPartitions(this.sql, this.retentionDays).then(
        ({ created, dropped }) => {
          if (created.length || dropped.length)
            this.log.info('event partitions maintained', { created: created.join(','), dropped: dropped.join(',') });
        },
        (error: unknown) =>
          this.log.warn('event partition maintenance failed; trying again in an hour', { error: error as Error }),
      ),
    );
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
