// An organization's enabled cloud rules compiled for evaluation: by channel,
// each channel's rules indexed by the landmarks one of which the device must
// be (or have been) inside for them to hold, and a spatial index of the
// landmarks any rule watches. Built from RuleService.loadEnabled (rule-service.ts) and
// the landmarks' shapes; the engine (rules-engine.ts) keeps one per organization.
import type { Shape } from '../../lib/geometry.js';
import { LandmarkIndex } from '../../lib/landmark-index.js';
import { sha256 } from '../../lib/sha256.js';
import { generateExpression } from './expression.js';
import { landmarkIds, statefulNodes, type Condition } from './model.js';
import type { LoadedRule } from './rule-service.js';

export interface ChannelRules {
  /** rules that may hold whatever landmarks the device is near: always evaluated */
  always: LoadedRule[];
  /** rules that can only hold when the device is (or was) inside one of their landmarks, by landmark */
  byLandmark: Map<string, LoadedRule[]>;
}

export interface OrganizationRules {
  /** enabled cloud rules that see a channel's events */
  byChannel: Map<string, ChannelRules>;
  landmarks: LandmarkIndex<{ id: string }>;
  /** the landmarks any rule refers to: only these are tracked in device state */
  watched: Set<string>;
  /**
   * The rules with a node that remembers (for, becomes): evaluated whole on
   * every event, their memory saved in device state under the key here.
   */
  stateful: ReadonlyMap<LoadedRule, string>;
  /** the stateful rules' memory keys: a device's memory under any other key is of a rule deleted or changed */
  memoryKeys: ReadonlySet<string>;
  loadedAt: number;
}

const NO_RULES: readonly LoadedRule[] = [];

/** The rules that may hold for this event: the unindexed ones, then those of the landmarks around the device (each once). */
export function candidates(
  channel: ChannelRules | undefined,
  before: ReadonlySet<string>,
  after: ReadonlySet<string>,
): readonly LoadedRule[] {
  if (!channel) return NO_RULES;
  if (before.size === 0 && after.size === 0) return channel.always;
  let picked: Set<LoadedRule> | undefined;
  for (const ids of [before, after]) {
    for (const id of ids) {
      const rules = channel.byLandmark.get(id);
      if (!rules) continue;
      picked ??= new Set(channel.always);
      for (const rule of rules) picked.add(rule);
    }
  }
  return picked ? [...picked] : channel.always;
}

/**
 * Landmarks one of which the device must be inside (now or before the
 * event) for the condition to hold, or undefined when it may hold anyway.
 * enter/exit/inside need one of their own; `and` needs what its most
 * selective item needs; `or` needs what all its items need.
 */
function necessaryLandmarks(c: Condition): Set<string> | undefined {
  switch (c.type) {
    case 'enterLandmark':
    case 'exitLandmark':
    case 'insideLandmark':
      return new Set(c.ids);
    case 'and': {
      let best: Set<string> | undefined;
      for (const item of c.items) {
        const need = necessaryLandmarks(item);
        if (need && (!best || need.size < best.size)) best = need;
      }
      return best;
    }
    case 'or': {
      if (c.items.length === 0) return new Set();
      const union = new Set<string>();
      for (const item of c.items) {
        const need = necessaryLandmarks(item);
        if (!need) return undefined;
        for (const id of need) union.add(id);
      }
      return union;
    }
    default:
      return undefined;
  }
}

/** Builds an organization's rule set: rules by channel (indexed by landmark) and the index of the landmarks they watch. */
export function organizationRules(
  rules: LoadedRule[],
  landmarks: Array<{ id: string; shape: Shape }>,
): OrganizationRules {
  const byChannel = new Map<string, ChannelRules>();
  const watched = new Set<string>();
  const stateful = new Map<LoadedRule, string>();
  for (const rule of rules) {
    if (rule.type !== 'cloud' || rule.condition === null) continue;
    if (statefulNodes(rule.condition).size > 0) stateful.set(rule, memoryKey(rule));
    // A rule that remembers (for, becomes) sees every event of its channels, near its landmarks or not: its memory must not skip one.
    const need = stateful.has(rule) ? undefined : necessaryLandmarks(rule.condition);
    for (const channelId of new Set([...rule.channelIds, ...rule.projectChannelIds])) {
      let channel = byChannel.get(channelId);
      if (!channel) byChannel.set(channelId, (channel = { always: [], byLandmark: new Map() }));
      if (!need) channel.always.push(rule);
      else for (const id of need) channel.byLandmark.set(id, [...(channel.byLandmark.get(id) ?? []), rule]);
    }
    for (const id of landmarkIds(rule.condition)) watched.add(id);
  }
  const index = LandmarkIndex.of(
    landmarks.filter((l) => watched.has(l.id)).map((l) => ({ item: { id: l.id }, shape: l.shape })),
  );
  return {
    byChannel,
    landmarks: index,
    watched,
    stateful,
    memoryKeys: new Set(stateful.values()),
    loadedAt: Date.now(),
  };
}

/**
 * What a rule's memory of a device is kept under: its id and a digest of its
 * conditions, so that a rule whose conditions changed (its nodes
 * renumbered, its meaning new) starts afresh rather than reading what its
 * former conditions remembered, while a rule saved with the same conditions
 * (renamed, its actions or throttle changed, disabled and enabled again)
 * keeps it: a rename must not make a `becomes` fire again. The digest is of
 * the expression string, the canonical form of a tree (model.ts normalise),
 * whatever key order the stored JSON came back in.
 */
export function memoryKey(rule: Pick<LoadedRule, 'id' | 'condition'>): string {
  const digest = sha256(generateExpression(rule.condition), 'base64url').slice(0, 16);
  return `${rule.id}@${digest}`;
}
