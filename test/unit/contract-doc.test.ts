// docs/CONTRACT.md is the index of what is kept for compatibility with the
// platform this server re-implements, each item with the tests that pin it.
// This keeps the index honest: every test it names exists under that title,
// every anchor of the page that the code cites exists, and no file
// cites the reference notes the contract replaced (they are not in the
// repository, so a citation of them could not be followed).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { PROBE } from '../helpers/probes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = readFileSync(join(ROOT, 'docs/CONTRACT.md'), 'utf8');

/** `test/<dir>/<file>.test.ts`: «title», as the page writes a test reference. */
const TEST_REFERENCE = /`(test\/[\w./-]+\.test\.tsx?)`: «([^»]+)»/g;
const TEXT_FILES = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.json',
  '.md',
  '.proto',
  '.py',
  '.sh',
  '.html',
  '.css',
  '.yml',
  '.yaml',
  '.txt',
]);
/** The two reference notes the contract replaced, by name (with or without `.md`). */
const REFERENCE_NOTES = new RegExp(`api-(?:${['spec', 'notes'].join('|')})\\b`);

function textFiles(dir: string): string[] {
  const absolute = join(ROOT, dir);
  if (!existsSync(absolute)) return [];
  return (readdirSync(absolute, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && !PROBE.test(entry.name) && TEXT_FILES.has(extname(entry.name)))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split(/[\\/]/).some((part) => part === 'node_modules' || part === 'dist'));
}

describe('docs/CONTRACT.md', () => {
  const references = [...CONTRACT.matchAll(TEST_REFERENCE)].map(([, file, title]) => ({ file: file!, title: title! }));

  it('names the tests that pin each item', () => {
    expect(references.length).toBeGreaterThan(100);
  });

  it('names only test files that exist, holding a test of that title', () => {
    const missing: string[] = [];
    for (const { file, title } of references) {
      const path = join(ROOT, file);
      if (!existsSync(path)) {
        missing.push(`${file}: no such file`);
        continue;
      }
      const source = readFileSync(path, 'utf8');
      // As written in the source: inside '…' a quote is escaped.
      if (![title, title.replaceAll("'", "\\'")].some((spelling) => source.includes(spelling)))
        missing.push(`${file}: no test «${title}»`);
    }
    expect(missing).toEqual([]);
  });

  it('has every anchor the code and the docs cite', () => {
    const anchors = new Set([...CONTRACT.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]!));
    const broken: string[] = [];
    for (const file of [
      ...['src', 'test', 'bench', 'scripts', 'web', 'proto', 'docs'].flatMap(textFiles),
      'README.md',
    ]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, anchor] of text.matchAll(/CONTRACT\.md#([\w-]+)/g)) {
        if (!anchors.has(anchor!)) broken.push(`${file}: #${anchor}`);
      }
      if (file === 'docs/CONTRACT.md') {
        for (const [, anchor] of text.matchAll(/\]\(#([\w-]+)\)/g))
          if (!anchors.has(anchor!)) broken.push(`${file}: (#${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('replaced the reference notes: no file under src/ or test/ cites them', () => {
    const citing = ['src', 'test']
      .flatMap(textFiles)
      .filter((file) => REFERENCE_NOTES.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(citing).toEqual([]);
  });
});
