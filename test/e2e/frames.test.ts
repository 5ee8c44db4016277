// Cameras are devices: a device given a vision profile (PUT
// /v2/devices/:id/vision) sends frames to POST /v1/iot/frames; each frame is
// run through the profile's model version and stored as an event carrying
// its detections, each with the zones it lies in, and the count of each
// label per zone, which rules read: a `detections` condition, or the counts
// as attributes. Frames are demo
// scenes (scripts/demo-model/scenes.ts) run through the bundled demo model.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type postgres from 'postgres';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVAL_SEED_START, makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import type { Api } from '../helpers/api.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { ROOT, waitFor, type TestServer } from '../helpers/server.js';

const DEMO = '01JDEM0DETECT0R00000000001';
/** The left and right halves of the image. */
const ZONES = [
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

interface Detection {
  type: string;
  score: number;
  data: { min: [number, number]; max: [number, number] };
}

let server: TestServer;
let sql: postgres.Sql;
let admin: Api;
let database: Platform['database'];
let channel: { id: string; key: string };
let project: string;
let frame: Buffer;
/** A plain grey picture: nothing to see. */
let empty: Buffer;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ url: string; body: string }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ url: req.url!, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  // The receiver is on loopback, which webhooks may only reach when allowed.
  ({ database, server, sql, admin } = await startPlatform(
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ACTION_RETRY_BASE_MS: '50' },
    { modelsDir: join(ROOT, 'models') },
  ));
  await waitFor(
    async () => (await fetch(`${server.url}/v2/health/ready`)).status === 200,
    120_000,
    'the demo model to load',
  );
  const created = (await admin.post('/v2/channels', { name: 'cameras', type: 'iot' })).body.data;
  channel = { id: created.id, key: created.apiKeys[0].apiKey };
  project = (await admin.post('/v2/projects', { name: 'yard', channelIds: [channel.id] })).body.data.id;
  frame = await renderScene(makeScene(EVAL_SEED_START + 100), 'jpeg');
  empty = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
}, 180_000);

afterAll(async () => {
  await stopPlatform({ sql, server, database });
  receiver?.close();
});

async function camera(): Promise<{ token: string; deviceId: string }> {
  const res = await fetch(`${server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.key }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; deviceId: string };
}

async function sendFrame(token: string, query = '', image = frame, form: 'json' | 'multipart' = 'json') {
  const body =
    form === 'json'
      ? { body: JSON.stringify({ image: image.toString('base64') }), type: 'application/json' }
      : (() => {
          const data = new FormData();
          data.append('file', new Blob([image]), 'frame.jpg');
          return { body: data, type: undefined };
        })();
  const res = await fetch(`${server.url}/v1/iot/frames${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body.type && { 'content-type': body.type }) },
    body: body.body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const eventsOf = (deviceId: string) =>
  sql<
    Array<{ id: string; payload: any; clientSentAt: Date | null }>
  >`SELECT id, payload, client_sent_at FROM events WHERE device_id = ${deviceId} ORDER BY id`;

/** Where the test places a detection, on its own: the centre of its box against the halves. */
const halfOf = (d: Detection) => ((d.data.min[0] + d.data.max[0]) / 2 < 0.5 ? 'left' : 'right');

describe('a camera', () => {
  it('is refused frames until it has a vision profile', async () => {
    const { token } = await camera();
    const res = await sendFrame(token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, message: 'this device is not a camera' });
  });

  it('has its profile set, read, checked and removed', async () => {
    const { deviceId } = await camera();
    expect((await admin.get(`/v2/devices/${deviceId}/vision`)).status).toBe(404);
    const set = await admin.put(`/v2/devices/${deviceId}/vision`, {
      modelVersionId: DEMO,
      options: { threshold: 0.3 },
      zones: ZONES,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ deviceId, modelVersionId: DEMO, options: { threshold: 0.3 }, zones: ZONES });
    expect(set.body.data).toMatchObject({ lines: [], tracking: {} });
    expect((await admin.get(`/v2/devices/${deviceId}/vision`)).body.data).toEqual(set.body.data);
    // zones anchored and with inertia, counting lines, the tracker's settings
    const gate = {
      name: 'gate',
      line: [
        [0.5, 0],
        [0.5, 1],
      ],
      anchor: 'bottom',
    };
    const tracked = await admin.put(`/v2/devices/${deviceId}/vision`, {
      modelVersionId: DEMO,
      zones: [{ ...ZONES[0], anchor: 'bottom', inertia: 3 }, ZONES[1]],
      lines: [gate],
      tracking: { minFrames: 2, lostFrames: 10 },
    });
    expect(tracked.status, JSON.stringify(tracked.body)).toBe(200);
    expect(tracked.body.data).toMatchObject({
      zones: [{ ...ZONES[0], anchor: 'bottom', inertia: 3 }, ZONES[1]],
      lines: [gate],
      tracking: { minFrames: 2, lostFrames: 10 },
    });
    expect((await admin.get(`/v2/devices/${deviceId}/vision`)).body.data).toEqual(tracked.body.data);

    const refused: Array<[object, string]> = [
      [{ modelVersionId: 'no-such-version' }, 'modelVersionId'],
      [{ modelVersionId: DEMO, zones: [ZONES[0], ZONES[0]] }, 'zones.1.name'],
      [{ modelVersionId: DEMO, zones: [{ name: 'has space', polygon: ZONES[0]!.polygon }] }, 'zones.0.name'],
      [
        {
          modelVersionId: DEMO,
          zones: [
            {
              name: 'z',
              polygon: [
                [0, 0],
                [1.5, 0],
                [1, 1],
              ],
            },
          ],
        },
        'zones.0.polygon',
      ],
      [
        {
          modelVersionId: DEMO,
          zones: [
            {
              name: 'z',
              polygon: [
                [0, 0],
                [1, 0],
              ],
            },
          ],
        },
        'zones.0.polygon',
      ],
      [{ modelVersionId: DEMO, options: { threshold: 2 } }, 'options.threshold'],
      [{ modelVersionId: DEMO, lines: [gate, gate] }, 'lines.1.name'],
      [
        {
          modelVersionId: DEMO,
          lines: [
            {
              name: 'dot',
              line: [
                [0.5, 0.5],
                [0.5, 0.5],
              ],
            },
          ],
        },
        'lines.0.line',
      ],
      [{ modelVersionId: DEMO, zones: [{ ...ZONES[0], anchor: 'top' }] }, 'zones.0.anchor'],
      [{ modelVersionId: DEMO, tracking: { minFrames: 0 } }, 'tracking.minFrames'],
      [{ modelVersionId: DEMO, tracking: { speed: 1 } }, 'tracking'],
    ];
    for (const [body, field] of refused) {
      const res = await admin.put(`/v2/devices/${deviceId}/vision`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toContain(field);
    }
    expect((await admin.put('/v2/devices/01JZZZZZZZZZZZZZZZZZZZZZZZ/vision', { modelVersionId: DEMO })).status).toBe(
      404,
    );

    expect((await admin.delete(`/v2/devices/${deviceId}/vision`)).status).toBe(204);
    expect((await admin.get(`/v2/devices/${deviceId}/vision`)).status).toBe(404);
    expect((await admin.delete(`/v2/devices/${deviceId}/vision`)).status).toBe(404);
  });

  it("answers a frame's detections and stores them as an event, placed in the zones", async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );

    const time = 1_767_261_600_000; // 2026-01-01T10:00:00Z
    const res = await sendFrame(token, `?frameId=f-1&time=${time}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const detections = res.body.detections as Record<string, Detection[]>;
    // The same answer predict gives for the image.
    const predicted = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await inferenceKey()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ image: frame.toString('base64') }),
    });
    expect(detections).toEqual(await predicted.json());
    const all = Object.entries(detections).flatMap(([label, list]) => list.map((d) => ({ label, ...d })));
    expect(all.length).toBeGreaterThan(0);

    const [event, ...others] = await eventsOf(deviceId);
    expect(others).toEqual([]);
    expect(event!.id).toBe(res.body.eventId);
    expect(event!.clientSentAt?.getTime()).toBe(time);
    expect(event!.payload.frameId).toBe('f-1');
    expect(event!.payload.modelVersionId).toBe(DEMO);
    const expected: Record<string, Record<string, number>> = { left: {}, right: {} };
    for (const d of all) expected[halfOf(d)]![d.label] = (expected[halfOf(d)]![d.label] ?? 0) + 1;
    expect(event!.payload.zoneCounts).toEqual(expected);
    expect(event!.payload.counts).toEqual(
      Object.fromEntries(Object.entries(detections).map(([label, list]) => [label, list.length])),
    );
    for (const [label, list] of Object.entries(detections)) {
      expect(event!.payload.detections[label]).toEqual(list.map((d) => ({ ...d, zones: [halfOf(d)] })));
    }
  });

  it('tracks the objects of a still scene: each box gets a trackId from its third frame on, the same after, stored with its event', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );
    const answers: Array<Record<string, Array<Detection & { trackId?: number }>>> = [];
    for (let i = 0; i < 4; i++) {
      const res = await sendFrame(token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      answers.push(res.body.detections);
    }
    const ids = (answer: (typeof answers)[number]) =>
      Object.values(answer).flatMap((list) => list.map((d) => d.trackId));
    // seen once or twice: not yet an object (the default of 3 frames)
    expect(new Set([...ids(answers[0]!), ...ids(answers[1]!)])).toEqual(new Set([undefined]));
    const third = ids(answers[2]!);
    // A box scoring 0.5 or more starts an object; one under it only continues one, and none here was.
    const scores = Object.values(answers[2]!).flatMap((list) => list.map((d) => d.score));
    expect(scores.filter((score) => score >= 0.5).length).toBeGreaterThan(0);
    expect(third.map((id, i) => (scores[i]! >= 0.5 ? Number.isInteger(id) : id === undefined))).toEqual(
      third.map(() => true),
    );
    const objects = third.filter((id) => id !== undefined);
    expect(new Set(objects).size).toBe(objects.length); // one object per box
    expect(ids(answers[3]!)).toEqual(third); // the same objects, box for box
    const events = await eventsOf(deviceId);
    expect(events).toHaveLength(4);
    const stored = events[3]!.payload.detections as Record<string, Array<{ trackId?: number }>>;
    // (label by label: the stored JSON's keys come back in PostgreSQL's order)
    for (const [label, list] of Object.entries(answers[3]!))
      expect(stored[label]!.map((d) => d.trackId)).toEqual(list.map((d) => d.trackId));
  });

  it('stores a retried frame id once and answers the stored event', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    const first = await sendFrame(token, '?frameId=same');
    const retry = await sendFrame(token, '?frameId=same', frame, 'multipart');
    const other = await sendFrame(token);
    expect([first.status, retry.status, other.status]).toEqual([200, 200, 200]);
    expect(retry.body.eventId).toBe(first.body.eventId);
    expect(other.body.eventId).not.toBe(first.body.eventId);
    expect((await eventsOf(deviceId)).map((e) => e.id)).toEqual([first.body.eventId, other.body.eventId]);
  });

  it("answers a retried frame id with the stored event's detections, whatever the retry's image, and once its model version is gone", async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );
    const first = await sendFrame(token, '?frameId=again');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(Object.keys(first.body.detections).length).toBeGreaterThan(0);
    // Another image under the same id: the first frame's answer, not the grey picture's (nothing to see).
    const retry = await sendFrame(token, '?frameId=again', empty);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toEqual(first.body);
    // The profile's model version gone: a retry is still answered from the stored event; a new frame is not.
    await sql`UPDATE device_vision SET model_version_id = '01JG0NEVERS10N000000000000' WHERE device_id = ${deviceId}`;
    const late = await sendFrame(token, '?frameId=again', frame, 'multipart');
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body).toEqual(first.body);
    expect((await sendFrame(token, '?frameId=new')).status).toBe(404);
    expect((await eventsOf(deviceId)).map((e) => e.id)).toEqual([first.body.eventId]);
  });

  it("keeps frame ids apart from IoT events' Idempotency-Keys", async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    // An IoT event of the camera whose Idempotency-Key is "frame": before, its key was frame "0"'s.
    const iot = await fetch(`${server.url}/v1/iot/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'frame' },
      body: JSON.stringify({ data: { temperature: 21 } }),
    });
    expect(iot.status).toBe(204);
    const [stored] = await eventsOf(deviceId);
    const framed = await sendFrame(token, '?frameId=0');
    expect(framed.status, JSON.stringify(framed.body)).toBe(200);
    expect(framed.body.eventId).not.toBe(stored!.id);
    const events = await eventsOf(deviceId);
    expect(events.map((e) => e.id)).toEqual([stored!.id, framed.body.eventId]);
    expect(events[1]!.payload.frameId).toBe('0');
  });

  it('refuses a body that is no image, and a frame time that is none', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    const notImage = await sendFrame(token, '', Buffer.from('not an image'));
    expect(notImage.status).toBe(400);
    expect(notImage.body).toEqual({ status: 400, message: 'could not parse image', error: 'image: unknown format' });
    const badTime = await sendFrame(token, '?time=yesterday');
    expect(badTime.status).toBe(400);
    expect(badTime.body.error).toContain('time');
    expect(await eventsOf(deviceId)).toEqual([]);
  });

  it('refuses a frame time in epoch seconds, before 2000, over a day ahead or in a lenient form, and a query parameter given twice', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    // Before, each was stored: in 1970 (seconds, 1), as 2001-01-01 (+1 and -1, read by Date.parse), or with the last frameId.
    const queries = [
      '?time=1767261600',
      '?time=1',
      '?time=%2B1',
      '?time=-1',
      '?time=2026-01-01T10:00:00', // no zone
      '?time=Thu%2C%2001%20Jan%202026%2010%3A00%3A00%20GMT',
      '?time=1999-12-31T23:59:59Z',
      `?time=${Date.now() + 2 * 86_400_000}`,
    ];
    for (const query of queries) {
      const refused = await sendFrame(token, query);
      expect(refused.body, query).toMatchObject({
        status: 400,
        message: 'invalid query parameter',
        error: expect.stringMatching(/^time: .*epoch milliseconds \(an integer\) or an ISO 8601 time with a date/),
      });
    }
    expect((await sendFrame(token, queries[0])).body.error).toContain(
      'epoch seconds? send milliseconds (1767261600000)',
    );
    const twice = await sendFrame(token, '?frameId=a&frameId=b');
    expect(twice.body).toEqual({
      status: 400,
      message: 'invalid query parameter',
      error: 'frameId: given more than once ("a" and "b"); send it once',
    });
    expect(await eventsOf(deviceId)).toEqual([]);
    const iso = await sendFrame(token, '?time=2026-01-01T11:00:00%2B01:00');
    expect(iso.status, JSON.stringify(iso.body)).toBe(200);
    expect((await eventsOf(deviceId)).map((e) => e.clientSentAt?.toISOString())).toEqual(['2026-01-01T10:00:00.000Z']);
  });

  it('drives a rule on what it sees: a detections condition, and the zone counts as attributes', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );
    const seen = (await sendFrame(token)).body.detections as Record<string, Detection[]>;
    const [label, list] = Object.entries(seen)[0]!;
    const zone = halfOf(list[0]!);
    const byDetections = await admin.post('/v2/rules', {
      projectId: project,
      name: `a ${label} in the ${zone} half`,
      conditionsObject: [{ type: 'detections', label, zone, operator: '>=', value: 1 }],
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['saw-it'] }],
    });
    expect(byDetections.status, JSON.stringify(byDetections.body)).toBe(200);
    expect(byDetections.body.data.conditions).toBe(`detections('${label}', '${zone}') >= 1`);
    // Labels that are identifiers can be read as attributes too.
    const attributeLabel = Object.keys(seen).find((name) => /^[a-z]+$/.test(name));
    if (attributeLabel) {
      const byAttribute = await admin.post('/v2/rules', {
        projectId: project,
        name: 'zone counts',
        conditions: `event.zoneCounts.${halfOf(seen[attributeLabel]![0]!)}.${attributeLabel} >= 1`,
        actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['counted'] }],
      });
      expect(byAttribute.status, JSON.stringify(byAttribute.body)).toBe(200);
    }
    const expected = attributeLabel ? ['saw-it', 'counted'] : ['saw-it'];
    // The rules engine hears of the rules through NOTIFY: frames until it has.
    await waitFor(
      async () => {
        expect((await sendFrame(token)).status).toBe(200);
        const tags = (await admin.get(`/v2/devices/${deviceId}`)).body.data.tags as string[];
        return expected.every((tag) => tags.includes(tag));
      },
      30_000,
      'the rules to tag the camera',
    );
  });

  it('fires no detections rule on a frame without what it asks for', async () => {
    const { token, deviceId } = await camera();
    expect((await admin.put(`/v2/devices/${deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );
    const rule = await admin.post('/v2/rules', {
      projectId: project,
      name: 'a thousand cones, never',
      conditionsObject: [{ type: 'detections', label: 'traffic cone', minScore: 0.01, operator: '>=', value: 1000 }],
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['impossible'] }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const probe = await admin.post('/v2/rules', {
      projectId: project,
      name: 'any frame',
      conditions: "detections('nothing at all') == 0",
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['probed'] }],
    });
    expect(probe.status, JSON.stringify(probe.body)).toBe(200);
    // Once the probe (created after the rule) fires, the engine has both rules: the other did not fire.
    await waitFor(
      async () => {
        expect((await sendFrame(token)).status).toBe(200);
        return ((await admin.get(`/v2/devices/${deviceId}`)).body.data.tags as string[]).includes('probed');
      },
      30_000,
      'the probe rule to tag the camera',
    );
    expect((await admin.get(`/v2/devices/${deviceId}`)).body.data.tags).not.toContain('impossible');
  });
});

/** The bootstrap organization's inference key, made for the comparison with predict. */
let key: string | undefined;
async function inferenceKey(): Promise<string> {
  key ??= (await admin.post('/v2/inference/api-keys', { name: 'frames test' })).body.data.apiKey as string;
  return key;
}

describe('a rule on a dwell', () => {
  it('fires once per stay of a traffic cone in a zone, not before it has stayed 2 s', {
    timeout: 120_000,
  }, async () => {
    const watched = await camera();
    expect(
      (await admin.put(`/v2/devices/${watched.deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status,
    ).toBe(200);
    // A demo scene with a traffic cone the model finds, and the half it is in.
    const label = 'traffic cone';
    let coneFrame: Buffer | undefined;
    let zone = '';
    for (let seed = EVAL_SEED_START + 100; seed < EVAL_SEED_START + 300 && !coneFrame; seed++) {
      const scene = makeScene(seed);
      if (!scene.objects.some((o) => o.label === label)) continue;
      const image = await renderScene(scene, 'jpeg');
      const cones = (await sendFrame(watched.token, '', image)).body.detections[label] as Detection[] | undefined;
      if (cones?.length) [coneFrame, zone] = [image, halfOf(cones[0]!)];
    }
    expect(coneFrame, 'a demo scene with a traffic cone the model finds').toBeDefined();
    expect((await sendFrame(watched.token, '', empty)).body.detections[label] ?? []).toEqual([]);

    const rule = await admin.post('/v2/rules', {
      projectId: project,
      name: `a ${label} stays in the ${zone} half`,
      conditionsObject: [
        {
          type: 'becomes',
          to: true,
          items: [{ type: 'for', seconds: 2, items: [{ type: 'detections', label, zone, operator: '>=', value: 1 }] }],
        },
      ],
      actions: [{ type: 'webhook', method: 'POST', url: `${receiverUrl}/stay`, body: '{"event": "{{event.id}}"}' }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    expect(rule.body.data.conditions).toBe(`becomesTrue(heldFor(2, 0, detections('${label}', '${zone}') >= 1))`);
    // The rules engine hears of rules through NOTIFY: a probe rule, created after, tags a probe camera once both are loaded.
    const probe = await admin.post('/v2/rules', {
      projectId: project,
      name: 'probe',
      conditions: "detections('nothing at all') == 0",
      actions: [{ type: 'update device state add tags', deviceIds: ['triggering device'], tags: ['probed'] }],
    });
    expect(probe.status).toBe(200);
    const prober = await camera();
    expect((await admin.put(`/v2/devices/${prober.deviceId}/vision`, { modelVersionId: DEMO })).status).toBe(200);
    await waitFor(
      async () => {
        expect((await sendFrame(prober.token, '', empty)).status).toBe(200);
        return ((await admin.get(`/v2/devices/${prober.deviceId}`)).body.data.tags as string[]).includes('probed');
      },
      30_000,
      'the rules to be loaded',
    );

    // A fresh camera: the cone comes (1 s), stays past 2 s (3.1 s), leaves (5 s), comes back (6 s) and stays (8.5 s).
    const cam = await camera();
    expect((await admin.put(`/v2/devices/${cam.deviceId}/vision`, { modelVersionId: DEMO, zones: ZONES })).status).toBe(
      200,
    );
    const start = 1_767_261_600_000;
    const cone = coneFrame!;
    const script: Array<[number, Buffer]> = [
      [0, empty],
      [1, cone],
      [2, cone],
      [3.1, cone],
      [4, cone],
      [5, empty],
      [6, cone],
      [7, cone],
      [8.5, cone],
      [9, cone],
    ];
    const eventIds = new Map<number, string>();
    for (const [seconds, image] of script) {
      const res = await sendFrame(cam.token, `?time=${start + seconds * 1000}`, image);
      expect(res.status).toBe(200);
      eventIds.set(seconds, res.body.eventId);
    }
    const jobs = await waitFor(
      async () => {
        const rows = await sql<
          Array<{ eventId: string; status: string }>
        >`SELECT event_id, status FROM action_jobs WHERE rule_id = ${rule.body.data.id}`;
        return rows.length === 2 && rows.every((r) => r.status === 'succeeded') ? rows : undefined;
      },
      30_000,
      'two webhooks delivered',
    );
    expect(jobs.map((j) => j.eventId).sort()).toEqual([eventIds.get(3.1), eventIds.get(8.5)].sort());
    // The webhook receiver got one request per stay, naming the frame's event.
    const stays = received.filter((r) => r.url === '/stay').map((r) => JSON.parse(r.body).event as string);
    expect(stays.sort()).toEqual([eventIds.get(3.1), eventIds.get(8.5)].sort());
    // No more: the later frames of each stay and the frames of the empty scene fired nothing.
    expect(
      await sql`SELECT id FROM action_jobs WHERE rule_id = ${rule.body.data.id} AND event_id <> ALL(${[eventIds.get(3.1)!, eventIds.get(8.5)!]})`,
    ).toEqual([]);
  });
});
