// The predict API end to end: a real server process on loopback, real
// embedded PostgreSQL, real ONNX Runtime sessions of fixture models with
// known outputs. Every error row of docs/CONTRACT.md#predict-errors in both body forms.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePredictModels } from '../fixtures/predict-models.js';
import { encodeBmp, FORMATS, makeImage, pattern } from '../helpers/images.js';
import { BODY_FORMS, predict } from '../helpers/predict.js';
import { answerWhileSending, exchangeOnOneSocket } from '../helpers/raw-http.js';
import { createTestDatabase, removeDir, startServer, waitFor, type TestServer } from '../helpers/server.js';

const DEMO = '01JDEM0DETECT0R00000000001';
const MIB = 1024 * 1024;

let server: TestServer;
let modelsDir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  modelsDir = await makePredictModels();
  database = await createTestDatabase();
  server = await startServer({
    modelsDir,
    databaseUrl: database?.url,
    env: {
      INFERENCE_API_KEY: 'test-key',
      QUEUE_SIZE: '2',
      QUEUE_WAITING_ROOM: '4',
      QUEUE_HOLD_MS: '300',
      MAX_IMAGE_PIXELS: '4000000',
    },
  });
  for (const match of server.stderr().matchAll(/registered model version id=(\w+) name=(\w+)/g))
    ids[match[2]!] = match[1]!;
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  await removeDir(server?.dataDir);
  await removeDir(modelsDir);
});

async function waitUntilActive(versionId: string): Promise<void> {
  const image = await makeImage('png', 16, 16);
  await waitFor(
    async () => (await predict(server.url, versionId, image)).status === 200,
    60_000,
    `${versionId} Active`,
  );
}

describe('initializing and failed versions', () => {
  // First: the slow version is still warming up right after start.
  it.each(BODY_FORMS)('answers the §7 500 while a version initializes (%s)', async (form) => {
    const res = await predict(server.url, ids.slow!, await makeImage('png', 16, 16), { form });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      status: 500,
      message: 'could not inference model',
      error: `online prediction is unavailable for model version ${ids.slow}: version creation has not completed (status Initializing)`,
    });
  });

  it.each(BODY_FORMS)('answers 500 with the reason for a version that failed to load (%s)', async (form) => {
    await waitFor(async () => /model version failed to load/.test(server.stderr()), 30_000);
    const res = await predict(server.url, ids.broken!, await makeImage('png', 16, 16), { form });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('could not inference model');
    expect(res.body.error).toContain(`model version ${ids.broken} failed to load`);
    expect(res.body.error).toContain('model.json lists 3 labels');
    expect(res.body.error).toContain('[1, 6, 5]');
  });
});

describe('detections', () => {
  beforeAll(() => waitUntilActive(DEMO));

  it.each(BODY_FORMS)('maps boxes back onto the original image, letterbox undone (%s)', async (form) => {
    // 160x64 lands in the 80x64 input at 80x32 with 16 px of padding above and below.
    const wide = await sharp(pattern(160, 64), { raw: { width: 160, height: 64, channels: 3 } })
      .png()
      .toBuffer();
    const res = await predict(server.url, DEMO, wide, { form });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['cat', 'traffic cone']);
    expect(res.body.cat).toHaveLength(1); // its overlapping twin (0.85) is suppressed by NMS
    const [cat] = res.body.cat;
    expect(cat.type).toBe('rectangle');
    expect(cat.score).toBeCloseTo(0.9, 5);
    expect(cat.children).toEqual({});
    expect(cat.data.min[0]).toBeCloseTo(0.375, 4);
    expect(cat.data.min[1]).toBeCloseTo(0.34375, 4);
    expect(cat.data.max[0]).toBeCloseTo(0.625, 4);
    expect(cat.data.max[1]).toBeCloseTo(0.65625, 4);
    // The weak cone at y 48..52 lies wholly in the bottom padding: it vanishes.
    expect(res.body['traffic cone']).toHaveLength(1);
    const [cone] = res.body['traffic cone'];
    expect(cone.score).toBeCloseTo(0.8, 5);
    expect(cone.data.min).toEqual([expect.closeTo(0.075, 4), expect.closeTo(0, 4)]);
    expect(cone.data.max).toEqual([expect.closeTo(0.175, 4), expect.closeTo(0.25, 4)]);
  });

  it('letterboxes the other way for a square image, and sorts each label by score', async () => {
    // 100x100 lands at 64x64 with 8 px of padding left and right.
    const res = await predict(server.url, DEMO, await makeImage('jpeg', 100, 100));
    expect(res.status).toBe(200);
    expect(res.body.cat[0].data).toEqual({
      min: [expect.closeTo(0.34375, 4), expect.closeTo(0.421875, 4)],
      max: [expect.closeTo(0.65625, 4), expect.closeTo(0.578125, 4)],
    });
    const cones = res.body['traffic cone'];
    expect(cones.map((c: { score: number }) => c.score)).toEqual([expect.closeTo(0.8, 5), expect.closeTo(0.3, 5)]);
    expect(cones[0].data.min).toEqual([0, expect.closeTo(0.25, 4)]); // clamped at the left edge
    expect(cones[1].data).toEqual({
      min: [expect.closeTo(0.765625, 4), expect.closeTo(0.75, 4)],
      max: [expect.closeTo(0.859375, 4), expect.closeTo(0.8125, 4)],
    });
  });

  it.each(FORMATS)('reads %s images', async (format) => {
    const res = await predict(server.url, DEMO, await makeImage(format, 100, 100), {
      form: 'multipart',
      filename: 'x.txt',
    });
    expect(res.status).toBe(200);
    expect(res.body.cat[0].score).toBeCloseTo(0.9, 5);
  });

  it.each([
    ['24-bit top-down', { bitsPerPixel: 24, topDown: true }],
    ['32-bit', { bitsPerPixel: 32 }],
    ['8-bit palette', { bitsPerPixel: 8 }],
  ] as const)('reads %s BMP', async (_name, options) => {
    const rgb = Buffer.alloc(100 * 100 * 3, 60);
    const res = await predict(server.url, DEMO, encodeBmp(rgb, 100, 100, options), { form: 'json' });
    expect(res.status).toBe(200);
    expect(res.body.cat[0].data.min[0]).toBeCloseTo(0.34375, 4);
  });

  it('applies threshold, iou and max_detections', async () => {
    const image = await makeImage('png', 100, 100);
    const strict = await predict(server.url, DEMO, image, { query: 'threshold=0.85' });
    expect(Object.keys(strict.body)).toEqual(['cat']);
    const loose = await predict(server.url, DEMO, image, { query: 'iou=0.99' });
    expect(loose.body.cat).toHaveLength(2); // NMS at 0.99 keeps the overlapping twin
    const capped = await predict(server.url, DEMO, image, { query: 'max_detections=2' });
    expect([...Object.values(capped.body)].flat()).toHaveLength(2);
  });

  it.each([
    ['threshold=1.5', 'threshold: must be a number between 0 and 1, got "1.5"'],
    ['iou=abc', 'iou: must be a number between 0 and 1, got "abc"'],
    ['max_detections=0', 'max_detections: must be an integer between 1 and 1000, got "0"'],
    ['max_detections=2.5', 'max_detections: must be an integer between 1 and 1000, got "2.5"'],
    // Before: ignored, answered with the defaults.
    [
      'thresh=0.9',
      "thresh: unknown option; predict's options are max_detections, threshold, iou, top_k, keypoint_threshold, box",
    ],
    ['threshold=0.9&threshold=0.1', 'threshold: given more than once ("0.9" and "0.1"); send it once'],
  ])('rejects %s with 400', async (query, error) => {
    const res = await predict(server.url, DEMO, await makeImage('png', 8, 8), { query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: 'invalid query parameter', error });
  });
});

describe('§7 error rows', () => {
  beforeAll(() => waitUntilActive(DEMO));

  it.each(BODY_FORMS)('401 without an error field for a missing or wrong key (%s)', async (form) => {
    const image = await makeImage('png', 8, 8);
    for (const key of [null, 'wrong-key', '']) {
      const res = await predict(server.url, DEMO, image, { form, key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 401, message: 'Invalid or missing API key.' });
    }
  });

  it('says the form expected in a WWW-Authenticate: Bearer challenge on every 401, its body unchanged', async () => {
    const image = await makeImage('png', 8, 8);
    const expected = 'expected Authorization: Bearer <API key>';
    const cases: Array<[string | undefined, string]> = [
      [undefined, `Bearer error="invalid_request", error_description="no Authorization header; ${expected}"`],
      [
        'test-key',
        `Bearer error="invalid_request", error_description="the Authorization header is not of the Bearer scheme; ${expected}"`,
      ],
      [
        'Basic dGVzdC1rZXk6',
        `Bearer error="invalid_request", error_description="the Authorization header is not of the Bearer scheme; ${expected}"`,
      ],
      [
        'Bearer wrong-key',
        `Bearer error="invalid_token", error_description="the API key is unknown, disabled or deleted; ${expected}"`,
      ],
    ];
    for (const [authorization, challenge] of cases) {
      const form = new FormData();
      form.append('file', new Blob([image]), 'image.png');
      const res = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
        method: 'POST',
        headers: authorization ? { authorization } : {},
        body: form,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate'), authorization).toBe(challenge);
      expect(await res.json()).toEqual({ status: 401, message: 'Invalid or missing API key.' });
    }
  });

  it.each(['-1', '1e3', '12, 12', '+5', '99999999999999999999'])(
    '400 for Content-Length %j, before reading or allocating anything',
    async (length) => {
      const head =
        `POST /v1/models/${DEMO}/predict HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n`;
      const answer = await exchangeOnOneSocket(server.port, [Buffer.from(head)]).catch((error: Error) => error.message);
      // uWS itself may refuse a malformed length, by closing or (upstream
      // v20.57, the build on Node 22/24) with a bare 400 before any route runs;
      // the server never answers 500.
      if (answer instanceof Array) {
        expect(answer[0]).toMatch(/^HTTP\/1\.1 400 /);
        expect(answer[0]).toMatch(/invalid Content-Length|^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n$/);
      } else {
        expect(answer).toMatch(/connection closed/);
      }
      expect((await predict(server.url, DEMO, await makeImage('png', 8, 8))).status).toBe(200);
    },
  );

  it('401 before reading a large body', async () => {
    const started = Date.now();
    const res = await predict(server.url, DEMO, randomBytes(9 * MIB), { key: 'wrong' });
    expect(res.status).toBe(401);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it.each(BODY_FORMS)('404 {status, message} for an unknown model version (%s)', async (form) => {
    const res = await predict(server.url, '01ARZ3NDEKTSV4RRFFQ69G5FAV', await makeImage('png', 8, 8), { form });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: 'model version not found' });
  });

  it.each(BODY_FORMS)('400 File size is too large with the image size (%s)', async (form) => {
    const size = 10 * MIB + 1000; // over 10 MiB, under the body limit: counted exactly
    const res = await predict(server.url, DEMO, randomBytes(size), { form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 400, message: 'File size is too large', error: `filesize: ${size}` });
  });

  it('accepts an image of exactly 10 MiB', async () => {
    const png = await makeImage('png', 64, 64);
    const padded = Buffer.concat([png, Buffer.alloc(10 * MIB - png.length)]); // trailing bytes after IEND
    const res = await predict(server.url, DEMO, padded);
    expect(res.status).not.toBe(400);
  });

  it.each(BODY_FORMS)(
    '400 File size is too large with the image size for a body far over the limit (%s)',
    async (form) => {
      // Before: the body's announced size (multipart envelope included; 3/4 of the JSON body).
      // Sent on a raw socket that reads the answer while it writes: the server
      // answers once it has counted the image and closes without reading the
      // rest, which fetch would report as a failed write (EPIPE).
      const image = randomBytes(40 * MIB + 7);
      const boundary = 'far-over-the-limit';
      const [contentType, body] =
        form === 'json'
          ? ['application/json', Buffer.from(JSON.stringify({ image: image.toString('base64') }))]
          : [
              `multipart/form-data; boundary=${boundary}`,
              Buffer.concat([
                Buffer.from(
                  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
                ),
                image,
                Buffer.from(`\r\n--${boundary}--\r\n`),
              ]),
            ];
      const head = `POST /v1/models/${DEMO}/predict HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key\r\nContent-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`;
      const res = await answerWhileSending(server.port, head, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'File size is too large', error: `filesize: ${40 * MIB + 7}` });
    },
  );

  const unknown: Array<[string, () => Promise<Buffer> | Buffer]> = [
    ['text', () => Buffer.from('hello, this is not an image')],
    [
      'SVG',
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        ),
    ],
    ['PDF', () => Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF')],
    [
      'AVIF',
      () =>
        sharp(pattern(32, 32), { raw: { width: 32, height: 32, channels: 3 } })
          .avif()
          .toBuffer(),
    ],
  ];
  for (const form of BODY_FORMS) {
    it.each(unknown)(`400 unknown format for %s (${form})`, async (_name, make) => {
      const res = await predict(server.url, DEMO, await make(), { form, filename: 'photo.jpg' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 400, message: 'could not parse image', error: 'image: unknown format' });
    });
  }

  it.each([
    ['multipart', 'the "file" part'],
    ['json', 'the "image" field'],
  ] as const)('400 naming the empty field for an empty image (%s)', async (form, field) => {
    // Before: `image: unknown format`, as if the bytes were of some other kind.
    const res = await predict(server.url, DEMO, Buffer.alloc(0), { form, filename: 'photo.jpg' });
    expect(res.body).toEqual({
      status: 400,
      message: 'could not parse image',
      error: `image: ${field} is empty (0 bytes): expected a JPG, PNG, GIF, BMP, TIFF or WEBP image`,
    });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'image/jpeg', ''])(
    '400 could not parse multipart form for Content-Type "%s"',
    async (contentType) => {
      const headers: Record<string, string> = { authorization: 'Bearer test-key' };
      if (contentType) headers['content-type'] = contentType;
      const res = await fetch(`${server.url}/v1/models/${DEMO}/predict`, { method: 'POST', headers, body: 'abc' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        status: 400,
        message: 'could not parse multipart form',
        error: "request Content-Type isn't multipart/form-data",
      });
      // The documented body cannot name the JSON form; the header does.
      expect(res.headers.get('accept-post')).toBe('multipart/form-data, application/json');
    },
  );

  it('400 could not parse multipart form when the file part is missing or the form is broken', async () => {
    const form = new FormData();
    form.append('image', new Blob([await makeImage('png', 8, 8)]), 'x.png');
    const missing = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key' },
      body: form,
    });
    expect(missing.status).toBe(400);
    // Before: Go's `http: no such file`, which named neither the field nor what arrived.
    expect(await missing.json()).toEqual({
      status: 400,
      message: 'could not parse multipart form',
      error: 'no "file" part in the form: send the image as the multipart field "file" (the form had "image")',
    });

    const broken = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-key', 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"\r\n\r\ntruncated',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      status: 400,
      message: 'could not parse multipart form',
      error: 'multipart: unexpected end of body',
    });
  });

  it('400 for JSON without image, with a wrong type, invalid base64 or invalid JSON', async () => {
    const send = async (body: string) => {
      const res = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
        method: 'POST',
        headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect(await send('{"file": "abc"}')).toEqual({
      status: 400,
      body: { status: 400, message: 'could not parse JSON body', error: 'json: missing "image" field' },
    });
    expect(await send('{"image": 42}')).toEqual({
      status: 400,
      body: { status: 400, message: 'could not parse JSON body', error: 'json: "image" must be a base64 string' },
    });
    expect(await send('{"image": "!!!not base64!!!"}')).toEqual({
      status: 400,
      body: { status: 400, message: 'could not parse image', error: 'image: invalid base64 in "image"' },
    });
    const invalid = await send('{"image": ');
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('could not parse JSON body');
    expect(invalid.body.error).toMatch(/^json: /);
  });

  it.each(BODY_FORMS)('400 could not parse image for truncated and corrupt images (%s)', async (form) => {
    const jpeg = await makeImage('jpeg', 200, 200);
    for (const image of [
      jpeg.subarray(0, jpeg.length / 2),
      Buffer.concat([jpeg.subarray(0, 200), randomBytes(3000)]),
    ]) {
      const res = await predict(server.url, DEMO, image, { form });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('could not parse image');
      expect(res.body.error).toMatch(/^image: jpeg: /);
    }
    const png = await makeImage('png', 200, 200);
    const truncatedPng = await predict(server.url, DEMO, png.subarray(0, png.length - 100), { form });
    expect(truncatedPng.status).toBe(400);
    expect(truncatedPng.body.error).toMatch(/^image: png: /);
    const bmp = encodeBmp(pattern(50, 50), 50, 50);
    const truncatedBmp = await predict(server.url, DEMO, bmp.subarray(0, 1000), { form });
    expect(truncatedBmp.body).toEqual({
      status: 400,
      message: 'could not parse image',
      error: 'image: bmp: truncated pixel data',
    });
  });

  it('400 for images over the pixel limit (decompression bombs), never an out-of-memory', async () => {
    // MAX_IMAGE_PIXELS is 4,000,000 on this server: a 2500x2000 PNG of one colour is a few KB.
    const bomb = await sharp({ create: { width: 2500, height: 2000, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(100_000);
    const res = await predict(server.url, DEMO, bomb);
    expect(res.body).toEqual({
      status: 400,
      message: 'could not parse image',
      error: 'image: 2500x2000 pixels exceeds the limit of 4000000 pixels',
    });
    // A BMP header claiming 60000x60000 pixels is refused before any allocation.
    const header = encodeBmp(pattern(2, 2), 2, 2);
    header.writeInt32LE(60000, 18);
    header.writeInt32LE(60000, 22);
    const huge = await predict(server.url, DEMO, header);
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/^image: bmp: /);
  });
});

describe('load shedding', () => {
  beforeAll(() => waitUntilActive(ids.slow!), 120_000);

  it('answers 503 with Retry-After when a version queue and its waiting room are full, and serves the rest', async () => {
    const image = await makeImage('png', 16, 16);
    // QUEUE_SIZE is 2 and the waiting room 4: of 8 concurrent requests to the ~2 s model,
    // 2 run, 4 are held for QUEUE_HOLD_MS (300 ms) and then shed, 2 are shed at once.
    const results = await Promise.all(Array.from({ length: 8 }, () => predict(server.url, ids.slow!, image)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    const shed = results.filter((r) => r.status === 503);
    expect(shed).toHaveLength(6);
    for (const r of shed) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(r.headers.get('retry-after')))).toBe(true);
      expect(r.body).toEqual({
        status: 503,
        message: 'server is busy',
        error: `the request queue of model version ${ids.slow} is full`,
      });
    }
    // The demo version has its own queue and still answers.
    expect((await predict(server.url, DEMO, image)).status).toBe(200);
  });

  it('holds requests beyond the queue unread until a place frees, instead of refusing them', async () => {
    const image = await makeImage('png', 16, 16);
    // 6 at once against a queue of 2: 4 wait in the waiting room, each for a few ms.
    const results = await Promise.all(Array.from({ length: 6 }, () => predict(server.url, DEMO, image)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});

describe('health and metrics', () => {
  it('reports live and ready, and Prometheus metrics', async () => {
    expect((await fetch(`${server.url}/v2/health/live`)).status).toBe(200);
    const ready = await fetch(`${server.url}/v2/health/ready`);
    expect(ready.status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(
      /http_requests_total\{route="\/v1\/models\/:modelVersionId\/predict",method="POST",status="200"\} \d+/,
    );
    expect(metrics).toMatch(
      /http_request_duration_seconds_bucket\{route="\/v1\/models\/:modelVersionId\/predict",le="0.1"\} \d+/,
    );
    expect(metrics).toContain(`inference_queue_depth{model_version="${DEMO}"} 0`);
    expect(metrics).toMatch(
      new RegExp(`inference_stage_duration_seconds_count\\{model_version="${DEMO}",stage="inference"\\} [1-9]`),
    );
    expect(metrics).toContain('model_versions{status="Failed"} 1');
  });

  it('answers unknown routes with a 404 in the error shape', async () => {
    const res = await fetch(`${server.url}/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('route not found');
  });

  it('answers a route under a method it does not serve with 405 and Allow, in the error shape', async () => {
    // Before: 404 route not found, as if predict did not exist.
    const get = await fetch(`${server.url}/v1/models/${DEMO}/predict`, {
      headers: { authorization: 'Bearer test-key' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toEqual({
      status: 405,
      message: 'method not allowed',
      error: `GET is not served on /v1/models/${DEMO}/predict: its methods are POST`,
    });
    const del = await fetch(`${server.url}/openapi.json`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET');
    expect(((await del.json()) as { message: string }).message).toBe('method not allowed');
    expect((await fetch(`${server.url}/v1/models/${DEMO}/nothing-here`)).status).toBe(404);
  });
});

describe('secrets', () => {
  it('never writes API keys to the log', () => {
    expect(server.stderr()).not.toContain('test-key');
  });
});
