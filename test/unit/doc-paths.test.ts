// The prose a newcomer trusts names files that exist: every repository path
// and every file name (`engine.ts`, `src/db/events.ts`, `../bench/results/x.md`)
// written in README.md, CONTRIBUTING.md, docs/*.md or a source comment names
// a file of the checkout. A file moved or renamed fails here with every
// place that still cites it. Links are held by doc-links.test.ts; this
// covers the paths written as text and code.
//
// A name resolves, in this order, against the directory of the file that
// writes it, the repository root, src/ (the docs' `http/server.ts`), or, for
// a bare file name, any file of that name in the checkout.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { PROBE } from '../helpers/probes.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Names that look like files but are not the checkout's: products, system headers, placeholders. */
const NOT_FILES = new Set([
  'Node.js',
  'uWebSockets.js',
  'postgres.js',
  'torch.onnx', // PyTorch's exporter module
  'ai.onnx', // ONNX's default operator domain
  'turbojpeg.h', // libjpeg-turbo's header, installed by the system
  'main.js', // dist/main.js, written by npm run build
  'IN.onnx', // usage placeholders
  'OUT.onnx',
  'sql.json', // postgres.js's JSON parameter helper
]);

/** Directories whose files are built or fetched, not kept in the repository. */
const BUILT = /^(dist|node_modules|native\/build|web\/dist|\.cache)\//;

const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', '.git', '.cache', 'data']);

function walk(dir: string, keep: (path: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path, keep, out);
    } else if (!PROBE.test(entry.name) && keep(relative(ROOT, path))) out.push(path);
  }
  return out;
}

const EXTENSIONS = 'ts|tsx|js|mjs|cjs|json|md|proto|py|sh|cc|cpp|h|hpp|yml|yaml|onnx|png|css|html|txt';
/** A path or file name: segments of word characters, dots and dashes, ending in a known extension. */
const PATH = new RegExp(
  String.raw`(?<![\w./@:%"'-])((?:\.{1,2}/)*(?:[\w-][\w.-]*/)*[\w-]+(?:\.[\w-]+)*\.(?:${EXTENSIONS}))(?![\w/])`,
  'g',
);

/** The comments of a source file, as TypeScript's scanner finds them: what it says in prose, not its strings. */
function comments(source: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.JSX, source);
  const found: string[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia)
      found.push(scanner.getTokenText());
  }
  return found.join('\n');
}

/** Every path-looking name of a text. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(PATH)]
    .map((m) => m[1]!)
    .filter((p) => !NOT_FILES.has(p) && !BUILT.test(p.replace(/^(\.\.\/)+/, '')));
}

describe('paths named in docs and comments', () => {
  const everyFile = walk(ROOT, () => true);
  const basenames = new Set(everyFile.map((f) => basename(f)));
  // A name resolves against the file's folder, the root or src/, or as the end of some file's path (`graph/wire.ts`).
  const resolves = (from: string, path: string): boolean => {
    const bases = [dirname(from), ROOT, join(ROOT, 'src')];
    if (bases.some((base) => existsSync(resolve(base, path)))) return true;
    if (!path.includes('/')) return basenames.has(path);
    return !path.startsWith('.') && everyFile.some((f) => f.endsWith(`/${path}`));
  };

  it('finds the names a reader would take for files', () => {
    const text =
      'see `src/db/events.ts`, http/server.ts and ../bench/results/flood.md; uWebSockets.js is a package; https://example.com/a.md is not ours';
    expect(namedPaths(text)).toEqual(['src/db/events.ts', 'http/server.ts', '../bench/results/flood.md']);
    expect(
      comments(
        'const a = "x.ts // not a comment"; // names b.ts\nconst g = \'src/**/*.ts\'; /* and c.ts */ import("d.ts")',
      ),
    ).toBe('// names b.ts\n/* and c.ts */');
  });

  it('has every path in README.md, CONTRIBUTING.md, docs/ and source comments name an existing file', () => {
    const documents = walk(ROOT, (p) => /^(README|CONTRIBUTING)\.md$|^docs\/[^/]+\.md$/.test(p));
    // This file's own examples name files that do not exist, on purpose.
    const sources = walk(
      ROOT,
      (p) =>
        /^(src|bench|scripts|test|web\/src)\/.*\.(ts|tsx|mjs)$/.test(p) &&
        !p.startsWith('src/ingest/generated/') &&
        p !== 'test/unit/doc-paths.test.ts',
    );
    expect(documents.length).toBeGreaterThan(5);
    expect(sources.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const file of [...documents, ...sources]) {
      const text = readFileSync(file, 'utf8');
      for (const path of namedPaths(file.endsWith('.md') ? text : comments(text))) {
        if (!resolves(file, path)) missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/**
 * The files a module map lists: a tree by indentation (two spaces a level),
 * each line's first column a name or names (`a.ts, b.ts`), folders ending
 * in `/`, the rest of the line prose.
 */
function mapEntries(map: string): string[] {
  const folders: string[] = [];
  const files: string[] = [];
  for (const line of map.split('\n')) {
    // Names sit at two spaces a level; a line indented to the descriptions' column continues one.
    const m = /^((?:  ){0,6})((?:[\w.-][\w./*-]*(?:, )?)+)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 2;
    // A name is a file (an extension) or a folder (a slash); prose continues a description.
    for (const name of m[2]!.split(', ').filter((n) => /\.\w+$|\/$/.test(n))) {
      if (name.endsWith('/')) {
        folders.length = depth;
        folders[depth] = name;
      } else files.push(folders.slice(0, depth).join('') + name);
    }
  }
  return files;
}

describe("docs/ARCHITECTURE.md's module map", () => {
  it('reads names, lists and folders as the tree shows them', () => {
    const map = [
      'src/',
      '  main.ts      entry',
      '  db/          SQL',
      '    a.ts, b.ts   tables',
      '  cli/model.ts  the CLI',
      '  lib/',
      '    c.ts x.ts is prose',
    ].join('\n');
    expect(mapEntries(map)).toEqual(['src/main.ts', 'src/db/a.ts', 'src/db/b.ts', 'src/cli/model.ts', 'src/lib/c.ts']);
  });

  it('lists every file of src/', () => {
    const architecture = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const map = /## Module map\s*\n+```\n([\s\S]*?)\n```/.exec(architecture)?.[1];
    expect(map, 'a fenced module map under "## Module map"').toBeDefined();
    const entries = mapEntries(map!);
    // `routes/v2/*.ts`: every file of that folder, one per part of the API.
    const patterns = entries
      .filter((e) => e.includes('*'))
      .map((e) => new RegExp(`^${e.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`));
    const listed = new Set(entries);
    const unlisted = walk(join(ROOT, 'src'), () => true)
      .map((f) => relative(ROOT, f))
      .filter((p) => !listed.has(p) && !patterns.some((pattern) => pattern.test(p)));
    expect(unlisted).toEqual([]);
    const stale = entries.filter((p) => p.startsWith('src/') && !p.includes('*') && !existsSync(join(ROOT, p)));
    expect(stale).toEqual([]);
  });
});
