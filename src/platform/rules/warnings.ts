// Warnings of a rule that is valid but will not do what it says: a
// detections condition naming a zone no camera of the project has or a label
// no model of the organization has (a typo: `left_hlaf`, `trafic cone`,
// which would never fire), a webhook whose URL the SSRF guard will refuse at
// every fire. The rule is saved all the same (a camera or a model may come
// later); the answer says so, with the near matches.
import { webhookOrigin, type RuleAction } from './actions.js';
import type { Condition, DetectionsCondition } from './model.js';
import { BlockedDestinationError, checkDestination, type AllowList } from './ssrf-guard.js';

type RuleWarningCode = 'unknown_zone' | 'unknown_label' | 'webhook_blocked';

export interface RuleWarning {
  code: RuleWarningCode;
  /** a full sentence */
  message: string;
  /** the field it is about, as 400s name them (`actions.0.url`) */
  field?: string;
  /** near matches, nearest first */
  suggestions?: string[];
}

/** What conditions may name: the project's cameras' zones (undefined: not known, no project) and the labels the organization can run. */
export interface RuleVocabulary {
  zones: readonly string[] | undefined;
  labels: readonly string[];
}

/** The detections leaves of a tree. */
function detectionLeaves(tree: Condition | null): DetectionsCondition[] {
  const out: DetectionsCondition[] = [];
  const walk = (n: Condition) => {
    if (n.type === 'and' || n.type === 'or') n.items.forEach(walk);
    else if (n.type === 'not' || n.type === 'for' || n.type === 'becomes') walk(n.item);
    else if (n.type === 'detections') out.push(n);
  };
  if (tree) walk(tree);
  return out;
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known names nearest to `word` (case aside: a few edits, a third of its
 * length at most), nearest first, at most three.
 */
function nearMatches(word: string, known: readonly string[]): string[] {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(w.length / 3)));
  return known
    .map((name) => ({ name, d: distance(w, name.toLowerCase()) }))
    .filter((m) => m.d <= limit)
    .sort((x, y) => x.d - y.d || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, 3)
    .map((m) => m.name);
}

const didYouMean = (suggestions: readonly string[]) =>
  suggestions.length === 0 ? '' : `; did you mean ${suggestions.map((s) => JSON.stringify(s)).join(' or ')}?`;

/** unknown_zone and unknown_label warnings of a tree's detections conditions, each name once. */
export function vocabularyWarnings(tree: Condition | null, vocabulary: RuleVocabulary): RuleWarning[] {
  const warnings: RuleWarning[] = [];
  const labels = new Set(vocabulary.labels);
  const zones = vocabulary.zones && new Set(vocabulary.zones);
  const seen = new Set<string>();
  for (const leaf of detectionLeaves(tree)) {
    if (!labels.has(leaf.label) && !seen.has(`label:${leaf.label}`)) {
      seen.add(`label:${leaf.label}`);
      const suggestions = nearMatches(leaf.label, vocabulary.labels);
      warnings.push({
        code: 'unknown_label',
        message: `label ${JSON.stringify(leaf.label)} is not a label of any model this organization can run${didYouMean(suggestions)}`,
        suggestions,
      });
    }
    if (zones && leaf.zone !== undefined && !zones.has(leaf.zone) && !seen.has(`zone:${leaf.zone}`)) {
      seen.add(`zone:${leaf.zone}`);
      const suggestions = nearMatches(leaf.zone, vocabulary.zones!);
      warnings.push({
        code: 'unknown_zone',
        message: `zone ${JSON.stringify(leaf.zone)} is not a zone of any camera in this project${didYouMean(suggestions)}`,
        suggestions,
      });
    }
  }
  return warnings;
}

/** How long a webhook host's name may take to resolve for the save-time check; past it, no warning. */
const RESOLVE_TIMEOUT_MS = 2_000;

/**
 * webhook_blocked warnings: webhooks whose URL the SSRF guard refuses (an
 * internal address that WEBHOOK_ALLOWED_HOSTS does not allow), checked as it
 * is at each fire. A host that does not resolve now gives no warning: DNS
 * may answer later.
 */
export async function webhookWarnings(actions: readonly RuleAction[], allow: AllowList): Promise<RuleWarning[]> {
  const warnings = await Promise.all(
    actions.map(async (action, i): Promise<RuleWarning | undefined> => {
      if (action.type !== 'webhook') return undefined;
      const origin = webhookOrigin(action.url);
      if (origin === undefined) return undefined;
      try {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('slow DNS')), RESOLVE_TIMEOUT_MS);
        });
        try {
          await Promise.race([checkDestination(new URL(origin), allow), timeout]);
        } finally {
          clearTimeout(timer);
        }
        return undefined;
      } catch (error) {
        if (!(error instanceof BlockedDestinationError)) return undefined;
        const reason = error.message.replace(/^blocked: /, '');
        return {
          code: 'webhook_blocked',
          field: `actions.${i}.url`,
          message: `the webhook to ${origin} will be blocked each time the rule fires: ${reason}`,
        };
      }
    }),
  );
  return warnings.filter((w) => w !== undefined);
}
