// A component's tuning constants (the action runner's poll and concurrency,
// the event writer's batch bounds, model loads and validations at once) are
// named once, in one exported *_TUNING block of the component's file, and
// docs/ARCHITECTURE.md's "Settings and tuning constants" table lists each
// block with its file: a block added, renamed or moved fails here until the
// table follows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { PROBE } from '../helpers/probes.js';

const SRC = resolve(import.meta.dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (PROBE.test(entry.name)) return [];
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every tuning block of src/: its name and its file, relative to src/. */
function blocks(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]*_TUNING) = \{/gm))
      found.set(match[1]!, relative(SRC, file));
  }
  return found;
}

/** The rows of docs/ARCHITECTURE.md's tuning table: block name → file. */
function documented(): Map<string, string> {
  const text = readFileSync(resolve(SRC, '../docs/ARCHITECTURE.md'), 'utf8');
  const start = text.indexOf('\n## Settings and tuning constants\n');
  expect(start, 'docs/ARCHITECTURE.md has a "Settings and tuning constants" section').toBeGreaterThanOrEqual(0);
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  return new Map([...section.matchAll(/^\| `([A-Z0-9_]+)` \| `([^`]+)` \|/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('tuning constants', () => {
  it('are one block per component: the action runner, the event writer, model loads, validations', () => {
    const found = blocks();
    const expected = {
      ACTION_RUNNER_TUNING: 'platform/rules/action-runner.ts',
      EVENT_WRITER_TUNING: 'ingest/event-writer.ts',
      MODEL_CACHE_TUNING: 'inference/versions/model-cache.ts',
      VALIDATION_TUNING: 'inference/versions/model-validation.ts',
    };
    for (const [name, file] of Object.entries(expected)) expect(found.get(name), name).toBe(file);
  });

  it('are listed in docs/ARCHITECTURE.md, each block with its file', () => {
    expect(documented()).toEqual(blocks());
  });
});
