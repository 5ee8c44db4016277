// docs/MODELS.md's tiny model for trying things: its command, run as the
// document writes it (into a temporary directory instead of /tmp/tiny),
// writes a model directory that a real server takes as an upload, loads
// (validation, warm-up) and predicts with, answering what the document says.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadModelVersion } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { predict } from '../helpers/predict.js';
import { removeDir, ROOT } from '../helpers/server.js';

let platform: Platform;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sense-tiny-'));
  platform = await startPlatform();
}, 180_000);

afterAll(async () => {
  await stopPlatform(platform ?? {});
  await removeDir(dir);
});

/** The documented command that writes the tiny model: the one line of MODELS.md's ```sh blocks that runs the script. */
function documentedCommand(): string {
  const text = readFileSync(join(ROOT, 'docs/MODELS.md'), 'utf8');
  const section = text.slice(text.indexOf('### A tiny model for trying things'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const lines = block.split('\n').filter((line) => line.includes('scripts/tiny-model.ts'));
  expect(lines, 'the command of "A tiny model for trying things"').toHaveLength(1);
  return lines[0]!;
}

describe("MODELS.md's tiny model", () => {
  it('is written by the documented command, uploaded, loaded and run', { timeout: 180_000 }, async () => {
    const command = documentedCommand();
    expect(command).toContain('/tmp/tiny');
    const run = spawnSync('bash', ['-e', '-c', command.replaceAll('/tmp/tiny', dir)], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const model = await readFile(join(dir, 'model.onnx'));
    const config = await readFile(join(dir, 'model.json'), 'utf8');
    expect(model.length).toBeLessThan(4096);

    const { admin, server } = platform;
    const created = await admin.post('/v2/models', { name: 'tiny' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const uploaded = await uploadModelVersion(server.url, admin, created.body.data.id, { model, config }, '?wait=true');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.data.status, JSON.stringify(uploaded.body.data)).toBe('Active');

    const key = (await admin.post('/v2/inference/api-keys', { name: 'tiny model test' })).body.data.apiKey as string;
    const red = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const answer = await predict(server.url, uploaded.body.data.id, red, { key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // As MODELS.md says: the middle half of the image, "red", a score of 1.
    expect(answer.body).toEqual({
      red: [{ type: 'rectangle', data: { min: [0.25, 0.25], max: [0.75, 0.75] }, score: 1, children: {} }],
    });
    const dark = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#404040' } })
      .png()
      .toBuffer();
    expect((await predict(server.url, uploaded.body.data.id, dark, { key })).body).toEqual({});
  });
});
