// The pipeline workers log with the settings of the server's logger (LOG_LEVEL,
// LOG_FORMAT), handed to them in their workerData: they once wrote text at
// info whatever the server was told. Two pools in one process, told
// differently, each log as they were told.
import { describe, expect, it, vi } from 'vitest';
import { jpegDecoder } from '../../src/inference/pipeline/decode-image.js';
import { PipelinePool } from '../../src/inference/pipeline/pipeline-pool.js';
import type { PostprocessTask } from '../../src/inference/pipeline/pipeline-worker.js';
import { Logger, type LogSettings } from '../../src/log.js';
import { waitFor } from '../helpers/server.js';

const SETTINGS = { maxImageBytes: 1024, maxImagePixels: 1024, jpegDecoder: jpegDecoder().decoder };

/** A postprocess task without its model's config: the worker fails it as a bug, which it logs. */
function brokenTask(versionId: string): Omit<PostprocessTask, 'op'> {
  return { versionId, loadKey: versionId, outputInfo: [], outputs: {} } as unknown as Omit<PostprocessTask, 'op'>;
}

/** The line a pool's worker writes (to this process's stderr, as a thread's) for a failed task of `versionId`. */
async function workerLine(settings: LogSettings, versionId: string): Promise<string> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n'));
    return true;
  });
  const pool = new PipelinePool(1, SETTINGS, new Logger(settings));
  try {
    expect(await pool.postprocess(brokenTask(versionId))).toMatchObject({ ok: false });
    return await waitFor(async () => lines.find((line) => line.includes(versionId)), 30_000, `${versionId}'s line`);
  } finally {
    spy.mockRestore();
    await pool.close();
  }
}

describe('pipeline workers', () => {
  it('log at the level and in the format of the logger their pool was given', async () => {
    const json = JSON.parse(await workerLine({ level: 'debug', format: 'json' }, 'json-at-debug'));
    expect(json).toMatchObject({ level: 'error', msg: 'postprocess failed', versionId: 'json-at-debug' });
    // At debug an error carries its stack.
    expect(json.error.stack).toContain(json.error.message);

    const text = await workerLine({ level: 'info', format: 'text' }, 'text-at-info');
    expect(text).toMatch(/^\S+ error postprocess failed versionId=text-at-info error="[^"]+"$/);
  });
});
