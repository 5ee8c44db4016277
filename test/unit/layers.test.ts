// The layers of src/, as docs/ARCHITECTURE.md draws them: a module may
// import its own folder and the layers below it, never one above or beside
// it out of order. Written once here; the test reads every import.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { PROBE } from '../helpers/probes.js';

const SRC = resolve(import.meta.dirname, '../../src');

/** Layer ranks, lowest first: a module may import a rank up to its own. */
const RANKS: Record<string, number> = {
  // neutral base every layer may use
  'config.ts': 0,
  'errors.ts': 0,
  'log.ts': 0,
  'ids.ts': 0,
  lib: 0,
  // storage: all SQL
  db: 1,
  observability: 1,
  // domains, each over the ones before it
  inference: 2,
  vision: 2, // what a camera sees over time: tracking, zones and lines (pure, no I/O)
  platform: 3,
  ingest: 4,
  // front ends over the domains, beside each other: HTTP, the Open Inference Protocol's gRPC, MQTT for devices
  http: 5,
  grpc: 5,
  mqtt: 5,
  // composition and entry points
  'app.ts': 6,
  'main.ts': 7, // starts app.ts
  cli: 6,
};

/**
 * Layers a layer may not reach even though they are below it: the front end
 * calls a domain service, never db/ directly, so every rule of a resource
 * (scope, references, not-found) sits in one place; inference runs with no
 * database at all (which versions exist reaches it through its
 * VersionRegistry port, inference/versions/version-registry.ts, which the platform
 * implements over db/).
 */
const SKIPPED: Record<string, readonly string[]> = { http: ['db'], grpc: ['db'], mqtt: ['db'], inference: ['db'] };

/** Packages a layer may not import, for the same reasons: inference never holds a connection, and routes receive services, not one. */
const FORBIDDEN_PACKAGES: Record<string, readonly string[]> = {
  http: ['postgres'],
  grpc: ['postgres'],
  mqtt: ['postgres'],
  inference: ['postgres'],
};

function layerOf(file: string): string {
  const [first] = relative(SRC, file).split('/');
  return first!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !PROBE.test(entry.name) ? [path] : [];
  });
}

/**
 * Every relative import of a file inside src/ (static, dynamic, re-exports,
 * in any quotes, and the modules started as threads or children through
 * `new URL('./file…', import.meta.url)`), as resolved .ts paths.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*(['"`])(\.{1,2}\/[^'"`]+)\1/g)].map((m) => m[2]!);
  const started = [...text.matchAll(/new URL\(\s*['"`](\.{1,2}\/[\w./-]+)[^,]*,\s*import\.meta\.url/g)].map(
    (m) => m[1]!,
  );
  return [...imports, ...started]
    .map((s) => resolve(dirname(file), s))
    .filter((path) => !relative(SRC, path).startsWith('..'))
    .map((path) => (path.endsWith('.js') ? path.replace(/\.js$/, '.ts') : extname(path) ? path : `${path}.ts`));
}

/** Every package a file imports (static, dynamic, re-exports, type-only), by its name: `postgres`, `@scope/name`, `node:fs`. */
function packagesOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*(['"`])([^'"`./][^'"`]*)\1/g)].map((m) => {
    const parts = m[2]!.split('/');
    return parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  });
}

function wrongWayImports(files: readonly string[] = sourceFiles(SRC)): string[] {
  const wrong: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    for (const name of packagesOf(file)) {
      if (FORBIDDEN_PACKAGES[from]?.includes(name)) wrong.push(`${relative(SRC, file)} -> package ${name}`);
    }
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (from === to) continue;
      const [fromRank, toRank] = [RANKS[from], RANKS[to]];
      if (fromRank === undefined || toRank === undefined) {
        wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)} (a folder with no layer: add it to RANKS)`);
      } else if (toRank > fromRank || (toRank === fromRank && toRank > 0) || SKIPPED[from]?.includes(to)) {
        wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
  }
  return wrong;
}

describe('layers', () => {
  it('has no import that goes up or sideways', () => {
    expect(wrongWayImports()).toEqual([]);
  });

  it('catches one that does', () => {
    // A module of db/ importing http/, written for the moment of the check.
    const probe = join(SRC, 'db', '.layer-probe.ts');
    writeFileSync(probe, "import type { Request } from '../http/server.js';\nexport type Probe = Request;\n");
    try {
      expect(wrongWayImports([probe])).toEqual(['db/.layer-probe.ts -> http/server.ts']);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('catches one in double quotes, and a worker thread started from a file above', () => {
    const probe = join(SRC, 'db', '.layer-probe.ts');
    writeFileSync(
      probe,
      'import type { Request } from "../http/server.js";\nexport type Probe = Request;\n' +
        "export const worker = new URL(`../inference/pipeline/pipeline-worker${'.ts'}`, import.meta.url);\n",
    );
    try {
      expect(wrongWayImports([probe])).toEqual([
        'db/.layer-probe.ts -> http/server.ts',
        'db/.layer-probe.ts -> inference/pipeline/pipeline-worker.ts',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('catches inference reaching the database, through db/ or the postgres package', () => {
    const probe = join(SRC, 'inference', '.layer-probe.ts');
    writeFileSync(
      probe,
      "import type { Sql } from 'postgres';\nimport { listAllModelVersions } from '../db/model-versions.js';\n" +
        'export const probe = (sql: Sql) => listAllModelVersions(sql);\n',
    );
    try {
      expect(wrongWayImports([probe])).toEqual([
        'inference/.layer-probe.ts -> package postgres',
        'inference/.layer-probe.ts -> db/model-versions.ts',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('catches the gRPC front end reaching the HTTP one beside it, or db/ past the domains', () => {
    const probe = join(SRC, 'grpc', '.layer-probe.ts');
    writeFileSync(
      probe,
      "import type { Reply } from '../http/reply.js';\nimport { findGateway } from '../db/gateways.js';\n" +
        'export type Probe = Reply;\nexport const probe = findGateway;\n',
    );
    try {
      expect(wrongWayImports([probe])).toEqual([
        'grpc/.layer-probe.ts -> http/reply.ts',
        'grpc/.layer-probe.ts -> db/gateways.ts',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('catches the MQTT front end reaching the HTTP one beside it, or db/ past the domains', () => {
    const probe = join(SRC, 'mqtt', '.layer-probe.ts');
    writeFileSync(
      probe,
      "import { ApiError } from '../http/errors.js';\nimport { findGateway } from '../db/gateways.js';\nexport const probe = [ApiError, findGateway];\n",
    );
    try {
      expect(wrongWayImports([probe])).toEqual([
        'mqtt/.layer-probe.ts -> http/errors.ts',
        'mqtt/.layer-probe.ts -> db/gateways.ts',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });

  it('catches a route that reads db/ past its domain service, or holds a connection', () => {
    const probe = join(SRC, 'http', '.layer-probe.ts');
    writeFileSync(
      probe,
      "import type { Sql } from 'postgres';\nimport { findGateway } from '../db/gateways.js';\nexport const probe = (sql: Sql) => findGateway;\n",
    );
    try {
      expect(wrongWayImports([probe])).toEqual([
        'http/.layer-probe.ts -> package postgres',
        'http/.layer-probe.ts -> db/gateways.ts',
      ]);
    } finally {
      rmSync(probe, { force: true });
    }
  });
});
