// A version that failed its validation keeps that verdict on this server
// until its files change: every start used to validate each Failed version
// again in a child process (about 4 s each, readiness waiting on all of
// them), to reach the same verdict. The verdict is kept in the version's
// cache directory (DATA_DIR/models/<id>/.verdict.json, removed with the
// version), under a key made of the version's files (each one's SHA-256),
// its model configuration and the validation limits: new files, a new
// model.json or raised limits make a different key, and the version is
// validated again.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileSha256, sha256 } from '../../lib/sha256.js';

const VERDICT_FILE = '.verdict.json';

/** Files of a version directory that are not the version's own: hidden ones (this verdict) and the prepared model the server writes. */
const notTheVersions = (name: string) => name.startsWith('.') || name.startsWith('model.prepared.');

/** The key of a verdict: the version's files (name and SHA-256 each), its configuration and the validation settings. */
export async function verdictKey(directory: string, config: unknown, settings: unknown): Promise<string> {
  const entries = (await readdir(directory, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && !notTheVersions(entry.name))
    .map((entry) => entry.name)
    .sort();
  const files: string[] = [];
  for (const name of entries) files.push(`${name}:${await fileSha256(join(directory, name))}`);
  return sha256(JSON.stringify({ files, config, settings }));
}

export interface Verdict {
  /** the reason the version's owner reads (no server paths) */
  reason: string;
}

/** The verdict kept for `key`, if there is one and its key is that. */
export async function keptVerdict(cacheDirectory: string, key: string): Promise<Verdict | undefined> {
  try {
    const kept = JSON.parse(await readFile(join(cacheDirectory, VERDICT_FILE), 'utf8')) as {
      key?: unknown;
      reason?: unknown;
    };
    return kept.key === key && typeof kept.reason === 'string' ? { reason: kept.reason } : undefined;
  } catch {
    return undefined; // none, or unreadable: validate
  }
}

export async function keepVerdict(cacheDirectory: string, key: string, verdict: Verdict): Promise<void> {
  await mkdir(cacheDirectory, { recursive: true });
  await writeFile(
    join(cacheDirectory, VERDICT_FILE),
    JSON.stringify({ key, reason: verdict.reason, at: new Date().toISOString() }) + '\n',
  );
}
