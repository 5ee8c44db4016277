// /v2 rules endpoints (docs/CONTRACT.md#v2-rules): the Gen B flat routes, the Gen A
// routes nested under projects, and validate-conditions.
//
// Conditions come in any accepted form (conditionsObject, logicalCondition,
// or only the `conditions` string); the server derives the other forms.
// A projectId in a body that is not the caller's organization's is answered
// 401 "you dont have access to this project" (as the platform did: docs/CONTRACT.md#v2-errors); a
// project or rule in the path that is not the organization's is a 404.
import { z } from 'zod';
import { notFound } from '../../../errors.js';
import { actionsSchema } from '../../../platform/rules/actions.js';
import { LIMITS } from '../../../platform/rules/model.js';
import { presentRule, type SavedRule } from '../../../platform/rules/rule-service.js';
import type { PlatformServices } from '../../../platform/services.js';
import { defineEndpoint, respond, type Endpoint } from '../../api.js';
import { foreignScope, id, idParam } from './common.js';
import {
  conditionsCheckSchema,
  list,
  one,
  ruleSchema,
  ruleVocabularySchema,
  savedRuleSchema,
} from './response-schemas.js';

const properties = z
  .object({ timezone: z.string().max(64).nullish().describe('IANA time zone of schedule conditions; UTC by default') })
  .catchall(z.unknown())
  .refine((p) => {
    try {
      return JSON.stringify(p).length <= 16_384;
    } catch {
      return false; // nested too deeply to serialise
    }
  }, 'must be at most 16 KiB of JSON');

const conditionForms = {
  conditionsObject: z
    .unknown()
    .optional()
    .describe(
      'Gen B conditions: a node or an array of nodes ({type: "and"|"or"|"not", items} or a leaf: enterLandmark, exitLandmark, insideLandmark, outsideLandmark, matchAttribute, schedule, detections {label, zone?, minScore?, child?, operator, value}; nodes that remember: for {seconds?, events?, items: [one]}, becomes {to, items: [one]}; SDK: landmark, attribute); null or [] for none',
    ),
  conditions: z
    .string()
    .max(LIMITS.expressionLength)
    .optional()
    .describe('the expression string; used when no object form is given ("advanced" rules), derived otherwise'),
  logicalCondition: z
    .unknown()
    .optional()
    .describe('Gen A conditions: {"and"|"or"|"not": [...]} and predicates by type'),
};

const ruleFields = {
  name: z.string().trim().min(1).max(128),
  description: z.string().max(2000).optional(),
  type: z.enum(['cloud', 'edge']).optional(),
  enabled: z.boolean().optional(),
  generator: z.string().trim().min(1).max(64).optional(),
  ...conditionForms,
  actions: actionsSchema.optional(),
  properties: properties.optional(),
  throttleInSeconds: z.number().int().min(0).max(31_536_000).optional(),
  channelIds: z.array(id).max(100).optional(),
  gatewayIds: z.array(id).max(100).optional(),
  /** present in every response and always empty; accepted so that a rule read can be sent back */
  conditionsAndActions: z.array(z.unknown()).max(0, 'is always empty').optional(),
};

const createBody = z.object({ projectId: id, ...ruleFields }).strict();
const nestedCreateBody = z.object(ruleFields).strict();
const patchBody = z.object({ projectId: id.optional(), ...ruleFields, name: ruleFields.name.optional() }).strict();
const validateBody = z
  .object({ ...conditionForms, projectId: id.optional(), properties: properties.optional() })
  .strict();
const projectRuleParams = z.object({ project: id, rule: id });
const ruleResponse = { description: 'the rule (webhook secrets masked)', schema: one(ruleSchema) };
const savedRuleResponse = {
  description:
    'the rule as saved (webhook secrets masked), with `warnings`: what will not work as written (unknown zones and labels, blocked webhooks)',
  schema: one(savedRuleSchema),
};

/** A saved rule as create and PATCH answer it: the rule, and its warnings beside its fields. */
const presentSaved = ({ rule, warnings }: SavedRule) => ({ ...presentRule(rule), warnings });

export function rulesEndpoints({ rules }: PlatformServices): Endpoint[] {
  return [
    defineEndpoint({
      method: 'get',
      path: '/v2/rules',
      tag: 'rules',
      summary: 'list the rules of the organization (of one project with ?projectId=)',
      description: 'Lists the rules of the organization, or of one project with `?projectId=`.',
      auth: 'organization',
      action: 'rules:read',
      query: z.object({ projectId: id.optional() }).strict(),
      responses: { 200: { description: 'the rules', schema: list(ruleSchema) } },
      async handler({ caller, query }) {
        const rows = await rules.list(caller.organizationId, query.projectId);
        return respond.list(rows.map(presentRule), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/rules',
      tag: 'rules',
      summary: 'create a rule in a project; conditions in any accepted form, the others derived',
      description:
        'Creates a rule in a project: conditions on the events of its channels, and the actions to run when an event meets them. Conditions may be given in any accepted form; the other forms are derived.',
      auth: 'organization',
      action: 'rules:write',
      body: createBody,
      responses: { 200: savedRuleResponse, 401: { description: 'you dont have access to this project' } },
      async handler({ caller, body }) {
        return respond.data(presentSaved(await foreignScope(rules.create(caller.organizationId, body))));
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/v2/rules/validate-conditions',
      tag: 'rules',
      summary:
        'check conditions without saving: {valid, conditions, conditionsObject, warnings}, or 400 with the reason',
      description:
        'Checks rule conditions without saving anything: answers {valid, conditions, conditionsObject, warnings} with every form of them, or 400 with the reason they are refused. `warnings` names labels no model of the organization has and, with `projectId`, zones no camera of the project has, with the near matches.',
      auth: 'organization',
      action: 'rules:read',
      body: validateBody,
      responses: { 200: { description: 'the conditions are valid: their forms', schema: one(conditionsCheckSchema) } },
      async handler({ caller, body }) {
        return respond.data(await foreignScope(rules.validateConditions(caller.organizationId, body)));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/rules/:rule',
      tag: 'rules',
      summary: 'a rule',
      description: 'Answers one rule of the organization with its conditions (in every form) and its actions.',
      auth: 'organization',
      action: 'rules:read',
      params: idParam('rule'),
      responses: { 200: ruleResponse },
      async handler({ caller, params }) {
        return respond.data(presentRule(await rules.get(caller.organizationId, params.rule)));
      },
    }),
    defineEndpoint({
      method: 'patch',
      path: '/v2/rules/:rule',
      tag: 'rules',
      summary: 'change a rule; fields not given keep their value, conditions given in any form replace the old ones',
      description:
        'Changes a rule. Fields not given keep their value; conditions given in any form replace the old ones.',
      auth: 'organization',
      action: 'rules:write',
      params: idParam('rule'),
      body: patchBody,
      responses: { 200: savedRuleResponse },
      async handler({ caller, params, body }) {
        return respond.data(presentSaved(await foreignScope(rules.change(caller.organizationId, params.rule, body))));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/rules/:rule',
      tag: 'rules',
      summary: 'delete a rule',
      description: 'Deletes a rule of the organization.',
      auth: 'organization',
      action: 'rules:write',
      params: idParam('rule'),
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await rules.remove(caller.organizationId, params.rule);
        return respond.noContent();
      },
    }),
    // Gen A: rules nested under their project.
    defineEndpoint({
      method: 'post',
      path: '/v2/projects/:project/rules',
      tag: 'rules',
      summary: 'create a rule in the project (Gen A: 201)',
      description: 'Creates a rule in the project, as the original (Gen A) API did; answers 201 with the rule.',
      auth: 'organization',
      action: 'rules:write',
      params: idParam('project'),
      body: nestedCreateBody,
      responses: { 201: savedRuleResponse },
      async handler({ caller, params, body }) {
        const saved = await rules.create(caller.organizationId, { ...body, projectId: params.project });
        return respond.data(presentSaved(saved), 201);
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/rule-vocabulary',
      tag: 'rules',
      summary:
        "what the project's rules may name: its cameras' zones and lines and the labels of the models the organization can run",
      description:
        "Answers the names a detections or object condition of the project's rules may use: `zones` and `lines`, those of every camera (vision profile) of the devices of its channels, and `labels`, those of every model version the organization can run (the bundled demo models included); sorted, distinct.",
      auth: 'organization',
      action: 'rules:read',
      params: idParam('project'),
      responses: { 200: { description: 'the zones, lines and labels', schema: one(ruleVocabularySchema) } },
      async handler({ caller, params }) {
        return respond.data(await rules.vocabulary(caller.organizationId, params.project));
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/rules',
      tag: 'rules',
      summary: 'list the rules of a project (Gen A)',
      description: 'Lists the rules of a project (Gen A route).',
      auth: 'organization',
      action: 'rules:read',
      params: idParam('project'),
      responses: { 200: { description: 'the rules of the project', schema: list(ruleSchema) } },
      async handler({ caller, params }) {
        const rows = await rules.list(caller.organizationId, params.project);
        return respond.list(rows.map(presentRule), { count: rows.length });
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/v2/projects/:project/rules/:rule',
      tag: 'rules',
      summary: 'a rule of a project (Gen A)',
      description: 'Answers one rule of the project (Gen A route); 404 when it is in another project.',
      auth: 'organization',
      action: 'rules:read',
      params: projectRuleParams,
      responses: { 200: ruleResponse },
      async handler({ caller, params }) {
        const rule = await rules.get(caller.organizationId, params.rule);
        if (rule.projectId !== params.project) throw notFound('rule not found');
        return respond.data(presentRule(rule));
      },
    }),
    defineEndpoint({
      method: 'del',
      path: '/v2/projects/:project/rules/:rule',
      tag: 'rules',
      summary: 'delete a rule of a project (Gen A: 204)',
      description: 'Deletes a rule of the project (Gen A route); answers 204.',
      auth: 'organization',
      action: 'rules:write',
      params: projectRuleParams,
      responses: { 204: { description: 'deleted' } },
      async handler({ caller, params }) {
        await rules.remove(caller.organizationId, params.rule, params.project);
        return respond.noContent();
      },
    }),
  ];
}
