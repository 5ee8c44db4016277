// Fields of a mobile event that the server does not know. Devices in the
// field send extra ones (a newer SDK, a vendor's own): they are accepted and
// dropped, as before, but no longer silently. Each is counted by name
// (ingest_unknown_fields_total{field}) and logged once per channel, so that
// an operator sees a misspelt field or a new SDK's data being lost.
//
// Only events that leave the canonical fast path (canonical-event.ts
// declines any key it does not know) are walked: the common case pays nothing.
import type { Logger } from '../log.js';
import { formatPath } from '../errors.js';
import { EVENT_SHAPE, type Shape } from './canonical-event.js';

/** Alternative spellings codec.ts accepts (its `renamed` aliases), by the path of the object they are in. */
const ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': { configuration: 'configurations', errors: 'error' },
  powers: { batteryLevel: 'batteryLife' },
  configurations: { eventTTL: 'eventTtl', sensors: 'useSensors', max_storage: 'maxStorage' },
  properties: { os_version: 'osVersion', software_version: 'softwareVersion' },
  error: { error_code: 'errorCode', error_message: 'errorMessage' },
};

/** Field names kept as metric labels at most; any further name is counted under "(other)". */
const MAX_FIELD_LABELS = 200;
/** (channel, field) pairs remembered as logged at most; past it, new pairs are no longer logged (still counted). */
const MAX_LOGGED_PAIRS = 10_000;
const MAX_NAME = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walk(shape: Shape, path: string, value: unknown, into: Set<string>): void {
  if (!isPlainObject(value)) return;
  const aliases = ALIASES[path];
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const name = aliases?.[key] ?? key;
    const kind = Object.hasOwn(shape, name) ? shape[name] : undefined;
    if (kind === undefined) {
      into.add(formatPath(path ? [path, key] : [key]).slice(0, MAX_NAME));
      continue;
    }
    if (typeof kind !== 'object') continue;
    const child = path ? `${path}.${name}` : name;
    if ('object' in kind) walk(kind.object, child, value[key], into);
    else if (Array.isArray(value[key])) for (const item of value[key] as unknown[]) walk(kind.list, child, item, into);
  }
}

/** Adds the unknown fields of one raw mobile event (as decoded, before validation) to `into`, as dotted paths ("locations.altitude"). */
export function collectUnknownFields(event: unknown, into: Set<string>): void {
  walk(EVENT_SHAPE, '', event, into);
}

/** Counts unknown fields by name and logs each once per channel. */
export class UnknownFieldReport {
  private readonly counts = new Map<string, number>();
  private readonly logged = new Set<string>();

  constructor(private readonly log: Logger) {}

  note(channelId: string, fields: Iterable<string>): void {
    for (const field of fields) {
      const label = this.counts.has(field) || this.counts.size < MAX_FIELD_LABELS ? field : '(other)';
      this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
      const pair = `${channelId}\u0000${field}`;
      if (this.logged.has(pair) || this.logged.size >= MAX_LOGGED_PAIRS) continue;
      this.logged.add(pair);
      this.log.info('an ingested event carries a field the server does not know: accepted, the field dropped', {
        channelId,
        field,
      });
    }
  }

  /** Requests that carried each field, for the metric. */
  series(): Array<{ labels: { field: string }; value: number }> {
    return [...this.counts].map(([field, value]) => ({ labels: { field }, value }));
  }
}
