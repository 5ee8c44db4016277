// Cameras that keep their frames (a vision profile's keepFrames): each
// frame's image is kept in the model store (PostgreSQL here; the bucket in
// s3-model-store.test.ts) under its event, whose payload says
// `frameKept: true`, and read back byte for byte with GET
// /v2/devices/:device/frames/:event, by its own organization only. A
// retried frame id keeps one image; an organization keeps at most
// KEPT_FRAMES_MAX_MB (1 MiB here: a few demo frames), its oldest frames
// removed first; the retention sweep removes frames past
// EVENT_RETENTION_DAYS.
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import { KeptFrames } from '../../src/platform/kept-frames.js';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { ROOT, waitFor } from '../helpers/server.js';
import { twoTenants, type TwoTenants } from '../helpers/tenants.js';

const DEMO = '01JDEM0DETECT0R00000000001';
const DAY_MS = 86_400_000;

let platform: Platform;
let tenants: TwoTenants;
/** Demo scenes as the cameras send them: JPEG, 75 to 355 KB each, 820 KB in all. */
const scenes: Buffer[] = [];

beforeAll(async () => {
  platform = await startPlatform({ KEPT_FRAMES_MAX_MB: '1' }, { modelsDir: join(ROOT, 'models') });
  await waitFor(async () => (await fetch(`${platform.server.url}/v2/health/ready`)).status === 200, 120_000, 'the demo model to load');
  tenants = await twoTenants(platform, { member: false });
  for (let i = 0; i < 4; i++) scenes.push(await renderScene(makeScene(EVAL_SEED_START + 200 + i), 'jpeg'));
}, 180_000);

afterAll(async () => {
  await stopPlatform(platform ?? {});
});

/** A device of the organization of `admin`, made a camera with the demo model. */
async function camera(admin: Api, keepFrames: boolean): Promise<{ token: string; deviceId: string }> {
  const channel = (await admin.post('/v2/channels', { name: `cameras ${Math.random()}`, type: 'iot' })).body.data;
  const res = await fetch(`${platform.server.url}/v1/registration`, { method: 'POST', body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }) });
  const device = (await res.json()) as { token: string; deviceId: string };
  const profile = await admin.put(`/v2/devices/${device.deviceId}/vision`, { modelVersionId: DEMO, keepFrames });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  expect(profile.body.data.keepFrames).toBe(keepFrames);
  return device;
}

async function sendFrame(token: string, image: Buffer, form: 'json' | 'multipart', query = ''): Promise<{ eventId: string }> {
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
  const answer = (await res.json()) as { eventId: string };
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

/** The kept frame of an event, as the API answers it. */
async function keptFrame(admin: Api, deviceId: string, eventId: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(`${platform.server.url}/v2/devices/${deviceId}/frames/${eventId}`, { headers: { authorization: `Bearer ${admin.token}` } });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

const payloadOf = async (eventId: string) => (await platform.sql<Array<{ payload: any }>>`SELECT payload FROM events WHERE id = ${eventId}`)[0]?.payload;
const keptRows = (organizationId: string) =>
  platform.sql<Array<{ eventId: string; bytes: number }>>`SELECT event_id, bytes FROM kept_frames WHERE organization_id = ${organizationId} ORDER BY kept_at`;

describe('a camera that keeps its frames', () => {
  it('keeps each image under its event, as sent, in JSON or multipart, and a retried frame id once', async () => {
    const { admin, organizationId } = tenants.a;
    const { token, deviceId } = await camera(admin, true);
    const json = await sendFrame(token, scenes[0]!, 'json', '?frameId=one');
    const multipart = await sendFrame(token, scenes[1]!, 'multipart');
    for (const [answer, image] of [[json, scenes[0]!], [multipart, scenes[1]!]] as const) {
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
    await waitFor(async () => (await keptRows(organizationId)).reduce((sum, r) => sum + r.bytes, 0) <= quota, 10_000, 'the oldest frames to be removed');
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

  it('is kept no longer than its event: the sweep removes what is past EVENT_RETENTION_DAYS', async () => {
    const keptBefore = (await platform.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM kept_frames`)[0]!.n;
    expect(keptBefore).toBeGreaterThan(0);
    const sweeper = new KeptFrames(platform.sql, undefined, { quotaBytes: 1024 * 1024, retentionDays: 3 });
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
    await platform.sql`INSERT INTO kept_frames (event_id, organization_id, device_id, content_type, bytes, sha256)
                       VALUES (${inBucket}, ${tenants.a.organizationId}, ${deviceId}, 'image/jpeg', 10, 'unchecked')`;
    const missing = await keptFrame(tenants.a.admin, deviceId, inBucket);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body.toString()).message).toContain('this server has no bucket');
  });
});
