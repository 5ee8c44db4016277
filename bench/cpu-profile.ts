// Where a process's CPU time went, from the .cpuprofile `node --cpu-prof`
// writes at exit: the functions with the most self time, as shares of the
// busy (non-idle) samples. For reports beside a figure, not for tests.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface ProfileEntry {
  /** function (file:line) */
  name: string;
  /** share of the busy samples, 0-1 */
  share: number;
}

/** The top `count` functions by self time of the one .cpuprofile in `dir`. */
export async function topOfProfile(dir: string, root: string, count = 10): Promise<ProfileEntry[]> {
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as { nodes: ProfileNode[] };
  const bySelf = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || hits === 0) continue;
    busy += hits;
    const where = url ? ` ${relative(root, url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    bySelf.set(name, (bySelf.get(name) ?? 0) + hits);
  }
  return [...bySelf.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, share: hits / busy }));
}
