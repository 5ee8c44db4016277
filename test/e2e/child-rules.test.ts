// Rules that see what a version's child stages answered: a camera on the
// bundled demo pipeline (the demo detector, each shape's crop through the
// colour classifier) sends frames of the moving-shapes clip, a red circle
// (#d03030) and a blue square (#3050d0); each frame's event carries every
// detection's children and counts them (childCounts, zoneChildCounts). A
// rule naming `red` as a circle's child fires its webhook, one naming
// `blue` for circles never does, and the Gen B form (the square's blue, in
// the corner zone) and the counts as an attribute fire too.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COLOUR_MODEL_VERSION_ID, DEMO_PIPELINE_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { CLIP_PLACES, clipFrames } from '../helpers/moving-shapes.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { ROOT, waitFor } from '../helpers/server.js';

type Answer = { type: string; score: number; children: Record<string, Answer[]>; zones?: string[] };

let platform: Platform;
let receiver: Server;
let receiverUrl: string;
/** the webhooks received: the path (the rule's) and the body */
const received: Array<{ path: string; body: { event: string; reds?: number } }> = [];
/** frame 30 of the clip: the red circle (upper half, right of the middle) and the blue square (in the corner zone) */
let frame: Buffer;
let camera: { token: string; deviceId: string };
let project: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        received.push({ path: req.url!, body: JSON.parse(body) });
      } catch {
        received.push({ path: req.url!, body: { event: `not JSON: ${body}` } });
      }
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  // The receiver is on loopback, which webhooks may only reach when allowed.
  platform = await startPlatform(
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', ACTION_RETRY_BASE_MS: '50' },
    { modelsDir: join(ROOT, 'models') },
  );
  const { admin } = platform;
  // The pipeline and its child both loaded: until the child is, the pipeline answers children empty.
  await waitFor(
    async () =>
      (await admin.get(`/v2/model-versions/${DEMO_PIPELINE_MODEL_VERSION_ID}`)).body.data?.status === 'Active' &&
      (await admin.get(`/v2/model-versions/${DEMO_COLOUR_MODEL_VERSION_ID}`)).body.data?.status === 'Active',
    180_000,
    'the demo pipeline and the colour classifier to be Active',
  );
  const channel = (await admin.post('/v2/channels', { name: 'gates', type: 'iot' })).body.data;
  project = (await admin.post('/v2/projects', { name: 'gate', channelIds: [channel.id] })).body.data.id;
  const registered = await fetch(`${platform.server.url}/v1/registration`, {
    method: 'POST',
    body: JSON.stringify({ apiKey: channel.apiKeys[0].apiKey }),
  });
  expect(registered.status).toBe(200);
  camera = (await registered.json()) as { token: string; deviceId: string };
  const vision = await admin.put(`/v2/devices/${camera.deviceId}/vision`, {
    modelVersionId: DEMO_PIPELINE_MODEL_VERSION_ID,
    zones: CLIP_PLACES.zones,
  });
  expect(vision.status, JSON.stringify(vision.body)).toBe(200);
  frame = (await clipFrames())[30]!;
}, 300_000);

afterAll(async () => {
  if (platform) await stopPlatform(platform);
  receiver?.close();
});

async function sendFrame(): Promise<{ eventId: string; detections: Record<string, Answer[]> }> {
  const res = await fetch(`${platform.server.url}/v1/iot/frames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${camera.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ image: frame.toString('base64') }),
  });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

/** A rule of the project whose webhook posts the event's id (and the red circles it counts) to `path`. */
async function rule(name: string, path: string, conditions: { conditions: string } | { conditionsObject: unknown[] }) {
  const res = await platform.admin.post('/v2/rules', {
    projectId: project,
    name,
    ...conditions,
    actions: [
      {
        type: 'webhook',
        method: 'POST',
        url: `${receiverUrl}${path}`,
        body: '{"event": "{{event.id}}", "reds": {{event.payload.childCounts.circle.red}}}',
      },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string; conditions: string; conditionsObject: any[]; warnings: unknown[] };
}

describe('rules on the children of a pipeline’s detections', () => {
  it("carries each detection's children in the frame's event, and counts them", async () => {
    const answer = await sendFrame();
    const circles = answer.detections.circle ?? [];
    const squares = answer.detections.square ?? [];
    expect(circles, JSON.stringify(answer.detections)).toHaveLength(1);
    expect(squares, JSON.stringify(answer.detections)).toHaveLength(1);
    expect(Object.keys(circles[0]!.children)).toEqual(['red']);
    expect(Object.keys(squares[0]!.children)).toEqual(['blue']);
    const [stored] = await platform.sql<
      Array<{ payload: any }>
    >`SELECT payload FROM events WHERE id = ${answer.eventId}`;
    const payload = stored!.payload;
    expect(payload.modelVersionId).toBe(DEMO_PIPELINE_MODEL_VERSION_ID);
    // The detections as the predict answer gave them, children and all, each with its zones.
    expect(payload.detections.circle).toEqual([{ ...circles[0], zones: [] }]);
    expect(payload.detections.square).toEqual([{ ...squares[0], zones: ['corner'] }]);
    expect(payload.counts).toMatchObject({ circle: 1, square: 1 });
    expect(payload.zoneCounts.corner).toMatchObject({ square: 1 });
    expect(payload.zoneCounts.corner.circle).toBeUndefined();
    // Each parent label with each child label, in all and in the zone the detection lies in.
    expect(payload.childCounts.circle).toEqual({ red: 1 });
    expect(payload.childCounts.square).toEqual({ blue: 1 });
    expect(payload.zoneChildCounts.corner.square).toEqual({ blue: 1 });
    expect(payload.zoneChildCounts.corner.circle).toBeUndefined();
  });

  it("fires a rule naming the circle's red, and never one naming blue for circles", async () => {
    // Created first: the engine hears of the rules in order, so it knows this one once it knows the others.
    const blue = await rule('a blue circle', '/blue', { conditions: "detections('circle', '', 0, 'blue') >= 1" });
    expect(blue.conditions).toBe("detections('circle', '', 0, 'blue') >= 1");
    const red = await rule('a red circle', '/red', { conditions: "detections('circle', '', 0, 'red') >= 1" });
    expect(red.conditions).toBe("detections('circle', '', 0, 'red') >= 1");
    expect(red.conditionsObject).toEqual([
      {
        type: 'detections',
        label: 'circle',
        child: 'red',
        operator: '>=',
        value: 1,
        description: "When the frame's detections of circle with a child detection of red is at least 1",
      },
    ]);
    // The colours are labels of a version the organization can run (the public colour classifier): no warning.
    expect(red.warnings).toEqual([]);
    const square = await rule('a blue square in the corner', '/square', {
      conditionsObject: [
        { type: 'detections', label: 'square', zone: 'corner', minScore: 0.3, child: 'blue', operator: '>=', value: 1 },
      ],
    });
    expect(square.conditions).toBe("detections('square', 'corner', 0.3, 'blue') >= 1");
    const counted = await rule('red circles counted', '/counted', {
      conditions: 'event.childCounts.circle.red >= 1',
    });
    // A typo in a child label: saved, with a warning naming the near match.
    const typo = await rule('a rde circle', '/typo', { conditions: "detections('circle', '', 0, 'rde') >= 1" });
    expect(typo.warnings).toEqual([
      {
        code: 'unknown_label',
        message: 'child label "rde" is not a label of any model this organization can run; did you mean "red"?',
        suggestions: ['red'],
      },
    ]);

    // The rules engine hears of the rules through NOTIFY: frames until the last one created fires.
    const sent: string[] = [];
    const fired = (path: string) => received.filter((r) => r.path === path).map((r) => r.body.event);
    await waitFor(
      async () => {
        sent.push((await sendFrame()).eventId);
        return fired('/counted').length > 0;
      },
      60_000,
      'the rule on the child counts to fire',
    );
    // One more frame, once every rule is known: each rule with a child the frame has fires on it.
    const last = (await sendFrame()).eventId;
    await waitFor(
      async () => ['/red', '/square', '/counted'].every((path) => fired(path).includes(last)),
      30_000,
      "the child rules' webhooks for the last frame",
    );
    const lastRed = received.find((r) => r.path === '/red' && r.body.event === last)!;
    expect(lastRed.body.reds).toBe(1);
    // Every webhook names a frame sent; the blue-circle rule never fired (and neither did the typo).
    for (const path of ['/red', '/square', '/counted'])
      for (const id of fired(path)) expect([...sent, last]).toContain(id);
    expect(fired('/blue')).toEqual([]);
    expect(fired('/typo')).toEqual([]);
    expect(await platform.sql`SELECT id FROM action_jobs WHERE rule_id = ANY(${[blue.id, typo.id]})`).toEqual([]);
    expect(await platform.sql`SELECT id FROM action_jobs WHERE rule_id = ${counted.id}`).not.toEqual([]);
  });
});
