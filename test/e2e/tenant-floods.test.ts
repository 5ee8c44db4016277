// What one tenant's flood leaves another: organization A predicts on its
// own fast version with two clients, alone and then while a flood runs, and
// keeps a share of its alone throughput (the ratio of two counts over the
// same time on the same machine, not a timing). The floods:
//   - a tenant's slow model (an upload whose runs take 100x longer),
//     flooded: CPU run permits are shared by run time (fair-share.ts);
//   - a tenant's pipeline, a fast parent whose slow child runs on every
//     detection: a request holds one place, its children's runs count to
//     the tenant's share (child-stages.ts);
//   - strangers trickling bodies to an unauthenticated route: their bodies
//     are small and in a budget of their own (http/server.ts readGatedBody);
//   - a tenant flooding the public version A uses too: its places are
//     shared fairly between the organizations calling it (version-queue.ts),
//     so none of A's requests is refused while the flood's are;
//   - a tenant's model that loops on some images, sent while A was idle:
//     every run permit is held for seconds, and A, coming back, is lent one
//     (fair-share.ts), both A's busy clients and a client of A that asks
//     once a second (its answers alone and under the flood);
//   - a tenant's burst of uploads whose validation loops until it is
//     killed: validations take turns per organization (validation-turns.ts)
//     inside the CPU fair share, so A's own upload and its predicts go on.
import { connect, type Socket } from 'node:net';
import type postgres from 'postgres';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec, makePredictModels } from '../fixtures/predict-models.js';
import { Api, signUpTenant, uploadModelVersion } from '../helpers/api.js';
import { makeImage } from '../helpers/images.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { predict } from '../helpers/predict.js';
import { removeDir, waitFor, type TestServer } from '../helpers/server.js';

const WINDOW_MS = 4000;

let server: TestServer;
let sql: postgres.Sql;
let database: Platform['database'];
let modelsDir: string;
let otherKey: string;
let otherAdmin: Api;
let admin: Api;
let image: Buffer;

beforeAll(async () => {
  modelsDir = await makePredictModels();
  ({ database, server, sql, admin } = await startPlatform(
    {
      INFERENCE_API_KEY: 'test-key',
      // Small enough for a few strangers to hold all of it, as 280 held 256 MiB in the attack.
      MAX_BUFFERED_BYTES: String(1024 * 1024),
      QUEUE_SIZE: '4',
      QUEUE_WAITING_ROOM: '8',
      ORGANIZATION_QUEUE_SIZE: '64',
      // A looping upload is killed after this; the slow model of the first flood validates in 4-6 s.
      MODEL_VALIDATION_TIMEOUT_MS: '10000',
    },
    { modelsDir },
  ));
  otherAdmin = await signUpTenant(new Api(server.url), sql, 'flooder@example.com');
  otherKey = (await otherAdmin.post('/v2/inference/api-keys', { name: 'flood' })).body.data.apiKey;
  image = await makeImage('png', 64, 48);
  await waitFor(async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200, 120_000, 'ready');
}, 180_000);

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  await removeDir(modelsDir);
});

/** Predicts of `clients` closed-loop clients over WINDOW_MS: those answered 200, and those refused (503). */
async function throughput(versionId: string, key: string, clients: number): Promise<{ ok: number; refused: number }> {
  const end = Date.now() + WINDOW_MS;
  let ok = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < end) {
        const { status } = await predict(server.url, versionId, image, { key });
        if (status === 200) ok++;
        else if (status === 503) refused++;
      }
    }),
  );
  return { ok, refused };
}

/** Answers of a client that asks once a second (at most) over SPORADIC_WINDOW_MS, and their latencies. */
async function sporadic(): Promise<{ ok: number; latencies: number[] }> {
  const end = Date.now() + SPORADIC_WINDOW_MS;
  const latencies: number[] = [];
  while (Date.now() < end) {
    const sent = Date.now();
    const { status } = await predict(server.url, DEMO_MODEL_VERSION_ID, image, { key: 'test-key' });
    if (status === 200) latencies.push(Date.now() - sent);
    const pause = sent + 1000 - Date.now();
    // the client's own pace: it asks once a second, not as fast as it is answered
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }
  return { ok: latencies.length, latencies };
}

const SPORADIC_WINDOW_MS = 6000;
let sporadicAlone: Promise<{ ok: number; latencies: number[] }> | undefined;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * The sporadic client's answers under `flood`, as a fraction of those alone
 * (measured once for the file): a client asking far less than its share
 * should be answered nearly every time, whatever the others hold.
 */
async function sporadicKeptUnder(
  flood: () => () => Promise<void>,
  underWay: () => Promise<boolean> | boolean,
): Promise<number> {
  sporadicAlone ??= sporadic();
  const alone = await sporadicAlone;
  const stop = flood();
  await waitFor(async () => underWay(), 30_000, 'the flood under way');
  const under = await sporadic();
  await stop();
  const kept = under.ok / alone.ok;
  process.stdout.write(
    `tenant floods, a client asking once a second: alone ${alone.ok} answers (median ${median(alone.latencies)} ms, max ${Math.max(...alone.latencies)} ms), ` +
      `under the flood ${under.ok} (median ${median(under.latencies)} ms, max ${Math.max(...under.latencies, 0)} ms) in ${SPORADIC_WINDOW_MS} ms: ${kept.toFixed(2)}\n`,
  );
  expect(alone.ok).toBeGreaterThanOrEqual(SPORADIC_WINDOW_MS / 1000 - 1);
  return kept;
}

/** A version uploaded by `api` as a new model's, once it is `status`. */
async function uploaded(
  api: Api,
  name: string,
  model: Uint8Array,
  status = 'Active',
  timeoutMs = 90_000,
): Promise<string> {
  const created = (await api.post('/v2/models', { name })).body.data;
  const id = (await uploadModelVersion(server.url, api, created.id, { model, config: fixtureConfig(name) })).body.data
    .id as string;
  await waitFor(
    async () => (await api.get(`/v2/model-versions/${id}`)).body.data.status === status,
    timeoutMs,
    `${name} ${status}`,
  );
  return id;
}

/** Runs `flood` until the returned stop is called. */
function flooding(loop: (running: () => boolean) => Promise<void>, clients: number): () => Promise<void> {
  let running = true;
  const all = Promise.all(Array.from({ length: clients }, () => loop(() => running)));
  return async () => {
    running = false;
    await all;
  };
}

/** The inference_queue_depth gauge of a version: its places taken. */
async function queueDepth(versionId: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(
    new RegExp(`^inference_queue_depth\\{model_version="${versionId}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
  );
}

/**
 * A's fast version (the bootstrap organization's), alone and under `flood`:
 * the fraction it keeps. Measured once `underWay` says the flood is at full
 * strength.
 */
async function keptUnder(
  flood: () => () => Promise<void>,
  underWay: () => Promise<boolean> | boolean,
): Promise<{ kept: number; refused: number }> {
  const alone = (await throughput(DEMO_MODEL_VERSION_ID, 'test-key', 2)).ok;
  const stop = flood();
  await waitFor(async () => underWay(), 30_000, 'the flood under way');
  const under = await throughput(DEMO_MODEL_VERSION_ID, 'test-key', 2);
  await stop();
  const kept = under.ok / alone;
  process.stdout.write(
    `tenant floods: alone ${alone}, under the flood ${under.ok} (${under.refused} refused) in ${WINDOW_MS} ms: ${kept.toFixed(2)}\n`,
  );
  expect(alone).toBeGreaterThan(20);
  return { kept, refused: under.refused };
}

describe('another tenant keeps its share', () => {
  it("under a flood of a tenant's slow model", { timeout: 120_000 }, async () => {
    const slow = await uploaded(
      otherAdmin,
      'slow',
      buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 60 } })),
    );
    const { kept } = await keptUnder(
      () =>
        flooding(async (running) => {
          while (running()) await predict(server.url, slow, image, { key: otherKey });
        }, 6),
      // its 6 clients against QUEUE_SIZE 4: every place of the slow version taken
      async () => (await queueDepth(slow)) === 4,
    );
    expect(kept).toBeGreaterThanOrEqual(0.4);
  });

  it("under a flood of a tenant's pipeline: a fast parent whose slow child runs on each of its detections", {
    timeout: 150_000,
  }, async () => {
    const parent = await uploaded(otherAdmin, 'fast-parent', buildConstantModel(fixtureSpec()));
    const child = await uploaded(
      otherAdmin,
      'slow-child',
      buildConstantModel(fixtureSpec({ slow: { size: 1024, repeats: 60 } })),
    );
    const modelId = (await otherAdmin.get(`/v2/model-versions/${parent}`)).body.data.modelId;
    const set = await otherAdmin.put(`/v2/models/${modelId}/versions/${parent}/stages`, {
      stages: [{ labels: ['cat', 'traffic cone'], modelVersionId: child, maxPerImage: 16, crop: { minSize: 1 } }],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // each answer: the parent's three boxes, each with the slow child's boxes in its children
    await waitFor(async () => {
      const res = await predict(server.url, parent, image, { key: otherKey });
      return Object.values(res.body as Record<string, Array<{ children: object }>>)
        .flat()
        .every((d) => Object.keys(d.children).length > 0);
    });
    const { kept } = await keptUnder(
      () =>
        flooding(async (running) => {
          while (running()) await predict(server.url, parent, image, { key: otherKey });
        }, 6),
      // one place each in the parent's queue (QUEUE_SIZE 4), its children's runs in the tenant's CPU share
      async () => (await queueDepth(parent)) === 4,
    );
    expect(kept).toBeGreaterThanOrEqual(0.4);
  });

  it("under a tenant's model that loops on some images: A's busy clients and its client asking once a second", {
    timeout: 150_000,
  }, async () => {
    // 5-10 s a run on a white image, nothing on the warm-up's grey: it validates in no time.
    const looping = await uploaded(
      otherAdmin,
      'looping',
      buildConstantModel(fixtureSpec({ loop: { iterations: 120_000, onBrightImages: true } })),
    );
    const white = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
    const flood = () =>
      flooding(async (running) => {
        while (running()) await predict(server.url, looping, white, { key: otherKey });
      }, 4);
    // its 4 clients against QUEUE_SIZE 4: both permits held by its runs, two more waiting
    const underWay = async () => (await queueDepth(looping)) === 4;
    const { kept } = await keptUnder(flood, underWay);
    expect(kept).toBeGreaterThanOrEqual(0.4);
    // Before: the client asking once a second came back each time to both
    // permits held for seconds, and waited for the end of one (4 answers of
    // 6 with runs of 3 s, median 601 ms, max 3.4 s; fewer with these).
    expect(await sporadicKeptUnder(flood, underWay)).toBeGreaterThanOrEqual(0.75);
  });

  it("under a tenant's burst of uploads whose validation loops until it is killed", { timeout: 150_000 }, async () => {
    const busyAlone = (await throughput(DEMO_MODEL_VERSION_ID, 'test-key', 2)).ok;
    sporadicAlone ??= sporadic();
    const sporadicAloneResult = await sporadicAlone;
    const aloneStarted = Date.now();
    await uploaded(admin, 'mine-alone', buildConstantModel(fixtureSpec()));
    const aloneMs = Date.now() - aloneStarted;
    const loops = (i: number) => buildConstantModel(fixtureSpec({ loop: { iterations: 1e9 + i } }));
    const hostile: string[] = [];
    for (let i = 0; i < 4; i++) hostile.push(await uploaded(otherAdmin, `loops-${i}`, loops(i), 'Initializing'));
    const stillValidating = async () => {
      let count = 0;
      for (const id of hostile)
        if ((await otherAdmin.get(`/v2/model-versions/${id}`)).body.data.status === 'Initializing') count++;
      return count;
    };
    // A's own upload: before, one line for every tenant two at a time, it came after all four (20 s).
    const started = Date.now();
    await uploaded(admin, 'mine-under', buildConstantModel(fixtureSpec()));
    const underMs = Date.now() - started;
    const waitingStill = await stillValidating();
    process.stdout.write(
      `tenant floods, A's upload: Active in ${aloneMs} ms alone, ${underMs} ms behind 4 looping uploads (${waitingStill} of them still validating)\n`,
    );
    expect(waitingStill).toBeGreaterThanOrEqual(2);
    // A's predicts while the rest validate, one at a time.
    const busyUnder = (await throughput(DEMO_MODEL_VERSION_ID, 'test-key', 2)).ok;
    const sporadicUnder = await sporadic();
    expect(await stillValidating()).toBeGreaterThan(0); // both measured under the burst
    const kept = busyUnder / busyAlone;
    const sporadicKept = sporadicUnder.ok / sporadicAloneResult.ok;
    process.stdout.write(
      `tenant floods, looping uploads: busy A alone ${busyAlone}, under ${busyUnder} in ${WINDOW_MS} ms: ${kept.toFixed(2)}; ` +
        `A asking once a second: ${sporadicUnder.ok} of ${sporadicAloneResult.ok} (median ${median(sporadicUnder.latencies)} ms, max ${Math.max(...sporadicUnder.latencies, 0)} ms): ${sporadicKept.toFixed(2)}\n`,
    );
    expect(kept).toBeGreaterThanOrEqual(0.4);
    expect(sporadicKept).toBeGreaterThanOrEqual(0.75);
    await waitFor(async () => (await stillValidating()) === 0, 60_000, 'the looping uploads failed');
    const failed = (await otherAdmin.get(`/v2/model-versions/${hostile[0]}`)).body.data;
    expect(failed.statusReason).toContain('MODEL_VALIDATION_TIMEOUT_MS');
  });

  it('under strangers trickling login bodies', { timeout: 60_000 }, async () => {
    const sockets = new Set<Socket>();
    let connected = 0;
    const { kept } = await keptUnder(
      () =>
        flooding(async (running) => {
          while (running()) {
            // 10 KB announced, 2 KB sent at once, then 200 bytes every 100 ms: just above MIN_UPLOAD_RATE's grace.
            await new Promise<void>((done) => {
              const socket = connect(server.port, '127.0.0.1');
              sockets.add(socket);
              const body = Buffer.alloc(10_000, 'a');
              let sent = 2000;
              const timer = setInterval(() => {
                if (!running() || sent >= body.length) return socket.destroy();
                socket.write(body.subarray(sent, sent + 200));
                sent += 200;
              }, 100);
              socket.on('connect', () =>
                socket.write(
                  `POST /v2/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.subarray(0, 2000)}`,
                  () => connected++,
                ),
              );
              socket.on('data', () => socket.destroy());
              socket.on('error', () => {});
              socket.on('close', () => {
                clearInterval(timer);
                sockets.delete(socket);
                done();
              });
            });
          }
        }, 150),
      // every stranger connected, its head and first 2 KB sent
      () => connected >= 150,
    );
    for (const socket of sockets) socket.destroy();
    expect(kept).toBeGreaterThanOrEqual(0.4);
  });

  it('under a flood of the public version it uses too', { timeout: 60_000 }, async () => {
    // 32 clients against 4 places and 8 waiting: the flood keeps the version's
    // queue full. A refused one retries after 100 ms, not at once: the load
    // generator shares the server's two cores, and a refusal loop at full
    // speed would measure how much CPU it takes from the server.
    let [refused, served] = [0, 0];
    const { kept, refused: refusedA } = await keptUnder(
      () =>
        flooding(async (running) => {
          while (running()) {
            if ((await predict(server.url, DEMO_MODEL_VERSION_ID, image, { key: otherKey })).status !== 503) served++;
            else {
              refused++;
              // the load generator's pacing, not a wait for the server (see above)
              await new Promise((r) => setTimeout(r, 100));
            }
          }
        }, 32),
      // the version's 4 places and 8 waiting full (the flood is being refused),
      // and that many of its requests served since: the queue has turned over once
      () => refused > 0 && served >= 12,
    );
    // Fair places: A is never refused while the flood is (before: A's
    // requests were refused with the flood's, and it kept 0.19). A holds
    // half the places, and the flood's refusals share the two cores with the
    // server, so its throughput is about half of its alone figure at best:
    // 0.47-0.52 run alone, 0.30-0.44 after the other floods of this file.
    expect(refusedA).toBe(0);
    expect(kept).toBeGreaterThanOrEqual(0.25);
  });
});
