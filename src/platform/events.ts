// Reading the organization's ingested events (docs/CONTRACT.md#v2-pagination): the search
// (paged with sinceId) and metrics over a payload value per hour or day.
// A channel or device given as the scope must be the organization's; every
// query is scoped to the organization anyway, so nothing of another is read.
import type { Sql } from 'postgres';
import * as db from '../db/events.js';
import type { EventScope, MetricQuery } from '../db/events.js';
import { invalid, OutOfOrganizationError } from '../errors.js';

/** The most buckets one metrics answer holds. */
const MAX_METRIC_BUCKETS = 1000;

export interface EventSearchInput extends Omit<EventScope, 'organizationId'> {
  limit: number;
  order: 'asc' | 'desc';
  /** the last event of the previous page */
  sinceId?: string | undefined;
}

export interface MetricsInput extends Omit<MetricQuery, 'organizationId' | 'channelId'> {
  channelId: string;
  /** one bucket per hour or day, or false for one bucket over the whole range */
  interval: '1h' | '1d' | false;
}

/** PostgreSQL's own refusal of a time zone Intl knows is the caller's mistake. */
async function inTimezone<T>(timezone: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as { code?: string }).code === '22023')
      throw invalid('invalid request body', `timezone: "${timezone}" is not known to the database`);
    throw error;
  }
}

/** The organization's ingested events: the search, the metrics, and the check of a scope. */
export class EventService {
  constructor(private readonly sql: Sql) {}

  /** A channel or device named as the scope must be the organization's (OutOfOrganizationError). */
  async checkScope(organizationId: string, channelId: string | undefined, deviceId: string | undefined): Promise<void> {
    if (channelId && !(await db.channelOfOrganization(this.sql, organizationId, channelId)))
      throw new OutOfOrganizationError('channel', channelId);
    if (deviceId && !(await db.deviceOfOrganization(this.sql, organizationId, deviceId)))
      throw new OutOfOrganizationError('device', deviceId);
  }

  /** A page of events with the totals of the scope (`total`) and of the filtered scope (`filteredTotal`). */
  async search(organizationId: string, search: EventSearchInput) {
    await this.checkScope(organizationId, search.channelId, search.deviceId);
    if (search.sinceId && !(await db.eventExists(this.sql, organizationId, search.sinceId))) {
      throw invalid('invalid request body', `sinceId: no event ${search.sinceId} in this organization`);
    }
    const { limit, order, sinceId, ...rest } = search;
    const scope: EventScope = { organizationId, ...rest };
    const [rows, totals] = await Promise.all([
      db.searchEvents(this.sql, { ...scope, limit, order, sinceId }),
      db.countEvents(this.sql, scope),
    ]);
    return { rows, totals };
  }

  /** The metric per bucket, with the totals of the scope. */
  async metrics(organizationId: string, input: MetricsInput) {
    await this.checkScope(organizationId, input.channelId, undefined);
    const { interval, ...rest } = input;
    const q: MetricQuery = { organizationId, ...rest };
    const totals = await db.countEvents(this.sql, q);
    const buckets = await inTimezone(q.timezone, async () => {
      if (interval === false) return [{ ...(await db.metricTotal(this.sql, q)), ts: q.from ?? null }];
      let { from, to } = q;
      if (!from || !to) {
        const bounds = await db.metricBounds(this.sql, q);
        if (!bounds && !from) return [];
        from ??= bounds!.from;
        to ??= bounds && bounds.to > from ? bounds.to : from;
      }
      const unit = interval === '1h' ? 'hour' : 'day';
      const count = Math.ceil((to.getTime() - from.getTime()) / (unit === 'hour' ? 3_600_000 : 86_400_000)) + 1;
      if (count > MAX_METRIC_BUCKETS) {
        throw invalid(
          'invalid request body',
          `interval: from..to holds about ${count} buckets of ${interval}; the most is ${MAX_METRIC_BUCKETS}`,
        );
      }
      return db.metricBuckets(this.sql, { ...q, from, to }, unit);
    });
    return { buckets, totals };
  }
}
