// Rules (docs/CONTRACT.md#v2-rules): create, change, read and delete, every
// reference checked against the caller's organization; and the read the
// rules engine uses, RuleService.loadEnabled.
import type { Sql } from 'postgres';
import { newId } from '../../ids.js';
import type { Queryable } from '../../db/database.js';
import {
  deleteRule,
  existingIds,
  findRule,
  insertRule,
  listEnabledRules,
  listRules,
  lockOrganizationRules,
  projectExists,
  ruleTotals,
  updateRule,
  type RuleFields,
  type RuleRow,
} from '../../db/rules.js';
import { listCameraPlaceNames, listRunnableLabels } from '../../db/rule-vocabulary.js';
import { invalid, notFound, OutOfOrganizationError } from '../../errors.js';
import { actionReferences, prepareActions, presentActions, type ActionInput, type RuleAction } from './actions.js';
import type { Secrets } from '../secrets.js';
import { ConditionError } from './errors.js';
import { generateExpression, parseExpression } from './expression.js';
import {
  conditionsObjectOf,
  isValidTimezone,
  parseConditionsObject,
  parseLogicalCondition,
  type GenBNode,
  type ParsedConditions,
} from './inputs.js';
import { LIMITS, landmarkIds, measure, type Condition } from './model.js';
import { NOTHING_ALLOWED, type AllowList } from './ssrf-guard.js';
import { namedPlaces, vocabularyWarnings, webhookWarnings, type RuleWarning } from './warnings.js';

export type { RuleWarning } from './warnings.js';

/** A rule as saved, and what in it will not work as written (warnings.ts): it is saved all the same. */
export interface SavedRule {
  rule: RuleRow;
  warnings: RuleWarning[];
}

export interface RuleServiceOptions {
  /** internal webhook destinations let through (WEBHOOK_ALLOWED_HOSTS): a webhook to any other internal one is warned of at save */
  webhookAllowList?: AllowList;
}

const sortedUnique = (values: readonly string[]) => [...new Set(values)].sort();

export interface RuleInput {
  projectId?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  type?: 'cloud' | 'edge' | undefined;
  enabled?: boolean | undefined;
  generator?: string | undefined;
  /** Gen B (or SDK) form */
  conditionsObject?: unknown;
  /** the expression string ("advanced" rules); ignored when an object form is given too */
  conditions?: string | undefined;
  /** Gen A form */
  logicalCondition?: unknown;
  actions?: ActionInput[] | undefined;
  properties?: Record<string, unknown> | undefined;
  throttleInSeconds?: number | undefined;
  channelIds?: string[] | undefined;
  gatewayIds?: string[] | undefined;
}

/** The public view of a rule: the Gen B shape (docs/CONTRACT.md#v2-rules). */
export function presentRule(row: RuleRow) {
  return {
    id: row.id,
    projectId: row.projectId,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    type: row.type,
    enabled: row.enabled,
    generator: row.generator,
    // written by conditionFields: [root] or []
    conditionsObject: row.conditionsObject as GenBNode[],
    conditions: row.conditions,
    actions: presentActions(row.actions),
    properties: row.properties,
    throttleInSeconds: row.throttleInSeconds,
    channelIds: row.channelIds,
    gatewayIds: row.gatewayIds,
    conditionsAndActions: [],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function converting<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    throw error instanceof ConditionError ? error.toDomainError() : error;
  }
}

/**
 * The conditions a body gives, parsed; undefined when it gives none. An object
 * form (conditionsObject or logicalCondition) wins over a `conditions` string
 * sent with it: that string is derived, and regenerated.
 */
function parseConditionsInput(
  input: Pick<RuleInput, 'conditionsObject' | 'conditions' | 'logicalCondition'>,
): ParsedConditions | undefined {
  return converting(() => {
    if (input.conditionsObject !== undefined && input.logicalCondition !== undefined) {
      throw new ConditionError('logicalCondition', 'give conditionsObject or logicalCondition, not both');
    }
    if (input.conditionsObject !== undefined) return parseConditionsObject(input.conditionsObject);
    if (input.logicalCondition !== undefined) return parseLogicalCondition(input.logicalCondition);
    if (input.conditions !== undefined) return { tree: parseExpression(input.conditions) };
    return undefined;
  });
}

/** properties with the timezone the conditions name, refusing two different ones. */
function withTimezone(
  properties: Record<string, unknown>,
  parsed: ParsedConditions | undefined,
): Record<string, unknown> {
  const tz = properties.timezone;
  if (tz !== undefined && tz !== null && (typeof tz !== 'string' || !isValidTimezone(tz))) {
    throw invalid('invalid request body', `properties.timezone: unknown time zone ${JSON.stringify(tz)}`);
  }
  if (!parsed?.timezone) return properties;
  if (typeof tz === 'string' && tz !== parsed.timezone) {
    throw invalid(
      'invalid request body',
      `properties.timezone: "${tz}" differs from the time zone "${parsed.timezone}" named in the conditions`,
    );
  }
  return { ...properties, timezone: parsed.timezone };
}

async function checkIds(
  sql: Queryable,
  table: 'channels' | 'gateways' | 'devices' | 'landmarks',
  organizationId: string,
  ids: readonly string[],
  field: string,
  projectId?: string,
): Promise<void> {
  const found = await existingIds(sql, table, organizationId, ids, projectId);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length === 0) return;
  const scope = projectId ? `project ${projectId}` : 'this organization';
  const noun = table.slice(0, -1);
  throw invalid(`bad ${field}`, `${field}: no ${noun} ${missing.join(', ')} in ${scope}`);
}

/** Checks every reference of a rule against the organization (and its project, for condition landmarks). */
async function checkReferences(
  sql: Queryable,
  organizationId: string,
  projectId: string,
  fields: Pick<RuleFields, 'actions' | 'channelIds' | 'gatewayIds'> & { conditionTree: Condition | null },
) {
  await checkIds(sql, 'landmarks', organizationId, landmarkIds(fields.conditionTree), 'landmark ids', projectId);
  await checkIds(sql, 'channels', organizationId, fields.channelIds, 'channelIds');
  await checkIds(sql, 'gateways', organizationId, fields.gatewayIds, 'gatewayIds');
  const refs = actionReferences(fields.actions as RuleAction[]);
  await checkIds(sql, 'devices', organizationId, refs.deviceIds, 'action deviceIds');
  await checkIds(sql, 'landmarks', organizationId, refs.landmarkIds, 'action landmarkIds');
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/**
 * Refuses a rule that would take the organization past its caps
 * (LIMITS.rulesPerOrganization, LIMITS.nodesPerOrganization): `tree` is the
 * new or changed rule's, `changing` the id of the rule it replaces. Run
 * under lockOrganizationRules, so that concurrent saves count each other.
 */
async function checkOrganizationCaps(
  tx: Queryable,
  organizationId: string,
  tree: Condition | null,
  changing?: string,
): Promise<void> {
  const others = await ruleTotals(tx, organizationId, changing);
  if (!changing && others.rules >= LIMITS.rulesPerOrganization) {
    throw invalid(
      'too many rules',
      `this organization has ${others.rules} rules, the most it may have (${LIMITS.rulesPerOrganization}); delete one first`,
    );
  }
  const nodes = tree ? measure(tree).nodes : 0;
  if (others.nodes + nodes > LIMITS.nodesPerOrganization) {
    throw invalid(
      'too many conditions',
      `conditions: this rule's ${nodes} conditions would bring this organization's rules to ${others.nodes + nodes}, over the most they may hold in all (${LIMITS.nodesPerOrganization})`,
    );
  }
}

function conditionFields(
  tree: Condition | null,
): Pick<RuleFields, 'conditionTree' | 'conditionsObject' | 'conditions'> {
  return { conditionTree: tree, conditionsObject: conditionsObjectOf(tree), conditions: generateExpression(tree) };
}

export interface ValidateInput {
  conditions?: string | undefined;
  conditionsObject?: unknown;
  logicalCondition?: unknown;
  projectId?: string | undefined;
  properties?: Record<string, unknown> | undefined;
}

/** The tree of a stored rule; rows written without one (by hand, or before the column) are parsed once here. */
function currentTree(row: RuleRow): Condition | null {
  // written by conditionFields, from a parsed tree
  if (row.conditionTree) return row.conditionTree as Condition;
  if (row.conditionsObject.length > 0) return parseConditionsObject(row.conditionsObject).tree;
  return row.conditions.trim() ? parseExpression(row.conditions) : null;
}

/** An enabled rule, ready to evaluate: the parsed condition tree, actions with their secrets. */
export interface LoadedRule {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  /** 'cloud' rules run on ingested events; 'edge' rules run on devices and gateways */
  type: string;
  /** null: the rule has no conditions, and never fires */
  condition: Condition | null;
  /** IANA zone schedules are read in (properties.timezone, UTC by default) */
  timezone: string;
  actions: RuleAction[];
  throttleInSeconds: number;
  /** the rule sees events of these channels, and of its project's channels */
  channelIds: string[];
  projectChannelIds: string[];
  gatewayIds: string[];
  properties: Record<string, unknown>;
  updatedAt: Date;
}

/** Rules of an organization's projects, and the enabled rules as the rules engine reads them. */
export class RuleService {
  constructor(
    private readonly sql: Sql,
    /** what webhook secrets are sealed with as rules are saved */
    private readonly secrets: Secrets,
    private readonly options: RuleServiceOptions = {},
  ) {}

  /**
   * What conditions of the project's rules may name: the zones and lines
   * of its cameras (vision profiles of the devices of its channels) and the
   * labels of every model version the organization can run; sorted, distinct.
   */
  async vocabulary(
    organizationId: string,
    projectId: string,
  ): Promise<{ zones: string[]; lines: string[]; labels: string[] }> {
    if (!(await projectExists(this.sql, organizationId, projectId))) throw notFound('project not found');
    const [zones, lines, labels] = await Promise.all([
      listCameraPlaceNames(this.sql, 'zones', organizationId, projectId),
      listCameraPlaceNames(this.sql, 'lines', organizationId, projectId),
      listRunnableLabels(this.sql, organizationId),
    ]);
    return { zones: sortedUnique(zones), lines: sortedUnique(lines), labels: sortedUnique(labels) };
  }

  /**
   * Warnings of a saved or checked rule: detections naming a zone no camera
   * of the project has (zones are only known with a project) or a label (or
   * child label) no runnable model has, webhooks the SSRF guard will refuse.
   */
  private async warnings(
    organizationId: string,
    tree: Condition | null,
    actions: readonly RuleAction[],
    project?: { id: string; channelIds: readonly string[] },
  ): Promise<RuleWarning[]> {
    const names = namedPlaces(tree);
    const places = (kind: 'zones' | 'lines') =>
      project && names[kind]
        ? listCameraPlaceNames(this.sql, kind, organizationId, project.id, project.channelIds)
        : undefined;
    const [labels, zones, lines, webhooks] = await Promise.all([
      names.labels ? listRunnableLabels(this.sql, organizationId) : [],
      places('zones'),
      places('lines'),
      webhookWarnings(actions, this.options.webhookAllowList ?? NOTHING_ALLOWED),
    ]);
    return [...(names.labels ? vocabularyWarnings(tree, { labels, zones, lines }) : []), ...webhooks];
  }

  async create(organizationId: string, input: RuleInput & { projectId: string; name: string }): Promise<SavedRule> {
    const parsed = parseConditionsInput(input);
    const tree = parsed?.tree ?? null;
    const properties = withTimezone(input.properties ?? {}, parsed);
    const fields: RuleFields = {
      projectId: input.projectId,
      name: input.name,
      description: input.description ?? '',
      type: input.type ?? 'cloud',
      enabled: input.enabled ?? true,
      generator: input.generator ?? 'custom',
      ...conditionFields(tree),
      actions: prepareActions(this.secrets, input.actions ?? []),
      properties,
      throttleInSeconds: input.throttleInSeconds ?? 0,
      channelIds: unique(input.channelIds ?? []),
      gatewayIds: unique(input.gatewayIds ?? []),
    };
    const rule = await this.sql.begin(async (tx) => {
      if (!(await projectExists(tx, organizationId, input.projectId)))
        throw new OutOfOrganizationError('project', input.projectId);
      await lockOrganizationRules(tx, organizationId);
      await checkOrganizationCaps(tx, organizationId, tree);
      await checkReferences(tx, organizationId, input.projectId, { ...fields, conditionTree: tree });
      return insertRule(tx, { id: newId(), organizationId, ...fields });
    });
    const warnings = await this.warnings(organizationId, tree, fields.actions as RuleAction[], {
      id: rule.projectId,
      channelIds: rule.channelIds,
    });
    return { rule, warnings };
  }

  /** A partial update: fields not given keep their value; conditions given in any form replace the tree. */
  async change(organizationId: string, id: string, input: RuleInput): Promise<SavedRule> {
    const parsed = parseConditionsInput(input);
    let tree: Condition | null = null;
    const rule = await this.sql.begin(async (tx) => {
      const current = await findRule(tx, organizationId, id, { forUpdate: true });
      if (!current) throw notFound('rule not found');
      const projectId = input.projectId ?? current.projectId;
      if (projectId !== current.projectId && !(await projectExists(tx, organizationId, projectId)))
        throw new OutOfOrganizationError('project', projectId);
      tree = parsed ? parsed.tree : converting(() => currentTree(current));
      if (parsed) {
        await lockOrganizationRules(tx, organizationId);
        await checkOrganizationCaps(tx, organizationId, tree, id);
      }
      const changes: Partial<RuleFields> = {
        projectId,
        name: input.name,
        description: input.description,
        type: input.type,
        enabled: input.enabled,
        generator: input.generator,
        ...(parsed ? conditionFields(tree) : {}),
        actions: input.actions ? prepareActions(this.secrets, input.actions, current.actions) : undefined,
        properties:
          input.properties !== undefined || parsed?.timezone
            ? withTimezone(input.properties ?? current.properties, parsed)
            : undefined,
        throttleInSeconds: input.throttleInSeconds,
        channelIds: input.channelIds && unique(input.channelIds),
        gatewayIds: input.gatewayIds && unique(input.gatewayIds),
      };
      await checkReferences(tx, organizationId, projectId, {
        conditionTree: tree,
        actions: changes.actions ?? current.actions,
        channelIds: changes.channelIds ?? current.channelIds,
        gatewayIds: changes.gatewayIds ?? current.gatewayIds,
      });
      return (await updateRule(tx, organizationId, id, changes))!;
    });
    const warnings = await this.warnings(organizationId, tree, rule.actions as RuleAction[], {
      id: rule.projectId,
      channelIds: rule.channelIds,
    });
    return { rule, warnings };
  }

  async get(organizationId: string, id: string): Promise<RuleRow> {
    const rule = await findRule(this.sql, organizationId, id);
    if (!rule) throw notFound('rule not found');
    return rule;
  }

  /** Rules of the organization; of one project when given (404 when that project is not the organization's). */
  async list(organizationId: string, projectId?: string): Promise<RuleRow[]> {
    if (projectId && !(await projectExists(this.sql, organizationId, projectId))) throw notFound('project not found');
    return listRules(this.sql, organizationId, projectId);
  }

  async remove(organizationId: string, id: string, projectId?: string): Promise<void> {
    if (projectId) {
      const rule = await findRule(this.sql, organizationId, id);
      if (!rule || rule.projectId !== projectId) throw notFound('rule not found');
    }
    if (!(await deleteRule(this.sql, organizationId, id))) throw notFound('rule not found');
  }

  /**
   * Checks conditions without saving them: the tree in both derived forms.
   * With projectId, landmark ids are checked against that project too. When an
   * object form and a string are both given, both must be valid and `matches`
   * says whether they mean the same tree. `warnings` names what would never
   * match: labels (and detections' child labels) no runnable model has, and
   * (with projectId) zones no camera of the project has.
   */
  async validateConditions(organizationId: string, input: ValidateInput) {
    const parsed = parseConditionsInput(input);
    if (!parsed) throw invalid('invalid request body', '(root): give conditions, conditionsObject or logicalCondition');
    const properties = withTimezone(input.properties ?? {}, parsed);
    const objectGiven = input.conditionsObject !== undefined || input.logicalCondition !== undefined;
    const fromString =
      objectGiven && input.conditions !== undefined ? converting(() => parseExpression(input.conditions!)) : undefined;
    if (input.projectId) {
      if (!(await projectExists(this.sql, organizationId, input.projectId)))
        throw new OutOfOrganizationError('project', input.projectId);
      await checkIds(this.sql, 'landmarks', organizationId, landmarkIds(parsed.tree), 'landmark ids', input.projectId);
    }
    const warnings = await this.warnings(
      organizationId,
      parsed.tree,
      [],
      input.projectId ? { id: input.projectId, channelIds: [] } : undefined,
    );
    return {
      valid: true as const,
      conditions: generateExpression(parsed.tree),
      conditionsObject: conditionsObjectOf(parsed.tree),
      ...(typeof properties.timezone === 'string' ? { timezone: properties.timezone } : {}),
      ...(fromString !== undefined ? { matches: JSON.stringify(fromString) === JSON.stringify(parsed.tree) } : {}),
      warnings,
    };
  }

  /**
   * Every enabled rule of an organization with its condition tree, for the
   * rules engine: no string is parsed per event. A stored rule whose
   * conditions cannot be read (written by hand) is left out rather than failing
   * the organization's other rules; `onInvalid` hears about it.
   */
  async loadEnabled(
    organizationId: string,
    onInvalid: (ruleId: string, error: Error) => void = () => {},
  ): Promise<LoadedRule[]> {
    const rows = await listEnabledRules(this.sql, organizationId);
    const out: LoadedRule[] = [];
    for (const row of rows) {
      let condition: Condition | null;
      try {
        condition = currentTree(row);
      } catch (error) {
        onInvalid(row.id, error as Error);
        continue;
      }
      const tz = row.properties.timezone;
      out.push({
        id: row.id,
        organizationId: row.organizationId,
        projectId: row.projectId,
        name: row.name,
        type: row.type,
        condition,
        timezone: typeof tz === 'string' && isValidTimezone(tz) ? tz : 'UTC',
        actions: row.actions as RuleAction[],
        throttleInSeconds: row.throttleInSeconds,
        channelIds: row.channelIds,
        projectChannelIds: row.projectChannelIds,
        gatewayIds: row.gatewayIds,
        properties: row.properties,
        updatedAt: row.updatedAt,
      });
    }
    return out;
  }
}
