// Queries of ingested device events: the ingestion writer's INSERTs of a
// batch, search with keyset paging, and metrics
// aggregated per time bucket in a time zone. Every query is scoped to one
// organization. Payload paths are bound as text[] parameters (`#>`), never
// written into the SQL; the payload is read as text and parsed here, since
// the connection's camelCase transform would rename its keys.
import type { Fragment, PendingQuery, Row, Sql } from 'postgres';
import { arrayLiteral, jsonElements } from './array-literal.js';
import type { Queryable } from './database.js';

type DatePath = 'serverReceivedAt' | 'clientSentAt';

export interface EventRow {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  serverReceivedAt: Date;
  clientSentAt: Date | null;
  payload: unknown;
}

/** `payload #> path = value`, path as its segments */
interface PayloadEquals {
  path: string[];
  value: string | number | boolean | null;
}

export interface EventScope {
  organizationId: string;
  channelId?: string | undefined;
  deviceId?: string | undefined;
  datePath: DatePath;
  /** inclusive */
  from?: Date | undefined;
  /** inclusive */
  to?: Date | undefined;
  filter: PayloadEquals[];
}

export interface EventSearch extends EventScope {
  limit: number;
  order: 'asc' | 'desc';
  /** the events after this one in the order (keyset paging) */
  sinceId?: string | undefined;
}

const dateColumn = (sql: Queryable, datePath: DatePath) =>
  datePath === 'clientSentAt' ? sql`e.client_sent_at` : sql`e.server_received_at`;

const and = (sql: Queryable, parts: Fragment[]): Fragment => parts.reduce((acc, part) => sql`${acc} AND ${part}`);

/** organization, channel, device */
function scopeWhere(sql: Queryable, s: EventScope): Fragment {
  const parts = [sql`e.organization_id = ${s.organizationId}`];
  if (s.channelId) parts.push(sql`e.channel_id = ${s.channelId}`);
  if (s.deviceId) parts.push(sql`e.device_id = ${s.deviceId}`);
  return and(sql, parts);
}

/** date range and payload filter */
function filterWhere(sql: Queryable, s: EventScope): Fragment {
  const date = dateColumn(sql, s.datePath);
  const parts = [sql`TRUE`];
  if (s.from) parts.push(sql`${date} >= ${s.from}`);
  if (s.to) parts.push(sql`${date} <= ${s.to}`);
  for (const f of s.filter) parts.push(sql`e.payload #> ${f.path}::text[] = ${JSON.stringify(f.value)}::text::jsonb`);
  return and(sql, parts);
}

export async function eventExists(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM events WHERE organization_id = ${organizationId} AND id = ${id}`).length > 0;
}

/** Events in the scope (total) and those also matching the range and filter (filteredTotal). */
export async function countEvents(sql: Queryable, s: EventScope): Promise<{ total: number; filteredTotal: number }> {
  const [row] = await sql<[{ total: number; filteredTotal: number }]>`
    SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${filterWhere(sql, s)}))::int AS filtered_total
    FROM events e WHERE ${scopeWhere(sql, s)}`;
  return row;
}

/** Ordered by serverReceivedAt, then id; after `sinceId` in that order when given. */
export async function searchEvents(sql: Queryable, s: EventSearch): Promise<EventRow[]> {
  const where = [scopeWhere(sql, s), filterWhere(sql, s)];
  const desc = s.order === 'desc';
  if (s.sinceId) {
    const cursor = sql`(SELECT c.server_received_at, c.id FROM events c WHERE c.organization_id = ${s.organizationId} AND c.id = ${s.sinceId})`;
    where.push(desc ? sql`(e.server_received_at, e.id) < ${cursor}` : sql`(e.server_received_at, e.id) > ${cursor}`);
  }
  const rows = await sql<Array<Omit<EventRow, 'payload'> & { payload: string }>>`
    SELECT e.id, e.organization_id, e.channel_id, e.device_id, e.server_received_at, e.client_sent_at, e.payload::text AS payload
    FROM events e WHERE ${and(sql, where)}
    ORDER BY ${desc ? sql`e.server_received_at DESC, e.id DESC` : sql`e.server_received_at ASC, e.id ASC`}
    LIMIT ${s.limit}`;
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
}

/**
 * The live tail's poll (platform/event-tail.ts): the organization's events
 * received after `since` that are not among `seenIds` (those the tail has
 * already read), oldest first. An index range of events_org_received in the
 * newest day partitions; the seen ids are a hashed anti-join.
 */
export async function eventsSince(
  sql: Queryable,
  q: { organizationId: string; since: Date; seenIds: readonly string[]; limit: number },
): Promise<EventRow[]> {
  const rows = await sql<Array<Omit<EventRow, 'payload'> & { payload: string }>>`
    SELECT e.id, e.organization_id, e.channel_id, e.device_id, e.server_received_at, e.client_sent_at, e.payload::text AS payload
    FROM events e LEFT JOIN unnest(${arrayLiteral(q.seenIds)}::text::text[]) AS seen(id) ON seen.id = e.id
    WHERE e.organization_id = ${q.organizationId} AND e.server_received_at > ${q.since} AND seen.id IS NULL
    ORDER BY e.server_received_at, e.id
    LIMIT ${q.limit}`;
  return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown }));
}

/** The ids and arrival times of the organization's events received after `since`: what a new tail has seen already. */
export async function eventIdsSince(
  sql: Queryable,
  organizationId: string,
  since: Date,
): Promise<Array<{ id: string; serverReceivedAt: Date }>> {
  return sql<Array<{ id: string; serverReceivedAt: Date }>>`
    SELECT id, server_received_at FROM events WHERE organization_id = ${organizationId} AND server_received_at > ${since}`;
}

type MetricOperation = 'avg' | 'min' | 'max' | 'sum' | 'count';

export interface MetricQuery extends EventScope {
  timezone: string;
  /** the numeric payload value aggregated; absent: events are counted */
  metricPath?: string[] | undefined;
  operation: MetricOperation;
}

export interface MetricBucket {
  value: number | null;
  count: number;
  ts: Date | null;
}

/** The extracted value: the number at the path, NULL when absent or not a number. */
function metricValue(sql: Queryable, path: string[] | undefined): Fragment {
  if (!path) return sql`NULL::float8`;
  return sql`CASE WHEN jsonb_typeof(e.payload #> ${path}::text[]) = 'number' THEN (e.payload #>> ${path}::text[])::float8 END`;
}

function aggregate(sql: Queryable, q: MetricQuery): { value: Fragment; count: Fragment } {
  const count = q.metricPath ? sql`count(x.v)::int` : sql`count(*)::int`;
  const value = {
    avg: sql`avg(x.v)`,
    min: sql`min(x.v)`,
    max: sql`max(x.v)`,
    sum: sql`sum(x.v)`,
    count,
  }[q.operation];
  return { value, count };
}

/** The events of the query with their date and value, as a subquery `x(d, v)`. */
function metricRows(sql: Queryable, q: MetricQuery): Fragment {
  const date = dateColumn(sql, q.datePath);
  return sql`(
    SELECT ${date} AS d, ${metricValue(sql, q.metricPath)} AS v FROM events e
    WHERE ${scopeWhere(sql, q)} AND ${filterWhere(sql, q)} AND ${date} IS NOT NULL
  ) x`;
}

/** The first and last date of the query's events; undefined without events. */
export async function metricBounds(sql: Queryable, q: MetricQuery): Promise<{ from: Date; to: Date } | undefined> {
  const [row] = await sql<
    [{ from: Date | null; to: Date | null }]
  >`SELECT min(x.d) AS from, max(x.d) AS to FROM ${metricRows(sql, q)}`;
  return row.from && row.to ? { from: row.from, to: row.to } : undefined;
}

/** One bucket over the whole query. */
export async function metricTotal(sql: Queryable, q: MetricQuery): Promise<{ value: number | null; count: number }> {
  const { value, count } = aggregate(sql, q);
  const [row] = await sql<
    [{ value: number | null; count: number }]
  >`SELECT ${value} AS value, ${count} AS count FROM ${metricRows(sql, q)}`;
  return { value: row.value === null ? null : Number(row.value), count: row.count };
}

/**
 * Buckets of `unit` ('hour' | 'day') of local time in q.timezone, from the
 * bucket holding `from` to the one holding `to`, empty ones included (value
 * null, count 0). A bucket's ts is the instant its local start falls on;
 * local times that do not exist (a DST gap) are skipped.
 */
export async function metricBuckets(
  sql: Queryable,
  q: MetricQuery & { from: Date; to: Date },
  unit: 'hour' | 'day',
): Promise<MetricBucket[]> {
  const { value, count } = aggregate(sql, q);
  const step = unit === 'hour' ? '1 hour' : '1 day';
  const rows = await sql<Array<{ ts: Date; value: number | null; count: number }>>`
    WITH series AS (
      SELECT g AS local_start
      FROM generate_series(date_trunc(${unit}, ${q.from}::timestamptz AT TIME ZONE ${q.timezone}),
                           ${q.to}::timestamptz AT TIME ZONE ${q.timezone}, ${step}::interval) g
      WHERE (g AT TIME ZONE ${q.timezone}) AT TIME ZONE ${q.timezone} = g
    ), buckets AS (
      SELECT date_trunc(${unit}, x.d AT TIME ZONE ${q.timezone}) AS local_start, ${value} AS value, ${count} AS count
      FROM ${metricRows(sql, q)} GROUP BY 1
    )
    SELECT s.local_start AT TIME ZONE ${q.timezone} AS ts, b.value, coalesce(b.count, 0)::int AS count
    FROM series s LEFT JOIN buckets b ON b.local_start = s.local_start
    ORDER BY s.local_start`;
  return rows.map((r) => ({
    ts: r.ts,
    value: q.operation === 'count' ? r.count : r.value === null ? null : Number(r.value),
    count: r.count,
  }));
}

// Small reads of other areas' tables, to answer for a channel or device outside the organization.

export async function channelOfOrganization(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM channels WHERE organization_id = ${organizationId} AND id = ${id}`).length > 0;
}

export async function deviceOfOrganization(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM devices WHERE organization_id = ${organizationId} AND id = ${id}`).length > 0;
}

/**
 * The idempotency key of an event nothing identifies as a retry (no
 * Idempotency-Key, no client time): this prefix and the event's own new id.
 * No other event can carry it, so no key row is kept for it in event_keys,
 * whose insert cost about a quarter of PostgreSQL's time per event.
 */
export const UNIQUE_KEY_PREFIX = 'u:';

/**
 * The event a device stored under an idempotency key (a camera's frame
 * id): its key row gives the time it was received, which the events'
 * (device_id, server_received_at) index finds. Undefined once the key has
 * aged out with its events.
 */
export async function storedKeyedEvent(
  sql: Queryable,
  deviceId: string,
  dedupKey: string,
): Promise<{ id: string; payload: Record<string, unknown> } | undefined> {
  const [row] = await sql<Array<{ id: string; payload: Record<string, unknown> }>>`
    SELECT e.id, e.payload FROM event_keys k
    JOIN events e ON e.device_id = k.device_id AND e.server_received_at = k.received_at AND e.dedup_key = k.dedup_key
    WHERE k.device_id = ${deviceId} AND k.dedup_key = ${dedupKey}
    LIMIT 1`;
  return row;
}

/** An event as the ingestion writer stores it. */
export interface NewEventRow {
  id: string;
  organizationId: string;
  channelId: string;
  deviceId: string;
  source: string;
  serverReceivedAt: Date;
  clientSentAt: Date | null;
  payload: Record<string, unknown>;
  dedupKey: string;
}

/** The batch as rows `(id, org, channel, device, source, received, sent, payload, dedup, n)`, n its position; not run here. */
function batchRows(c: Sql, events: readonly NewEventRow[]): PendingQuery<Row[]> {
  // One pass for every column. The events of a request share one arrival
  // time (one Date): it is formatted once, not once per event.
  const n = events.length;
  const ids: string[] = [];
  const orgs: string[] = [];
  const channels: string[] = [];
  const devices: string[] = [];
  const sources: string[] = [];
  const received: string[] = [];
  const sent: Array<string | null> = [];
  const keys: string[] = [];
  const payloads: unknown[] = [];
  let lastArrival: Date | undefined;
  let lastArrivalText = '';
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    ids.push(e.id);
    orgs.push(e.organizationId);
    channels.push(e.channelId);
    devices.push(e.deviceId);
    sources.push(e.source);
    if (e.serverReceivedAt !== lastArrival) {
      lastArrival = e.serverReceivedAt;
      lastArrivalText = lastArrival.toISOString();
    }
    received.push(lastArrivalText);
    sent.push(e.clientSentAt ? e.clientSentAt.toISOString() : null);
    keys.push(e.dedupKey);
    payloads.push(e.payload);
  }
  return c`
    SELECT id, org, channel, device, source, received, sent, j.value AS payload, dedup, n FROM unnest(
      ${arrayLiteral(ids)}::text::text[],
      ${arrayLiteral(orgs)}::text::text[],
      ${arrayLiteral(channels)}::text::text[],
      ${arrayLiteral(devices)}::text::text[],
      ${arrayLiteral(sources)}::text::text[],
      ${arrayLiteral(received)}::text::timestamptz[],
      ${arrayLiteral(sent)}::text::timestamptz[],
      ${arrayLiteral(keys)}::text::text[]
    ) WITH ORDINALITY AS u(id, org, channel, device, source, received, sent, dedup, n)
    JOIN ${jsonElements(c, payloads)} USING (n)`;
}

/** the events columns the batch rows fill, in rowColumns order */
const eventColumns = (c: Sql) =>
  c`(id, organization_id, channel_id, device_id, source, server_received_at, client_sent_at, payload, dedup_key)`;
const rowColumns = (c: Sql) => c`id, org, channel, device, source, received, sent, payload, dedup`;

/**
 * Stores the batch's new events, leaves out retries of stored ones and
 * repeats within the batch (the idempotency key, in event_keys: see
 * migration 014), and returns the ids that were new; not run here. A key
 * inserted by a transaction still in flight makes this one wait for it, as
 * a unique index does, so two servers given the same retry store it once.
 */
export const insertNewEvents = (c: Sql, events: readonly NewEventRow[]) => c<Array<{ id: string }>>`
  WITH batch AS (
    SELECT DISTINCT ON (device, dedup) * FROM (${batchRows(c, events)}) r ORDER BY device, dedup, n
  ), keyed AS (
    INSERT INTO event_keys (device_id, dedup_key, received_at) SELECT device, dedup, received FROM batch
    WHERE NOT starts_with(dedup, ${UNIQUE_KEY_PREFIX})
    ON CONFLICT (device_id, dedup_key) DO NOTHING RETURNING device_id, dedup_key
  )
  INSERT INTO events ${eventColumns(c)}
  SELECT ${rowColumns(c)} FROM batch
  WHERE starts_with(batch.dedup, ${UNIQUE_KEY_PREFIX}) OR EXISTS (SELECT 1 FROM keyed WHERE keyed.device_id = batch.device AND keyed.dedup_key = batch.dedup)
  RETURNING id`;

/**
 * The batch's INSERTs as two entries of a WITH list (`stored`, then its
 * keys), failing with 23505 if any event is a retry; not run here.
 * Cheaper than skipping retries: an arbiter index makes every row a
 * speculative insertion (a check of the unique index first, then a second
 * WAL record to confirm it): 50 µs less PostgreSQL CPU per 16-event
 * statement, 200 µs per 64 (alternating the two forms against the embedded
 * PostgreSQL, medians of 8 rounds of 400 statements).
 */
export const insertAllEvents = (c: Sql, events: readonly NewEventRow[]) => c`
  stored AS (
    INSERT INTO events ${eventColumns(c)} SELECT ${rowColumns(c)} FROM (${batchRows(c, events)}) r
    RETURNING device_id, dedup_key, server_received_at
  ), stored_keys AS (
    INSERT INTO event_keys (device_id, dedup_key, received_at) SELECT device_id, dedup_key, server_received_at FROM stored
    WHERE NOT starts_with(dedup_key, ${UNIQUE_KEY_PREFIX})
  )`;
