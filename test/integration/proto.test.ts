// The committed protobuf code (src/ingest/generated/) is what `npm run proto`
// generates from proto/ingress.proto today: package.json's script is run
// with its output folder swapped for a temporary one, and the two compared.
// A change to the .proto (or to the generator) without regenerating fails.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const GENERATED = 'src/ingest/generated/';

/** Runs package.json's proto script with GENERATED replaced by `into`. */
async function regenerate(into: string): Promise<void> {
  const script = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { proto: string } })
    .scripts.proto;
  expect(script, `package.json's proto script should write into ${GENERATED}`).toContain(GENERATED);
  const command = script.replaceAll(GENERATED, `${into}/`);
  // as `npm run` does: the project's binaries first on PATH
  const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };
  await promisify(execFile)('sh', ['-c', command], { cwd: ROOT, env });
}

/** The first line where two texts differ, for a short failure message. */
function firstDifference(committed: string, generated: string): string {
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  const line = a.findIndex((l, i) => l !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end of file)')}, generated ${JSON.stringify(b[at] ?? '(end of file)')}`;
}

describe('generated protobuf code', () => {
  it('src/inference/graph/generated/onnx.json is what `npm run proto:onnx` compiles from proto/onnx.proto', {
    timeout: 120_000,
  }, async () => {
    const script = (
      JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts['proto:onnx']!;
    const target = 'src/inference/graph/generated/onnx.json';
    expect(script).toContain(target);
    const dir = await mkdtemp(join(tmpdir(), 'sense-proto-'));
    try {
      const env = {
        ...process.env,
        PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
      };
      await promisify(execFile)('sh', ['-c', script.replace(target, join(dir, 'onnx.json'))], { cwd: ROOT, env });
      const [committed, generated] = await Promise.all([
        readFile(join(ROOT, target), 'utf8'),
        readFile(join(dir, 'onnx.json'), 'utf8'),
      ]);
      expect(
        committed === generated,
        `${target} is stale (${firstDifference(committed, generated)}): run \`npm run proto:onnx\` and commit it`,
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is what `npm run proto` generates from proto/ingress.proto', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sense-proto-'));
    try {
      await regenerate(dir);
      const generated = (await readdir(dir)).sort();
      const committed = (await readdir(join(ROOT, GENERATED))).sort();
      const stale: string[] = [];
      for (const name of new Set([...generated, ...committed])) {
        const mine = await readFile(join(ROOT, GENERATED, name), 'utf8').catch(() => undefined);
        const theirs = await readFile(join(dir, name), 'utf8').catch(() => undefined);
        if (mine === theirs) continue;
        if (mine === undefined) stale.push(`${GENERATED}${name} is missing`);
        else if (theirs === undefined) stale.push(`${GENERATED}${name} is not generated any more`);
        else stale.push(`${GENERATED}${name} differs at ${firstDifference(mine, theirs)}`);
      }
      expect(stale, `the generated protobuf code is stale: run \`npm run proto\` and commit ${GENERATED}`).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
