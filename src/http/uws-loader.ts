// Which uWebSockets.js build to load, chosen at start for the running Node.
//
// Upstream uWebSockets.js is not published on npm; two republished builds are
// installed (package.json) and tried in this order:
//
//  1. "uWebSockets.js" = @trufflesuite/uws-js-unofficial 20.30.0-unofficial.0:
//     binaries for Node 16, 18, 20 (ABI 93, 108, 115), glibc >= 2.27. The
//     build this project was tested with; no SSL. Its own entry falls back
//     silently to a slow JS shim when its binary does not load: here its
//     binary is loaded first, so that never happens unnoticed.
//  2. "uws-upstream" = @btc-vision/uwebsockets.js 20.57.0 (an optional
//     dependency): upstream v20.57.0 binaries for Node 20, 22, 24, 25 (ABI 115,
//     127, 137, 141), all linked against glibc >= 2.38 (Debian 13, Ubuntu
//     24.04, RHEL 10 and later). Not on Debian 12 (2.36), Ubuntu 22.04 (2.35),
//     RHEL 9 (2.34); not on musl (Alpine).
//
// The first candidate whose binary for this platform, arch and ABI loads wins.
// When none does, UwsLoadError says why for each, and which combinations run.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as UwsTypes from 'uWebSockets.js';

export type Uws = typeof UwsTypes;

export interface UwsCandidate {
  /** the dependency name in package.json (an npm alias) */
  name: string;
  /** the published package and version behind the alias */
  source: string;
  /** folder of the `uws_<platform>_<arch>_<abi>.node` files, relative to the package's main file */
  binaryDir: string;
  /** the smallest glibc its Linux binaries need, for the diagnostic */
  minGlibc: string;
  /** one line: which Node versions and systems it serves */
  serves: string;
}

/** In the order they are tried. */
export const UWS_CANDIDATES: readonly UwsCandidate[] = [
  {
    name: 'uWebSockets.js',
    source: '@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0',
    binaryDir: '../binaries',
    minGlibc: '2.27',
    serves: 'Node 16/18/20 (ABI 93/108/115) on glibc >= 2.27',
  },
  {
    name: 'uws-upstream',
    source: '@btc-vision/uwebsockets.js@20.57.0',
    binaryDir: '.',
    minGlibc: '2.38',
    serves: 'Node 20/22/24/25 (ABI 115/127/137/141) on glibc >= 2.38',
  },
];

/** What works, for the message when nothing loads. */
const UWS_SUPPORTED =
  'Node 20 on Linux x64 with glibc >= 2.27 (e.g. Debian 11/12, Ubuntu 20.04+, RHEL 8+); ' +
  'Node 22 and 24 on Linux x64 with glibc >= 2.38 (e.g. Debian 13, Ubuntu 24.04+, Fedora 39+, RHEL 10). ' +
  'Node 22/24 on older glibc (Debian 12, Ubuntu 22.04, RHEL 9) and musl (Alpine) have no build on npm: use Node 20 there, or a newer system or container image.';

export interface Runtime {
  nodeVersion: string;
  abi: string;
  platform: string;
  arch: string;
  /** null where Node was not linked against glibc (musl) or is not on Linux */
  glibc: string | null;
}

export interface LoaderIo {
  /** the resolved main file of an installed package; throws if it is not installed */
  resolve(name: string): string;
  /** require() a file or package */
  load(id: string): unknown;
  /** file names in a folder; [] if it cannot be read */
  list(dir: string): string[];
}

export interface Attempt {
  candidate: UwsCandidate;
  /** why it did not load, one line; undefined for the one that loaded */
  error?: string;
}

export class UwsLoadError extends Error {
  constructor(
    readonly runtime: Runtime,
    readonly attempts: Attempt[],
  ) {
    super(describeFailure(runtime, attempts));
    this.name = 'UwsLoadError';
  }
}

export function currentRuntime(): Runtime {
  let glibc: string | null = null;
  if (process.platform === 'linux') {
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
    glibc = header?.glibcVersionRuntime ?? null;
  }
  return {
    nodeVersion: process.version,
    abi: process.versions.modules,
    platform: process.platform,
    arch: process.arch,
    glibc,
  };
}

export function nodeIo(): LoaderIo {
  const require = createRequire(import.meta.url);
  return {
    resolve: (name) => require.resolve(name),
    load: (id) => require(id),
    list: (dir) => {
      try {
        return readdirSync(dir);
      } catch {
        return [];
      }
    },
  };
}

/** True when the module is the native binding, not the fork's JS fallback. */
export function isNativeUws(mod: unknown): boolean {
  const m = mod as { getParts?: unknown; App?: unknown } | null;
  return (
    !!m && typeof m.getParts === 'function' && typeof m.App === 'function' && /\[native code\]/.test(String(m.App))
  );
}

function versionBelow(have: string, need: string): boolean {
  const a = have.split('.').map(Number);
  const b = need.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** The first line of a load error, with the binary's long path shortened. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n').find((l) => l.trim() !== '') ?? text).trim();
}

/**
 * Tries each candidate in order; returns the first that loads as a native
 * binding, or throws UwsLoadError saying why each did not.
 */
export function selectUws(
  candidates: readonly UwsCandidate[],
  runtime: Runtime,
  io: LoaderIo,
): { uws: Uws; candidate: UwsCandidate; attempts: Attempt[] } {
  const attempts: Attempt[] = [];
  const file = `uws_${runtime.platform}_${runtime.arch}_${runtime.abi}.node`;
  const prefix = `uws_${runtime.platform}_${runtime.arch}_`;
  for (const candidate of candidates) {
    let main: string;
    try {
      main = io.resolve(candidate.name);
    } catch {
      attempts.push({
        candidate,
        error: 'not installed (an optional dependency: was it installed with --omit=optional?)',
      });
      continue;
    }
    const dir = path.resolve(path.dirname(main), candidate.binaryDir);
    const files = io.list(dir);
    if (!files.includes(file)) {
      const abis = files
        .filter((f) => f.startsWith(prefix) && f.endsWith('.node'))
        .map((f) => f.slice(prefix.length, -'.node'.length))
        .sort((x, y) => Number(x) - Number(y));
      attempts.push({
        candidate,
        error: `no binary for ABI ${runtime.abi} on ${runtime.platform}-${runtime.arch} (${file}); it has ${
          abis.length ? `ABI ${abis.join(', ')}` : 'none'
        } for ${runtime.platform}-${runtime.arch}`,
      });
      continue;
    }
    let binding: unknown;
    try {
      binding = io.load(path.join(dir, file));
    } catch (error) {
      let why = `${file} did not load: ${firstLine(error)}`;
      if (runtime.platform === 'linux') {
        if (runtime.glibc === null)
          why += ` (it needs glibc >= ${candidate.minGlibc}; this Node is not linked against glibc)`;
        else if (versionBelow(runtime.glibc, candidate.minGlibc))
          why += ` (it needs glibc >= ${candidate.minGlibc}; this system has ${runtime.glibc})`;
      }
      attempts.push({ candidate, error: why });
      continue;
    }
    if (!isNativeUws(binding)) {
      attempts.push({ candidate, error: `${file} loaded but is not the native uWebSockets.js binding` });
      continue;
    }
    // The package entry adds its JS helpers around the binding it just loaded
    // (from the require cache, so the same binary).
    let uws: unknown;
    try {
      uws = io.load(candidate.name);
    } catch (error) {
      attempts.push({ candidate, error: `its binary loaded but the package did not: ${firstLine(error)}` });
      continue;
    }
    if (!isNativeUws(uws)) {
      attempts.push({ candidate, error: 'its package fell back to the JS implementation although its binary loaded' });
      continue;
    }
    attempts.push({ candidate });
    return { uws: uws as Uws, candidate, attempts };
  }
  throw new UwsLoadError(runtime, attempts);
}

function describeFailure(runtime: Runtime, attempts: Attempt[]): string {
  const libc =
    runtime.platform !== 'linux'
      ? runtime.platform
      : runtime.glibc === null
        ? 'no glibc (musl?)'
        : `glibc ${runtime.glibc}`;
  const lines = [
    `uWebSockets.js native binding did not load: no installed build runs on Node ${runtime.nodeVersion} ` +
      `(ABI ${runtime.abi}), ${runtime.platform}-${runtime.arch}, ${libc}.`,
    'Tried, in order:',
    ...attempts.map(
      (a, i) =>
        `  ${i + 1}. ${a.candidate.name} (${a.candidate.source}; ${a.candidate.serves}): ${a.error ?? 'loaded'}`,
    ),
    `Runs on: ${UWS_SUPPORTED}`,
    'See "Node versions" in docs/TROUBLESHOOTING.md.',
  ];
  return lines.join('\n');
}

/** Loads the first uWebSockets.js build that runs here (see UWS_CANDIDATES). */
export function loadUwsBuild(): { uws: Uws; candidate: UwsCandidate } {
  return selectUws(UWS_CANDIDATES, currentRuntime(), nodeIo());
}
