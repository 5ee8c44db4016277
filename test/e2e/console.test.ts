// The web console in a real browser (Debian's chromium, driven by
// playwright-core) against the real server: the bootstrap admin signs in,
// creates an API key, uploads a model and watches it go Active, predicts on
// an image and sees the boxes; draws landmarks and edits one on the map;
// the links of the emails land on working pages; a member sees no key
// management; an event a device sends shows in the live tail, the search
// finds it, and the device's page shows its last location and whether it is
// connected over MQTT; a camera's stream, its state and why, its latest
// frame's boxes with their trackIds (a clip read from a file, where ffmpeg
// is), its counting lines with their `in` arrows, one drawn by its two ends;
// a rule's camera object conditions; a version's child stages edited, and
// the children they answer drawn and listed. Skipped, saying so, where chromium is not installed
// (`apt-get install chromium`; .ci/run does), except where
// CONSOLE_TESTS_REQUIRED=1 (.ci/run sets it): there a missing browser fails
// the run instead of skipping what it should check.
//
// CONSOLE_SCREENSHOTS=1 also saves the pages into docs/console-*.png (docs/CONSOLE.md).
import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTaskModels } from '../fixtures/task-models.js';
import { ADMIN, outboxBody, uploadModelVersion } from '../helpers/api.js';
import { makeImage } from '../helpers/images.js';
import { clipFrames, encodeClip } from '../helpers/moving-shapes.js';
import { freePort } from '../helpers/mqtt.js';
import { predict } from '../helpers/predict.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { removeDir, ROOT, waitFor } from '../helpers/server.js';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
/** The flags chromium needs here: no sandbox as root, no GPU, nothing fetched from the network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const NAV = ['Models', 'API keys', 'Channels', 'Projects', 'Landmarks', 'Rules', 'Devices', 'Events', 'Settings'];
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const TILE_URL = 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CONSOLE_TESTS_REQUIRED === '1') {
  throw new Error(
    `no chromium at ${CHROMIUM}, and CONSOLE_TESTS_REQUIRED=1: the console's browser tests must run (apt-get install chromium, or set CHROMIUM_BIN)`,
  );
}
if (!hasChromium)
  console.warn(
    `console browser tests skipped: no chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_BIN)`,
  );

let platform: Platform | undefined;
let browser: Browser | undefined;
/** STREAM_FILES_DIR: where a camera's file:// stream (a clip encoded by ffmpeg) is read from */
let streamFiles: string | undefined;
/** ffmpeg encodes the clip and reads streams: without it the page of a camera whose stream runs is not checked */
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
/** the server's MQTT listener: a device's page says whether it is connected */
let mqttPort: number;

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(ROOT, 'docs', `console-${name}.png`) });
}

/** A page in a fresh browser context (its own sessionStorage: signed out). */
async function newPage(): Promise<Page> {
  // clipboard permissions: the Copy button of a key shown once writes to it
  const context = await browser!.newContext({
    viewport: { width: 1280, height: 860 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept()); // the confirm() before a deletion
  return page;
}

/** The link of the newest email to `to`, on this server (PUBLIC_URL names another port). */
async function emailLink(to: string, path: string): Promise<string> {
  const body = await outboxBody(platform!.sql, to);
  const link = body && new RegExp(`https?://[^/\\s]+(${path}\\?token=[\\w-]+)`).exec(body);
  if (!link) throw new Error(`no ${path} link in the email to ${to}: ${body}`);
  return platform!.server.url + link[1];
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await signedInAs(page, email);
}

/** Waits until the console shows its pages to `email`: the server accepted the session's token. */
async function signedInAs(page: Page, email: string): Promise<void> {
  await page.locator(`main[data-signed-in="${email}"]`).waitFor();
}

/**
 * A camera registered in a new channel, its profile and frames written as the
 * server stores them (this server runs no model); `frame` adds a frame's
 * event, kept with its image when one is given.
 */
async function cameraDevice(channelName: string, zones: unknown[]) {
  const { admin, sql, server } = platform!;
  const channel = (await admin.post('/v2/channels', { name: channelName, type: 'iot' })).body.data;
  const registered = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  const { deviceId, organizationId } = (await registered.json()) as { deviceId: string; organizationId: string };
  await sql`INSERT INTO device_vision (device_id, organization_id, model_version_id, zones) VALUES (${deviceId}, ${organizationId}, 'yard-model', ${JSON.stringify(zones)}::text::jsonb)`;
  const frame = async (detections: Record<string, unknown[]>, image?: Buffer) => {
    const id = ulid();
    const payload = {
      modelVersionId: 'yard-model',
      detections,
      counts: {},
      zoneCounts: {},
      ...(image && { frameKept: true }),
    };
    if (image) {
      await sql`INSERT INTO kept_frames (event_id, organization_id, account_id, device_id, content_type, bytes, sha256, data)
                VALUES (${id}, ${organizationId}, ${organizationId}, ${deviceId}, 'image/png', ${image.length}, 'unchecked', ${image})`;
    }
    await sql`INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, dedup_key, payload)
              VALUES (${id}, ${organizationId}, ${channel.id}, ${deviceId}, 'iot', now(), ${`u:${id}`}, ${JSON.stringify(payload)}::text::jsonb)`;
    return id;
  };
  return { deviceId, channelId: channel.id as string, frame };
}

let demoVersion: Promise<string> | undefined;
/** An Active version of the demo detector (circles and squares), uploaded once: what a camera's stream runs through. */
function demoVersionId(): Promise<string> {
  demoVersion ??= (async () => {
    const { admin, server } = platform!;
    const model = (await admin.post('/v2/models', { name: 'stream detector' })).body.data;
    const files = {
      model: await readFile(join(ROOT, 'models/demo/model.onnx')),
      config: await readFile(join(ROOT, 'models/demo/model.json'), 'utf8'),
    };
    const version = (await uploadModelVersion(server.url, admin, model.id, files, '?wait=true')).body.data;
    expect(version.status).toBe('Active');
    return version.id as string;
  })();
  return demoVersion;
}

let stageVersions: Promise<{ parentModel: string; parent: string; child: string }> | undefined;
/** Two copies of the demo detector, uploaded once: a parent whose stages the console edits, and a detector child. */
function stagedVersions() {
  stageVersions ??= (async () => {
    const { admin, server } = platform!;
    const files = {
      model: await readFile(join(ROOT, 'models/demo/model.onnx')),
      config: await readFile(join(ROOT, 'models/demo/model.json'), 'utf8'),
    };
    const upload = async (name: string) => {
      const model = (await admin.post('/v2/models', { name })).body.data;
      const version = (await uploadModelVersion(server.url, admin, model.id, files, '?wait=true')).body.data;
      expect(version.status).toBe('Active');
      return { model: model.id as string, version: version.id as string };
    };
    const parent = await upload('shapes with stages');
    const child = await upload('shapes in crops');
    return { parentModel: parent.model, parent: parent.version, child: child.version };
  })();
  return stageVersions;
}

const navLinks = (page: Page) => page.getByRole('navigation').getByRole('link').allTextContents();

beforeAll(async () => {
  // The console as its sources are now (npm ci built it once already).
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/build-web.mjs')], { cwd: ROOT });
  // the live tail polls four times a second, so that its test waits less
  // Tiles from a port where nothing listens: the maps must work without them.
  // Webhooks to `localhost` are let through (a receiver in the test), those to 127.0.0.1 still refused.
  mqttPort = await freePort();
  streamFiles = await mkdtemp(join(tmpdir(), 'console-streams-'));
  platform = await startPlatform({
    STREAM_FILES_DIR: streamFiles,
    MQTT_PORT: String(mqttPort),
    EVENT_STREAM_POLL_MS: '250',
    MAP_TILE_URL: TILE_URL,
    WEBHOOK_ALLOWED_HOSTS: 'localhost',
  });
  if (hasChromium) browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (platform) await stopPlatform(platform);
  if (streamFiles) await removeDir(streamFiles);
});

describe('the console beside the API', () => {
  const fetchPath = (path: string, accept = 'text/html') =>
    fetch(`${platform!.server.url}${path}`, { headers: { accept } });

  it('answers its pages with index.html, revalidated, and its hashed assets for good', async () => {
    const page = await fetchPath('/models/01JDEM0DETECT0R00000000001/predict');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    // Pages may not be framed, nor load scripts from elsewhere (the browser tests below run under this policy).
    for (const path of ['/models', '/', '/docs']) {
      const res = await fetchPath(path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self'");
    }
    const html = await page.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetchPath(script, '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('leaves the API its paths: unknown ones stay JSON 404s, GET / answers API clients the version', async () => {
    for (const path of [
      '/v2/nothing-here',
      '/v1/nothing',
      '/metrics/x',
      '/openapi.json/x',
      '/assets/missing.js',
      '/assets/..%2f..%2fpackage.json',
    ]) {
      const res = await fetchPath(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/json');
    }
    // a page path answers a browser with the console, an API client with the API's 404
    expect((await fetchPath('/no/such/route')).status).toBe(200);
    const apiClient = await fetchPath('/no/such/route', '*/*');
    expect(apiClient.status).toBe(404);
    expect(apiClient.headers.get('content-type')).toBe('application/json');
    const version = await fetchPath('/', 'application/json');
    expect(await version.json()).toMatchObject({ name: 'sense-inference-server' });
    expect(version.headers.get('vary')).toBe('Accept');
    const page = await fetchPath('/');
    expect(await page.text()).toContain('<div id="app">');
    expect(page.headers.get('vary')).toBe('Accept, Accept-Encoding');
    expect((await fetchPath('/openapi.json', '*/*')).headers.get('content-type')).toBe('application/json');
  });
});

describe.skipIf(!hasChromium)('the web console in chromium', () => {
  it('signs the admin in, creates an API key, uploads a model, sees it go Active and draws its detections', async () => {
    const page = await newPage();
    await page.goto(`${platform!.server.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, ADMIN.email, ADMIN.password);
    expect(new URL(page.url()).pathname).toBe('/models');
    expect(await navLinks(page)).toEqual(NAV);

    // API keys: created, shown once, disabled and enabled again.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('console test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = await page.getByTestId('new-key').inputValue();
    expect(apiKey).toMatch(/^sk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
    const row = page.locator('tr', { hasText: 'console test' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Disabled');
    await screenshot(page, 'api-keys');
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Enabled');

    // Models: a new model, a version uploaded from the demo's files, followed until Active.
    await page.getByRole('link', { name: 'Models' }).click();
    await page.getByLabel('New model name').fill('shapes');
    await page.getByRole('button', { name: 'Create model' }).click();
    const model = page.locator('[data-model-name="shapes"]');
    await model.locator('input[name=model]').setInputFiles(join(ROOT, 'models/demo/model.onnx'));
    await model.locator('input[name=config]').setInputFiles(join(ROOT, 'models/demo/model.json'));
    await model.getByRole('button', { name: 'Upload version' }).click();
    await model.locator('[data-version-status="Active"]').waitFor({ timeout: 60_000 });
    await screenshot(page, 'models');

    // A version whose model.json contradicts its model: Failed, with the reason, then deleted.
    const contradicting = join(platform!.server.dataDir, 'contradicting-model.json');
    const demoConfig = JSON.parse(await readFile(join(ROOT, 'models/demo/model.json'), 'utf8')) as { labels: string[] };
    await writeFile(contradicting, JSON.stringify({ ...demoConfig, labels: demoConfig.labels.slice(0, 3) }));
    await model.locator('input[name=model]').setInputFiles(join(ROOT, 'models/demo/model.onnx'));
    await model.locator('input[name=config]').setInputFiles(contradicting);
    // Uploaded at 1 MiB/s (chromium's network emulation), so that its progress bar is seen moving.
    const network = await page.context().newCDPSession(page);
    await network.send('Network.enable');
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1024 * 1024,
    });
    await model.getByRole('button', { name: 'Upload version' }).click();
    const progress = model.getByRole('progressbar', { name: 'Upload progress' });
    await expect
      .poll(async () => Number((await progress.getAttribute('value')) ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(0);
    expect(Number(await progress.getAttribute('value'))).toBeLessThan(1);
    await progress.waitFor({ state: 'detached', timeout: 60_000 }); // gone once the upload is answered
    await network.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const failed = model.locator('tr', { has: page.locator('[data-version-status="Failed"]') });
    await failed.waitFor({ timeout: 60_000 });
    expect(await failed.locator('.reason').textContent()).toContain('model.json lists 3 labels');
    await failed.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => model.locator('[data-version-status="Failed"]').count()).toBe(0);
    expect(await model.locator('[data-version-status="Active"]').count()).toBe(1);

    // Try it: the key created above, the sample scene, its boxes drawn.
    await model.getByRole('link', { name: 'Try it' }).click();
    await page.getByLabel('Inference API key').fill(apiKey);
    await page.locator('input[name=image]').setInputFiles(join(ROOT, 'samples/scene.jpg'));
    const detections = page.getByTestId('detections').locator('li');
    await detections.first().waitFor();
    const canvas = page.getByTestId('prediction-canvas');
    const drawn = Number(await canvas.getAttribute('data-boxes'));
    expect(drawn).toBeGreaterThan(0);
    expect(await detections.count()).toBe(drawn);
    // the canvas holds the image at its own size (samples/scene.jpg is 1106×448)
    expect([await canvas.getAttribute('width'), await canvas.getAttribute('height')]).toEqual(['1106', '448']);
    const answer = JSON.parse((await page.getByTestId('raw-json').textContent())!) as Record<string, unknown[]>;
    expect(Object.keys(answer).length).toBeGreaterThan(0);
    await screenshot(page, 'predict');
    // the slider starts at the model's default threshold (0.35 for the demo; before: 0.25 whatever the model),
    // so what is drawn is what the API answers a client that sets none
    expect(await page.locator('input[name=threshold]').inputValue()).toBe('0.35');
    const versionId = /\/models\/([^/]+)\/predict/.exec(page.url())![1]!;
    const byDefault = await predict(platform!.server.url, versionId, await readFile(join(ROOT, 'samples/scene.jpg')), {
      key: apiKey,
    });
    expect(drawn).toBe(Object.values(byDefault.body as Record<string, unknown[]>).flat().length);
    // the slider filters what is drawn: at 1 nothing is left
    await page.locator('input[name=threshold]').fill('1');
    await expect.poll(() => canvas.getAttribute('data-boxes')).toBe('0');
    expect(await detections.count()).toBe(0);
    // a file the browser cannot decode: its error, and no longer the previous image under it
    const notAnImage = join(platform!.server.dataDir, 'not-an-image.jpg');
    await writeFile(notAnImage, 'this is text, not a JPEG');
    await page.locator('input[name=image]').setInputFiles(notAnImage);
    await page.locator('.error').first().waitFor();
    await expect.poll(() => canvas.getAttribute('width')).toBe('0');
  });

  it('draws the polygons of a segmentation model and the keypoints of a pose model', async () => {
    // The fixture models of test/fixtures/task-models.ts, whose answers are
    // known: two masks above the threshold; two people with three visible
    // keypoints between them (keypoint_threshold's default is 0.5).
    const tasks = await makeTaskModels();
    const admin = platform!.admin;
    const key = (await admin.post('/v2/inference/api-keys', { name: 'console tasks' })).body.data.apiKey as string;
    const upload = async (name: string) => {
      const model = (await admin.post('/v2/models', { name })).body.data;
      const files = {
        model: await readFile(join(tasks, name, 'model.onnx')),
        config: await readFile(join(tasks, name, 'model.json'), 'utf8'),
      };
      const version = (await uploadModelVersion(platform!.server.url, admin, model.id, files)).body.data.id as string;
      await waitFor(
        async () => (await admin.get(`/v2/model-versions/${version}`)).body.data.status === 'Active',
        60_000,
        `${name} Active`,
      );
      return version;
    };
    const versions = { seg: await upload('seg'), pose: await upload('pose') };
    await removeDir(tasks);

    const page = await newPage();
    await page.goto(`${platform!.server.url}/models/${versions.seg}/predict`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Inference API key').fill(key);
    const canvas = page.getByTestId('prediction-canvas');
    const drawnOn = async (image: string) => {
      await page.locator('input[name=image]').setInputFiles(join(ROOT, image));
      await page.getByTestId('detections').locator('li').first().waitFor();
      return canvas.getAttribute('data-drawn');
    };
    expect(await drawnOn('samples/scene.jpg')).toBe('0 rectangles, 2 polygons, 0 points');
    expect(await page.getByTestId('detections').textContent()).toContain('polygon of');

    await page.goto(`${platform!.server.url}/models/${versions.pose}/predict`);
    await page.getByTestId('prediction-canvas').waitFor({ state: 'attached' });
    expect(await drawnOn('samples/scene.jpg')).toBe('2 rectangles, 0 polygons, 3 points');
  });

  it("edits a version's child stages: one with a detector child added, saved and read back after a reload, a refused one's reason shown, then removed", async () => {
    const { admin, server } = platform!;
    const { parent, child } = await stagedVersions();
    const page = await newPage();
    await page.goto(`${server.url}/models`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const row = page.locator(`tr[data-version-id="${parent}"]`);
    const stages = page.locator(`[data-stages-of="${parent}"]`);
    await row.getByRole('button', { name: 'Edit stages' }).click();
    const editor = stages.getByTestId('stages-editor');
    await editor.getByRole('button', { name: 'Add a stage' }).click();
    const stage = editor.getByTestId('stage-draft');
    expect(await stage.count()).toBe(1);
    // the version as its own child: a cycle, refused with the server's reason
    await stage.getByLabel('circle', { exact: true }).check();
    await stage.getByLabel('Child version', { exact: true }).selectOption(parent);
    await editor.getByRole('button', { name: 'Save stages' }).click();
    expect(await editor.getByRole('alert').textContent()).toMatch(/leads back to this version/);
    expect((await admin.get(`/v2/model-versions/${parent}`)).body.data.stages).toEqual([]);

    // the demo detector's other copy on padded crops of every shape, the 3 best at most
    await stage.getByLabel('Child version', { exact: true }).selectOption(child);
    for (const label of ['square', 'triangle']) await stage.getByLabel(label, { exact: true }).check();
    await stage.getByLabel('Padding').fill('1');
    await stage.getByLabel('At most per image').fill('3');
    await stage.getByLabel("Child's threshold").fill('0.3');
    await editor.getByRole('button', { name: 'Save stages' }).click();
    await editor.waitFor({ state: 'detached' });
    expect((await admin.get(`/v2/model-versions/${parent}`)).body.data.stages).toEqual([
      {
        labels: ['circle', 'square', 'triangle'],
        modelVersionId: child,
        crop: { padding: 1, square: false, minSize: 4 },
        maxPerImage: 3,
        options: { threshold: 0.3 },
      },
    ]);

    // after a reload: listed under the version, and read back into the editor
    await page.reload();
    await signedInAs(page, ADMIN.email);
    const listed = stages.getByTestId('stage');
    await listed.waitFor();
    expect(await listed.textContent()).toMatch(
      new RegExp(
        `^circle, square, triangle → shapes in crops v1 ${child} padding 1 · min 4 px · 3 per image at most · threshold 0.3$`,
      ),
    );
    await row.getByRole('button', { name: 'Edit stages' }).click();
    expect(await stage.count()).toBe(1);
    expect(await stage.getByLabel('Child version', { exact: true }).inputValue()).toBe(child);
    expect(await stage.getByLabel('Padding').inputValue()).toBe('1');
    expect(await stage.getByLabel('Min size (px)').inputValue()).toBe('4');
    expect(await stage.getByLabel('At most per image').inputValue()).toBe('3');
    expect(await stage.getByLabel("Child's threshold").inputValue()).toBe('0.3');
    expect(await stage.getByLabel('Square', { exact: true }).isChecked()).toBe(false);
    for (const label of ['circle', 'square', 'triangle'])
      expect(await stage.getByLabel(label, { exact: true }).isChecked(), label).toBe(true);
    expect(await stage.getByLabel('star', { exact: true }).isChecked()).toBe(false);

    // removed: the version has none again
    await stage.getByRole('button', { name: 'Remove stage' }).click();
    await editor.getByRole('button', { name: 'Save stages' }).click();
    await stages.waitFor({ state: 'detached' });
    expect((await admin.get(`/v2/model-versions/${parent}`)).body.data.stages).toEqual([]);
  });

  it("draws and lists the children a version's child stages answer, and says which child could not run", async () => {
    const { admin, server } = platform!;
    const { parentModel, parent, child } = await stagedVersions();
    const scene = await readFile(join(ROOT, 'samples/scene.jpg'));
    const key = (await admin.post('/v2/inference/api-keys', { name: 'console stages' })).body.data.apiKey as string;
    const set = await admin.put(`/v2/models/${parentModel}/versions/${parent}/stages`, {
      stages: [
        {
          labels: ['circle', 'square', 'triangle', 'star', 'cross', 'ring', 'arrow', 'traffic cone'],
          modelVersionId: child,
          crop: { padding: 1 },
          maxPerImage: 3,
          options: { threshold: 0.3 },
        },
      ],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // every server reads the stages again (NOTIFY): this one, once its predict shows children
    const withChildren = (body: Record<string, Array<{ children: Record<string, unknown[]> }>>) =>
      Object.values(body)
        .flat()
        .filter((d) => Object.keys(d.children).length > 0).length;
    let expected = 0;
    await waitFor(async () => {
      expected = withChildren((await predict(server.url, parent, scene, { key })).body);
      return expected > 0;
    });

    const page = await newPage();
    await page.goto(`${server.url}/models/${parent}/predict`);
    await signIn(page, ADMIN.email, ADMIN.password);
    expect(await page.getByTestId('stages').textContent()).toContain(`→ ${child}`);
    await page.getByLabel('Inference API key').fill(key);
    await page.locator('input[name=image]').setInputFiles(join(ROOT, 'samples/scene.jpg'));
    const detections = page.getByTestId('detections').locator('li');
    await detections.first().waitFor();
    const canvas = page.getByTestId('prediction-canvas');
    // the child's boxes drawn inside their parents: more rectangles than detections
    expect(Number(await canvas.getAttribute('data-children'))).toBeGreaterThan(0);
    const drawn = /^(\d+) rectangles/.exec((await canvas.getAttribute('data-drawn'))!)![1];
    expect(Number(drawn)).toBe(
      Number(await canvas.getAttribute('data-boxes')) + Number(await canvas.getAttribute('data-children')),
    );
    // listed after each parent: "circle 0.951 … — circle 0.973"
    const listed = detections.filter({ has: page.getByTestId('children') });
    expect(await listed.count()).toBe(expected);
    expect(await listed.first().textContent()).toMatch(/^[a-z ]+ 0\.\d{3} .* — [a-z ]+ 0\.\d{3}/);
    expect(await page.getByTestId('children-skipped').count()).toBe(0);

    // the child deleted: the parent's detections alone, and the header's reason shown
    expect((await admin.delete(`/v2/model-versions/${child}`)).status).toBe(204);
    await waitFor(
      async () => (await predict(server.url, parent, scene, { key })).headers.get('x-children-skipped') !== null,
    );
    // (another file's name: choosing the same file again changes nothing, the input sends no change)
    const again = join(server.dataDir, 'scene-again.jpg');
    await writeFile(again, scene);
    await page.locator('input[name=image]').setInputFiles(again);
    const skipped = page.getByTestId('children-skipped');
    await skipped.waitFor();
    expect(await skipped.textContent()).toBe(`Child stages skipped: ${child}: the version does not exist`);
    await detections.first().waitFor();
    await expect.poll(() => canvas.getAttribute('data-children')).toBe('0');
    expect(await page.getByTestId('children').count()).toBe(0);
  });

  it('creates a channel with its first key shown once, and manages its keys', async () => {
    const page = await newPage();
    await page.goto(`${platform!.server.url}/channels`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('New channel name').fill('trucks');
    await page.getByRole('button', { name: 'Create channel' }).click();
    const first = await page.getByTestId('new-key').inputValue();
    const channel = page.locator('[data-channel-name="trucks"]');
    await channel.getByRole('button', { name: 'API keys' }).click();
    await channel.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => channel.getByTestId('new-key').inputValue()).toMatch(/\S/);
    const second = await channel.getByTestId('new-key').inputValue();
    expect(second).not.toBe(first);
    await expect.poll(() => channel.locator('tbody tr').count()).toBe(2);
    await channel.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => channel.locator('tbody tr').count()).toBe(1);
    await screenshot(page, 'channels');
  });

  it('draws landmarks on a map without tiles and saves them to a project', async () => {
    const page = await newPage();
    await page.goto(`${platform!.server.url}/projects`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('New project name').fill('city');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.locator('tr', { hasText: 'city' }).waitFor();
    await screenshot(page, 'projects');
    await page.getByRole('link', { name: 'Landmarks' }).click();
    const map = page.getByTestId('landmark-map');
    await map.waitFor();
    // The server's tile source (MAP_TILE_URL) lies under the map...
    const tileUrls = () => map.locator('image').evaluateAll((images) => images.map((i) => i.getAttribute('href')));
    expect((await tileUrls()).length).toBeGreaterThan(0);
    for (const url of await tileUrls()) expect(url).toMatch(/^http:\/\/127\.0\.0\.1:9\/tiles\/2\/\d+\/\d+\.png$/);
    // none loads (nothing listens there): each is hidden rather than drawn as a broken image
    await expect.poll(async () => map.locator('image[visibility="hidden"]').count()).toBe((await tileUrls()).length);
    // ...unless this browser says otherwise: an empty field is the grid only, until the server's is asked for again.
    await page.getByLabel('Tile URL').fill('');
    await page.getByLabel('Tile URL').blur();
    await expect.poll(async () => (await tileUrls()).length).toBe(0);
    await page.getByRole('button', { name: "Use the server's tiles" }).click();
    await expect.poll(async () => (await tileUrls()).length).toBeGreaterThan(0);
    const box = (await map.boundingBox())!;
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
    /** A press at `from`, a move in five steps, a release at `to` (page pixels). */
    const drag = async (from: readonly [number, number], to: readonly [number, number]) => {
      await page.mouse.move(...from);
      await page.mouse.down();
      await page.mouse.move(...to, { steps: 5 });
      await page.mouse.up();
    };

    await page.getByRole('button', { name: 'Rectangle' }).click();
    await drag(at(0.3, 0.3), at(0.6, 0.7));
    await page.getByLabel('Landmark name').fill('park');
    await page.getByRole('button', { name: 'Save rectangle' }).click();
    await page.locator('[data-landmark="park"]').waitFor();

    await page.getByRole('button', { name: 'Polygon' }).click();
    for (const [fx, fy] of [
      [0.7, 0.2],
      [0.9, 0.3],
      [0.8, 0.5],
    ] as const)
      await page.mouse.click(...at(fx, fy));
    await page.getByLabel('Landmark name').fill('pond');
    await page.getByRole('button', { name: 'Save polygon' }).click();
    await page.locator('[data-landmark="pond"]').waitFor();
    await screenshot(page, 'landmarks');

    // the API holds what was drawn: north-west above and left of south-east, three corners
    const project = (await platform!.admin.get('/v2/projects')).body.data.find(
      (p: { name: string }) => p.name === 'city',
    );
    const saved = (await platform!.admin.get(`/v2/projects/${project.id}/landmarks`)).body.data as Array<{
      name: string;
      model: any;
    }>;
    const park = saved.find((l) => l.name === 'park')!.model;
    expect(park.type).toBe('rectangle');
    expect(park.geometry.nw.lat).toBeGreaterThan(park.geometry.se.lat);
    expect(park.geometry.nw.lon).toBeLessThan(park.geometry.se.lon);
    const pond = saved.find((l) => l.name === 'pond')!.model;
    expect(pond.type).toBe('polygon');
    expect(pond.geometry.points.length).toBeGreaterThanOrEqual(3);

    // A circle: dragged from its centre to its rim (a few hundred km at this zoom; the API allows 1,000).
    await page.getByRole('button', { name: 'Circle' }).click();
    await drag(at(0.15, 0.8), at(0.17, 0.8));
    await page.getByLabel('Landmark name').fill('well');
    await page.getByRole('button', { name: 'Save circle' }).click();
    await page.locator('[data-landmark="well"]').waitFor();

    // Edited on the map: the park's south-east corner dragged further south-east, and renamed.
    await page.locator('tr[data-landmark-name="park"]').getByRole('button', { name: 'Edit' }).click();
    const corner = (await page.locator('[data-handle="2"]').boundingBox())!;
    await drag(
      [corner.x + corner.width / 2, corner.y + corner.height / 2],
      [corner.x + corner.width / 2 + 60, corner.y + corner.height / 2 + 30],
    );
    await screenshot(page, 'landmarks-edit');
    await page.getByLabel('Landmark name').fill('big park');
    await page.getByRole('button', { name: 'Save changes to park' }).click();
    await page.locator('[data-landmark="big park"]').waitFor();

    const after = (await platform!.admin.get(`/v2/projects/${project.id}/landmarks`)).body.data as Array<{
      id: string;
      name: string;
      model: any;
    }>;
    expect(after.map((l) => l.name).sort()).toEqual(['big park', 'pond', 'well']);
    const well = after.find((l) => l.name === 'well')!.model;
    expect(well.type).toBe('circle');
    expect(well.geometry.radius).toBeGreaterThan(0);
    const bigPark = after.find((l) => l.name === 'big park')!.model;
    expect(bigPark.type).toBe('rectangle');
    expect(bigPark.geometry.nw).toEqual(park.geometry.nw); // the opposite corner stays
    expect(bigPark.geometry.se.lon).toBeGreaterThan(park.geometry.se.lon);
    expect(bigPark.geometry.se.lat).toBeLessThan(park.geometry.se.lat);

    // Without tiles a place is found by its coordinates: the map goes there, and what is drawn lands there.
    await page.getByLabel('Go to coordinates').fill('somewhere');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText('latitude, longitude in degrees').waitFor();
    await page.getByLabel('Go to coordinates').fill('48.2082, 16.3738');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByRole('button', { name: 'Rectangle' }).click();
    await drag(at(0.48, 0.48), at(0.52, 0.52));
    await page.getByLabel('Landmark name').fill('square');
    await page.getByRole('button', { name: 'Save rectangle' }).click();
    await page.locator('[data-landmark="square"]').waitFor();
    const square = (
      (await platform!.admin.get(`/v2/projects/${project.id}/landmarks`)).body.data as Array<{
        name: string;
        model: any;
      }>
    ).find((l) => l.name === 'square')!.model;
    for (const corner of [square.geometry.nw, square.geometry.se]) {
      expect(Math.abs(corner.lat - 48.2082)).toBeLessThan(0.01);
      expect(Math.abs(corner.lon - 16.3738)).toBeLessThan(0.01);
    }
  });

  it('builds rules from landmark, attribute and schedule conditions in all-of and any-of groups, checked by the server as they are built, and shows their deliveries', async () => {
    const trackers = (await platform!.admin.post('/v2/channels', { name: 'yard trackers', type: 'android' })).body.data;
    const project = (await platform!.admin.post('/v2/projects', { name: 'depot', channelIds: [trackers.id] })).body
      .data;
    const yard = (
      await platform!.admin.post('/v2/landmarks', {
        projectId: project.id,
        name: 'yard',
        model: { type: 'circle', geometry: { center: { lat: 48.2, lon: 16.37 }, radius: 150 } },
      })
    ).body.data;
    const page = await newPage();
    await page.goto(`${platform!.server.url}/rules`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Project').selectOption({ label: 'depot' });
    await page.getByLabel('Rule name').fill('speeding in the yard');
    await page.getByLabel('Add a condition').first().selectOption('landmark');
    // the project's landmarks load on their own time: choosing one waits for it to be listed
    await page.getByLabel('Landmark', { exact: true }).selectOption({ label: 'yard' });
    await page.getByLabel('Add a condition').first().selectOption('attribute');
    await page.getByLabel('Attribute').fill('event.data.speed');
    await page.getByLabel('Value').fill('30');
    const check = page.getByTestId('rule-check');
    await expect
      .poll(() => check.textContent())
      .toBe(`enterLandmark(('${yard.id}'), event.location.position) && event.data.speed > 30`);
    // a path the server refuses: its reason shown, no saving
    await page.getByLabel('Attribute').fill('not a path!');
    await check.locator('.error').waitFor();
    expect(await page.getByRole('button', { name: 'Save rule' }).isDisabled()).toBe(true);
    await page.getByLabel('Attribute').fill('event.data.speed');
    await page.getByRole('button', { name: '+ Push notification' }).click();
    await page.getByLabel('Push subject').fill('Slow down');
    await page.getByLabel('Push message').fill('30 is the limit in the yard');
    // a command down to the device that fired it, over MQTT, at QoS 0
    await page.getByRole('button', { name: '+ MQTT command' }).click();
    await page.getByLabel('Command message').fill('{"limit": 30, "event": "{{event.id}}"}');
    await page.getByLabel('Command QoS').selectOption('0');
    await screenshot(page, 'rules');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.locator('[data-rule-name="speeding in the yard"]').waitFor();
    // the list says it in words, the landmark by its name (before: its id in the expression string)
    await expect
      .poll(() => page.locator('[data-rule-name="speeding in the yard"]').getByTestId('rule-conditions').textContent())
      .toBe('enters yard and event.data.speed > 30');

    const [rule] = (await platform!.admin.get(`/v2/rules?projectId=${project.id}`)).body.data;
    expect(rule.conditionsObject[0]).toMatchObject({
      type: 'and',
      items: [
        { type: 'enterLandmark', ids: [yard.id] },
        { type: 'matchAttribute', attribute: 'event.data.speed', operator: '>', value: 30 },
      ],
    });
    expect(rule.actions).toMatchObject([
      { type: 'push', subject: 'Slow down' },
      { type: 'mqtt', message: '{"limit": 30, "event": "{{event.id}}"}', qos: 0 },
    ]);

    // Any of: an attribute, or a schedule; then a webhook, to an address webhooks may not reach.
    await page.getByLabel('Rule name').fill('go signal');
    await page.getByLabel('Combine with').selectOption('or');
    await page.getByLabel('Add a condition').first().selectOption('attribute');
    await page.getByLabel('Attribute').fill('event.attributes.go');
    await page.getByLabel('Operator').selectOption('==');
    await page.getByLabel('Value').fill('yes');
    await page.getByLabel('Add a condition').first().selectOption('schedule');
    await expect.poll(() => check.textContent()).toMatch(/^event\.attributes\.go == 'yes' \|\| /);
    await page.getByRole('button', { name: '+ Webhook' }).click();
    await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Save rule' }).click();
    const signal = page.locator('[data-rule-name="go signal"]');
    await signal.waitFor();
    const saved = (await platform!.admin.get(`/v2/rules?projectId=${project.id}`)).body.data.find(
      (r: { name: string }) => r.name === 'go signal',
    );
    expect(saved.conditionsObject[0]).toMatchObject({
      type: 'or',
      items: [
        { type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'yes' },
        { type: 'schedule', weekDays: [1, 2, 3, 4, 5] },
      ],
    });
    // A device of the project's channel sends the signal: the webhook is refused (an internal address) and the log says so.
    const device = (await (
      await fetch(`${platform!.server.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: trackers.apiKeys[0].apiKey }),
      })
    ).json()) as { token: string };
    const sent = await fetch(`${platform!.server.url}/v1/mobile/events`, {
      method: 'POST',
      headers: { authorization: device.token, 'content-type': 'application/json' },
      body: JSON.stringify({ timestamp: Date.now(), attributes: { go: 'yes' } }),
    });
    expect(sent.status, await sent.text()).toBe(204);
    await waitFor(
      async () => {
        const log = (await platform!.admin.get(`/v2/rules/${saved.id}/deliveries`)).body.data as Array<{
          status: string;
        }>;
        return log.some((job) => job.status === 'failed');
      },
      15_000,
      'the refused webhook in the delivery log',
    );
    await signal.getByRole('button', { name: 'Deliveries' }).click();
    await signal.locator('tr', { hasText: 'failed' }).waitFor();
    expect(await signal.getByTestId('rule-conditions').textContent()).toBe(
      'event.attributes.go == "yes" or Mon, Tue, Wed, Thu, Fri 08:00–18:00',
    );

    // a rule without conditions: said in words, not as a lone `true`
    await platform!.admin.post('/v2/rules', {
      projectId: project.id,
      name: 'every event',
      conditionsObject: [],
      actions: [],
    });
    await page.reload();
    await page.getByLabel('Project').selectOption({ label: 'depot' });
    const always = page.locator('[data-rule-name="every event"]');
    await always.waitFor();
    expect(await always.getByTestId('rule-conditions').textContent()).toBe('no conditions: every event of the project');
    expect(await always.locator('code.expression').count()).toBe(0);
  });

  it('builds a camera rule: a traffic cone in a zone for 2 s, once when it starts', async () => {
    const cameras = (await platform!.admin.post('/v2/channels', { name: 'dock cameras', type: 'iot' })).body.data;
    const project = (await platform!.admin.post('/v2/projects', { name: 'dock', channelIds: [cameras.id] })).body.data;
    const page = await newPage();
    await page.goto(`${platform!.server.url}/rules`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Project').selectOption({ label: 'dock' });
    await page.getByLabel('Rule name').fill('cone on the dock');
    await page.getByLabel('Add a condition').first().selectOption('camera');
    await page.getByLabel('Zone', { exact: true }).fill('A');
    await page.getByLabel('Held for seconds').fill('2');
    const check = page.getByTestId('rule-check');
    await expect
      .poll(() => check.textContent())
      .toBe("becomesTrue(heldFor(2, 0, detections('traffic cone', 'A') >= 1))");
    await page.getByLabel('Once when it starts').uncheck();
    await page.getByLabel('Minimum score').fill('0.5');
    await expect.poll(() => check.textContent()).toBe("heldFor(2, 0, detections('traffic cone', 'A', 0.5) >= 1)");
    await page.getByLabel('Once when it starts').check();
    await page.getByRole('button', { name: 'Save rule' }).click();
    const saved = page.locator('[data-rule-name="cone on the dock"]');
    await saved.waitFor();
    await expect
      .poll(() => saved.getByTestId('rule-conditions').textContent())
      .toBe('traffic cone seen in A scoring ≥ 0.5 >= 1 for 2 s starts');
    const [rule] = (await platform!.admin.get(`/v2/rules?projectId=${project.id}`)).body.data;
    expect(rule.conditions).toBe("becomesTrue(heldFor(2, 0, detections('traffic cone', 'A', 0.5) >= 1))");
  });

  it('tails events live as a device sends them (paused and resumed), finds them by search, and shows the device with its last location', async () => {
    const url = platform!.server.url;
    const channel = (await platform!.admin.post('/v2/channels', { name: 'fleet', type: 'android' })).body.data;
    const registration = await fetch(`${url}/v1/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiKey: channel.apiKeys[0].apiKey,
        properties: { model: 'Pixel 8', os: 'Android', sensors: ['location'] },
      }),
    });
    const { token, deviceId } = (await registration.json()) as { token: string; deviceId: string };
    await platform!.admin.patch(`/v2/devices/${deviceId}`, { name: 'van 19', tags: ['delivery', 'paris'] });
    /** One mobile event through the ingestion API, as the device's SDK sends it. */
    const send = async (plate: string, latitude: number, longitude: number) => {
      const res = await fetch(`${url}/v1/mobile/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: token },
        body: JSON.stringify({
          timestamp: Date.now(),
          locations: [{ timestamp: Date.now(), latitude, longitude, accuracy: 25 }],
          attributes: { plate },
        }),
      });
      expect(res.status).toBe(204);
    };

    const page = await newPage();
    await page.goto(`${url}/events`);
    await signIn(page, ADMIN.email, ADMIN.password);
    // the tail says when it is connected: only then is an event sure to be news to it
    await page.locator('[data-testid="tail-state"][data-state="live"]').waitFor();
    expect(await page.getByTestId('tail-state').textContent()).toBe('Live');
    await send('EV-1', 48.85, 2.29);
    const tail = page.getByTestId('tail').locator('tbody tr');
    await tail.first().waitFor();
    expect(await tail.count()).toBe(1);
    expect(await tail.first().textContent()).toContain(deviceId);
    expect(await tail.first().textContent()).toContain('"plate":"EV-1"');
    expect(await tail.first().textContent()).toContain('fleet');

    // paused: the next event is held, not shown; resumed: it goes on top
    await page.getByRole('button', { name: 'Pause' }).click();
    await send('EV-2', 48.8584, 2.2945);
    await page.getByRole('button', { name: 'Resume (1 new)' }).waitFor();
    expect(await tail.count()).toBe(1);
    await page.getByRole('button', { name: 'Resume (1 new)' }).click();
    await expect.poll(() => tail.count()).toBe(2);
    expect(await tail.first().textContent()).toContain('"plate":"EV-2"');

    // the search finds them: the device's events, then one by its payload
    const results = page.getByTestId('search-results').locator('tbody tr');
    await page.getByLabel('Search device id').fill(deviceId);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page.getByTestId('search-summary').textContent())
      .toContain('2 matching of 2 events of this scope');
    expect(await results.count()).toBe(2);
    expect(await results.first().textContent()).toContain('"plate":"EV-2"'); // newest first
    await screenshot(page, 'events');
    await page.getByLabel('Payload filter').fill('{"attributes.plate": "EV-1"}');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('search-summary').textContent()).toContain('1 matching of 2 events');
    expect(await results.count()).toBe(1);
    expect(await results.first().textContent()).toContain('"plate":"EV-1"');
    // a time range that holds none of them: from tomorrow on
    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T00:00:00`;
    await page.getByLabel('Payload filter').fill('');
    await page.getByLabel('From').fill(local(tomorrow));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('search-summary').textContent()).toContain('0 matching of 2 events');
    await page.getByLabel('From').fill('');
    // 30 more (without a location) in one batch: two pages of 25
    const batch = await fetch(`${url}/v1/mobile/events/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify({
        events: Array.from({ length: 30 }, (_, i) => ({ timestamp: Date.now(), attributes: { plate: `B-${i}` } })),
      }),
    });
    expect(batch.status).toBe(204);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page.getByTestId('search-summary').textContent())
      .toContain('32 matching of 32 events of this scope; page 1');
    expect(await results.count()).toBe(25);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByTestId('search-summary').textContent()).toContain('page 2');
    await expect.poll(() => results.count()).toBe(7);
    expect(await results.last().textContent()).toContain('"plate":"EV-1"');
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => results.count()).toBe(25);
    // oldest first
    await page.getByLabel('Order').selectOption('asc');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(async () => (await results.first().textContent()) ?? '').toContain('"plate":"EV-1"');

    // the device's page, from its link: fields, tags, and the last location on the map and in words
    await results.first().getByRole('link', { name: deviceId }).click();
    await page.getByRole('heading', { name: 'van 19' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/devices/${deviceId}`);
    expect(await page.getByTestId('device-tags').textContent()).toBe('deliveryparis');
    await expect.poll(() => page.getByTestId('device-fields').textContent()).toContain('fleet (android)'); // once the channels are read
    expect(await page.getByTestId('last-location').textContent()).toContain('48.85840, 2.29450 ± 25 m');
    const marker = page.getByTestId('device-map').locator('circle.marker');
    expect([await marker.getAttribute('data-lat'), await marker.getAttribute('data-lon')]).toEqual([
      '48.8584',
      '2.2945',
    ]);
    // the marker is drawn at the middle of the map, where the view is centred
    expect([await marker.getAttribute('cx'), await marker.getAttribute('cy')]).toEqual(['480', '180']);
    // its 20 most recent events
    await expect.poll(() => page.getByTestId('device-events').locator('tbody tr').count()).toBe(20);
    await screenshot(page, 'device');

    // the Devices list links to it, with its last location
    await page.getByRole('link', { name: 'Devices', exact: true }).first().click();
    const listed = page.locator(`[data-device-id="${deviceId}"]`);
    await listed.waitFor();
    expect(await listed.textContent()).toContain('48.85840, 2.29450');
    await screenshot(page, 'devices');
    await listed.getByRole('link', { name: 'van 19' }).click();
    await page.getByTestId('device-map').waitFor();
  });

  it('fits a phone: one row of navigation, nothing wider than the screen, no request that answers 404', async () => {
    const admin = platform!.admin;
    const model = (await admin.post('/v2/models', { name: 'phone' })).body.data;
    const files = {
      model: await readFile(join(ROOT, 'models/demo/model.onnx')),
      config: await readFile(join(ROOT, 'models/demo/model.json'), 'utf8'),
    };
    const version = (await uploadModelVersion(platform!.server.url, admin, model.id, files, '?wait=true')).body.data;
    expect(version.status).toBe('Active');
    const context = await browser!.newContext({ viewport: { width: 420, height: 800 } });
    const page = await context.newPage();
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${platform!.server.url}/models`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.locator('[data-testid="version-id"]').first().waitFor();
    // Before: the links wrapped into a 300 px block above every page.
    const nav = (await page.getByRole('navigation').boundingBox())!;
    expect(nav.height).toBeLessThan(60);
    const overflow = () =>
      page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBe(0);
    // The version ids a client needs for predict are on the Models page.
    expect(await page.locator('[data-testid="version-id"]').allTextContents()).toContain(version.id);
    // Try it: the file input stays on the screen.
    await page.locator(`[data-version-id="${version.id}"]`).getByRole('link', { name: 'Try it' }).click();
    await page.locator('input[name=image]').waitFor();
    const input = (await page.locator('input[name=image]').boundingBox())!;
    expect(input.x + input.width).toBeLessThanOrEqual(420);
    expect(await overflow()).toBe(0);
    // Before: /favicon.ico answered 404 on every page.
    expect(missing).toEqual([]);
    await context.close();
  });

  it('titles a device without a name by what it is and the end of its id', async () => {
    const channel = (await platform!.admin.post('/v2/channels', { name: 'unnamed phones', type: 'android' })).body.data;
    const registered = await fetch(`${platform!.server.url}/v1/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiKey: channel.apiKeys[0].apiKey,
        properties: { manufacturer: 'Google', model: 'Pixel 8' },
      }),
    });
    const { token } = (await registered.json()) as { token: string };
    const deviceId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string }).sub;
    const page = await newPage();
    await page.goto(`${platform!.server.url}/devices/${deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    // Before: "Unnamed device", the same for every one of them.
    await page.getByRole('heading', { name: `Pixel 8 · …${deviceId.slice(-6)}` }).waitFor();
    // its id on one line
    const id = page.getByTestId('device-fields').locator('code').first();
    expect(await id.textContent()).toBe(deviceId);
    const box = (await id.boundingBox())!;
    const fontSize = await page.evaluate<number>(
      `parseFloat(getComputedStyle(document.querySelector('[data-testid="device-fields"] code')).fontSize)`,
    );
    expect(box.height).toBeLessThan(fontSize * 2); // one line is ~1.2 × the font size
  });

  it("says on a device's page whether it is connected over MQTT, and since when", async () => {
    const { admin, server } = platform!;
    const channel = (await admin.post('/v2/channels', { name: 'mqtt sensors', type: 'iot' })).body.data;
    const registered = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    const { deviceId, token } = (await registered.json()) as { deviceId: string; token: string };
    const connection = async () => (await admin.get(`/v2/devices/${deviceId}`)).body.data.connection;
    const page = await newPage();
    const shown = () => page.getByTestId('device-connection').textContent();
    const refresh = () => page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.goto(`${server.url}/devices/${deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect.poll(shown).toBe('Not connected');

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
      username: deviceId,
      password: token,
      protocolVersion: 5,
      reconnectPeriod: 0,
    });
    try {
      // recorded as its CONNACK goes: once the API says so, the page read again shows it
      const { connectedAt } = await waitFor(connection, 10_000, 'the connection recorded');
      const since = await page.evaluate((iso: string) => new Date(iso).toLocaleString(), connectedAt as string);
      await refresh();
      await expect.poll(shown).toBe(`Connected over MQTT since ${since} (MQTT 5)`);
    } finally {
      client.end(true);
    }
    await waitFor(async () => (await connection()) === null, 10_000, 'the connection gone');
    await refresh();
    await expect.poll(shown).toBe('Not connected');
  });

  it("shows a camera's zones and its latest frame's detections, live, and saves a zone drawn on the frame", async () => {
    const { admin, sql, server } = platform!;
    const channel = (await admin.post('/v2/channels', { name: 'yard cameras', type: 'iot' })).body.data;
    const registered = await fetch(`${server.url}/v1/registration`, {
      method: 'POST',
      body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
    });
    const { deviceId, organizationId } = (await registered.json()) as { deviceId: string; organizationId: string };
    // This server runs no model: the profile and the frames' events are written as the server stores them.
    const zones = [
      {
        name: 'left',
        polygon: [
          [0, 0],
          [0.5, 0],
          [0.5, 1],
          [0, 1],
        ],
      },
      {
        name: 'right',
        polygon: [
          [0.5, 0],
          [1, 0],
          [1, 1],
          [0.5, 1],
        ],
      },
    ];
    await sql`INSERT INTO device_vision (device_id, organization_id, model_version_id, zones) VALUES (${deviceId}, ${organizationId}, 'yard-model', ${JSON.stringify(zones)}::text::jsonb)`;
    const frame = async (detections: Record<string, unknown[]>, image?: Buffer) => {
      const id = ulid();
      const payload = {
        modelVersionId: 'yard-model',
        detections,
        counts: {},
        zoneCounts: {},
        ...(image && { frameKept: true }),
      };
      // A kept frame's image before its event, as the server keeps it (MODEL_STORE=postgres).
      if (image) {
        await sql`INSERT INTO kept_frames (event_id, organization_id, account_id, device_id, content_type, bytes, sha256, data)
                  VALUES (${id}, ${organizationId}, ${organizationId}, ${deviceId}, 'image/png', ${image.length}, 'unchecked', ${image})`;
      }
      await sql`INSERT INTO events (id, organization_id, channel_id, device_id, source, server_received_at, dedup_key, payload)
                VALUES (${id}, ${organizationId}, ${channel.id}, ${deviceId}, 'iot', now(), ${`u:${id}`}, ${JSON.stringify(payload)}::text::jsonb)`;
    };
    const box = (x1: number, y1: number, x2: number, y2: number, zone: string) => ({
      type: 'rectangle',
      score: 0.9,
      data: { min: [x1, y1], max: [x2, y2] },
      children: {},
      zones: [zone],
    });
    await frame({ 'traffic cone': [box(0.1, 0.2, 0.2, 0.4, 'left')] });

    const page = await newPage();
    await page.goto(`${server.url}/devices/${deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const camera = page.getByTestId('camera-frame');
    await camera.waitFor();
    expect(await camera.locator('[data-zone]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-zone')))).toEqual(
      ['left', 'right'],
    );
    await camera.locator('[data-label="traffic cone"]').waitFor();
    // A new frame arrives while the page is open: its detections replace the last ones.
    await frame({ circle: [box(0.6, 0.1, 0.7, 0.3, 'right'), box(0.7, 0.5, 0.9, 0.8, 'right')] });
    await waitFor(async () => (await camera.locator('[data-label="circle"]').count()) === 2, 15_000, 'the live frame');
    expect(await camera.locator('[data-label="traffic cone"]').count()).toBe(0);
    expect(await camera.getByTestId('camera-image').count()).toBe(0); // not kept: a blank frame
    await expect.poll(() => page.getByTestId('camera-latest').textContent()).toContain('not kept');
    // A kept frame: the detections are drawn on its image, fetched with the session's token.
    const kept = await makeImage('png', 320, 240);
    await frame({ circle: [box(0.2, 0.2, 0.4, 0.4, 'left')] }, kept);
    const shown = camera.getByTestId('camera-image');
    await shown.waitFor({ timeout: 15_000 });
    const href = (await shown.getAttribute('href'))!;
    expect(href).toMatch(/^blob:/);
    // The image the object URL holds is the kept one (320 × 240).
    const size = await page.evaluate<[number, number]>(`new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve([img.naturalWidth, img.naturalHeight]);
      img.onerror = () => reject(new Error('the kept frame did not load'));
      img.src = ${JSON.stringify(href)};
    })`);
    expect(size).toEqual([320, 240]);
    await waitFor(async () => (await camera.locator('[data-label="circle"]').count()) === 1, 15_000, 'the kept frame');
    await screenshot(page, 'camera');

    // A zone drawn by its corners, named, and saved with the profile.
    await page.getByRole('button', { name: 'Draw a zone' }).click();
    const area = (await camera.boundingBox())!;
    for (const [x, y] of [
      [0.25, 0.25],
      [0.75, 0.25],
      [0.5, 0.75],
    ] as const)
      await camera.click({ position: { x: x * area.width, y: y * area.height } });
    await page.getByLabel('Zone name').fill('gate');
    await page.getByRole('button', { name: 'Add zone' }).click();
    await page.getByRole('button', { name: 'Save zones' }).click();
    const saved = await waitFor(
      async () => {
        const profile = (await admin.get(`/v2/devices/${deviceId}/vision`)).body.data;
        return profile.zones.length === 3 ? profile : undefined;
      },
      15_000,
      'the zone to be saved',
    );
    expect(saved.zones.slice(0, 2)).toEqual(zones);
    expect(saved.zones[2].name).toBe('gate');
    saved.zones[2].polygon.forEach(([x, y]: [number, number], i: number) => {
      const [ex, ey] = [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.5, 0.75],
      ][i]!;
      expect(Math.abs(x - ex!)).toBeLessThan(0.02);
      expect(Math.abs(y - ey!)).toBeLessThan(0.02);
    });
    await camera.locator('[data-zone="gate"]').waitFor();

    // Keeping frames is switched on from here, the zones kept.
    await page.getByLabel(/Keep frames/).check();
    const keeping = await waitFor(
      async () => {
        const profile = (await admin.get(`/v2/devices/${deviceId}/vision`)).body.data;
        return profile.keepFrames ? profile : undefined;
      },
      15_000,
      'keepFrames to be saved',
    );
    expect(keeping.zones.map((z: { name: string }) => z.name)).toEqual(['left', 'right', 'gate']);
  });

  it("draws a camera's frame at its image's own aspect ratio, its labels apart", async () => {
    const camera = await cameraDevice('wide cameras', [
      {
        name: 'lane',
        polygon: [
          [0.3, 0.4],
          [0.6, 0.4],
          [0.6, 0.9],
          [0.3, 0.9],
        ],
      },
    ]);
    // Two detections whose labels would be written over each other and over the zone's.
    const box = (x1: number, y1: number, x2: number, y2: number) => ({
      type: 'rectangle',
      score: 0.9,
      data: { min: [x1, y1], max: [x2, y2] },
      children: {},
      zones: ['lane'],
    });
    await camera.frame(
      { 'traffic cone': [box(0.3, 0.4, 0.5, 0.7)], person: [box(0.31, 0.41, 0.55, 0.8)] },
      await makeImage('png', 320, 120),
    );
    const page = await newPage();
    await page.goto(`${platform!.server.url}/devices/${camera.deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const frame = page.getByTestId('camera-frame');
    const image = frame.getByTestId('camera-image');
    await image.waitFor({ timeout: 15_000 });
    // Before: every frame was drawn 640 × 480, this 320 × 120 one squashed to 4:3.
    await expect
      .poll(async () => {
        const b = (await frame.boundingBox())!;
        return b.width / b.height;
      })
      .toBeCloseTo(320 / 120, 1);
    const shown = (await image.boundingBox())!;
    const whole = (await frame.boundingBox())!;
    expect(shown.width / shown.height).toBeCloseTo(320 / 120, 1);
    expect(Math.abs(shown.width - whole.width)).toBeLessThan(3); // the image fills the frame
    // Every label (the zone's, the detections') readable: no two overlap.
    const labels = await frame.locator('text').evaluateAll((texts) =>
      texts.map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }),
    );
    expect(labels.length).toBe(3);
    for (const [i, a] of labels.entries()) {
      for (const b of labels.slice(i + 1)) {
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${a.text} and ${b.text} overlap`).toBe(true);
      }
    }
  });

  it('makes a device a camera from its page and edits its profile, and asks no vision profile of a device that has none', async () => {
    const { admin, server } = platform!;
    const model = (await admin.post('/v2/models', { name: 'gate detector' })).body.data;
    const files = {
      model: await readFile(join(ROOT, 'models/demo/model.onnx')),
      config: await readFile(join(ROOT, 'models/demo/model.json'), 'utf8'),
    };
    const version = (await uploadModelVersion(server.url, admin, model.id, files, '?wait=true')).body.data;
    expect(version.status).toBe('Active');
    const channel = (await admin.post('/v2/channels', { name: 'gate cameras', type: 'iot' })).body.data;
    const { deviceId } = (await (
      await fetch(`${server.url}/v1/registration`, {
        method: 'POST',
        body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
      })
    ).json()) as { deviceId: string };
    const page = await newPage();
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${server.url}/devices/${deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByTestId('device-fields').waitFor();
    const make = page.getByRole('form', { name: 'Make it a camera' });
    await make.getByLabel('Model version').selectOption(version.id);
    await make.getByLabel('Threshold').fill('0.4');
    await make.getByLabel(/Keep frames/).check();
    await make.getByRole('button', { name: 'Make it a camera' }).click();
    const made = await waitFor(
      async () => {
        const res = await admin.get(`/v2/devices/${deviceId}/vision`);
        return res.status === 200 ? res.body.data : undefined;
      },
      15_000,
      'the vision profile',
    );
    expect(made).toMatchObject({
      modelVersionId: version.id,
      options: { threshold: 0.4 },
      zones: [],
      keepFrames: true,
    });
    // Its camera panel, where the profile is edited.
    const panel = page.getByRole('region', { name: 'Camera' });
    await panel.getByTestId('camera-frame').waitFor();
    await panel.getByLabel('Threshold').fill('0.6');
    await panel.getByRole('button', { name: 'Save profile' }).click();
    const edited = await waitFor(
      async () => {
        const profile = (await admin.get(`/v2/devices/${deviceId}/vision`)).body.data;
        return profile.options.threshold === 0.6 ? profile : undefined;
      },
      15_000,
      'the threshold to be saved',
    );
    expect(edited).toMatchObject({ modelVersionId: version.id, keepFrames: true });
    // Before: the page asked every device for its vision profile, and one that has none answered 404.
    expect(missing).toEqual([]);
  });

  it("shows a camera's stream, its state and why, its lines with their in arrows, and saves a line drawn by its two ends", async () => {
    const { admin, server } = platform!;
    const versionId = await demoVersionId();
    const camera = await cameraDevice('streaming cameras', []);
    const gate = {
      name: 'gate',
      line: [
        [0.5, 0],
        [0.5, 1],
      ],
    };
    // A stream that cannot be read: its host is a documentation address the server refuses.
    const set = await admin.put(`/v2/devices/${camera.deviceId}/vision`, {
      modelVersionId: versionId,
      lines: [gate],
      stream: { url: 'rtsp://viewer:secret@192.0.2.1/x', fps: 2 },
    });
    expect(set.status).toBe(200);
    const masked = set.body.data.stream.url as string;
    expect(masked).toBe('rtsp://viewer:***@192.0.2.1/x');
    const page = await newPage();
    await page.goto(`${server.url}/devices/${camera.deviceId}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const panel = page.getByRole('region', { name: 'Camera' });
    const frame = panel.getByTestId('camera-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('data-source')).toBe('stream');
    // The stream as saved (its password masked) and its state, read again while the page is open.
    expect(await panel.getByLabel('Stream URL').inputValue()).toBe(masked);
    expect(await panel.getByLabel('Stream fps').inputValue()).toBe('2');
    expect(await panel.getByLabel('Stream enabled').isChecked()).toBe(true);
    const status = panel.getByTestId('stream-status');
    await panel.locator('[data-testid="stream-status"][data-state="retrying"]').waitFor({ timeout: 30_000 });
    const reason = await waitFor(
      async () => {
        const api = (await admin.get(`/v2/devices/${camera.deviceId}/vision`)).body.data.stream.status;
        const shown = await status.getByTestId('stream-reason').textContent();
        return api.state === 'retrying' && api.reason && shown?.includes(api.reason) ? api.reason : undefined;
      },
      15_000,
      'the reason the API gives shown',
    );
    expect(reason).toContain('192.0.2.1');
    expect(await status.getByTestId('stream-stats').textContent()).toContain('drops');
    // No frame yet: the page says why (the frame's 404).
    await expect.poll(() => panel.getByTestId('camera-latest').textContent()).toContain('No frame of the stream yet');
    expect(await frame.getByTestId('camera-image').count()).toBe(0);
    // The line with its name and the arrow of its `in` direction: drawn top to bottom, `in` points left.
    const line = frame.locator('[data-testid="camera-line"][data-line="gate"]');
    await line.waitFor();
    expect(await frame.locator('text.line-label').allTextContents()).toEqual(['gate']);
    const arrow = line.getByTestId('camera-line-arrow');
    const shaft = arrow.locator('line');
    const [x1, x2] = [Number(await shaft.getAttribute('x1')), Number(await shaft.getAttribute('x2'))];
    expect(x1).toBeCloseTo(320, 0);
    expect(x2).toBeLessThan(x1 - 10);
    expect(await arrow.locator('polygon').count()).toBe(1);

    // A line drawn by two clicks (left to right: its arrow points down), named and saved with the profile.
    await panel.getByRole('button', { name: 'Draw a line' }).click();
    const area = (await frame.boundingBox())!;
    await frame.click({ position: { x: 0.2 * area.width, y: 0.8 * area.height } });
    await frame.getByTestId('camera-line-draft').waitFor({ state: 'attached' }); // one point: nothing to see yet
    expect(await panel.getByRole('button', { name: 'Add line' }).isDisabled()).toBe(true);
    await frame.click({ position: { x: 0.8 * area.width, y: 0.8 * area.height } });
    const preview = frame.getByTestId('camera-line-preview').locator('[data-testid="camera-line-arrow"] line');
    await preview.waitFor({ state: 'attached' }); // straight down: no width to see
    expect(Number(await preview.getAttribute('y2'))).toBeGreaterThan(Number(await preview.getAttribute('y1')) + 10);
    // a third click adds nothing: a line has two ends
    await frame.click({ position: { x: 0.5 * area.width, y: 0.2 * area.height } });
    expect((await frame.getByTestId('camera-line-draft').getAttribute('points'))!.split(' ')).toHaveLength(2);
    await panel.getByLabel('Line name').fill('gate');
    expect(await panel.getByRole('button', { name: 'Add line' }).isDisabled()).toBe(true); // the name is taken
    await panel.getByLabel('Line name').fill('exit');
    await panel.getByRole('button', { name: 'Add line' }).click();
    await frame.locator('[data-testid="camera-line"][data-line="exit"]').waitFor();
    await panel.getByRole('button', { name: 'Save zones and lines' }).click();
    const saved = await waitFor(
      async () => {
        const profile = (await admin.get(`/v2/devices/${camera.deviceId}/vision`)).body.data;
        return profile.lines.length === 2 ? profile : undefined;
      },
      15_000,
      'the line to be saved',
    );
    expect(saved.lines[0]).toEqual(gate);
    expect(saved.lines[1].name).toBe('exit');
    saved.lines[1].line.forEach(([x, y]: [number, number], i: number) => {
      const [ex, ey] = [
        [0.2, 0.8],
        [0.8, 0.8],
      ][i]!;
      expect(Math.abs(x - ex!)).toBeLessThan(0.02);
      expect(Math.abs(y - ey!)).toBeLessThan(0.02);
    });
    // the rest of the profile as it was: the stream (its stored URL kept through the masked one) and the model version
    expect(saved.stream).toMatchObject({ url: masked, fps: 2, enabled: true });
    expect(saved.modelVersionId).toBe(versionId);
    // the panel shows the saved profile before it is edited again (a save re-renders it)
    const shows = (profile: { updatedAt: string }) =>
      expect.poll(() => panel.getAttribute('data-updated-at')).toBe(profile.updatedAt);
    await shows(saved);
    const savePlaces = panel.getByRole('button', { name: 'Save zones and lines' });
    expect(await savePlaces.isDisabled()).toBe(true);

    // A line removed, the other kept.
    await panel.getByRole('button', { name: 'Remove line gate' }).click();
    await expect.poll(() => frame.locator('[data-testid="camera-line"][data-line="gate"]').count()).toBe(0);
    await savePlaces.click();
    await shows(
      await waitFor(
        async () => {
          const profile = (await admin.get(`/v2/devices/${camera.deviceId}/vision`)).body.data;
          return profile.lines.length === 1 && profile.lines[0].name === 'exit' ? profile : undefined;
        },
        15_000,
        'the line to be removed',
      ),
    );

    // The stream edited from the page: read no more, at another rate; its URL kept.
    await panel.getByLabel('Stream fps').fill('1');
    await panel.getByLabel('Stream enabled').uncheck();
    await panel.getByRole('button', { name: 'Save stream' }).click();
    const stopped = await waitFor(
      async () => {
        const profile = (await admin.get(`/v2/devices/${camera.deviceId}/vision`)).body.data;
        return profile.stream?.enabled === false ? profile : undefined;
      },
      15_000,
      'the stream to be disabled',
    );
    expect(stopped.stream).toMatchObject({ url: masked, fps: 1, enabled: false });
    expect(stopped.lines.map((l: { name: string }) => l.name)).toEqual(['exit']);
    await panel.locator('[data-testid="stream-status"][data-state="stopped"]').waitFor();
    // a camera that does not stream is drawn from its frame events again
    await panel.locator('[data-testid="camera-frame"][data-source="events"]').waitFor();
  });

  it.runIf(hasFfmpeg)(
    "draws a streaming camera's latest frame with its boxes and their trackIds, and its status running",
    async () => {
      const { admin, server } = platform!;
      const versionId = await demoVersionId();
      const clip = join(streamFiles!, 'clip.mkv');
      await encodeClip(await clipFrames(), clip);
      const camera = await cameraDevice('clip cameras', []);
      const set = await admin.put(`/v2/devices/${camera.deviceId}/vision`, {
        modelVersionId: versionId,
        lines: [
          {
            name: 'gate',
            line: [
              [0.5, 0],
              [0.5, 1],
            ],
          },
        ],
        stream: { url: `file://${clip}`, fps: 5 },
      });
      expect(set.status).toBe(200);
      const page = await newPage();
      await page.goto(`${server.url}/devices/${camera.deviceId}`);
      await signIn(page, ADMIN.email, ADMIN.password);
      const panel = page.getByRole('region', { name: 'Camera' });
      const frame = panel.getByTestId('camera-frame');
      await panel.locator('[data-testid="stream-status"][data-state="running"]').waitFor({ timeout: 60_000 });
      // The stream's latest frame is the background: the JPEG as the model saw it (the 640 × 360 clip fitted into 320 × 320).
      const image = frame.locator('[data-testid="camera-image"][data-source="stream"]');
      await image.waitFor({ timeout: 30_000 });
      expect(await image.getAttribute('href')).toMatch(/^data:image\/jpeg;base64,/);
      await expect
        .poll(async () => {
          const b = (await frame.boundingBox())!;
          return b.width / b.height;
        })
        .toBeCloseTo(320 / 180, 1);
      // A box of a tracked object, labelled with its label and #trackId (the clip plays again and again).
      const tracked = frame.locator('.detection[data-track-id]').first();
      await tracked.waitFor({ timeout: 60_000 });
      const label = await tracked.getAttribute('data-label');
      const trackId = await tracked.getAttribute('data-track-id');
      expect(['circle', 'square']).toContain(label);
      expect(await frame.locator('text.detection-label').allTextContents()).toContainEqual(
        expect.stringMatching(new RegExp(`^${label} #${trackId} \\d+%`)),
      );
      expect(await frame.locator('[data-testid="camera-line"][data-line="gate"]').count()).toBe(1);
      await expect.poll(() => panel.getByTestId('camera-latest').textContent()).toContain('latest stream frame');
      await expect.poll(() => panel.getByTestId('stream-stats').textContent()).toMatch(/fps in \d/);
      // Streaming stopped from the page: the profile has no stream, and nothing reads the clip any more.
      await panel.getByRole('button', { name: 'Stop streaming' }).click();
      await waitFor(
        async () => (await admin.get(`/v2/devices/${camera.deviceId}/vision`)).body.data.stream === undefined,
        15_000,
        'the stream to be removed',
      );
      await panel.locator('[data-testid="camera-frame"][data-source="events"]').waitFor();
    },
    180_000,
  );

  it('disables, enables and edits a rule', async () => {
    const { admin } = platform!;
    const trackers = (await admin.post('/v2/channels', { name: 'garage trackers', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'garage', channelIds: [trackers.id] })).body.data;
    const created = (
      await admin.post('/v2/rules', {
        projectId: project.id,
        name: 'hot engine',
        conditionsObject: [
          { type: 'and', items: [{ type: 'matchAttribute', attribute: 'event.data.temp', operator: '>', value: 90 }] },
        ],
        actions: [{ type: 'push', subject: 'Hot', message: 'the engine is hot' }],
      })
    ).body.data;
    const rule = async () => (await admin.get(`/v2/rules/${created.id}`)).body.data;
    const page = await newPage();
    await page.goto(`${platform!.server.url}/rules`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Project').selectOption({ label: 'garage' });
    const panel = page.locator(`[data-rule-id="${created.id}"]`);
    await panel.getByRole('button', { name: 'Disable' }).click();
    await waitFor(async () => (await rule()).enabled === false, 15_000, 'the rule disabled');
    await panel.getByText('Disabled', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Enable' }).click();
    await waitFor(async () => (await rule()).enabled === true, 15_000, 'the rule enabled');
    await panel.getByRole('button', { name: 'Disable' }).waitFor();

    await panel.getByRole('button', { name: 'Edit' }).click();
    const builder = page.getByRole('region', { name: 'Edit rule hot engine' });
    expect(await builder.getByLabel('Rule name').inputValue()).toBe('hot engine');
    expect(await builder.getByLabel('Value').inputValue()).toBe('90');
    await builder.getByLabel('Rule name').fill('very hot engine');
    await builder.getByLabel('Value').fill('110');
    await expect.poll(() => builder.getByTestId('rule-check').textContent()).toBe('event.data.temp > 110');
    await builder.getByRole('button', { name: 'Save changes' }).click();
    const changed = await waitFor(
      async () => {
        const r = await rule();
        return r.name === 'very hot engine' ? r : undefined;
      },
      15_000,
      'the rule edited',
    );
    // (an all-of group of one condition is saved as that condition)
    expect(changed.conditionsObject).toMatchObject([
      { type: 'matchAttribute', attribute: 'event.data.temp', operator: '>', value: 110 },
    ]);
    expect(changed.actions).toMatchObject([{ type: 'push', subject: 'Hot', message: 'the engine is hot' }]);
    expect(changed.enabled).toBe(true);
    await expect.poll(() => panel.getByTestId('rule-conditions').textContent()).toBe('event.data.temp > 110');
    // the builder is back to a new rule
    await page.getByRole('region', { name: 'New rule' }).waitFor();
  });

  it('lists each delivery attempt with its HTTP status or its error, and links it to the event', async () => {
    const { admin, server } = platform!;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.statusCode = 202;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const phones = (await admin.post('/v2/channels', { name: 'hook phones', type: 'android' })).body.data;
      const project = (await admin.post('/v2/projects', { name: 'hooks', channelIds: [phones.id] })).body.data;
      const rule = (
        await admin.post('/v2/rules', {
          projectId: project.id,
          name: 'two hooks',
          conditionsObject: [
            { type: 'matchAttribute', attribute: 'event.attributes.go', operator: '==', value: 'yes' },
          ],
          actions: [
            { type: 'webhook', method: 'POST', url: `http://localhost:${port}/hook` },
            { type: 'webhook', method: 'POST', url: 'http://127.0.0.1:9/hook' },
          ],
        })
      ).body.data;
      const device = (await (
        await fetch(`${server.url}/v1/registration`, {
          method: 'POST',
          body: JSON.stringify({ apiKey: phones.apiKeys[0].apiKey }),
        })
      ).json()) as { token: string; deviceId: string };
      const sent = await fetch(`${server.url}/v1/mobile/events`, {
        method: 'POST',
        headers: { authorization: device.token, 'content-type': 'application/json' },
        body: JSON.stringify({ timestamp: Date.now(), attributes: { go: 'yes' } }),
      });
      expect(sent.status, await sent.text()).toBe(204);
      const [event] = (await admin.post('/v2/events', { deviceId: device.deviceId })).body.data;
      await waitFor(
        async () => {
          const log = (await admin.get(`/v2/rules/${rule.id}/deliveries`)).body.data as Array<{ status: string }>;
          return log.length === 2 && log.every((job) => job.status !== 'pending');
        },
        15_000,
        'both webhooks in the delivery log',
      );

      const page = await newPage();
      await page.goto(`${server.url}/rules`);
      await signIn(page, ADMIN.email, ADMIN.password);
      await page.getByLabel('Project').selectOption({ label: 'hooks' });
      const panel = page.locator(`[data-rule-id="${rule.id}"]`);
      await panel.getByRole('button', { name: 'Deliveries' }).click();
      const attempts = panel.getByTestId('delivery-attempt');
      await expect.poll(() => attempts.count()).toBe(2);
      const texts = await attempts.allTextContents();
      // Before: the job's status and its last error only, no attempt's HTTP status, no event.
      expect(texts.some((t) => t.includes('HTTP 202'))).toBe(true);
      expect(texts.some((t) => t.includes('blocked: 127.0.0.1 is an internal address'))).toBe(true);
      const links = panel.getByRole('link', { name: `event ${event.id}` });
      expect(await links.count()).toBe(2);
      await links.first().click();
      const linked = page.getByTestId('linked-event');
      await linked.locator(`[data-event-id="${event.id}"]`).waitFor();
      expect(await linked.textContent()).toContain('"go":"yes"');
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("offers the project's zones and labels in a camera condition, and shows the server's warnings as a rule is built and saved", async () => {
    const { admin } = platform!;
    const camera = await cameraDevice('bay cameras', [
      {
        name: 'loading_dock',
        polygon: [
          [0, 0],
          [0.5, 0],
          [0.5, 1],
        ],
      },
    ]);
    const project = (await admin.post('/v2/projects', { name: 'bay', channelIds: [camera.channelId] })).body.data;
    const vocabulary = (await admin.get(`/v2/projects/${project.id}/rule-vocabulary`)).body.data as {
      zones: string[];
      labels: string[];
    };
    expect(vocabulary.zones).toEqual(['loading_dock']);
    const page = await newPage();
    await page.goto(`${platform!.server.url}/rules`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Project').selectOption({ label: 'bay' });
    const builder = page.getByRole('region', { name: 'New rule' });
    await builder.getByLabel('Rule name').fill('dock watch');
    await builder.getByLabel('Add a condition').first().selectOption('camera');
    // Before: free text only. Now the fields offer what the project knows (and still take any text).
    const options = (list: string) =>
      page.locator(`datalist#${list} option`).evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    await expect.poll(() => options('rule-zones')).toEqual(vocabulary.zones);
    expect(await options('rule-labels')).toEqual(vocabulary.labels);
    expect(await builder.getByLabel('Zone', { exact: true }).getAttribute('list')).toBe('rule-zones');
    expect(await builder.getByLabel('Label', { exact: true }).getAttribute('list')).toBe('rule-labels');
    // A zone no camera of the project has: the check says so, with the near match.
    await builder.getByLabel('Zone', { exact: true }).fill('loading_dok');
    const zoneWarning = builder.locator('[data-testid="rule-warnings"] [data-warning="unknown_zone"]');
    await zoneWarning.waitFor();
    expect(await zoneWarning.textContent()).toContain('loading_dock');
    await builder.getByLabel('Zone', { exact: true }).fill('loading_dock');
    await expect.poll(() => zoneWarning.count()).toBe(0);
    // Saved with a webhook the server would refuse: the warning names WEBHOOK_ALLOWED_HOSTS.
    await builder.getByRole('button', { name: '+ Webhook' }).click();
    await builder.getByLabel('Webhook URL').fill('http://127.0.0.1:9/dock');
    await builder.getByRole('button', { name: 'Save rule' }).click();
    await page.locator('[data-rule-name="dock watch"]').waitFor();
    const saved = page.getByTestId('saved-warnings');
    await saved.locator('[data-warning="webhook_blocked"]').waitFor();
    expect(await saved.textContent()).toContain('WEBHOOK_ALLOWED_HOSTS');
  });

  it('builds a camera object condition, a dwell in a zone, and reads it back when the rule is edited', async () => {
    const { admin } = platform!;
    const camera = await cameraDevice('pier cameras', [
      {
        name: 'pier',
        polygon: [
          [0, 0],
          [0.5, 0],
          [0.5, 1],
        ],
      },
    ]);
    await platform!.sql`UPDATE device_vision SET lines = ${JSON.stringify([
      {
        name: 'pier_gate',
        line: [
          [0.5, 0],
          [0.5, 1],
        ],
      },
    ])}::text::jsonb WHERE device_id = ${camera.deviceId}`;
    const project = (await admin.post('/v2/projects', { name: 'pier', channelIds: [camera.channelId] })).body.data;
    const vocabulary = (await admin.get(`/v2/projects/${project.id}/rule-vocabulary`)).body.data as {
      zones: string[];
      lines: string[];
      labels: string[];
    };
    expect(vocabulary.lines).toEqual(['pier_gate']);
    const page = await newPage();
    await page.goto(`${platform!.server.url}/rules`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByLabel('Project').selectOption({ label: 'pier' });
    const builder = page.getByRole('region', { name: 'New rule' });
    await builder.getByLabel('Rule name').fill('loitering');
    await builder.getByLabel('Add a condition').first().selectOption('objects');
    const check = builder.getByTestId('rule-check');
    const options = (list: string) =>
      page.locator(`datalist#${list} option`).evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    await expect.poll(() => options('rule-lines')).toEqual(vocabulary.lines);
    // A crossing: its line offered from the project's, its direction.
    await builder.getByLabel('Object condition').selectOption('crossed');
    expect(await builder.getByLabel('Line', { exact: true }).getAttribute('list')).toBe('rule-lines');
    await builder.getByLabel('Line', { exact: true }).fill('pier_gate');
    await expect.poll(() => check.textContent()).toBe("crossed('pier_gate')");
    await builder.getByLabel('Direction').selectOption('in');
    await builder.getByLabel('Label', { exact: true }).fill('person');
    await expect.poll(() => check.textContent()).toBe("crossed('pier_gate', 'in', 'person')");
    // The dwell saved: a person in the pier for 45 s.
    await builder.getByLabel('Object condition').selectOption('dwell');
    expect(await builder.getByLabel('Zone', { exact: true }).getAttribute('list')).toBe('rule-zones');
    await builder.getByLabel('Zone', { exact: true }).fill('pier');
    await builder.getByLabel('Seconds').fill('45');
    await expect.poll(() => check.textContent()).toBe("dwell('pier', 'person') >= 45");
    await builder.getByRole('button', { name: 'Save rule' }).click();
    const saved = page.locator('[data-rule-name="loitering"]');
    await saved.waitFor();
    await expect.poll(() => saved.getByTestId('rule-conditions').textContent()).toBe('a person stays in pier 45 s');
    const [rule] = (await admin.get(`/v2/rules?projectId=${project.id}`)).body.data;
    expect(rule.conditions).toBe("dwell('pier', 'person') >= 45");
    expect(rule.conditionsObject).toMatchObject([{ type: 'dwell', zone: 'pier', label: 'person', seconds: 45 }]);
    // Opened again, the condition is drawn in the builder (before: named, not drawn), and edited.
    await saved.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('region', { name: 'Edit rule loitering' });
    const condition = editor.getByTestId('object-condition');
    await condition.waitFor();
    expect(await condition.getAttribute('data-kind')).toBe('dwell');
    expect(await editor.getByLabel('Zone', { exact: true }).inputValue()).toBe('pier');
    expect(await editor.getByLabel('Label', { exact: true }).inputValue()).toBe('person');
    expect(await editor.getByLabel('Seconds').inputValue()).toBe('45');
    await expect.poll(() => editor.getByTestId('rule-check').textContent()).toBe("dwell('pier', 'person') >= 45");
    await editor.getByLabel('Object condition').selectOption('inZone');
    await editor.getByLabel('Label', { exact: true }).fill('');
    await editor.getByLabel('Count', { exact: true }).fill('3');
    await expect.poll(() => editor.getByTestId('rule-check').textContent()).toBe("inZone('pier') >= 3");
    await editor.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => saved.getByTestId('rule-conditions').textContent()).toBe('objects in pier >= 3');
    expect((await admin.get(`/v2/rules/${rule.id}`)).body.data.conditions).toBe("inZone('pier') >= 3");
  });

  it('works at 390 px wide: every page reached from the navigation, nothing wider than the screen but inside a table box', async () => {
    const { admin } = platform!;
    // a camera, and a rule with a webhook: the widest pages
    const camera = await cameraDevice('narrow cameras', [
      {
        name: 'door',
        polygon: [
          [0, 0],
          [0.5, 0],
          [0.5, 1],
        ],
      },
    ]);
    await camera.frame(
      {
        person: [
          { type: 'rectangle', score: 0.8, data: { min: [0.1, 0.1], max: [0.4, 0.9] }, children: {}, zones: ['door'] },
        ],
      },
      await makeImage('png', 640, 360),
    );
    const channel = (await admin.post('/v2/channels', { name: 'narrow trackers', type: 'android' })).body.data;
    const project = (await admin.post('/v2/projects', { name: 'narrow', channelIds: [channel.id] })).body.data;
    await admin.post('/v2/rules', {
      projectId: project.id,
      name: 'narrow hook',
      conditionsObject: [],
      actions: [{ type: 'webhook', method: 'POST', url: 'http://127.0.0.1:9/a/rather/long/path/of/a/webhook' }],
    });
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${platform!.server.url}/models`);
    await signIn(page, ADMIN.email, ADMIN.password);
    /** What sticks out past the screen's right edge, other than what scrolls inside a table's box. */
    const wider = () =>
      page.evaluate<string[]>(`(() => {
        const width = document.documentElement.clientWidth;
        const out = [];
        if (document.documentElement.scrollWidth > width) out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
        for (const el of document.querySelectorAll('main *, header.top > *')) {
          if (el.closest('table') && el.tagName !== 'TABLE') continue;
          if (el.closest('nav')) continue;
          // an SVG clips what it draws (a map's tiles) to its own box: the svg is what must fit
          if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.right > width + 1) out.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className : '') + ' ends at ' + Math.round(r.right));
        }
        return out;
      })()`);
    const nav = page.getByRole('navigation');
    for (const name of NAV) {
      const link = nav.getByRole('link', { name, exact: true });
      await link.scrollIntoViewIfNeeded();
      const box = (await link.boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
      await link.click();
      await page.locator('main h1').first().waitFor();
      await expect.poll(() => nav.locator('a.active').textContent()).toBe(name);
      if (name === 'Rules') {
        await page.getByLabel('Project').selectOption({ label: 'narrow' });
        await page.locator('[data-rule-name="narrow hook"]').waitFor();
        await page.getByRole('button', { name: '+ Webhook' }).click();
      }
      if (name === 'Events') await page.getByTestId('search-results').waitFor({ state: 'attached' });
      expect(await wider(), name).toEqual([]);
    }
    await page.goto(`${platform!.server.url}/devices/${camera.deviceId}`);
    await page.getByTestId('camera-frame').waitFor();
    await page.getByTestId('device-events').waitFor();
    expect(await wider(), 'a camera').toEqual([]);
    // the navigation is there on a device's page too, and leads back
    await nav.getByRole('link', { name: 'Devices', exact: true }).click();
    await page.getByTestId('devices').waitFor();
    await context.close();
  });

  it('serves the API reference at /docs from the server itself', async () => {
    const page = await newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(platform!.server.url)) outside.push(request.url());
    });
    await page.goto(`${platform!.server.url}/docs`);
    await page.locator('[data-path="/v1/models/{modelVersionId}/predict"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'docs');
    expect(outside.filter((url) => !url.startsWith('data:'))).toEqual([]);
  });

  it('lands the links of the sign-up, invitation and password emails on pages that work', async () => {
    // sign-up → verification link → signed in
    const newcomer = await newPage();
    await newcomer.goto(`${platform!.server.url}/sign-up`);
    await newcomer.getByLabel('Your name').fill('Nia');
    await newcomer.getByLabel('Email').fill('nia@example.com');
    await newcomer.getByLabel('Password').fill('nia-password-1');
    await newcomer.getByLabel('Organization').fill('Nia Labs');
    await newcomer.getByRole('button', { name: 'Create account' }).click();
    await newcomer.getByText('We sent a verification link').waitFor();
    await newcomer.goto(await emailLink('nia@example.com', '/verify-email'));
    await newcomer.getByRole('button', { name: 'Verify and sign in' }).click();
    await signedInAs(newcomer, 'nia@example.com');

    // she changes her password in Settings (the current one required); a new sign-in takes the new one
    await newcomer.goto(`${platform!.server.url}/settings`);
    await newcomer.getByLabel('Current password').fill('not-my-password');
    await newcomer.getByLabel('New password').fill('nia-password-2');
    await newcomer.getByRole('button', { name: 'Change password' }).click();
    await newcomer.getByText('currentPassword is not the current password of this account').waitFor();
    await newcomer.getByLabel('Current password').fill('nia-password-1');
    await newcomer.getByLabel('New password').fill('nia-password-2');
    await newcomer.getByRole('button', { name: 'Change password' }).click();
    await newcomer.getByText('Password changed. Your other sessions are signed out.').waitFor();
    await newcomer.reload();
    await signedInAs(newcomer, 'nia@example.com'); // this session goes on
    const again = await newPage();
    await again.goto(`${platform!.server.url}/settings`);
    await signIn(again, 'nia@example.com', 'nia-password-2');
    await signedInAs(again, 'nia@example.com');

    // the admin invites a member from Settings; the member accepts through the link
    const admin = await newPage();
    await admin.goto(`${platform!.server.url}/settings`);
    await signIn(admin, ADMIN.email, ADMIN.password);
    await admin.getByLabel('Email to invite').fill('mo@example.com');
    await admin.getByLabel('Role').selectOption('member');
    await admin.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => admin.getByLabel('Email to invite').inputValue()).toBe('');
    await screenshot(admin, 'settings');
    const member = await newPage();
    await member.goto(await emailLink('mo@example.com', '/accept-invite'));
    await member.getByLabel('Your name').fill('Mo');
    await member.getByLabel('Password').fill('mo-password-1');
    await member.getByRole('button', { name: 'Join' }).click();
    await signedInAs(member, 'mo@example.com');
    // a member manages no keys and no models
    expect(await navLinks(member)).toEqual(NAV.filter((name) => name !== 'API keys'));
    await member.getByRole('heading', { name: 'Models' }).waitFor();
    expect(await member.getByRole('button', { name: 'Create model' }).count()).toBe(0);
    await member.goto(`${platform!.server.url}/settings/api-keys`);
    await member.getByText('Only admins and project managers manage API keys').waitFor();
    expect(await member.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    // nor channel keys: the member sees the channels, without their keys or a way to create one
    await member.getByRole('link', { name: 'Channels' }).click();
    await member.locator('[data-channel-name="trucks"]').waitFor();
    expect(await member.getByRole('button', { name: 'API keys' }).count()).toBe(0);
    expect(await member.getByRole('button', { name: 'Create channel' }).count()).toBe(0);

    // forgotten password → set-password link → signed in with the new one
    const forgetful = await newPage();
    await forgetful.goto(`${platform!.server.url}/forgot-password`);
    await forgetful.getByLabel('Email').fill('mo@example.com');
    await forgetful.getByRole('button', { name: 'Send the link' }).click();
    await forgetful.getByText('a link to set a new password is on its way').waitFor();
    await forgetful.goto(await emailLink('mo@example.com', '/set-password'));
    await forgetful.getByLabel('New password').fill('mo-password-2');
    await forgetful.getByRole('button', { name: 'Set password and sign in' }).click();
    await signedInAs(forgetful, 'mo@example.com');
    expect(
      (await platform!.anon.post('/v2/login', { email: 'mo@example.com', password: 'mo-password-2' })).status,
    ).toBe(200);
  });
});
