// Queries of landmarks (geofences). Every query is scoped to one
// organization. A landmark's shape is stored once, normalised (kind +
// geometry in the model spelling, see lib/geometry.ts), with its
// bounding box (min_lon > max_lon: the box crosses the antimeridian).
//
// attributes (user data) is read as text and parsed here: the connection's
// camelCase transform would otherwise rename its keys. The geometry's own
// keys (center, radius, nw, se, points, lat, lon) are unaffected by it.
import { bbox, fromStored, toModel, type Shape } from '../lib/geometry.js';
import type { Queryable } from './database.js';
import { likeSubstring } from './devices.js';

export interface LandmarkRow {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  address: string | null;
  tags: string[];
  attributes: Record<string, unknown>;
  shape: Shape;
  createdAt: Date;
  updatedAt: Date;
}

interface RawLandmarkRow extends Omit<LandmarkRow, 'attributes' | 'shape'> {
  attributes: string;
  kind: string;
  geometry: unknown;
}

const columns = (sql: Queryable) =>
  sql`id, organization_id, project_id, name, address, tags, attributes::text AS attributes, kind, geometry, created_at, updated_at`;

const toLandmark = ({ kind, geometry, attributes, ...row }: RawLandmarkRow): LandmarkRow => ({
  ...row,
  attributes: JSON.parse(attributes) as Record<string, unknown>,
  shape: fromStored(kind, geometry),
});

/** The stored columns of a shape: kind, geometry and bounding box. */
function shapeColumns(shape: Shape) {
  const box = bbox(shape);
  return {
    kind: shape.type,
    geometry: toModel(shape).geometry,
    minLat: box.minLat,
    minLon: box.minLon,
    maxLat: box.maxLat,
    maxLon: box.maxLon,
  };
}

/** Whether the project exists in the organization. */
export async function projectInOrganization(
  sql: Queryable,
  organizationId: string,
  projectId: string,
): Promise<boolean> {
  const rows = await sql`SELECT 1 FROM projects WHERE id = ${projectId} AND organization_id = ${organizationId}`;
  return rows.length > 0;
}

export interface NewLandmark {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  address?: string | null;
  tags?: string[];
  attributes?: Record<string, unknown>;
  shape: Shape;
}

export async function insertLandmark(sql: Queryable, landmark: NewLandmark): Promise<LandmarkRow> {
  const s = shapeColumns(landmark.shape);
  const [row] = await sql<RawLandmarkRow[]>`
    INSERT INTO landmarks (id, organization_id, project_id, name, address, tags, attributes, kind, geometry, min_lat, min_lon, max_lat, max_lon)
    VALUES (${landmark.id}, ${landmark.organizationId}, ${landmark.projectId}, ${landmark.name}, ${landmark.address ?? null},
            ${sql.array(landmark.tags ?? [], 25)}, ${sql.json((landmark.attributes ?? {}) as never)},
            ${s.kind}, ${sql.json(s.geometry as never)}, ${s.minLat}, ${s.minLon}, ${s.maxLat}, ${s.maxLon})
    RETURNING ${columns(sql)}`;
  return toLandmark(row!);
}

/** A landmark of the organization (and of the project, when given). */
export async function findLandmark(
  sql: Queryable,
  organizationId: string,
  id: string,
  projectId?: string,
): Promise<LandmarkRow | undefined> {
  const [row] = await sql<RawLandmarkRow[]>`
    SELECT ${columns(sql)} FROM landmarks
    WHERE id = ${id} AND organization_id = ${organizationId} ${projectId ? sql`AND project_id = ${projectId}` : sql``}`;
  return row && toLandmark(row);
}

export type LandmarkChanges = Partial<
  Pick<LandmarkRow, 'projectId' | 'name' | 'address' | 'tags' | 'attributes' | 'shape'>
>;

/** Applies the given changes (undefined fields are left alone); undefined if the landmark is not in the organization. */
export async function updateLandmark(
  sql: Queryable,
  organizationId: string,
  id: string,
  changes: LandmarkChanges,
): Promise<LandmarkRow | undefined> {
  const set: Record<string, unknown> = {};
  if (changes.projectId !== undefined) set.projectId = changes.projectId;
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.address !== undefined) set.address = changes.address;
  if (changes.tags !== undefined) set.tags = sql.array(changes.tags, 25);
  if (changes.attributes !== undefined) set.attributes = sql.json(changes.attributes as never);
  if (changes.shape !== undefined) {
    const s = shapeColumns(changes.shape);
    Object.assign(set, { ...s, geometry: sql.json(s.geometry as never) });
  }
  if (Object.keys(set).length === 0) return findLandmark(sql, organizationId, id);
  const [row] = await sql<RawLandmarkRow[]>`
    UPDATE landmarks SET ${sql(set)}, updated_at = now()
    WHERE id = ${id} AND organization_id = ${organizationId}
    RETURNING ${columns(sql)}`;
  return row && toLandmark(row);
}

export async function deleteLandmark(
  sql: Queryable,
  organizationId: string,
  id: string,
  projectId?: string,
): Promise<boolean> {
  const result = await sql`
    DELETE FROM landmarks
    WHERE id = ${id} AND organization_id = ${organizationId} ${projectId ? sql`AND project_id = ${projectId}` : sql``}`;
  return result.count > 0;
}

/**
 * Search filter (POST /v2/landmarks/search `filter`), every key optional, all given keys must match:
 *   name       substring of the name, case-insensitive
 *   tags       the landmark has at least one of these tags
 *   type       the shape type: circle, rectangle or polygon
 *   ids        one of these landmark ids
 *   contains   {lat, lon}: the landmark contains this point (bounding box here, exact test by the caller)
 */
export interface LandmarkFilter {
  name?: string;
  tags?: string[];
  type?: 'circle' | 'rectangle' | 'polygon';
  ids?: string[];
  contains?: { lat: number; lon: number };
}

export const LANDMARK_SORT_FIELDS = ['createdAt', 'updatedAt', 'name'] as const;
type LandmarkSortField = (typeof LANDMARK_SORT_FIELDS)[number];

export interface LandmarkSearch {
  /** scope: landmarks of this project */
  projectId?: string;
  /** Gen A search: substring of the name, case-insensitive (as filter.name; both must match when both are given) */
  name?: string;
  filter: LandmarkFilter;
  sort: { field: LandmarkSortField; order: 'asc' | 'desc' };
  /** a page; all matching rows when absent */
  page?: { limit: number; offset: number };
}

const SORT_COLUMNS: Record<LandmarkSortField, string> = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
};

/**
 * The organization's landmarks in the scope (organization, projectId) that
 * match the filter, sorted. `total` counts the landmarks in the scope,
 * `filteredTotal` those that match the filter.
 */
export async function searchLandmarks(
  sql: Queryable,
  organizationId: string,
  search: LandmarkSearch,
): Promise<{ rows: LandmarkRow[]; total: number; filteredTotal: number }> {
  const f = search.filter;
  const point = f.contains;
  const scope = sql`organization_id = ${organizationId} ${search.projectId ? sql`AND project_id = ${search.projectId}` : sql``}`;
  const filter = sql`TRUE
    ${search.name !== undefined ? sql`AND name ILIKE ${likeSubstring(search.name)}` : sql``}
    ${f.name !== undefined ? sql`AND name ILIKE ${likeSubstring(f.name)}` : sql``}
    ${f.tags?.length ? sql`AND tags && ${sql.array(f.tags, 25)}` : sql``}
    ${f.type !== undefined ? sql`AND kind = ${f.type}` : sql``}
    ${f.ids ? sql`AND id = ANY(${sql.array(f.ids, 25)})` : sql``}
    ${
      point
        ? sql`AND min_lat <= ${point.lat} AND max_lat >= ${point.lat}
              AND CASE WHEN min_lon <= max_lon THEN ${point.lon} BETWEEN min_lon AND max_lon
                       ELSE ${point.lon} >= min_lon OR ${point.lon} <= max_lon END`
        : sql``
    }`;
  const order = search.sort.order === 'asc' ? sql`ASC` : sql`DESC`;
  const [counts] = await sql<[{ total: number; filteredTotal: number }]>`
    SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${filter}))::int AS filtered_total
    FROM landmarks WHERE ${scope}`;
  const rows = await sql<RawLandmarkRow[]>`
    SELECT ${columns(sql)} FROM landmarks WHERE ${scope} AND ${filter}
    ORDER BY ${sql(SORT_COLUMNS[search.sort.field])} ${order}, id ${order}
    ${search.page ? sql`LIMIT ${search.page.limit} OFFSET ${search.page.offset}` : sql``}`;
  return { rows: rows.map(toLandmark), total: counts.total, filteredTotal: counts.filteredTotal };
}

/**
 * Gen A listing of a project's landmarks: keyset pages on id (ULIDs, so
 * creation order), `count` at a time, after `index` (exclusive).
 */
export async function listProjectLandmarks(
  sql: Queryable,
  organizationId: string,
  projectId: string,
  page: { index?: string; count: number; ascending: boolean },
): Promise<LandmarkRow[]> {
  const after = page.index ? (page.ascending ? sql`AND id > ${page.index}` : sql`AND id < ${page.index}`) : sql``;
  const rows = await sql<RawLandmarkRow[]>`
    SELECT ${columns(sql)} FROM landmarks
    WHERE organization_id = ${organizationId} AND project_id = ${projectId} ${after}
    ORDER BY id ${page.ascending ? sql`ASC` : sql`DESC`}
    LIMIT ${page.count}`;
  return rows.map(toLandmark);
}

/**
 * Every landmark of an organization (optionally of some projects) with just
 * what a spatial index needs; for building a LandmarkIndex.
 */
export async function listLandmarkShapes(
  sql: Queryable,
  organizationId: string,
  projectIds?: readonly string[],
): Promise<Array<{ id: string; projectId: string; tags: string[]; shape: Shape }>> {
  const rows = await sql<Array<{ id: string; projectId: string; tags: string[]; kind: string; geometry: unknown }>>`
    SELECT id, project_id, tags, kind, geometry FROM landmarks
    WHERE organization_id = ${organizationId} ${projectIds ? sql`AND project_id = ANY(${sql.array([...projectIds], 25)})` : sql``}`;
  return rows.map(({ kind, geometry, ...row }) => ({ ...row, shape: fromStored(kind, geometry) }));
}

/** Adds the tags to (or removes them from) the organization's landmarks. */
export async function changeLandmarkTags(
  sql: Queryable,
  organizationId: string,
  ids: string[],
  tags: string[],
  add: boolean,
): Promise<void> {
  await sql`
          UPDATE landmarks SET tags = ${add ? sql`ARRAY(SELECT DISTINCT unnest(tags || ${tags}::text[]))` : sql`ARRAY(SELECT unnest(tags) EXCEPT SELECT unnest(${tags}::text[]))`},
            updated_at = now()
          WHERE organization_id = ${organizationId} AND id = ANY(${ids})`;
}

/** Beacons named in the attributes (`ibeacon: {uuid, major, minor}`) of landmarks of the projects that include the channel, oldest landmark first. */
export async function listChannelBeacons<B = { uuid: string; major?: number; minor?: number }>(
  sql: Queryable,
  organizationId: string,
  channelId: string,
  limit: number,
): Promise<B[]> {
  const rows = await sql<{ beacon: B }[]>`
      SELECT l.attributes->'ibeacon' AS beacon
      FROM landmarks l JOIN project_channels pc ON pc.project_id = l.project_id
      WHERE pc.channel_id = ${channelId} AND l.organization_id = ${organizationId}
        AND jsonb_typeof(l.attributes->'ibeacon'->'uuid') = 'string'
      ORDER BY l.created_at LIMIT ${limit}`;
  return rows.map((r) => r.beacon);
}
