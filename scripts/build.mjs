#!/usr/bin/env node
// `npm run build`: compiles src/ to dist/ (tsconfig.build.json) and copies
// the files tsc does not emit (the generated protobuf code,
// src/ingest/generated/ingress.js, and any other non-TypeScript file under src/)
// so that `node dist/main.js` runs without tsx.
//
//   node scripts/build.mjs [outDir]     (default: dist)
//
// The out directory must lie inside the checkout: the compiled code finds its
// packages in node_modules/ and the addon in native/build/ above it.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const outDir = resolve(process.argv[2] ?? join(root, 'dist'));

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], {
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);

let copied = 0;
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || /\.(c|m)?ts$/.test(entry.name)) continue;
  // parentPath from Node 20.12, path before it
  const from = join(entry.parentPath ?? entry.path, entry.name);
  const to = join(outDir, relative(src, from));
  cpSync(from, to);
  copied++;
}
process.stderr.write(`built ${relative(root, outDir) || '.'} (${copied} asset file(s) copied)\n`);
