// All SQL lives in src/db/ (docs/ARCHITECTURE.md): domain code and the
// front end call db/ functions and pass connections and transactions down,
// never writing a statement themselves. The test reads every template
// literal of src/ outside db/ (parsed with the TypeScript compiler, so
// comments and plain strings do not count) and fails on one that holds a
// statement.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { PROBE } from '../helpers/probes.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** The statements looked for: the keywords that start or shape one (newlines count as spaces). */
const STATEMENT = /\b(SELECT|INSERT\s+INTO|UPDATE\s+[a-z_]+(\s+[a-z_]+)?\s+SET|DELETE\s+FROM|WITH\s+[a-z_]+\s+AS)\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !PROBE.test(entry.name) ? [path] : [];
  });
}

/** The text of every template literal of the file (interpolations as a space), with its line. */
function templateTexts(file: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const texts: Array<{ line: number; text: string }> = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node))
      text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
    if (text !== undefined) texts.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** `file:line: statement` for each template literal holding SQL in a file outside src/db/. */
function statementsOutsideDb(files: readonly string[] = sourceFiles(SRC)): string[] {
  const found: string[] = [];
  for (const file of files) {
    const path = relative(SRC, file);
    if (path.startsWith('db/')) continue;
    for (const { line, text } of templateTexts(file)) {
      const match = STATEMENT.exec(text);
      if (match) found.push(`${path}:${line}: ${match[0].replace(/\s+/g, ' ')}`);
    }
  }
  return found;
}

describe('SQL location', () => {
  it('has no SQL statement outside src/db/', () => {
    expect(statementsOutsideDb()).toEqual([]);
  });

  it('catches one', () => {
    // A domain module writing its own statement (nested in another
    // template too), written for the moment of the check.
    const probe = join(SRC, 'ingest', '.sql-probe.ts');
    writeFileSync(
      probe,
      [
        "import type { Sql } from 'postgres';",
        '// SELECT in a comment is not a statement',
        "export const label = 'SELECT in a plain string is not one either';",
        'export const probe = (sql: Sql, id: string, add: boolean) => sql`',
        '  UPDATE devices d',
        '  SET tags = ${add ? sql`ARRAY(SELECT 1)` : sql`tags`} WHERE id = ${id}`;',
        '',
      ].join('\n'),
    );
    try {
      expect(statementsOutsideDb([probe])).toEqual([
        'ingest/.sql-probe.ts:4: UPDATE devices d SET',
        'ingest/.sql-probe.ts:6: SELECT',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('leaves db/ alone', () => {
    expect(statementsOutsideDb([join(SRC, 'db', 'outbox.ts')])).toEqual([]);
    expect(templateTexts(join(SRC, 'db', 'outbox.ts')).some(({ text }) => STATEMENT.test(text))).toBe(true);
  });
});
