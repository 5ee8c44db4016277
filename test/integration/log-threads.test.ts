// A worker thread logs with the settings of the thread that started it
// (LOG_LEVEL, LOG_FORMAT): the pipeline workers and instance threads once
// wrote text at info whatever the server was told.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { setLogFormat, setLogLevel } from '../../src/log.js';

const WORKER = new URL('../fixtures/log-worker.ts', import.meta.url);

/** What a worker started now writes to stderr, once it has exited. */
async function workerLines(): Promise<string[]> {
  // The fixture is TypeScript: the worker registers tsx's loader before importing it.
  const source = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(WORKER.href)}); })`;
  const worker = new Worker(source, { eval: true, stderr: true });
  let text = '';
  worker.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', () => resolve());
  });
  return text.split('\n').filter((line) => line.length > 0);
}

describe('worker threads', () => {
  it('log at the level and in the format of the thread that started them', async () => {
    setLogLevel('debug');
    setLogFormat('json');
    const lines = await workerLines();
    const parsed = lines.map((line) => JSON.parse(line) as { level: string; msg: string; n: number });
    expect(parsed.map((p) => [p.level, p.msg, p.n])).toEqual([
      ['debug', 'worker debug line', 1],
      ['info', 'worker info line', 2],
    ]);

    setLogLevel('warn');
    setLogFormat('text');
    expect(await workerLines()).toEqual([]);
  });
});
