// The server's version: the one its package.json says, read once. GET /,
// GET /v2 and /openapi.json answer it, so that a release is named in one
// place. The file is found by walking up from this module, which works
// from src/ (tsx), dist/ (compiled) and a build elsewhere in the checkout.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'sense-inference-server';

function readVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    }
    if (dir === dirname(dir))
      throw new Error(`no package.json of ${PACKAGE_NAME} above ${fileURLToPath(import.meta.url)}`);
  }
}

export const SERVER_NAME = PACKAGE_NAME;
export const SERVER_VERSION = readVersion();
