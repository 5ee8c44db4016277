// The Open Inference Protocol's REST front end, end to end: a real server
// process with its OIP listener on a free port, the bundled demo detector
// (public) beside a model of the bootstrap organization's own, fetch as
// the client. Images in answer predict's JSON byte for byte; the binary
// tensor extension both ways; names resolve per organization; malformed
// bodies are the protocol's 400 naming the field, and the server stays up.
import { readFile, symlink } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_VERSION_ID } from '../../src/platform/bootstrap.js';
import { writeModelDir } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { Api, signUpTenant } from '../helpers/api.js';
import { answerWhileSending } from '../helpers/raw-http.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { freePort, removeDir, ROOT, waitFor } from '../helpers/server.js';

let platform: Platform;
let modelsDir: string;
let oip: string;
let scene: Buffer;
let otherKey: string;
const KEY = 'test-key';

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'sense-models-'));
  await symlink(join(ROOT, 'models', 'demo'), join(modelsDir, 'demo'));
  await writeModelDir(join(modelsDir, 'private'), fixtureSpec(), fixtureConfig('private'));
  const port = await freePort();
  platform = await startPlatform(
    {
      INFERENCE_API_KEY: KEY,
      OIP_HTTP_PORT: String(port),
      MAX_BATCH_SIZE: '4',
      // An infer body is read up to four such images in base64 JSON: 1,660,256 bytes.
      MAX_IMAGE_BYTES: '262144',
      // A request of four images takes four of the organization's share: past three, it is shed.
      ORGANIZATION_QUEUE_SIZE: '3',
    },
    { modelsDir },
  );
  oip = `http://127.0.0.1:${port}`;
  scene = await readFile(join(ROOT, 'samples', 'scene.jpg'));
  const other = await signUpTenant(new Api(platform.server.url), platform.sql, 'other@example.com');
  otherKey = (await other.post('/v2/inference/api-keys', { name: 'oip' })).body.data.apiKey;
  await waitFor(async () => (await fetch(`${oip}/v2/health/ready`)).status === 200, 120_000, 'OIP ready');
}, 180_000);

afterAll(async () => {
  await stopPlatform(platform);
  await removeDir(modelsDir);
});

const auth = (key = KEY) => ({ authorization: `Bearer ${key}` });

async function infer(path: string, body: unknown, key = KEY): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${oip}${path}`, {
    method: 'POST',
    headers: { ...auth(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const imageRequest = (images: Buffer[], extra: object = {}) => ({
  id: 'req-1',
  inputs: [{ name: 'image', datatype: 'BYTES', shape: [images.length], data: images.map((i) => i.toString('base64')) }],
  ...extra,
});

/** /v1 predict's answer for the image, as the bytes it answered. */
async function predictText(image: Buffer, query = ''): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([image]), 'scene.jpg');
  const res = await fetch(`${platform.server.url}/v1/models/${DEMO_MODEL_VERSION_ID}/predict${query}`, {
    method: 'POST',
    headers: auth(),
    body: form,
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** Triton's binary form of BYTES elements: each a 4-byte little-endian length, then its bytes. */
function bytesElements(elements: Buffer[]): Buffer {
  return Buffer.concat(
    elements.flatMap((e) => {
      const length = Buffer.alloc(4);
      length.writeUInt32LE(e.length);
      return [length, e];
    }),
  );
}

describe('health and metadata', () => {
  it('answers live, ready and the server metadata without a key', async () => {
    expect(await (await fetch(`${oip}/v2/health/live`)).json()).toEqual({ live: true });
    expect(await (await fetch(`${oip}/v2/health/ready`)).json()).toEqual({ ready: true });
    const meta = (await (await fetch(`${oip}/v2`)).json()) as { name: string; version: string; extensions: string[] };
    expect(meta.name).toBe('sense-inference-server');
    expect(meta.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(meta.extensions).toContain('binary_tensor_data');
  });

  it("answers a model's metadata and readiness, by name and by version id or number", async () => {
    const res = await fetch(`${oip}/v2/models/demo`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      name: 'demo',
      versions: [DEMO_MODEL_VERSION_ID],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [-1] }],
      outputs: [
        { name: 'detections', datatype: 'BYTES', shape: [-1] },
        { name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] },
        { name: 'scores', datatype: 'FP32', shape: [-1, -1] },
        { name: 'classes', datatype: 'INT32', shape: [-1, -1] },
        { name: 'count', datatype: 'INT32', shape: [-1] },
      ],
    });
    for (const path of ['demo/ready', `demo/versions/${DEMO_MODEL_VERSION_ID}/ready`, 'demo/versions/1/ready']) {
      const ready = await fetch(`${oip}/v2/models/${path}`, { headers: auth() });
      expect(ready.status, path).toBe(200);
      expect(await ready.json()).toEqual({ name: 'demo', ready: true });
    }
    const missing = await fetch(`${oip}/v2/models/demo/versions/7/ready`, { headers: auth() });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'model "demo" has no version "7"' });
  });

  it('refuses a missing or unknown key with 401 before anything else', async () => {
    for (const headers of [{}, auth('sk_wrong')]) {
      const meta = await fetch(`${oip}/v2/models/demo`, { headers });
      expect(meta.status).toBe(401);
      expect(Object.keys((await meta.json()) as object)).toEqual(['error']);
      const inferred = await fetch(`${oip}/v2/models/demo/infer`, { method: 'POST', headers, body: '{}' });
      expect(inferred.status).toBe(401);
    }
  });

  it("finds a model by name in the caller's organization, public models for every key, 404 for another's", async () => {
    expect((await fetch(`${oip}/v2/models/private`, { headers: auth() })).status).toBe(200);
    const hidden = await fetch(`${oip}/v2/models/private`, { headers: auth(otherKey) });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ error: 'model "private" not found' });
    const tiny = await makeTinyPng();
    expect((await infer('/v2/models/private/infer', imageRequest([tiny]), otherKey)).status).toBe(404);
    expect((await infer('/v2/models/demo/infer', imageRequest([scene]), otherKey)).status).toBe(200);
    expect((await fetch(`${oip}/v2/models/nothing`, { headers: auth() })).status).toBe(404);
  });

  it('answers an unknown path with the protocol error shape', async () => {
    const res = await fetch(`${oip}/v2/repository/index`, { headers: auth() });
    expect(res.status).toBe(404);
    expect(Object.keys((await res.json()) as object)).toEqual(['error']);
  });
});

async function makeTinyPng(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();
}

describe('infer, images in', () => {
  it("answers predict's JSON byte for byte for scene.jpg, with the request's id", async () => {
    const expected = await predictText(scene);
    const res = await infer('/v2/models/demo/infer', imageRequest([scene]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model_name: 'demo',
      model_version: DEMO_MODEL_VERSION_ID,
      id: 'req-1',
      outputs: [{ name: 'detections', datatype: 'BYTES', shape: [1], data: [expected] }],
    });
    expect(Object.keys(JSON.parse(expected) as object).length).toBeGreaterThan(0);
  });

  it("takes the model's own input name and a version in the path, and predict's options as parameters", async () => {
    const expected = await predictText(scene, '?threshold=0.8&max_detections=2');
    const res = await infer(`/v2/models/demo/versions/${DEMO_MODEL_VERSION_ID}/infer`, {
      inputs: [{ name: 'images', datatype: 'BYTES', shape: [1], data: [{ b64: scene.toString('base64') }] }],
      parameters: { threshold: 0.8, max_detections: '2' },
    });
    expect(res.status).toBe(200);
    expect(res.body.outputs[0].data).toEqual([expected]);
    expect(res.body.id).toBeUndefined();
  });

  it('answers boxes, scores, classes and count on request, agreeing with the detections', async () => {
    const tiny = await makeTinyPng();
    const res = await infer(
      '/v2/models/demo/infer',
      imageRequest([scene, tiny], {
        outputs: [
          { name: 'count' },
          { name: 'boxes' },
          { name: 'scores' },
          { name: 'classes' },
          { name: 'detections' },
        ],
      }),
    );
    expect(res.status).toBe(200);
    const [count, boxes, scores, classes, detections] = res.body.outputs;
    const answers = (detections.data as string[]).map((d) => JSON.parse(d) as Record<string, any[]>);
    const counts = answers.map((a) => Object.values(a).flat().length);
    expect(count).toEqual({ name: 'count', datatype: 'INT32', shape: [2], data: counts });
    const k = Math.max(...counts);
    expect(boxes.shape).toEqual([2, k, 4]);
    expect(scores.shape).toEqual([2, k]);
    expect(classes.shape).toEqual([2, k]);
    // The best detection of the scene, in every form.
    const best = Object.entries(answers[0]!)
      .flatMap(([label, list]) => list.map((d) => ({ label, ...d })))
      .sort((a, b) => b.score - a.score)[0]!;
    expect(scores.data[0]).toBeCloseTo(best.score, 5);
    expect(boxes.data.slice(0, 4).map((v: number) => Number(v.toFixed(4)))).toEqual(
      [...best.data.min, ...best.data.max].map((v: number) => Number(v.toFixed(4))),
    );
    const labels = JSON.parse(await readFile(join(ROOT, 'models', 'demo', 'model.json'), 'utf8')).labels as string[];
    expect(classes.data[0]).toBe(labels.indexOf(best.label));
    // The second image's rows past its own count are padding.
    expect(classes.data.slice(k + counts[1]!, 2 * k)).toEqual(Array(k - counts[1]!).fill(-1));
  });

  it('speaks the binary tensor extension both ways', async () => {
    const expected = await predictText(scene);
    const header = Buffer.from(
      JSON.stringify({
        inputs: [
          {
            name: 'image',
            datatype: 'BYTES',
            shape: [1],
            parameters: { binary_data_size: scene.length + 4 },
          },
        ],
        outputs: [{ name: 'detections', parameters: { binary_data: true } }, { name: 'count' }],
      }),
    );
    const res = await fetch(`${oip}/v2/models/demo/infer`, {
      method: 'POST',
      headers: {
        ...auth(),
        'content-type': 'application/octet-stream',
        'inference-header-content-length': String(header.length),
      },
      body: Buffer.concat([header, bytesElements([scene])]),
    });
    expect(res.status).toBe(200);
    const length = Number(res.headers.get('inference-header-content-length'));
    const body = Buffer.from(await res.arrayBuffer());
    const head = JSON.parse(body.subarray(0, length).toString()) as { outputs: any[] };
    const expectedBytes = Buffer.from(expected);
    expect(head.outputs).toEqual([
      {
        name: 'detections',
        datatype: 'BYTES',
        shape: [1],
        parameters: { binary_data_size: expectedBytes.length + 4 },
      },
      { name: 'count', datatype: 'INT32', shape: [1], data: [Object.values(JSON.parse(expected)).flat().length] },
    ]);
    expect(body.subarray(length)).toEqual(bytesElements([expectedBytes]));
  });

  it('answers every output in binary with binary_data_output', async () => {
    const res = await fetch(`${oip}/v2/models/demo/infer`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify(
        imageRequest([scene], { parameters: { binary_data_output: true }, outputs: [{ name: 'scores' }] }),
      ),
    });
    expect(res.status).toBe(200);
    const length = Number(res.headers.get('inference-header-content-length'));
    const body = Buffer.from(await res.arrayBuffer());
    const [scores] = (JSON.parse(body.subarray(0, length).toString()) as { outputs: any[] }).outputs;
    expect(scores.parameters.binary_data_size).toBe(scores.shape[1] * 4);
    expect(body.length - length).toBe(scores.shape[1] * 4);
    expect(body.readFloatLE(length)).toBeGreaterThan(0.35);
  });

  it("counts its images in predict's /metrics series, and its requests under its own routes", async () => {
    const metrics = async () => (await fetch(`${platform.server.url}/metrics`)).text();
    const series = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const images = `inference_queue_delay_seconds_count\\{model_version="${DEMO_MODEL_VERSION_ID}"\\}`;
    const requests = 'http_requests_total\\{route="oip /v2/models/:name/infer",method="POST",status="200"\\}';
    const before = await metrics();
    expect((await infer('/v2/models/demo/infer', imageRequest([scene, scene]))).status).toBe(200);
    const after = await metrics();
    expect(series(after, images) - series(before, images)).toBe(2);
    expect(series(after, requests) - series(before, requests)).toBe(1);
  });

  it('sheds a request past the organization share with 503 and Retry-After', async () => {
    const res = await infer('/v2/models/demo/infer', imageRequest([scene, scene, scene, scene]));
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(res.body.error).toMatch(/server is busy/);
    expect((await infer('/v2/models/demo/infer', imageRequest([scene]))).status).toBe(200);
  });
});

describe('malformed requests', () => {
  const input = (over: object) => ({
    inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: ['x'], ...over }],
  });
  const cases: Array<[string, string | object, Record<string, string>, RegExp]> = [
    ['not JSON', '{"inputs": [', {}, /^request body: not JSON/],
    ['no inputs', { inputs: [] }, {}, /^inputs: must be a non-empty array/],
    ['an unknown datatype', input({ datatype: 'FP8' }), {}, /^inputs\[0\]\.datatype: unknown datatype "FP8"/],
    ['a shape that does not multiply out', input({ shape: [2] }), {}, /^inputs\[0\]\.data: shape \[2\] holds 2/],
    ['a 2^31 dimension', input({ shape: [2 ** 31] }), {}, /^inputs\[0\]\.shape\[0\]: a dimension must be/],
    ['a negative dimension', input({ shape: [-1] }), {}, /^inputs\[0\]\.shape\[0\]/],
    ['a wrong input name', input({ name: 'pixels' }), {}, /^inputs\[0\]\.name: unknown input "pixels"/],
    ['a numeric image', input({ datatype: 'FP32', data: [1] }), {}, /^inputs\[0\]\.datatype: image takes encoded/],
    ['an unknown output', { ...input({}), outputs: [{ name: 'logits' }] }, {}, /^outputs\[0\]\.name: unknown output/],
    ['an unknown parameter', { ...input({}), parameters: { thresh: 0.5 } }, {}, /^parameters\.thresh: unknown/],
    ['a bad threshold', { ...input({}), parameters: { threshold: 2 } }, {}, /^parameters\.threshold: must be/],
    ['not an image', input({ data: ['not an image'] }), {}, /could not parse image/],
    [
      'binary data without its header',
      input({ data: undefined, parameters: { binary_data_size: 4 } }),
      {},
      /binary_data_size without Inference-Header-Content-Length/,
    ],
    ['a header length past the body', input({}), { 'inference-header-content-length': '100000' }, /the body has/],
    [
      'a tensor for a version whose sessions run the rewritten model',
      { inputs: [{ name: 'images', datatype: 'FP32', shape: [1, 3, 320, 320], data: Array(3 * 320 * 320).fill(0) }] },
      {},
      /^tensor inputs are not served by this model version: its sessions run the model rewritten \(a uint8 input\)/,
    ],
  ];
  it.each(cases)('answers 400 naming the field for %s', async (_what, body, headers, message) => {
    const res = await fetch(`${oip}/v2/models/demo/infer`, {
      method: 'POST',
      headers: { ...auth(), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: string };
    expect(Object.keys(answer)).toEqual(['error']);
    expect(answer.error).toMatch(message);
  });

  it('answers 400 for truncated or overlong binary data, wrong byte counts included, and stays up', async () => {
    const send = (json: object, binary: Buffer) => {
      const header = Buffer.from(JSON.stringify(json));
      return fetch(`${oip}/v2/models/demo/infer`, {
        method: 'POST',
        headers: { ...auth(), 'inference-header-content-length': String(header.length) },
        body: Buffer.concat([header, binary]),
      });
    };
    const image = (size: number, shape = [1]) => ({
      inputs: [{ name: 'image', datatype: 'BYTES', shape, parameters: { binary_data_size: size } }],
    });
    const whole = bytesElements([scene]);
    const cases: Array<[object, Buffer, RegExp]> = [
      [image(whole.length), whole.subarray(0, 1000), /only 1000 bytes of binary data left/],
      [image(1000), whole.subarray(0, 1000), /BYTES element 0 says \d+ bytes, only 996 follow/],
      [image(2), whole.subarray(0, 2), /cut inside its 4-byte length/],
      [image(whole.length), Buffer.concat([whole, Buffer.alloc(3)]), /3 bytes after the inputs' binary_data_size/],
      [image(whole.length, [2]), whole, /shape \[2\] holds 2 elements, the data has 1/],
      [
        { inputs: [{ name: 'images', datatype: 'FP32', shape: [1, 3], parameters: { binary_data_size: 8 } }] },
        Buffer.alloc(8),
        /shape \[1, 3\] of FP32 takes 12 bytes, the data has 8/,
      ],
    ];
    for (const [json, binary, message] of cases) {
      const res = await send(json, binary);
      expect(res.status, String(message)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    expect((await fetch(`${oip}/v2/health/live`)).status).toBe(200);
    expect((await infer('/v2/models/demo/infer', imageRequest([scene]))).status).toBe(200);
  });

  it('refuses an unknown key before reading the body, and a body past the limit with 400', async () => {
    const port = Number(new URL(oip).port);
    const head = (key: string, length: number) =>
      `POST /v2/models/demo/infer HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Length: ${length}\r\n\r\n`;
    const big = Buffer.alloc(4 * 1024 * 1024, 0x20);
    const stranger = await answerWhileSending(port, head('sk_wrong', big.length), big);
    expect(stranger.status).toBe(401);
    const tooLarge = await answerWhileSending(port, head(KEY, big.length), big);
    expect(tooLarge).toEqual({ status: 400, body: { error: 'request body: larger than 1660256 bytes' } });
    expect((await infer('/v2/models/demo/infer', imageRequest([scene]))).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('closes the OIP port with the server', async () => {
    expect((await fetch(`${oip}/v2/health/live`)).status).toBe(200);
    expect(await platform.server.stop()).toBe(0);
    await expect(fetch(`${oip}/v2/health/live`)).rejects.toThrow();
  });
});
