#!/usr/bin/env node
// `npm run build:web`: the web console (web/) into web/dist with Vite; the
// server serves it at / (src/http/static-site.ts).
//
// Also npm's `prepare` step, with --if-installable: `npm ci` (and so
// scripts/install.sh, CI and a fresh clone) builds it, so that `npm start`
// serves the console with no step of its own. There it steps aside, saying
// why, where it cannot build: an install without dev dependencies (no Vite:
// `npm ci --omit=dev`), or the Docker image's dependency layer (no web/ yet;
// the image builds it later with `npm run build:web`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const config = join(root, 'web', 'vite.config.ts');
const optional = process.argv.includes('--if-installable');

let vite;
try {
  // its exports name no bin/: found beside its package.json
  vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
} catch {
  vite = undefined;
}
const missing = !existsSync(config)
  ? 'web/ is not here'
  : !vite
    ? 'Vite is not installed (dev dependencies omitted)'
    : undefined;
if (missing) {
  if (!optional) {
    process.stderr.write(`cannot build the web console: ${missing}\n`);
    process.exit(1);
  }
  process.stderr.write(`web console not built: ${missing}; \`npm run build:web\` builds it\n`);
  process.exit(0);
}
const result = spawnSync(process.execPath, [vite, 'build', '--config', config, '--logLevel', 'warn'], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
