// A version that failed its validation keeps that verdict until its files
// change: every start used to validate each Failed version again, in a
// child process, for the same verdict (seconds of readiness per version).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConstantModel, writeModelDir } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { registeredVersions, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

describe('a version that failed its validation', () => {
  it('is not validated again at the next start while its files are the same, and is once they change', async () => {
    const modelsDir = await mkdtemp(join(tmpdir(), 'sense-verdict-'));
    // model.json lists 3 labels; the model's output has 4 + 2 rows.
    await writeModelDir(join(modelsDir, 'broken'), fixtureSpec(), {
      ...fixtureConfig('broken'),
      labels: ['a', 'b', 'c'],
    });
    const start = (dataDir?: string) => startServer({ modelsDir, timeoutMs: 180_000, ...(dataDir ? { dataDir } : {}) });
    const settled = (s: TestServer) =>
      waitFor(
        async () => /model_versions\{status="Initializing"\} 0/.test(await (await fetch(`${s.url}/metrics`)).text()),
        180_000,
        'no version Initializing',
      );
    let server = await start();
    const dataDir = server.dataDir;
    try {
      const id = registeredVersions(server).broken!;
      await settled(server);
      expect(server.stderr()).toContain(`model version failed to load id=${id}`);
      await server.stop();

      // The same files: the verdict stands, no validation.
      server = await start(dataDir);
      await settled(server);
      expect(server.stderr()).toContain(
        `model version failed its validation before, with the same files: not validated again id=${id}`,
      );
      expect(server.stderr()).not.toContain(`model version failed to load id=${id}`);
      expect(await (await fetch(`${server.url}/metrics`)).text()).toContain('model_versions{status="Failed"} 1');
      await server.stop();

      // Its model replaced by one whose output has a row per label: validated again, and Active.
      await writeFile(
        join(modelsDir, 'broken', 'model.onnx'),
        buildConstantModel({
          ...fixtureSpec(),
          outputs: [{ name: 'output0', dims: [1, 4 + 3, 5], values: new Array(7 * 5).fill(0.1) }],
        }),
      );
      server = await start(dataDir);
      await settled(server);
      expect(server.stderr()).not.toContain('not validated again');
      expect(server.stderr()).toContain(`model version active id=${id}`);
    } finally {
      await server.stop();
      await removeDir(dataDir);
      await removeDir(modelsDir);
    }
  }, 600_000);
});
