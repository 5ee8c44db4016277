// Rules as the engine loads them (LoadedRule), for tests of evaluation
// without a database: a cloud rule on one channel whose action is a push,
// its condition parsed from the Gen B conditions object; and a device as the
// engine sees it (EngineDevice).
import type { RuleAction } from '../../src/platform/rules/actions.js';
import type { EngineDevice } from '../../src/platform/rules/batch.js';
import { parseConditionsObject } from '../../src/platform/rules/inputs.js';
import type { LoadedRule } from '../../src/platform/rules/rule-service.js';

let ruleCount = 0;

/** A fresh rule of `organizationId` on `channelId` (ids rule-1, rule-2, …), `extra` over the defaults. */
export function loadedRule(
  organizationId: string,
  channelId: string,
  conditionsObject: unknown,
  extra: Partial<LoadedRule> = {},
): LoadedRule {
  const id = `rule-${++ruleCount}`;
  return {
    id,
    organizationId,
    projectId: 'project-1',
    name: id,
    type: 'cloud',
    condition: parseConditionsObject(conditionsObject).tree,
    timezone: 'UTC',
    actions: [{ id: `${id}-action`, type: 'push', subject: 's', message: 'm' } as RuleAction],
    throttleInSeconds: 0,
    channelIds: [channelId],
    projectChannelIds: [],
    gatewayIds: [],
    properties: {},
    updatedAt: new Date(0),
    ...extra,
  };
}

/** A device with nothing set (no name, tags, properties, attributes or state), `extra` over that. */
export function engineDevice(id: string, extra: Partial<EngineDevice> = {}): EngineDevice {
  return { id, name: null, model: null, type: null, tags: [], properties: {}, attributes: {}, state: {}, ...extra };
}
