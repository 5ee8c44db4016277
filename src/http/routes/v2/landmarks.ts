// /v2 landmarks (geofences; docs/CONTRACT.md#v2-landmarks). Gen B flat routes, plus the
// Gen A routes nested under projects. A landmark's shape may be sent in the
// Gen A/B "model" spelling or the Gen C "shape" spelling (Elasticsearch
// geo_shape, [lon, lat]); it is stored once (lib/geometry.ts) and
// returned in both.
import { z } from 'zod';
import { modelInput, sameShape, shapeInput, SHAPE_TYPES, type Shape } from '../../../lib/geometry.js';
import { LANDMARK_SORT_FIELDS, presentLandmark, type LandmarkFilter } from '../../../platform/landmarks.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id, searchBody, tags } from './common.js';
import { landmarkSchema, list, one as oneOf, totalsMeta } from './response-schemas.js';

const one = oneOf(landmarkSchema);

const name = z.string().trim().min(1).max(128);
const address = z.string().trim().max(512);
const attributes = z.record(z.string(), z.unknown());

/** Fields common to create and update; model and shape spell the same thing (give one; both must then agree). */
const landmarkFields = {
  name,
  address: address.nullable().optional(),
  type: z.literal('geometry').optional().describe('always "geometry"'),
  tags: tags.optional(),
  attributes: attributes.optional(),
  model: modelInput.optional().describe('Gen A/B: {type: circle|rectangle|polygon, geometry}'),
  shape: shapeInput.optional().describe('Gen C: Elasticsearch geo_shape circle|envelope|polygon, [lon, lat] order'),
};

function oneShape(b: { model?: Shape; shape?: Shape }, ctx: z.RefinementCtx, required: boolean): void {
  if (required && !b.model && !b.shape) {
    ctx.addIssue({
      code: 'custom',
      path: ['model'],
      message: 'a landmark needs a shape: give model (Gen A/B) or shape (Gen C)',
    });
  }
  if (b.model && b.shape && !sameShape(b.model, b.shape)) {
    ctx.addIssue({
      code: 'custom',
      path: ['shape'],
      message: 'model and shape describe different shapes; give only one',
    });
  }
}

const createBody = z
  .object({ projectId: id, ...landmarkFields })
  .strict()
  .superRefine((b, ctx) => oneShape(b, ctx, true));

const nestedCreateBody = z
  .object({ projectId: id.optional().describe('the project of the path, if given'), ...landmarkFields })
  .strict()
  .superRefine((b, ctx) => oneShape(b, ctx, true));

const updateBody = z
  .object({
    projectId: id.optional().describe('move the landmark to another project of the organization'),
    ...landmarkFields,
    name: name.optional(),
    // read-only fields a client may send back unchanged
    id: id.optional().describe('read-only: must be the id of the path'),
    organizationId: id.optional().describe('read-only: must be the organization of the token'),
    createdAt: z.string().optional().describe('read-only: ignored'),
    updatedAt: z.string().optional().describe('read-only: ignored'),
  })
  .strict()
  .superRefine((b, ctx) => oneShape(b, ctx, false));

const landmarkFilter = z
  .object({
    name: z.string().max(128).optional().describe('substring of the name, case-insensitive'),
    tags: tags.optional().describe('the landmark has at least one of these tags'),
    type: z.enum(SHAPE_TYPES).optional().describe('the shape type'),
    ids: z.array(id).max(1000).optional().describe('one of these landmark ids'),
    contains: z
      .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })
      .strict()
      .optional()
      .describe('the landmark contains this point'),
  })
  .strict()
  .describe('every key optional; all given keys must match');

const projectParam = z.object({ project: id });
const landmarkParam = z.object({ landmark: id });
const projectLandmarkParams = z.object({ project: id, landmark: id });

export function landmarksEndpoints({ landmarks }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'post',
      path: '/v2/landmarks',
      tag: 'landmarks',
      summary: 'create a landmark in a project of the organization; the shape as model (Gen A/B) or shape (Gen C)',
      description:
        'Creates a landmark in a project of the organization. Its shape is given as `model` (Gen A/B: circle, rectangle or polygon) or as `shape` (Gen C: a geo_shape, [lon, lat] order).',
      auth: 'organization',
      action: 'landmarks:write',
      body: createBody,
      responses: { 200: { description: 'the landmark, its shape in both spellings', schema: one } },
      async handler({ body, caller }) {
        const { projectId, model, shape, ...input } = body;
        return respond.data(
          presentLandmark(
            await landmarks.create(caller.organizationId, projectId, { ...input, shape: (model ?? shape)! }),
          ),
        );
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/landmarks/:landmark',
      tag: 'landmarks',
      summary: 'a landmark',
      description: 'Answers one landmark of the organization with its shape, as `model` and as `shape`.',
      auth: 'organization',
      action: 'landmarks:read',
      params: landmarkParam,
      responses: { 200: { description: 'the landmark', schema: one }, 404: { description: 'landmark not found' } },
      async handler({ params, caller }) {
        return respond.data(presentLandmark(await landmarks.get(caller.organizationId, params.landmark)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/landmarks/:landmark',
      tag: 'landmarks',
      summary:
        'update a landmark: given fields are replaced (address: null clears it), a new shape as model or shape; a landmark as GET returns it may be sent back (read-only fields must be unchanged)',
      description:
        'Updates a landmark: the fields given are replaced (`address: null` clears it), a new shape as `model` or `shape`. A landmark as GET answers it may be sent back, its read-only fields unchanged.',
      auth: 'organization',
      action: 'landmarks:write',
      params: landmarkParam,
      body: updateBody,
      responses: { 200: { description: 'the landmark', schema: one }, 404: { description: 'landmark not found' } },
      async handler({ params, body, caller }) {
        const { model, shape, ...update } = body;
        const landmark = await landmarks.change(caller.organizationId, params.landmark, {
          ...update,
          shape: model ?? shape,
        });
        return respond.data(presentLandmark(landmark));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/landmarks/:landmark',
      tag: 'landmarks',
      summary: 'delete a landmark',
      description: 'Deletes a landmark of the organization.',
      auth: 'organization',
      action: 'landmarks:write',
      params: landmarkParam,
      responses: { 204: { description: 'deleted' }, 404: { description: 'landmark not found' } },
      async handler({ params, caller }) {
        await landmarks.delete(caller.organizationId, params.landmark);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/landmarks/search',
      tag: 'landmarks',
      summary:
        'search the landmarks of the organization; projectId narrows the scope (meta.total), name and filter narrow further (meta.filteredTotal)',
      description:
        'Searches the landmarks of the organization, paged. `projectId` narrows the scope (meta.total); name and filter narrow it further (meta.filteredTotal).',
      auth: 'organization',
      action: 'landmarks:read',
      body: searchBody(LANDMARK_SORT_FIELDS, {
        projectId: id.optional().describe('landmarks of this project'),
        name: z.string().max(128).optional().describe('substring of the name, case-insensitive (Gen A)'),
        filter: landmarkFilter.default({}),
      }),
      responses: {
        200: {
          description: 'a page of landmarks',
          schema: list(landmarkSchema, totalsMeta),
        },
      },
      async handler({ body, caller }) {
        const b = body as typeof body & { projectId?: string; name?: string; filter: z.infer<typeof landmarkFilter> };
        const page = { limit: b.limit, offset: b.offset };
        const result = await landmarks.search(caller.organizationId, {
          projectId: b.projectId,
          name: b.name,
          filter: b.filter as LandmarkFilter,
          sort: b.sort,
          page,
        });
        return respond.list(result.rows.map(presentLandmark), {
          filteredTotal: result.filteredTotal,
          total: result.total,
        });
      },
    }),

    // Gen A: landmarks nested under their project (201 on create, 204 on delete).
    defineEndpoint({
      method: 'post',
      path: '/v2/projects/:project/landmarks',
      tag: 'landmarks',
      summary: 'Gen A: create a landmark in the project',
      description: 'Creates a landmark in the project, as the original (Gen A) API did; answers 201 with the landmark.',
      auth: 'organization',
      action: 'landmarks:write',
      params: projectParam,
      body: nestedCreateBody,
      responses: { 201: { description: 'the landmark', schema: one }, 404: { description: 'project not found' } },
      async handler({ params, body, caller }) {
        const { model, shape, ...input } = body;
        const landmark = await landmarks.createInProject(caller.organizationId, params.project, {
          ...input,
          shape: (model ?? shape)!,
        });
        return respond.data(presentLandmark(landmark), 201);
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/landmarks',
      tag: 'landmarks',
      summary:
        'Gen A: the landmarks of the project, `count` at a time by id; meta.nextIndex / nextHRef give the next page',
      description:
        'Lists the landmarks of a project as the original (Gen A) API did: `count` at a time, ordered by id, with meta.nextIndex and nextHRef for the next page.',
      auth: 'organization',
      action: 'landmarks:read',
      params: projectParam,
      query: z
        .object({
          index: id.optional().describe('start after this landmark id (meta.nextIndex of the previous page)'),
          count: z.coerce.number().int().min(1).max(1000).default(50),
          sortBy: z.literal('id').default('id'),
          sortAsc: z.enum(['true', 'false']).default('false'),
        })
        .strict(),
      responses: {
        200: {
          description: 'a page of landmarks',
          schema: list(
            landmarkSchema,
            z.strictObject({
              count: z.number().int(),
              nextIndex: z.string().optional().describe('when there are more: the id to start after'),
              nextHRef: z.string().optional().describe('when there are more: the query of the next page'),
            }),
          ),
        },
        404: { description: 'project not found' },
      },
      async handler({ params, query, caller }) {
        const ascending = query.sortAsc === 'true';
        const page = await landmarks.projectPage(caller.organizationId, params.project, {
          index: query.index,
          count: query.count,
          ascending,
        });
        const meta: Record<string, unknown> = { count: page.rows.length };
        if (page.nextIndex) {
          meta.nextIndex = page.nextIndex;
          meta.nextHRef = `index=${page.nextIndex}&count=${query.count}&sortBy=id&sortAsc=${ascending}`;
        }
        return respond.list(page.rows.map(presentLandmark), meta);
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/landmarks/:landmark',
      tag: 'landmarks',
      summary: 'Gen A: a landmark of the project',
      description: 'Answers one landmark of the project (Gen A route); 404 when it is in another project.',
      auth: 'organization',
      action: 'landmarks:read',
      params: projectLandmarkParams,
      responses: {
        200: { description: 'the landmark', schema: one },
        404: { description: 'project or landmark not found' },
      },
      async handler({ params, caller }) {
        return respond.data(
          presentLandmark(await landmarks.get(caller.organizationId, params.landmark, params.project)),
        );
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/projects/:project/landmarks/:landmark',
      tag: 'landmarks',
      summary: 'Gen A: delete a landmark of the project',
      description: 'Deletes a landmark of the project (Gen A route).',
      auth: 'organization',
      action: 'landmarks:write',
      params: projectLandmarkParams,
      responses: { 204: { description: 'deleted' }, 404: { description: 'project or landmark not found' } },
      async handler({ params, caller }) {
        await landmarks.delete(caller.organizationId, params.landmark, params.project);
        return respond.noContent();
      },
    }),
  ];
}
