// Cameras that keep their frames (a vision profile's keepFrames): each
// frame's image is kept in the model store (PostgreSQL here; the bucket in
// s3-model-store.test.ts) under its event, whose payload says
// `frameKept: true`, and read back byte for byte with GET
// /v2/devices/:device/frames/:event, by its own organization only. A
// retried frame id keeps one image; only the image's own bytes are kept
// (nothing a body carries after its end); an organization keeps at most
// KEPT_FRAMES_MAX_MB (1 MiB here: a few demo frames), its oldest frames
// removed first, and a frame over 90% of that is not kept; the
// organizations one user created keep at most KEPT_FRAMES_ACCOUNT_MAX_MB
// (2 MiB here) together; the store at most KEPT_FRAMES_TOTAL_MAX_MB, the
// accounts keeping the most losing their oldest frames first; removed
// frames' space is reused (VACUUM), not grown past; the retention sweep
// removes frames past EVENT_RETENTION_DAYS.
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import { KeptFrames } from '../../src/platform/kept-frames.js';
import { signUpTenant, type Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { ROOT, waitFor } from '../helpers/server.js';
import { organizationOf, twoTenants, type TwoTenants } from '../helpers/tenants.js';
import { testLog } from '../helpers/log.js';

const DEMO = '01JDEM0DETECT0R00000000001';
const DAY_MS = 86_400_000;
const MIB = 1024 * 1024;

let platform: Platform;
let tenants: TwoTenants;
/** Demo scenes as the cameras send them: JPEG, 75 to 355 KB each, 820 KB in all. */
const scenes: Buffer[] = [];

beforeAll(async () => {
  platform = await startPlatform(
    { KEPT_FRAMES_MAX_MB: '1', KEPT_FRAMES_ACCOUNT_MAX_MB: '2' },
    { modelsDir: join(ROOT, 'models') },
  );
  await waitFor(
    async () => (await fetch(`${platform.server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the demo model to load',
  );
  tenants = await twoTenants(platform, { member: false });
  for (let i = 0; i < 4; i++) scenes.push(await renderScene(makeScene(EVAL_SEED_START + 200 + i), 'jpeg'));
}, 180_000);

afterAll(async () => {
  await stopPlatform(platform ?? {});
});

/** A device of the organization of `admin`, made a camera with the demo model. */
async function camera(admin: Api, keepFrames: boolean): Promise<{ token: string; deviceId: string }> {
  const channel = (await admin.post('/v2/channels', { name: `cameras ${Math.random()}`, type: 'iot' })).body.data;
  const res = await fetch(`${platform.server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  const device = (await res.json()) as { token: string; deviceId: string };
  const profile = await admin.put(`/v2/devices/${device.deviceId}/vision`, { modelVersionId: DEMO, keepFrames });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  expect(profile.body.data.keepFrames).toBe(keepFrames);
  return device;
}

async function sendFrame(
  token: string,
  image: Buffer,
  form: 'json' | 'multipart',
  query = '',
): Promise<{ eventId: string; frameNotKept?: string }> {
  let body: string | FormData;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (form === 'json') {
    body = JSON.stringify({ image: image.toString('base64') });
    headers['content-type'] = 'application/json';
  } else {
    const data = new FormData();
    data.append('file', new Blob([image]), 'frame.jpg');
    body = data;
  }
  const res = await fetch(`${platform.server.url}/v1/iot/frames${query}`, { method: 'POST', headers, body });
  const answer = (await res.json()) as { eventId: string; frameNotKept?: string };
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

/** The kept frame of an event, as the API answers it. */
async function keptFrame(
  admin: Api,
  deviceId: string,
  eventId: string,
): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(`${platform.server.url}/v2/devices/${deviceId}/frames/${eventId}`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

const payloadOf = async (eventId: string) =>
  (await platform.sql<Array<{ payload: any }>>`SELECT payload FROM events WHERE id = ${eventId}`)[0]?.payload;
const keptRows = (organizationId: string) =>
  platform.sql<
    Array<{ eventId: string; bytes: number }>
  >`SELECT event_id, bytes FROM kept_frames WHERE organization_id = ${organizationId} ORDER BY kept_at`;

describe('a camera that keeps its frames', () => {
  it('keeps each image under its event, as sent, in JSON or multipart, and a retried frame id once', async () => {
    const { admin, organizationId } = tenants.a;
    const { token, deviceId } = await camera(admin, true);
    const json = await sendFrame(token, scenes[0]!, 'json', '?frameId=one');
    const multipart = await sendFrame(token, scenes[1]!, 'multipart');
    for (const [answer, image] of [
      [json, scenes[0]!],
      [multipart, scenes[1]!],
    ] as const) {
      expect((await payloadOf(answer.eventId)).frameKept).toBe(true);
      const kept = await keptFrame(admin, deviceId, answer.eventId);
      expect(kept.status).toBe(200);
      expect(kept.type).toBe('image/jpeg');
      expect(kept.body.equals(image)).toBe(true);
    }
    // A retry of frame "one" lands on its first event; the image kept is the first one's, once.
    const retry = await sendFrame(token, scenes[2]!, 'multipart', '?frameId=one');
    expect(retry.eventId).toBe(json.eventId);
    expect((await keptFrame(admin, deviceId, json.eventId)).body.equals(scenes[0]!)).toBe(true);
    expect((await keptRows(organizationId)).map((r) => r.eventId)).toEqual([json.eventId, multipart.eventId]);
  });

  it('keeps nothing when its profile does not say so', async () => {
    const { admin, organizationId } = tenants.a;
    const before = await keptRows(organizationId);
    const { token, deviceId } = await camera(admin, false);
    const { eventId } = await sendFrame(token, scenes[0]!, 'json');
    expect(await payloadOf(eventId)).not.toHaveProperty('frameKept');
    expect((await keptFrame(admin, deviceId, eventId)).status).toBe(404);
    expect(await keptRows(organizationId)).toEqual(before);
  });

  it("is another organization's to see: neither the frame nor its device answers", async () => {
    const { token, deviceId } = await camera(tenants.a.admin, true);
    const { eventId } = await sendFrame(token, scenes[3]!, 'json');
    const stranger = await keptFrame(tenants.b.admin, deviceId, eventId);
    expect(stranger.status).toBe(404);
    expect(JSON.parse(stranger.body.toString())).toMatchObject({ status: 404 });
    // Nor under another device of A's.
    const other = await camera(tenants.a.admin, true);
    expect((await keptFrame(tenants.a.admin, other.deviceId, eventId)).status).toBe(404);
    expect((await keptFrame(tenants.a.admin, deviceId, eventId)).status).toBe(200);
    expect((await tenants.a.admin.get(`/v2/devices/${deviceId}/frames/not-an-id`)).status).toBe(400);
  });

  it('keeps its organization within KEPT_FRAMES_MAX_MB, removing the oldest frames first', async () => {
    const { admin, organizationId } = tenants.b;
    const { token, deviceId } = await camera(admin, true);
    const sent: string[] = [];
    // About 2 MB of frames, each under the quota.
    const frames = [...scenes, ...scenes, scenes[0]!];
    for (const image of frames) sent.push((await sendFrame(token, image, 'multipart')).eventId);
    const quota = 1024 * 1024;
    // Over the quota, the oldest go, down to 90% of it: the newest frame stays.
    await waitFor(
      async () => (await keptRows(organizationId)).reduce((sum, r) => sum + r.bytes, 0) <= quota,
      10_000,
      'the oldest frames to be removed',
    );
    const kept = (await keptRows(organizationId)).map((r) => r.eventId);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(sent.slice(sent.length - kept.length));
    expect((await keptFrame(admin, deviceId, sent.at(-1)!)).body.equals(scenes[0]!)).toBe(true);
    expect((await keptFrame(admin, deviceId, sent[0]!)).status).toBe(404);
    // Their events stay, saying the frame was kept when it was stored.
    expect((await payloadOf(sent[0]!)).frameKept).toBe(true);
    // The other organization's frames were not touched.
    expect((await keptRows(tenants.a.organizationId)).length).toBeGreaterThanOrEqual(3);
  });

  it("keeps only the image's own bytes: what the body carries after the image's end is neither kept nor counted", async () => {
    const { admin, organizationId } = tenants.a;
    const { token, deviceId } = await camera(admin, true);
    // Megabytes after the JPEG's end marker (EOI), and after a PNG's IEND: decoders ignore them.
    const padding = Buffer.alloc(3 * MIB, 0x5a);
    const png = await sharp(scenes[1]!).resize(320, 240).png().toBuffer();
    for (const [image, form] of [
      [scenes[2]!, 'multipart'],
      [png, 'json'],
    ] as const) {
      const { eventId, frameNotKept } = await sendFrame(token, Buffer.concat([image, padding]), form);
      expect(frameNotKept).toBeUndefined();
      const kept = await keptFrame(admin, deviceId, eventId);
      expect(kept.status).toBe(200);
      expect(kept.body.length).toBe(image.length);
      expect(kept.body.equals(image)).toBe(true);
      const [row] = await platform.sql<
        Array<{ bytes: number }>
      >`SELECT bytes FROM kept_frames WHERE organization_id = ${organizationId} AND event_id = ${eventId}`;
      expect(row!.bytes).toBe(image.length);
    }
  });

  it('does not keep a frame over 90% of the quota, and keeps the frames the organization had (the answer says why)', async () => {
    // An organization of its own, whose three demo frames stay under 90% of its quota.
    const admin = await signUpTenant(platform.anon, platform.sql, 'big-frame@example.com');
    const organizationId = organizationOf(admin);
    const { token, deviceId } = await camera(admin, true);
    for (const image of [scenes[0]!, scenes[1]!]) await sendFrame(token, image, 'json');
    const before = await keptRows(organizationId);
    expect(before.length).toBeGreaterThanOrEqual(2);
    // Noise compresses to nothing: a PNG of 1.1 MB of its own, over 90% of the 1 MiB quota.
    const big = await sharp({
      create: {
        width: 640,
        height: 600,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 64 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(0.9 * MIB);
    const refused = await sendFrame(token, big, 'multipart');
    expect(refused.frameNotKept).toMatch(/over 943718, 90% of the smallest kept-frames quota/);
    expect(await payloadOf(refused.eventId)).not.toHaveProperty('frameKept');
    expect((await keptFrame(admin, deviceId, refused.eventId)).status).toBe(404);
    // A frame after it is kept beside the ones before.
    const next = await sendFrame(token, scenes[3]!, 'json');
    expect(next.frameNotKept).toBeUndefined();
    expect((await keptRows(organizationId)).map((r) => r.eventId)).toEqual([
      ...before.map((r) => r.eventId),
      next.eventId,
    ]);
  });

  it('keeps at most KEPT_FRAMES_ACCOUNT_MAX_MB for the organizations one user created, its oldest frames removed first', async () => {
    // One user, three organizations of their own, a camera in each: 2.5 MB of frames, each organization within its 1 MiB.
    const owner = await signUpTenant(platform.anon, platform.sql, 'many-organizations@example.com');
    const organizations = [organizationOf(owner)];
    for (const name of ['second', 'third'])
      organizations.push((await owner.post('/v2/organizations', { name })).body.data.id);
    const sent: string[] = [];
    for (const organizationId of organizations) {
      const switched = await owner.post('/v2/set-organization', { organizationId });
      expect(switched.status).toBe(200);
      const { token } = await camera(owner.withToken(switched.body.token), true);
      for (const image of scenes) sent.push((await sendFrame(token, image, 'multipart')).eventId);
    }
    const accountRows = () =>
      platform.sql<
        Array<{ eventId: string; bytes: number }>
      >`SELECT event_id, bytes FROM kept_frames WHERE organization_id IN ${platform.sql(organizations)} ORDER BY kept_at`;
    await waitFor(
      async () => (await accountRows()).reduce((sum, r) => sum + r.bytes, 0) <= 2 * MIB,
      10_000,
      "the account's oldest frames to be removed",
    );
    const kept = (await accountRows()).map((r) => r.eventId);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(sent.slice(sent.length - kept.length));
    // Each organization alone was within its own quota: only the account's removed its frames.
    expect(kept.length).toBeLessThan(sent.length);
  });

  it('is kept no longer than its event: the sweep removes what is past EVENT_RETENTION_DAYS', async () => {
    const keptBefore = (await platform.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM kept_frames`)[0]!.n;
    expect(keptBefore).toBeGreaterThan(0);
    const sweeper = new KeptFrames(
      platform.sql,
      undefined,
      {
        quotaBytes: MIB,
        accountQuotaBytes: MIB,
        totalQuotaBytes: MIB,
        retentionDays: 3,
      },
      testLog,
    );
    expect(await sweeper.sweep(Date.now() + 2 * DAY_MS)).toBe(0);
    expect(await sweeper.sweep(Date.now() + 3 * DAY_MS + 60_000)).toBe(keptBefore);
    expect((await platform.sql`SELECT 1 FROM kept_frames`).length).toBe(0);
    // A PNG is answered as one.
    const { token, deviceId } = await camera(tenants.a.admin, true);
    const png = await sharp(scenes[0]!).resize(320, 240).png().toBuffer();
    const { eventId } = await sendFrame(token, png, 'json');
    const kept = await keptFrame(tenants.a.admin, deviceId, eventId);
    expect([kept.status, kept.type, kept.body.equals(png)]).toEqual([200, 'image/png', true]);
    // A frame kept in a bucket while MODEL_STORE was s3 is not found on a server without one: a 404, not a 500.
    const inBucket = '01JFRAME00000000000000000B';
    await platform.sql`INSERT INTO kept_frames (event_id, organization_id, account_id, device_id, content_type, bytes, sha256)
                       VALUES (${inBucket}, ${tenants.a.organizationId}, ${tenants.a.organizationId}, ${deviceId}, 'image/jpeg', 10, 'unchecked')`;
    const missing = await keptFrame(tenants.a.admin, deviceId, inBucket);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString()).message).toContain('this server has no bucket');
  });
});

describe("the store's disk", () => {
  /** Distinct JPEGs of about 100 to 130 KB (noise), as a camera would send. */
  const noiseFrames = (count: number) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        sharp({
          create: {
            width: 380 + (i % 5) * 20,
            height: 400,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 40 + i },
          },
        })
          .jpeg({ quality: 85 })
          .toBuffer(),
      ),
    );
  const tableBytes = async () =>
    (await platform.sql<Array<{ bytes: number }>>`SELECT pg_total_relation_size('kept_frames')::float8 AS bytes`)[0]!
      .bytes;
  const totalKept = async () =>
    (await platform.sql<Array<{ bytes: number }>>`SELECT coalesce(sum(bytes), 0)::float8 AS bytes FROM kept_frames`)[0]!
      .bytes;

  it('keeps at most KEPT_FRAMES_TOTAL_MAX_MB in all: the accounts keeping the most lose their oldest frames first', async () => {
    await platform.sql`DELETE FROM kept_frames`;
    const store = new KeptFrames(
      platform.sql,
      undefined,
      {
        quotaBytes: 16 * MIB,
        accountQuotaBytes: 16 * MIB,
        totalQuotaBytes: MIB,
        retentionDays: 0,
      },
      testLog,
    );
    const images = await noiseFrames(14);
    const keep = (organizationId: string, image: Buffer, n: number) =>
      store.keep({ eventId: `01JT0TA1${String(n).padStart(18, '0')}`, organizationId, deviceId: 'camera', image });
    // A keeps a third of the store; B, who keeps the most, fills it past its total.
    for (let i = 0; i < 3; i++) await keep(tenants.a.organizationId, images[i]!, i);
    for (let i = 3; i < images.length; i++) await keep(tenants.b.organizationId, images[i]!, i);
    await waitFor(async () => (await totalKept()) <= MIB, 10_000, 'the largest account to lose its oldest frames');
    const rows = await platform.sql<
      Array<{ eventId: string; organizationId: string }>
    >`SELECT event_id, organization_id FROM kept_frames ORDER BY event_id`;
    const ofA = rows.filter((r) => r.organizationId === tenants.a.organizationId).map((r) => r.eventId);
    const ofB = rows.filter((r) => r.organizationId === tenants.b.organizationId).map((r) => r.eventId);
    // A, under the level B was cut to, keeps all it had; B keeps its newest.
    expect(ofA).toHaveLength(3);
    expect(ofB.length).toBeGreaterThan(0);
    expect(ofB.length).toBeLessThan(images.length - 3);
    expect(ofB.at(-1)).toBe(`01JT0TA1${String(images.length - 1).padStart(18, '0')}`);
    await store.stop();
  });

  it("reuses the space of removed frames: a camera at its quota's edge does not grow the table", async () => {
    await platform.sql`DELETE FROM kept_frames`;
    const store = new KeptFrames(
      platform.sql,
      undefined,
      {
        quotaBytes: MIB,
        accountQuotaBytes: 16 * MIB,
        totalQuotaBytes: 16 * MIB,
        retentionDays: 0,
      },
      testLog,
    );
    const images = await noiseFrames(20);
    const sent = images.reduce((sum, image) => sum + image.length, 0);
    // Twice over: 40 frames, over four times the quota, each removing the oldest once past it.
    const keepAll = async (round: number) => {
      for (let i = 0; i < images.length; i++) {
        await store.keep({
          eventId: `01JD1SK${round}${String(i).padStart(18, '0')}`,
          organizationId: tenants.b.organizationId,
          deviceId: 'camera',
          image: images[i]!,
        });
      }
      await store.stop();
    };
    await keepAll(0);
    const afterFirst = await tableBytes();
    await keepAll(1);
    // 30 s: each removal is a round of statements, and on a loaded 2-core host 20 of them have taken over 10 s.
    await waitFor(async () => (await totalKept()) <= MIB, 30_000, 'the oldest frames to be removed');
    const afterSecond = await tableBytes();
    expect(sent).toBeGreaterThan(1.5 * MIB);
    // The second round's frames went into the first round's space: the table grew by less than the quota.
    expect(
      afterSecond - afterFirst,
      `the table grew from ${afterFirst} to ${afterSecond} bytes for ${sent} bytes sent`,
    ).toBeLessThan(MIB);
  });
});
