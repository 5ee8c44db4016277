// Child stages: a version's detections cropped and run through another
// version inside one predict request, the child's answer nested in each
// detection's children. The pipeline's answer must be the parent's alone
// with, in each chosen detection, what predicting the child on that
// detection's crop answers, the crop cut here, by the test, from the same
// pixels (a BMP of a demo scene: decoded exactly alike by both paths). For
// a classifier child (the bundled demo pipeline: the demo detector and the
// colour classifier) and a detector child (the demo detector on padded
// crops, its boxes moved back to the whole image). Then the stages' checks
// (labels, cycles, depth, another organization's version) and children
// that cannot run (a Failed child, a deleted one): the parent's answer
// stands, with the header saying why (the inference protocol's image input:
// its children_skipped parameter).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScene, renderScene } from '../../scripts/demo-model/scenes.js';
import {
  DEMO_COLOUR_MODEL_VERSION_ID,
  DEMO_MODEL_VERSION_ID,
  DEMO_PIPELINE_MODEL_VERSION_ID,
} from '../../src/platform/bootstrap.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { fixtureConfig, fixtureSpec } from '../fixtures/predict-models.js';
import { Api, signUpTenant, uploadModelVersion } from '../helpers/api.js';
import { encodeBmp } from '../helpers/images.js';
import { startPlatform, stopPlatform, type Platform } from '../helpers/platform.js';
import { predict } from '../helpers/predict.js';
import { freePort, ROOT, waitFor } from '../helpers/server.js';

type Answer = { type: string; data: any; score: number; children: Record<string, Answer[]> };
type Answers = Record<string, Answer[]>;

let platform: Platform;
let admin: Api;
/** a demo scene: its pixels, and as a BMP */
let scene: { rgb: Buffer; width: number; height: number; bmp: Buffer };
/** the organization's own copy of the demo detector, as a parent and as a child */
let parentId: string;
let detectorChildId: string;

/** the inference protocol's REST listener */
let oip: string;

/** One image through the inference protocol's image input: the answer's parameters and its detections' JSON. */
async function inferOip(model: string, image: Uint8Array) {
  const res = await fetch(`${oip}/v2/models/${model}/infer`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-key', 'content-type': 'application/json' },
    body: JSON.stringify({
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], data: [Buffer.from(image).toString('base64')] }],
    }),
  });
  const body = (await res.json()) as { parameters?: Record<string, unknown>; outputs: Array<{ data: string[] }> };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { parameters: body.parameters, answer: JSON.parse(body.outputs[0]!.data[0]!) as Answers };
}

const predictOn = async (versionId: string, image: Uint8Array, query?: string) => {
  const res = await predict(platform.server.url, versionId, image, { query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
};

/** A version of a new model of the organization, once it is `status`. */
async function uploaded(api: Api, name: string, model: Uint8Array, config: unknown, status = 'Active') {
  const created = (await api.post('/v2/models', { name })).body.data;
  const res = await uploadModelVersion(platform.server.url, api, created.id, { model, config });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data.id as string;
  await waitFor(async () => (await api.get(`/v2/model-versions/${id}`)).body.data.status === status, 120_000, name);
  return { modelId: created.id as string, id };
}

const setStages = (api: Api, version: { modelId: string; id: string }, stages: unknown[]) =>
  api.put(`/v2/models/${version.modelId}/versions/${version.id}/stages`, { stages });

/**
 * A crop as the stages document it, computed here: the box in pixels,
 * padded by `padding` x its size on each side, clamped, widened to whole pixels.
 */
function cropOf(box: Answer, padding: number) {
  const { width: W, height: H } = scene;
  const [x1, y1] = box.data.min as [number, number];
  const [x2, y2] = box.data.max as [number, number];
  const padX = (x2 - x1) * W * padding;
  const padY = (y2 - y1) * H * padding;
  const left = Math.max(0, Math.floor(x1 * W - padX));
  const top = Math.max(0, Math.floor(y1 * H - padY));
  const right = Math.min(W, Math.ceil(x2 * W + padX));
  const bottom = Math.min(H, Math.ceil(y2 * H + padY));
  return { left, top, width: right - left, height: bottom - top };
}

/** The crop's own pixels, as a BMP. */
async function cropBmp(crop: ReturnType<typeof cropOf>): Promise<Buffer> {
  const rgb = await sharp(scene.rgb, { raw: { width: scene.width, height: scene.height, channels: 3 } })
    .extract(crop)
    .raw()
    .toBuffer();
  return encodeBmp(rgb, crop.width, crop.height);
}

/** Every detection of an answer, best first, with its label. */
const detectionsOf = (answer: Answers) =>
  Object.entries(answer)
    .flatMap(([label, list]) => list.map((d) => ({ label, ...d })))
    .sort((a, b) => b.score - a.score);

/** An answer without its children: what the parent alone answers. */
const withoutChildren = (answer: Answers): Answers =>
  Object.fromEntries(Object.entries(answer).map(([label, list]) => [label, list.map((d) => ({ ...d, children: {} }))]));

/** A child's answer on a crop, in the crop's fractions, moved to the whole image's. */
function toImage(answer: Answers, crop: ReturnType<typeof cropOf>): Answers {
  const x = (v: number) => (crop.left + v * crop.width) / scene.width;
  const y = (v: number) => (crop.top + v * crop.height) / scene.height;
  return Object.fromEntries(
    Object.entries(answer).map(([label, list]) => [
      label,
      list.map((d) =>
        d.type === 'rectangle'
          ? {
              ...d,
              data: { min: [x(d.data.min[0]), y(d.data.min[1])], max: [x(d.data.max[0]), y(d.data.max[1])] },
            }
          : d,
      ),
    ]),
  );
}

/** Two answers alike: the same labels and shapes, scores and coordinates within `digits` decimals. */
function expectAlike(actual: Answers, expected: Answers, digits = 4): void {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [label, list] of Object.entries(expected)) {
    const got = actual[label]!;
    expect(
      got.map((d) => d.type),
      label,
    ).toEqual(list.map((d) => d.type));
    for (const [i, d] of list.entries()) {
      expect(got[i]!.score).toBeCloseTo(d.score, digits);
      const flat = (a: Answer) =>
        JSON.stringify(a.data)
          .match(/-?\d+(\.\d+)?(e-?\d+)?/g)
          ?.map(Number) ?? [];
      for (const [j, v] of flat(d).entries()) expect(flat(got[i]!)[j]).toBeCloseTo(v, digits);
    }
  }
}

beforeAll(async () => {
  const oipPort = await freePort();
  oip = `http://127.0.0.1:${oipPort}`;
  platform = await startPlatform(
    { INFERENCE_API_KEY: 'test-key', OIP_HTTP_PORT: String(oipPort) },
    { modelsDir: join(ROOT, 'models') },
  );
  admin = platform.admin;
  const png = await renderScene(makeScene(9_000_007), 'png');
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  scene = { rgb: data, width: info.width, height: info.height, bmp: encodeBmp(data, info.width, info.height) };
  const demo = await readFile(join(ROOT, 'models', 'demo', 'model.onnx'));
  const demoConfig = JSON.parse(await readFile(join(ROOT, 'models', 'demo', 'model.json'), 'utf8'));
  const parent = await uploaded(admin, 'shapes', demo, demoConfig);
  const child = await uploaded(admin, 'shapes-in-crops', demo, demoConfig);
  parentId = parent.id;
  detectorChildId = child.id;
  // every version the bundled models register has loaded
  await waitFor(
    async () =>
      (await admin.get(`/v2/model-versions/${DEMO_PIPELINE_MODEL_VERSION_ID}`)).body.data.status === 'Active' &&
      (await admin.get(`/v2/model-versions/${DEMO_COLOUR_MODEL_VERSION_ID}`)).body.data.status === 'Active',
    120_000,
    'the demo pipeline',
  );
}, 300_000);

afterAll(async () => {
  await stopPlatform(platform);
});

describe('a version with child stages', () => {
  it('is registered at first start: the demo pipeline answers each shape of the demo scene with its colour', async () => {
    const version = (await admin.get(`/v2/model-versions/${DEMO_PIPELINE_MODEL_VERSION_ID}`)).body.data;
    expect(version.stages).toEqual([expect.objectContaining({ modelVersionId: DEMO_COLOUR_MODEL_VERSION_ID })]);
    const colours = (await admin.get(`/v2/model-versions/${DEMO_COLOUR_MODEL_VERSION_ID}`)).body.data.labels;
    const res = await predictOn(DEMO_PIPELINE_MODEL_VERSION_ID, await readFile(join(ROOT, 'samples', 'scene.jpg')));
    expect(res.headers.get('x-children-skipped')).toBeNull();
    const detections = detectionsOf(res.body);
    expect(detections.length).toBeGreaterThan(0);
    for (const d of detections) {
      const children = detectionsOf(d.children);
      expect(children, JSON.stringify(d)).toHaveLength(1);
      expect(children[0]!.type).toBe('class');
      expect(colours).toContain(children[0]!.label);
    }
    // the inference protocol's image input runs the same pass
    const viaOip = await inferOip('demo-pipeline', await readFile(join(ROOT, 'samples', 'scene.jpg')));
    expect(viaOip.parameters).toBeUndefined();
    expect(viaOip.answer).toEqual(res.body);
  });

  it("answers the parent's detections, each with the classifier's answer on its crop (cut here)", async () => {
    const alone = (await predictOn(DEMO_MODEL_VERSION_ID, scene.bmp)).body as Answers;
    const piped = (await predictOn(DEMO_PIPELINE_MODEL_VERSION_ID, scene.bmp)).body as Answers;
    expectAlike(withoutChildren(piped), alone);
    const stage = (await admin.get(`/v2/model-versions/${DEMO_PIPELINE_MODEL_VERSION_ID}`)).body.data.stages[0];
    const detections = detectionsOf(piped);
    expect(detections.length).toBeGreaterThan(1);
    for (const d of detections.slice(0, stage.maxPerImage)) {
      const own = (await predictOn(DEMO_COLOUR_MODEL_VERSION_ID, await cropBmp(cropOf(d, stage.crop.padding)))).body;
      expectAlike(d.children, own);
    }
  });

  it("answers a detector child's boxes on each crop in the whole image's coordinates", async () => {
    const parent = { modelId: (await admin.get(`/v2/model-versions/${parentId}`)).body.data.modelId, id: parentId };
    const stage = {
      labels: ['circle', 'square', 'triangle', 'star', 'cross', 'ring', 'arrow', 'traffic cone'],
      modelVersionId: detectorChildId,
      // a shape a third of its crop, as the detector saw them in training
      crop: { padding: 1 },
      maxPerImage: 3,
      options: { threshold: 0.3 },
    };
    const set = await setStages(admin, parent, [stage]);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.stages).toEqual([
      { ...stage, crop: { padding: 1, square: false, minSize: 4 }, options: { threshold: 0.3 } },
    ]);
    // every server reads the stages again (NOTIFY): this one, once its predict shows children
    let piped: Answers = {};
    await waitFor(async () => {
      piped = (await predictOn(parentId, scene.bmp)).body;
      return detectionsOf(piped).some((d) => Object.keys(d.children).length > 0);
    });
    const alone = (await predictOn(DEMO_MODEL_VERSION_ID, scene.bmp)).body as Answers;
    expectAlike(withoutChildren(piped), alone);
    const detections = detectionsOf(piped);
    for (const [i, d] of detections.entries()) {
      if (i >= stage.maxPerImage) {
        expect(d.children).toEqual({});
        continue;
      }
      const crop = cropOf(d, stage.crop.padding);
      const own = (await predictOn(detectorChildId, await cropBmp(crop), 'threshold=0.3')).body as Answers;
      expect(Object.keys(own).length, 'the child finds the shape in its crop').toBeGreaterThan(0);
      expectAlike(d.children, toImage(own, crop));
    }
    expect((await setStages(admin, parent, [])).body.data.stages).toEqual([]);
  });
});

describe('stages are checked', () => {
  it("refuses a label the version does not answer, a cycle, a third level and another organization's version", async () => {
    const parent = { modelId: (await admin.get(`/v2/model-versions/${parentId}`)).body.data.modelId, id: parentId };
    const child = {
      modelId: (await admin.get(`/v2/model-versions/${detectorChildId}`)).body.data.modelId,
      id: detectorChildId,
    };
    const refused = async (version: typeof parent, stages: unknown[], reason: RegExp, api = admin) => {
      const res = await setStages(api, version, stages);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(reason);
    };
    await refused(
      parent,
      [{ labels: ['dragon'], modelVersionId: detectorChildId }],
      /stages\[0\]\.labels: .{0,2}dragon.{0,2} is not one of this version's labels/,
    );
    await refused(parent, [{ labels: ['circle'], modelVersionId: parentId }], /leads back to this version/);
    expect((await setStages(admin, parent, [{ labels: ['circle'], modelVersionId: detectorChildId }])).status).toBe(
      200,
    );
    await refused(child, [{ labels: ['circle'], modelVersionId: parentId }], /leads back to this version/);
    // parent → child → the demo pipeline → the colour classifier: three levels
    await refused(
      child,
      [{ labels: ['circle'], modelVersionId: DEMO_PIPELINE_MODEL_VERSION_ID }],
      /stages nest 2 deep at most: these would make 3, counting the 1 level of stages above this version/,
    );
    expect((await setStages(admin, parent, [])).status).toBe(200);
    // two levels are allowed: the demo pipeline as a child, its classifier below it
    expect(
      (await setStages(admin, child, [{ labels: ['circle'], modelVersionId: DEMO_PIPELINE_MODEL_VERSION_ID }])).status,
    ).toBe(200);
    expect((await setStages(admin, child, [])).status).toBe(200);

    const other = await signUpTenant(new Api(platform.server.url), platform.sql, 'other-stages@example.com');
    const theirs = await uploaded(other, 'theirs', buildConstantModel(fixtureSpec()), fixtureConfig('theirs'));
    await refused(
      theirs,
      [{ labels: ['cat'], modelVersionId: detectorChildId }],
      new RegExp(`${detectorChildId} is not a version this organization can run`),
      other,
    );
    // and a public version is theirs to run
    const res = await setStages(other, theirs, [{ labels: ['cat'], modelVersionId: DEMO_COLOUR_MODEL_VERSION_ID }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the stage fields are checked as model.json's are
    await refused(parent, [{ labels: ['circle'], modelVersionId: detectorChildId, crop: { padding: -1 } }], /padding/);
    await refused(parent, [{ labels: [], modelVersionId: detectorChildId }], /labels/);
    // another organization's version is not found, whatever its stages
    expect((await setStages(other, parent, [])).status).toBe(404);
  });
});

describe('children that cannot run', () => {
  it("leave the parent's answer whole, children empty, the header saying why: a Failed child, then one deleted mid-flight", async () => {
    const spec = fixtureSpec();
    const parent = await uploaded(admin, 'fixture-parent', buildConstantModel(spec), fixtureConfig('fixture-parent'));
    const before = (await predictOn(parent.id, scene.bmp)).body as Answers;
    expect(detectionsOf(before).length).toBeGreaterThan(0);
    // an upload whose model cannot load: Failed
    const broken = await uploaded(
      admin,
      'broken-child',
      buildConstantModel({ ...spec, inputShape: [1, 3, 7, 7] }),
      fixtureConfig('broken-child'),
      'Failed',
    );
    expect(
      (await setStages(admin, parent, [{ labels: ['cat', 'traffic cone'], modelVersionId: broken.id }])).status,
    ).toBe(200);
    await waitFor(async () => {
      const res = await predict(platform.server.url, parent.id, scene.bmp);
      return res.status === 200 && res.headers.get('x-children-skipped') !== null;
    });
    const failed = await predictOn(parent.id, scene.bmp);
    expect(failed.headers.get('x-children-skipped')).toMatch(new RegExp(`^${broken.id}: the version is Failed`));
    expect(failed.body).toEqual(before);
    const viaOip = await inferOip('fixture-parent', scene.bmp);
    expect(viaOip.parameters).toEqual({ children_skipped: failed.headers.get('x-children-skipped') });
    expect(viaOip.answer).toEqual(before);

    // a child that runs, then is deleted
    const child = await uploaded(admin, 'fixture-child', buildConstantModel(spec), fixtureConfig('fixture-child'));
    expect((await setStages(admin, parent, [{ labels: ['cat'], modelVersionId: child.id }])).status).toBe(200);
    await waitFor(async () => detectionsOf((await predictOn(parent.id, scene.bmp)).body).some((d) => d.children.cat));
    // deleted while requests run: every one answered 200, its children there or not (and then said why)
    let running = true;
    const statuses: number[] = [];
    const flood = Promise.all(
      Array.from({ length: 6 }, async () => {
        while (running) {
          const res = await predict(platform.server.url, parent.id, scene.bmp);
          statuses.push(res.status);
          const parents = detectionsOf(res.body);
          expect(parents.length).toBe(detectionsOf(before).length);
          if (res.headers.get('x-children-skipped') === null)
            expect(parents.filter((d) => d.children.cat).length).toBeGreaterThan(0);
        }
      }),
    );
    await waitFor(async () => statuses.length >= 12);
    expect((await admin.delete(`/v2/model-versions/${child.id}`)).status).toBe(204);
    await waitFor(async () => (await predictOn(parent.id, scene.bmp)).headers.get('x-children-skipped') !== null);
    const after = statuses.length;
    await waitFor(async () => statuses.length >= after + 12);
    running = false;
    await flood;
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const gone = await predictOn(parent.id, scene.bmp);
    expect(gone.headers.get('x-children-skipped')).toBe(`${child.id}: the version does not exist`);
    expect(gone.body).toEqual(before);
  });
});
