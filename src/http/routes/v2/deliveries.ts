// /v2/rules/:rule/deliveries: what a rule's actions did (platform/rules/deliveries.ts):
// each fired action (a job) with its status and, for webhooks, every
// delivery attempt; never a response body.
import { z } from 'zod';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { idParam } from './common.js';
import { deliverySchema, list } from './response-schemas.js';

export function deliveriesEndpoints({ ruleDeliveries }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/rules/:rule/deliveries',
      tag: 'rules',
      summary: 'the delivery log of a rule: fired actions, their status, and every webhook attempt (newest first)',
      description:
        'The delivery log of a rule, newest first: each action it fired, its status, and every attempt of a webhook with its answer.',
      auth: 'organization',
      action: 'rules:read',
      params: idParam('rule'),
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }).strict(),
      responses: {
        200: {
          description: 'the fired actions, newest first, each with its webhook attempts',
          schema: list(deliverySchema),
        },
      },
      async handler({ caller, params, query }) {
        const data = await ruleDeliveries.list(caller.organizationId, params.rule, query.limit);
        return respond.list(data, { count: data.length });
      },
    }),
  ];
}
