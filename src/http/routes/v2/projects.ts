// /v2 projects (docs/CONTRACT.md#v2-resources): Gen B flat routes, plus Gen A's channel
// attach / detach / list routes and its `channelIDs` spelling.
import { z } from 'zod';
import { presentChannel } from '../../../platform/channels.js';
import { presentProject } from '../../../platform/projects.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { id } from './common.js';
import { channelSchema, list, one, projectSchema } from './response-schemas.js';

const name = z.string().trim().min(1).max(128);
const channelIds = z.array(id).max(1000).optional();

const readOnly = {
  id: z.string().optional(),
  organizationId: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
};

/** `channelIds` (Gen B) and `channelIDs` (Gen A) may both be given: their union. */
const mergeChannelIds = (body: { channelIds?: string[] | undefined; channelIDs?: string[] | undefined }) =>
  body.channelIds || body.channelIDs ? [...(body.channelIds ?? []), ...(body.channelIDs ?? [])] : undefined;

const projectParams = z.object({ project: id });
const projectChannelParams = z.object({ project: id, channel: id });

const projectResponse = { description: 'the project', schema: one(projectSchema) };

export function projectsEndpoints({ projects }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/projects',
      tag: 'projects',
      summary: 'list the projects of the organization',
      description: 'Lists the projects of the organization with their channels.',
      auth: 'organization',
      action: 'projects:read',
      responses: { 200: { description: 'the projects', schema: list(projectSchema) } },
      async handler({ caller }) {
        const rows = await projects.list(caller.organizationId);
        return respond.list(rows.map(presentProject), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/projects',
      tag: 'projects',
      summary: 'create a project with its channels (`channelIds`, or Gen A `channelIDs`)',
      description:
        'Creates a project attached to the given channels (`channelIds`, or `channelIDs` as the original API spelled it).',
      auth: 'organization',
      action: 'projects:write',
      body: z.object({ name, channelIds, channelIDs: channelIds, enabled: z.boolean().optional() }).strict(),
      responses: {
        200: projectResponse,
        400: { description: 'invalid body, or "bad channelIds": not channels of the organization' },
      },
      async handler({ caller, body }) {
        const project = await projects.create(caller.organizationId, {
          name: body.name,
          enabled: body.enabled,
          channelIds: mergeChannelIds(body),
        });
        return respond.data(presentProject(project));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project',
      tag: 'projects',
      summary: 'get a project',
      description: 'Answers one project of the organization with its channels.',
      auth: 'organization',
      action: 'projects:read',
      params: projectParams,
      responses: { 200: projectResponse },
      async handler({ caller, params }) {
        return respond.data(presentProject(await projects.get(caller.organizationId, params.project)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/projects/:project',
      tag: 'projects',
      summary: 'update a project; `channelIds` replaces its channels',
      description: 'Updates a project; fields not given keep their value, and `channelIds` replaces its channels.',
      auth: 'organization',
      action: 'projects:write',
      params: projectParams,
      body: z
        .object({
          name: name.optional(),
          channelIds,
          channelIDs: channelIds,
          enabled: z.boolean().optional(),
          ...readOnly,
        })
        .strict(),
      aliases: [{ method: 'put', path: '/v2/projects/:project' }],
      responses: { 200: projectResponse, 400: { description: 'invalid body, or "bad channelIds"' } },
      async handler({ caller, params, body }) {
        const project = await projects.change(caller.organizationId, params.project, {
          name: body.name,
          enabled: body.enabled,
          channelIds: mergeChannelIds(body),
        });
        return respond.data(presentProject(project));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/projects/:project',
      tag: 'projects',
      summary: 'delete a project with its rules and landmarks; its channels are detached, not deleted',
      description:
        'Deletes a project together with its rules and landmarks. Its channels are detached from it, not deleted.',
      auth: 'organization',
      action: 'projects:write',
      params: projectParams,
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await projects.delete(caller.organizationId, params.project);
        return respond.noContent();
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/channels',
      tag: 'projects',
      summary: 'list the channels attached to a project (Gen A)',
      description: 'Lists the channels attached to a project, as the original (Gen A) API did.',
      auth: 'organization',
      action: 'projects:read',
      params: projectParams,
      responses: { 200: { description: 'the channels of the project', schema: list(channelSchema) } },
      async handler({ caller, params }) {
        const channels = await projects.channels(caller.organizationId, params.project);
        return respond.list(channels.map(presentChannel), { count: channels.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/projects/:project/channels/:channel',
      tag: 'projects',
      summary: 'attach a channel to a project (Gen A); answers 201 with the project',
      description:
        'Attaches a channel of the organization to a project (Gen A route), and answers 201 with the project.',
      auth: 'organization',
      action: 'projects:write',
      params: projectChannelParams,
      responses: { 201: projectResponse },
      async handler({ caller, params }) {
        const project = await projects.attachChannel(caller.organizationId, params.project, params.channel);
        return respond.data(presentProject(project), 201);
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/projects/:project/channels/:channel',
      tag: 'projects',
      summary: 'detach a channel from a project (Gen A)',
      description: 'Detaches a channel from a project (Gen A route); the channel itself is kept.',
      auth: 'organization',
      action: 'projects:write',
      params: projectChannelParams,
      responses: {
        204: { description: 'detached' },
        404: { description: 'no such project, or the channel is not attached to it' },
      },
      async handler({ caller, params }) {
        await projects.detachChannel(caller.organizationId, params.project, params.channel);
        return respond.noContent();
      },
    }),
  ];
}
