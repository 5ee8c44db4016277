// Landmarks (geofences; docs/CONTRACT.md#v2-landmarks) of an organization's projects. A
// shape is stored once (lib/geometry.ts) and presented in both spellings:
// Gen A/B `model` and Gen C `shape`. A project named in a body that is not the
// organization's makes the input invalid; one named by the path is not found.
import type { Sql } from 'postgres';
import { newId } from '../ids.js';
import * as db from '../db/landmarks.js';
import type { LandmarkRow, LandmarkSearch } from '../db/landmarks.js';
import { found, invalid, notFound } from '../errors.js';
import { contains, toGeoShape, toModel, type Shape } from '../lib/geometry.js';

export { LANDMARK_SORT_FIELDS, type LandmarkFilter } from '../db/landmarks.js';

/** The public view of a landmark: its shape in both spellings. */
export function presentLandmark(l: LandmarkRow) {
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    type: 'geometry' as const,
    projectId: l.projectId,
    organizationId: l.organizationId,
    tags: l.tags,
    attributes: l.attributes,
    model: toModel(l.shape),
    shape: toGeoShape(l.shape),
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

export interface LandmarkInput {
  name: string;
  address?: string | null | undefined;
  tags?: string[] | undefined;
  attributes?: Record<string, unknown> | undefined;
  shape: Shape;
}

/** A change: given fields are replaced (address null clears it); `id` and `organizationId`, if sent back, must be unchanged. */
export interface LandmarkUpdate extends Partial<Omit<LandmarkInput, 'address'>> {
  address?: string | null | undefined;
  projectId?: string | undefined;
  id?: string | undefined;
  organizationId?: string | undefined;
}

const distinct = (tags: readonly string[] | undefined) => tags && [...new Set(tags)];

/** Landmarks of an organization's projects. */
export class LandmarkService {
  constructor(private readonly sql: Sql) {}

  private async checkBodyProject(organizationId: string, projectId: string): Promise<void> {
    if (!(await db.projectInOrganization(this.sql, organizationId, projectId))) {
      throw invalid('invalid request body', 'projectId: no such project in this organization');
    }
  }

  private async checkPathProject(organizationId: string, projectId: string): Promise<void> {
    if (!(await db.projectInOrganization(this.sql, organizationId, projectId))) throw notFound('project not found');
  }

  private insert(organizationId: string, projectId: string, input: LandmarkInput): Promise<LandmarkRow> {
    return db.insertLandmark(this.sql, {
      id: newId(),
      organizationId,
      projectId,
      name: input.name,
      address: input.address ?? null,
      tags: distinct(input.tags) ?? [],
      attributes: input.attributes ?? {},
      shape: input.shape,
    });
  }

  /** Creates a landmark in the project its body names. */
  async create(organizationId: string, projectId: string, input: LandmarkInput): Promise<LandmarkRow> {
    await this.checkBodyProject(organizationId, projectId);
    return this.insert(organizationId, projectId, input);
  }

  /** Gen A: creates a landmark in the project of the path; a projectId in the body must be that one. */
  async createInProject(
    organizationId: string,
    projectId: string,
    input: LandmarkInput & { projectId?: string | undefined },
  ): Promise<LandmarkRow> {
    await this.checkPathProject(organizationId, projectId);
    if (input.projectId !== undefined && input.projectId !== projectId)
      throw invalid('invalid request body', 'projectId: differs from the project of the path');
    return this.insert(organizationId, projectId, input);
  }

  /** A landmark of the organization (of the project, when one is given). */
  async get(organizationId: string, id: string, projectId?: string): Promise<LandmarkRow> {
    return found(await db.findLandmark(this.sql, organizationId, id, projectId), 'landmark');
  }

  async change(organizationId: string, id: string, update: LandmarkUpdate): Promise<LandmarkRow> {
    if (update.id !== undefined && update.id !== id) throw invalid('invalid request body', 'id: cannot be changed');
    if (update.organizationId !== undefined && update.organizationId !== organizationId)
      throw invalid('invalid request body', 'organizationId: cannot be changed');
    if (update.projectId !== undefined) await this.checkBodyProject(organizationId, update.projectId);
    const changes = {
      projectId: update.projectId,
      name: update.name,
      address: update.address,
      tags: distinct(update.tags),
      attributes: update.attributes,
      shape: update.shape,
    };
    return found(await db.updateLandmark(this.sql, organizationId, id, changes), 'landmark');
  }

  async delete(organizationId: string, id: string, projectId?: string): Promise<void> {
    if (!(await db.deleteLandmark(this.sql, organizationId, id, projectId))) throw notFound('landmark not found');
  }

  /** A page of the organization's landmarks matching the search, with the totals of the scope and of the matches. */
  async search(organizationId: string, search: LandmarkSearch & { page: { limit: number; offset: number } }) {
    const { page, ...rest } = search;
    const point = rest.filter.contains;
    if (!point) return db.searchLandmarks(this.sql, organizationId, search);
    // A point: the database narrows by bounding box, the exact test is done here, then the page is cut.
    const result = await db.searchLandmarks(this.sql, organizationId, rest);
    const rows = result.rows.filter((l) => contains(l.shape, point.lat, point.lon));
    return { rows: rows.slice(page.offset, page.offset + page.limit), filteredTotal: rows.length, total: result.total };
  }

  /** Gen A: `count` landmarks of the project by id after `index`, and the id to start the next page after, if any. */
  async projectPage(
    organizationId: string,
    projectId: string,
    page: { index?: string | undefined; count: number; ascending: boolean },
  ): Promise<{ rows: LandmarkRow[]; nextIndex?: string }> {
    await this.checkPathProject(organizationId, projectId);
    const rows = await db.listProjectLandmarks(this.sql, organizationId, projectId, { ...page, count: page.count + 1 });
    const shown = rows.slice(0, page.count);
    return rows.length > page.count ? { rows: shown, nextIndex: shown[shown.length - 1]!.id } : { rows: shown };
  }
}
