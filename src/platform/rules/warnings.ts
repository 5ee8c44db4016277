// Warnings of a rule that is valid but will not do what it says: a
// detections or object condition naming a zone or a line no camera of the
// project has or a label (or a detections condition's child label) no model
// of the organization has (a typo: `left_hlaf`, `trafic cone`,
// which would never fire), a webhook whose URL the SSRF guard will refuse at
// every fire. The rule is saved all the same (a camera or a model may come
// later); the answer says so, with the near matches.
import { webhookOrigin, type RuleAction } from './actions.js';
import { type Condition, objectLeaves } from './model.js';
import { BlockedDestinationError, checkDestination, type AllowList } from './ssrf-guard.js';

type RuleWarningCode = 'unknown_zone' | 'unknown_line' | 'unknown_label' | 'webhook_blocked';

export interface RuleWarning {
  code: RuleWarningCode;
  /** a full sentence */
  message: string;
  /** the field it is about, as 400s name them (`actions.0.url`) */
  field?: string;
  /** near matches, nearest first */
  suggestions?: string[];
}

/** What conditions may name: the project's cameras' zones and lines (undefined: not known, no project) and the labels the organization can run. */
export interface RuleVocabulary {
  zones: readonly string[] | undefined;
  lines?: readonly string[] | undefined;
  labels: readonly string[];
}

type NameKind = 'label' | 'zone' | 'line';

/** A name a condition gives; `child`: a detections condition's child label (a label of a child stage's version). */
interface Named {
  kind: NameKind;
  name: string;
  child?: true;
}

/** The labels, zones and lines a tree's detections and object conditions name, in order, repeats included. */
function namesOf(tree: Condition | null): Named[] {
  const out: Named[] = [];
  const walk = (n: Condition) => {
    if (n.type === 'and' || n.type === 'or') n.items.forEach(walk);
    else if (n.type === 'not' || n.type === 'for' || n.type === 'becomes') walk(n.item);
    else if (n.type === 'detections') {
      out.push({ kind: 'label', name: n.label });
      if (n.zone !== undefined) out.push({ kind: 'zone', name: n.zone });
      if (n.child !== undefined) out.push({ kind: 'label', name: n.child, child: true });
    }
  };
  if (tree) walk(tree);
  for (const leaf of objectLeaves(tree)) {
    if (leaf.label !== undefined) out.push({ kind: 'label', name: leaf.label });
    out.push(leaf.type === 'crossed' ? { kind: 'line', name: leaf.line } : { kind: 'zone', name: leaf.zone });
  }
  return out;
}

/** Whether a tree names labels, zones, lines: which vocabulary its warnings need read. */
export function namedPlaces(tree: Condition | null): { labels: boolean; zones: boolean; lines: boolean } {
  const kinds = new Set(namesOf(tree).map((n) => n.kind));
  return { labels: kinds.size > 0, zones: kinds.has('zone'), lines: kinds.has('line') };
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

/** unknown_label, unknown_zone and unknown_line warnings of a tree's detections and object conditions, each name once. */
export function vocabularyWarnings(tree: Condition | null, vocabulary: RuleVocabulary): RuleWarning[] {
  const warnings: RuleWarning[] = [];
  const known: Record<NameKind, readonly string[] | undefined> = {
    label: vocabulary.labels,
    zone: vocabulary.zones,
    line: vocabulary.lines,
  };
  const where: Record<NameKind, string> = {
    label: 'a label of any model this organization can run',
    zone: 'a zone of any camera in this project',
    line: 'a line of any camera in this project',
  };
  const seen = new Set<string>();
  for (const { kind, name, child } of namesOf(tree)) {
    const names = known[kind];
    if (!names || names.includes(name) || seen.has(`${kind}:${name}`)) continue;
    seen.add(`${kind}:${name}`);
    const suggestions = nearMatches(name, names);
    // A child label is a label of the version a child stage runs: one the organization can run too.
    const what = `${child ? 'child label' : kind} ${JSON.stringify(name)}`;
    warnings.push({
      code: `unknown_${kind}`,
      message: `${what} is not ${where[kind]}${didYouMean(suggestions)}`,
      suggestions,
    });
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
