// Readiness on a fresh start with the two bundled models: a load balancer
// that sends traffic at the first 200 must find every version the server
// found at start loaded, not only the first one to finish (a predict to the
// other would be answered 500 "status Initializing").
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { native } from '../../src/inference/native.js';
import { DEMO_MODEL_VERSION_ID, DEMO_SEG_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { makeImage } from '../helpers/images.js';
import { predict } from '../helpers/predict.js';
import { removeDir, ROOT, startReadyServer, startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { INFERENCE_API_KEY: 'ready-key' } }); // MODELS_DIR: the repository's models/
});

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
});

describe('GET /v2/health/ready', () => {
  it('answers 200 only once every version found at start has loaded', async () => {
    // Polled often, so that the first 200 is seen about when it first comes.
    const notReady = new Set<string>();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await fetch(`${server.url}/v2/health/ready`);
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      notReady.add(((await res.json()) as { error: string }).error);
      if (Date.now() > deadline) throw new Error(`not ready after 120 s: ${[...notReady].join(' | ')}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // A fresh database: each bundled version is validated in a child process first, which takes seconds.
    expect(notReady).toContain('model versions are still loading');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('model_versions{status="Initializing"} 0');
    // every bundled model directory (demo, its segmentation and colour models, the demo pipeline) one version
    const bundled = readdirSync(join(ROOT, 'models')).filter((d) => existsSync(join(ROOT, 'models', d, 'model.onnx')));
    expect(bundled.length).toBeGreaterThanOrEqual(2);
    expect(metrics).toContain(`model_versions{status="Active"} ${bundled.length}`);
    const image = await makeImage('png', 64, 64);
    for (const id of [DEMO_MODEL_VERSION_ID, DEMO_SEG_MODEL_VERSION_ID]) {
      expect((await predict(server.url, id, image, { key: 'ready-key' })).status).toBe(200);
    }
  });
});

describe('the JPEG decoder', () => {
  it('is the one JPEG_DECODER pins, named in readiness and the log', async () => {
    const image = await makeImage('jpeg', 640, 360);
    const here = native.hasJpegDecoder ? 'libturbojpeg' : 'sharp';
    expect(((await (await fetch(`${server.url}/v2/health/ready`)).json()) as { jpegDecoder: string }).jpegDecoder).toBe(
      here,
    );
    const pinned = await startReadyServer({ env: { INFERENCE_API_KEY: 'ready-key', JPEG_DECODER: 'sharp' } });
    try {
      expect(await (await fetch(`${pinned.url}/v2/health/ready`)).json()).toMatchObject({
        status: 'ready',
        jpegDecoder: 'sharp',
      });
      expect(pinned.stderr()).toMatch(/JPEG images are decoded by sharp.*JPEG_DECODER=sharp/);
      expect((await predict(pinned.url, DEMO_MODEL_VERSION_ID, image, { key: 'ready-key' })).status).toBe(200);
    } finally {
      await pinned.stop();
      await removeDir(pinned.dataDir);
    }
  });
});
