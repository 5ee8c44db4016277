// A model validation does not outlive its server. The validation process
// (src/inference/versions/validate-child.ts) runs an uploaded model that may
// loop for ever; the server kills it past its time, but a server killed
// with SIGKILL cannot, and the process ran on, a core taken, for nobody.
// A watchdog thread of its own now ends it once its parent process has
// changed. Here a parent process starts a validation of a looping model, is
// SIGKILLed while the model runs, and the validation ends.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, removeDir, waitFor } from '../helpers/server.js';

let dir = '';
afterAll(() => removeDir(dir));

/** The process's state and its CPU time in clock ticks (/proc/<pid>/stat), or undefined once it is gone. */
function stat(pid: number): { state: string; cpuTicks: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { state: fields[0]!, cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The pids of `pid`'s children. */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('a model validation', () => {
  it('ends when the server that started it is killed with SIGKILL, mid-run', { timeout: 120_000 }, async () => {
    dir = await mkdtemp(join(tmpdir(), 'sense-validation-orphan-'));
    const script = `
      import { readModelConfig } from './src/inference/versions/model-config.ts';
      import { validateModel } from './src/inference/versions/model-validation.ts';
      import { writeModelDir } from './test/fixtures/onnx-models.ts';
      import { fixtureConfig, fixtureSpec } from './test/fixtures/predict-models.ts';
      const directory = await writeModelDir(${JSON.stringify(join(dir, 'looping'))}, fixtureSpec({ loop: { iterations: 1e9 } }), fixtureConfig('looping'));
      const config = await readModelConfig(directory);
      void validateModel(directory, config, {
        memoryBytes: 2048 * 2 ** 20, timeoutMs: 600_000, runTimeoutMs: 600_000, maxBatchSize: 1,
        graphRewrite: true, instanceKind: 'cpu', gpuPrecision: 'fp32', log: { level: 'warn', format: 'text' },
      });
      setInterval(() => {}, 1000); // the server, waiting
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    try {
      // The validation process, once its model has run a second of CPU time (inside its warm-up run).
      const validation = await waitFor(
        async () => children(parent.pid!).find((pid) => (stat(pid)?.cpuTicks ?? 0) > 100),
        60_000,
        'the validation running the looping model',
      );
      parent.kill('SIGKILL');
      await waitFor(
        async () => {
          const state = stat(validation)?.state;
          return state === undefined || state === 'Z';
        },
        10_000,
        'the validation process gone',
      );
    } finally {
      parent.kill('SIGKILL');
    }
    expect(parent.signalCode ?? 'SIGKILL').toBe('SIGKILL');
  });
});
