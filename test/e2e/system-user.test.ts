// The system user the embedded PostgreSQL runs as under root: several servers
// starting at once on a fresh machine must all find it made, none fail on
// another's half-made user (seen on a GPU host: two benchmark servers, the
// second's start failed on "group 'postgres' already exists").
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureSystemUser } from '../../src/db/embedded.js';

const isRoot = process.getuid?.() === 0;

function uidOf(name: string): number | undefined {
  try {
    return Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
  } catch {
    return undefined;
  }
}

describe('ensureSystemUser', () => {
  // Creating users needs root, which is also the only case the server calls it in (PostgreSQL refuses root).
  it.runIf(isRoot)('creates a missing user once when several processes ask at the same moment', async () => {
    const name = `sense-t${randomBytes(4).toString('hex')}`;
    expect(uidOf(name)).toBeUndefined();
    try {
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => ensureSystemUser(name)));
      expect(results.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'));
      expect(uidOf(name)).toBeGreaterThan(0);
      // And again, now that it exists: nothing to do, nothing fails.
      await ensureSystemUser(name);
    } finally {
      execFileSync('sh', ['-c', `userdel ${name} 2>/dev/null; groupdel ${name} 2>/dev/null; true`]);
    }
  });
});
