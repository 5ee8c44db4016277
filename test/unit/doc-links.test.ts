// The Markdown documents hold together: every relative link of a *.md file at
// the root or in docs/ names a file that exists (a document moved or renamed
// fails here, with the link), and README.md stays a short front page that
// leads to the rest.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function documents(): string[] {
  return [ROOT, join(ROOT, 'docs')].flatMap((dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(dir, entry.name)),
  );
}

/** The link targets of a Markdown text, outside fenced blocks and `code spans`: inline links, images and reference definitions. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
      targets.push(m[1]!.replace(/^<|>$/g, ''));
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (definition) targets.push(definition[1]!);
  }
  return targets;
}

/** A target that names a file of the checkout: not a URL, not an anchor of the same document. */
function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');
}

describe('documentation links', () => {
  it('finds links the way a Markdown reader does', () => {
    const text = [
      '[a](docs/A.md) ![b](b.png "title") [c](<c d.md#x>)',
      '`[not](code.md)`',
      '```',
      '[not](fenced.md)',
      '```',
      '[e]: e.md',
      '[f](https://example.com) [g](#anchor)',
    ].join('\n');
    expect(linkTargets(text)).toEqual(['docs/A.md', 'b.png', 'c d.md#x', 'e.md', 'https://example.com', '#anchor']);
    expect(linkTargets(text).filter(isRelative)).toEqual(['docs/A.md', 'b.png', 'c d.md#x', 'e.md']);
  });

  it('has every relative link of the root and docs/ Markdown files name an existing file', () => {
    const files = documents();
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md']));
    const broken: string[] = [];
    for (const file of files) {
      for (const target of linkTargets(readFileSync(file, 'utf8')).filter(isRelative)) {
        const path = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
        if (!existsSync(resolve(dirname(file), path))) broken.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps README.md under 300 lines, with the walkthrough one link away', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(300);
    expect(linkTargets(readme)).toContain('docs/WALKTHROUGH.md');
  });
});
