// The graph rewrite (src/inference/instances/prepared-model.ts, src/inference/graph/)
// changes how a model runs, never what it answers:
//   - bytes in: the uint8 prefix gives the model the same values, to the
//     bit, as the native preprocessing's float32/float16 tensors did;
//   - candidates out: every output convention answers identically with and
//     without the rewrite, for every predict option, alone and batched;
//   - a part that cannot apply is left out with its reason, and the model
//     still answers the same.
// Real ONNX Runtime sessions, in process.
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelBackend } from '../../src/inference/instances/backend.js';
import { convertToFloat16, halfBits } from '../../src/inference/graph/float16.js';
import { MAX_CANDIDATES } from '../../src/inference/graph/candidates-suffix.js';
import { addInputPrefix } from '../../src/inference/graph/input-prefix.js';
import { OnnxModel } from '../../src/inference/graph/onnx-model.js';
import { placeImage } from '../../src/inference/pipeline/letterbox.js';
import { parseModelConfig, type ModelConfig } from '../../src/inference/versions/model-config.js';
import { native } from '../../src/inference/native.js';
import { createOutputDecoder } from '../../src/inference/outputs/index.js';
import { postprocess } from '../../src/inference/pipeline/postprocess.js';
import { predictOptions, resolvePredictOptions, type RequestedOptions } from '../../src/inference/predict-options.js';
import { prepareModel } from '../../src/inference/instances/prepared-model.js';
import {
  inputElements,
  newTensorArray,
  normalisation,
  type InputConfig,
  type TensorArray,
} from '../../src/inference/pipeline/preprocess.js';
import { BATCH_CONVENTIONS, buildBatchModel } from '../fixtures/batch-models.js';
import { buildDenseHeadModel, DENSE_ANCHORS, DENSE_CONFIG, DENSE_CROWD, DENSE_SIZE } from '../fixtures/dense-head.js';
import { SIZE } from '../fixtures/format-models.js';
import { encodeModel, node, valueInfo } from '../fixtures/onnx-models.js';
import { testLog } from '../helpers/log.js';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sense-rewrite-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Random RGB pixels, the same on every run. */
function pixels(count: number, seed = 7): Uint8Array {
  const out = new Uint8Array(count * 3);
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** The native preprocessing of an image already at the input's size into a tensor of `dtype`. */
function preprocessed(input: InputConfig, rgb: Uint8Array, tensor: TensorArray): TensorArray {
  const { width, height } = input;
  const placement = { dstWidth: width, dstHeight: height, rectX: 0, rectY: 0, rectWidth: width, rectHeight: height };
  native.preprocess(rgb, width, height, 3, tensor, { ...placement, ...normalisation(input) });
  return tensor;
}

describe('bytes in: the uint8 prefix', () => {
  const base = { width: 24, height: 16 };
  const cases: Array<[string, object]> = [
    ['RGB, NCHW, /255', {}],
    [
      'BGR, NHWC, ImageNet mean and std',
      { color: 'BGR', layout: 'NHWC', mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] },
    ],
    ['float16 input, scale 127.5, mean 1', { dtype: 'float16', scale: 127.5, mean: [1, 1, 1] }],
    ['no batch axis', { batchAxis: false }],
    ['scale 1, mean 0, std 1 (the cast alone)', { scale: 1 }],
  ];
  it.each(cases)("%s: the model sees the native preprocessing's values, bit for bit", async (_, extra) => {
    const input = parseModelConfig({ name: 'identity', labels: ['x'], input: { ...base, ...extra } }).input;
    const image = input.layout === 'NCHW' ? [3, input.height, input.width] : [input.height, input.width, 3];
    const shape = input.batchAxis === false ? image : [1, ...image];
    const type = input.dtype === 'float16' ? T.FLOAT16 : T.FLOAT;
    const model = OnnxModel.parse(
      encodeModel({
        name: 'identity',
        node: [node('Identity', ['images'], ['out'])],
        input: [valueInfo('images', type, shape)],
        output: [valueInfo('out', type, shape)],
      }),
    );
    const fed = addInputPrefix(model, 'images', input);
    const session = await ort.InferenceSession.create(model.encode());
    try {
      const rgb = pixels(input.width * input.height);
      const u8 = preprocessed(input, rgb, newTensorArray('uint8', inputElements(input)));
      const expected = preprocessed(input, rgb, newTensorArray(input.dtype, inputElements(input)));
      const out = (await session.run({ [fed]: new ort.Tensor('uint8', u8, shape) })).out!;
      const got = out.data as TensorArray;
      expect(Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(Buffer.from(expected.buffer))).toBe(true);
      expect(session.inputMetadata[0]).toMatchObject({ name: 'images_uint8', type: 'uint8' });
    } finally {
      await session.release();
    }
  });
});

/** Options of every kind a request can set, over the model's defaults. */
const OPTION_SETS: RequestedOptions[] = [
  {},
  { threshold: 0 },
  { threshold: 0.05, iou: 0.1 },
  { threshold: 0.3 },
  { threshold: 0.5, maxDetections: 1 },
  { threshold: 0.99 },
  { threshold: 1 },
  { iou: 1, maxDetections: 3 },
  { topK: 1, box: true, keypointThreshold: 0 },
];

/** Pixel levels of the images: the fixtures' outputs move with brightness. */
const LEVELS = [26, 115, 204];

interface Loaded {
  config: ModelConfig;
  plain: ModelBackend;
  rewritten: ModelBackend;
}

async function loadBoth(name: string, onnxBytes: Uint8Array, configJson: object): Promise<Loaded> {
  const modelDir = join(dir, name);
  await mkdir(modelDir, { recursive: true });
  await writeFile(join(modelDir, 'model.onnx'), onnxBytes);
  const config = parseModelConfig({ name, input: { width: SIZE, height: SIZE }, ...configJson });
  const options = { providers: ['cpu'] as const, deviceId: 0, intraOpThreads: 1, maxBatchSize: 4 };
  const plain = await ModelBackend.load(
    modelDir,
    config,
    {
      ...options,
      providers: ['cpu'],
      preparation: { rewrite: false },
    },
    testLog,
  );
  const rewritten = await ModelBackend.load(
    modelDir,
    config,
    {
      ...options,
      providers: ['cpu'],
      preparation: { rewrite: true, cacheDirectory: join(modelDir, 'cache') },
    },
    testLog,
  );
  return { config, plain, rewritten };
}

/** Every option set's answer for each image, run alone and in one batch. */
async function answers(backend: ModelBackend, config: ModelConfig, optionSets = OPTION_SETS): Promise<string[]> {
  const decoder = createOutputDecoder(config, backend.info.outputs);
  const placement = placeImage(SIZE, SIZE, SIZE, SIZE, 'letterbox');
  const elements = inputElements(config.input);
  const images = LEVELS.map((level) => {
    const tensor = newTensorArray(backend.info.inputDtype, elements);
    // float32: the value the native preprocessing writes for this pixel level (mul = 1/255, add = 0)
    return tensor.fill(backend.info.inputDtype === 'uint8' ? level : Math.fround(level * Math.fround(1 / 255)));
  });
  const out: string[] = [];
  for (const requested of optionSets) {
    const options = predictOptions(requested, config.defaults);
    const threshold = resolvePredictOptions(options, false).threshold;
    const alone = [];
    for (const image of images) alone.push((await backend.run([image], [threshold])).outputs[0]!);
    const batched = (
      await backend.run(
        images,
        images.map(() => threshold),
      )
    ).outputs;
    for (const outputs of [...alone, ...batched])
      out.push(postprocess(decoder, config.labels, outputs, placement, options));
  }
  return out;
}

const DENSE = new Set(['yolov8', 'yolov8_rows_last', 'yolov8_float16', 'yolov5', 'pose', 'seg']);

describe('candidates out', () => {
  it.each(Object.keys(BATCH_CONVENTIONS))(
    '%s: the rewritten model answers every option as the original, alone and batched',
    async (convention) => {
      const { outputs, config: extra } = BATCH_CONVENTIONS[convention]!;
      const { config, plain, rewritten } = await loadBoth(convention, buildBatchModel(outputs()), extra);
      try {
        expect(plain.info.inputDtype).toBe('float32');
        expect(rewritten.info.inputDtype).toBe('uint8');
        expect(rewritten.info.candidates).toBe(DENSE.has(convention));
        expect(rewritten.info.outputs).toEqual(plain.info.outputs);
        const expected = await answers(plain, config);
        expect(await answers(rewritten, config)).toEqual(expected);
        // Not vacuous: some option sets answer detections, others none.
        expect(expected.some((a) => a.length > 2)).toBe(true);
      } finally {
        await plain.release();
        await rewritten.release();
      }
    },
  );

  it('copies back only the anchors that can pass the threshold', async () => {
    const { outputs, config: extra } = BATCH_CONVENTIONS.yolov8!;
    const { config, plain, rewritten } = await loadBoth('reduced', buildBatchModel(outputs()), extra);
    try {
      const image = newTensorArray('uint8', inputElements(config.input)).fill(115);
      const head = (await plain.run([new Float32Array(inputElements(config.input)).fill(115 / 255)], [0.5])).outputs[0]!
        .output0!;
      const reduced = (await rewritten.run([image], [0.5])).outputs[0]!.output0!;
      const anchors = head.dims[2]!;
      expect(reduced.compact?.classIds).toHaveLength(reduced.dims[0]!);
      expect(reduced.dims[1]).toBe(head.dims[1]);
      expect(reduced.dims[0]).toBeGreaterThan(0);
      expect(reduced.dims[0]).toBeLessThan(anchors);
      const none = (await rewritten.run([image], [1.01])).outputs[0]!.output0!;
      expect(none.dims).toEqual([0, head.dims[1]]);
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });

  it('answers a head holding NaN and tied class scores as the original does', async () => {
    // Anchor 0: a NaN class score before its best class; anchor 1: after it; anchor 2: all NaN.
    // Anchors 3 and 4: two classes tie for best (the first is the answer), the model picks each one's class.
    const classes = 3;
    const rows = [
      [10, 10, 12, 12, NaN, 0.9, 0.2],
      [30, 10, 12, 12, 0.2, 0.8, NaN],
      [50, 10, 12, 12, NaN, NaN, NaN],
      [10, 40, 12, 12, 0.7, 0.7, 0.1],
      [30, 40, 12, 12, 0.1, 0.6, 0.6],
    ];
    const values = Array.from(
      { length: 7 * rows.length },
      (_, i) => rows[i % rows.length]![Math.floor(i / rows.length)]!,
    );
    const model = buildBatchModel([{ name: 'output0', dims: [4 + classes, rows.length], values }]);
    const { config, plain, rewritten } = await loadBoth('nan', model, {
      labels: ['a', 'b', 'c'],
      output: { format: 'yolov8' },
    });
    try {
      expect(rewritten.info.candidates).toBe(true);
      const expected = await answers(plain, config);
      expect(await answers(rewritten, config)).toEqual(expected);
      // Not vacuous: the NaN anchors answer their best class, the ties their first (a of a and b, b of b and c).
      const counts = (answer: string) =>
        Object.entries(JSON.parse(answer) as Record<string, unknown[]>).map(
          ([label, found]) => `${label}:${found.length}`,
        );
      expect(expected.map(counts)).toContainEqual(['b', 'a'].map((label) => `${label}:${label === 'b' ? 3 : 1}`));
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });
});

describe('a dense head (80 classes, thousands of candidates)', () => {
  // test/fixtures/dense-head.ts: a YOLOv8-shaped head of 8400 anchors where
  // thousands pass the threshold, in clusters of about ten boxes an object.
  // The graph lets out at most MAX_CANDIDATES an image, best first, and
  // postprocess reads them only as far as NMS needs: what NMS keeps within
  // the request's max detections must be what the whole head gives.
  const placement = placeImage(1280, 720, DENSE_SIZE, DENSE_SIZE, 'letterbox');
  const DENSE_OPTIONS: RequestedOptions[] = [
    {},
    { threshold: 0.05 },
    { threshold: 0.5 },
    { threshold: 0.5, maxDetections: 300 },
    { maxDetections: 300 },
    { threshold: 0.1, maxDetections: 1000 },
    { iou: 0.8, maxDetections: 50 },
    { maxDetections: 1 },
  ];

  function detector(config: ModelConfig, backend: ModelBackend) {
    const decoder = createOutputDecoder(config, backend.info.outputs);
    if (decoder.task !== 'detect') throw new Error('not a detector');
    return decoder;
  }

  async function denseAnswers(backend: ModelBackend, config: ModelConfig): Promise<string[]> {
    const decoder = createOutputDecoder(config, backend.info.outputs);
    const images = LEVELS.map((level) => {
      const tensor = newTensorArray(backend.info.inputDtype, inputElements(config.input));
      return tensor.fill(backend.info.inputDtype === 'uint8' ? level : Math.fround(level * Math.fround(1 / 255)));
    });
    const out: string[] = [];
    for (const requested of DENSE_OPTIONS) {
      const options = predictOptions(requested, config.defaults);
      const threshold = resolvePredictOptions(options, false).threshold;
      const alone = [];
      for (const image of images) alone.push((await backend.run([image], [threshold])).outputs[0]!);
      const batched = (
        await backend.run(
          images,
          images.map(() => threshold),
        )
      ).outputs;
      for (const outputs of [...alone, ...batched])
        out.push(postprocess(decoder, config.labels, outputs, placement, options));
    }
    return out;
  }

  it(`lets out at most ${MAX_CANDIDATES} candidates an image, best first`, async () => {
    const { config, plain, rewritten } = await loadBoth('dense', buildDenseHeadModel(), DENSE_CONFIG);
    try {
      const image = newTensorArray('uint8', inputElements(config.input)).fill(115);
      // Every anchor passes 0.001: the whole head would be 8400 rows.
      const head = (await plain.run([new Float32Array(inputElements(config.input)).fill(115 / 255)], [0.001]))
        .outputs[0]!.output0!;
      expect(head.dims).toEqual([1, 84, DENSE_ANCHORS]);
      const [first, second] = (await rewritten.run([image, image], [0.001, 0.001])).outputs;
      for (const reduced of [first!, second!].map((o) => o.output0!)) {
        expect(reduced.compact?.classIds).toHaveLength(reduced.dims[0]!);
        expect(reduced.dims).toEqual([MAX_CANDIDATES, 84]);
        const scores = detector(config, rewritten)
          .decode({ output0: reduced }, 0.001)
          .map((c) => c.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        // The best of the whole head, not any 5000.
        const all = detector(config, plain)
          .decode({ output0: head }, 0.001)
          .map((c) => c.score);
        expect(scores).toEqual(all.sort((a, b) => b - a).slice(0, MAX_CANDIDATES));
      }
      // A threshold few anchors pass lets out only those.
      const few = (await rewritten.run([image], [0.8])).outputs[0]!.output0!;
      expect(few.dims[0]).toBeGreaterThan(0);
      expect(few.dims[0]).toBeLessThan(200);
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });

  it('answers every option as the whole head does, alone and batched', async () => {
    const { config, plain, rewritten } = await loadBoth('dense-answers', buildDenseHeadModel(), DENSE_CONFIG);
    try {
      expect(rewritten.info.candidates).toBe(true);
      const expected = await denseAnswers(plain, config);
      expect(await denseAnswers(rewritten, config)).toEqual(expected);
      // Not vacuous: full answers, of 100 and 300 detections.
      const counts = expected.map((a) => Object.values(JSON.parse(a) as Record<string, unknown[]>).flat().length);
      expect(counts).toContain(100);
      expect(counts).toContain(300);
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });

  it('answers a crowd, where NMS never fills and every row is read, as the whole head does', async () => {
    const { config, plain, rewritten } = await loadBoth('dense-crowd', buildDenseHeadModel(DENSE_CROWD), DENSE_CONFIG);
    try {
      const image = newTensorArray('uint8', inputElements(config.input)).fill(115);
      const rows = (await rewritten.run([image], [0.25])).outputs[0]!.output0!.dims[0]!;
      expect(rows).toBeGreaterThan(4000);
      const expected = await denseAnswers(plain, config);
      expect(await denseAnswers(rewritten, config)).toEqual(expected);
      // Not vacuous: a few objects answered, far fewer than any max detections asked for but one.
      const counts = expected.map((a) => Object.values(JSON.parse(a) as Record<string, unknown[]>).flat().length);
      expect(Math.max(...counts)).toBeGreaterThan(1);
      expect(Math.max(...counts)).toBeLessThan(50);
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });
});

describe('parts left out', () => {
  it('leaves the candidates suffix out of a model on operator set 10, with the reason, and answers the same', async () => {
    const { outputs, config: extra } = BATCH_CONVENTIONS.yolov8!;
    const bytes = onnx.ModelProto.decode(buildBatchModel(outputs()));
    bytes.opsetImport = [{ domain: '', version: 10 }];
    const { config, plain, rewritten } = await loadBoth('opset10', onnx.ModelProto.encode(bytes).finish(), extra);
    try {
      expect(rewritten.info.inputDtype).toBe('uint8');
      expect(rewritten.info.candidates).toBe(false);
      expect(rewritten.info.preparation).toContain(
        'candidates output left out: operator set 10 is older than 11 (no GatherND, Range)',
      );
      expect(await answers(rewritten, config)).toEqual(await answers(plain, config));
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });

  it('runs a model whose input is uint8 as it is', async () => {
    const model = encodeModel({
      name: 'u8',
      node: [
        node('Cast', ['images'], ['f'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }]),
        node(
          'ReduceMean',
          ['f'],
          ['probs'],
          [
            { name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [2, 3] },
            { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 },
          ],
        ),
      ],
      input: [valueInfo('images', T.UINT8, ['batch', 3, SIZE, SIZE])],
      output: [valueInfo('probs', T.FLOAT, ['batch', 3])],
    });
    const { config, plain, rewritten } = await loadBoth('uint8', model, {
      labels: ['r', 'g', 'b'],
      input: { width: SIZE, height: SIZE, dtype: 'uint8' },
    });
    try {
      expect(rewritten.info.inputDtype).toBe('uint8');
      expect(rewritten.info.preparation).toEqual([
        'candidates output: not a dense head (format classification)',
        'uint8 input: the model takes pixels already',
      ]);
      const image = newTensorArray('uint8', inputElements(config.input)).fill(200);
      const probs = (await rewritten.run([image], [0])).outputs[0]!.probs!;
      expect(Array.from(probs.data as Float32Array)).toEqual([200, 200, 200]);
    } finally {
      await plain.release();
      await rewritten.release();
    }
  });
});

describe('the prepared model cache', () => {
  it('is written beside the version, read back, and made again when model.onnx changes', async () => {
    const { outputs, config: extra } = BATCH_CONVENTIONS.yolov5!;
    const modelDir = join(dir, 'cached');
    const cacheDirectory = join(modelDir, 'cache');
    await mkdir(modelDir, { recursive: true });
    await writeFile(join(modelDir, 'model.onnx'), buildBatchModel(outputs()));
    const config = parseModelConfig({ name: 'cached', input: { width: SIZE, height: SIZE }, ...extra });
    const first = await prepareModel(modelDir, config, { rewrite: true, cacheDirectory });
    expect(first.source).toBe(join(cacheDirectory, 'model.prepared.onnx'));
    const info = await readFile(join(cacheDirectory, 'model.prepared.json'), 'utf8');
    const again = await prepareModel(modelDir, config, { rewrite: true, cacheDirectory });
    expect(again).toEqual(first);
    expect(await readFile(join(cacheDirectory, 'model.prepared.json'), 'utf8')).toBe(info);
    // Another model file under the same name: its mtime changes the key.
    await utimes(join(modelDir, 'model.onnx'), new Date(), new Date(Date.now() + 5000));
    await prepareModel(modelDir, config, { rewrite: true, cacheDirectory });
    expect(await readFile(join(cacheDirectory, 'model.prepared.json'), 'utf8')).not.toBe(info);
    // And so does the normalisation model.json describes.
    const other = parseModelConfig({ ...config, input: { ...config.input, mean: [0.5, 0.5, 0.5] } });
    const before = await readFile(join(cacheDirectory, 'model.prepared.json'), 'utf8');
    await prepareModel(modelDir, other, { rewrite: true, cacheDirectory });
    expect(await readFile(join(cacheDirectory, 'model.prepared.json'), 'utf8')).not.toBe(before);
  });
});

describe('FP16 (model.json "precision": "fp16")', () => {
  it('rounds float32 to half bits to nearest even, clamping to the largest finite half', () => {
    const bits = (v: number) => halfBits(new Uint32Array(new Float32Array([v]).buffer)[0]!);
    expect([1, -2, 0.1, 65504, 1e6, -1e6, 2 ** -24, 2 ** -26, 0].map(bits)).toEqual([
      0x3c00, 0xc000, 0x2e66, 0x7bff, 0x7bff, 0xfbff, 0x0001, 0x0000, 0x0000,
    ]);
    expect(bits(1 + 2 ** -11)).toBe(0x3c00); // a tie: to the even neighbour
    expect(bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(bits(Infinity)).toBe(0x7c00);
    expect(bits(NaN) & 0x7e00).toBe(0x7e00);
  });

  /** Answers as numbers: the same labels and counts, every number within `tolerance`. */
  function close(a: string, b: string, tolerance: number): boolean {
    const walk = (x: unknown, y: unknown): boolean => {
      if (typeof x === 'number' && typeof y === 'number') return Math.abs(x - y) <= tolerance;
      if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => walk(v, y[i]));
      if (x && y && typeof x === 'object' && typeof y === 'object') {
        const keys = Object.keys(x);
        return (
          keys.length === Object.keys(y).length &&
          keys.every((k) => walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]))
        );
      }
      return x === y;
    };
    return walk(JSON.parse(a), JSON.parse(b));
  }

  it.each(Object.keys(BATCH_CONVENTIONS))(
    '%s: runs in float16 inside and answers within 0.01 of float32',
    async (convention) => {
      const { outputs, config: extra } = BATCH_CONVENTIONS[convention]!;
      const modelDir = join(dir, `fp16-${convention}`);
      await mkdir(modelDir, { recursive: true });
      await writeFile(join(modelDir, 'model.onnx'), buildBatchModel(outputs()));
      const config = parseModelConfig({ name: convention, input: { width: SIZE, height: SIZE }, ...extra });
      const options = { providers: ['cpu' as const], deviceId: 0, intraOpThreads: 1, maxBatchSize: 4 };
      const fp32 = await ModelBackend.load(modelDir, config, { ...options, preparation: { rewrite: true } }, testLog);
      const fp16 = await ModelBackend.load(
        modelDir,
        config,
        {
          ...options,
          preparation: { rewrite: true, precision: 'fp16' },
        },
        testLog,
      );
      try {
        expect(fp16.info.preparation).toContain('weights and arithmetic in float16');
        expect(fp16.info.inputDtype).toBe('uint8');
        // Not at a threshold a fixture score lies on (0.5 holds exactly in float32, 0.4998 in float16).
        const optionSets = OPTION_SETS.filter((o) => o.threshold !== 0.5);
        const [a, b] = [await answers(fp32, config, optionSets), await answers(fp16, config, optionSets)];
        const far = a.flatMap((answer, i) => (close(answer, b[i]!, 0.01) ? [] : [`${answer} | ${b[i]}`]));
        expect(far).toEqual([]);
      } finally {
        await fp32.release();
        await fp16.release();
      }
    },
  );

  it('refuses, with the reason, a graph it cannot follow, and the version runs in float32', async () => {
    const { onnx: o } = onnxProto;
    const withSubgraph = encodeModel({
      name: 'if',
      node: [
        node('ReduceMean', ['images'], ['m'], [{ name: 'keepdims', type: o.AttributeProto.AttributeType.INT, i: 0 }]),
        node('Greater', ['m', 'half'], ['cond']),
        {
          opType: 'If',
          input: ['cond'],
          output: ['probs'],
          name: 'if',
          attribute: [
            {
              name: 'then_branch',
              type: o.AttributeProto.AttributeType.GRAPH,
              g: { name: 't', node: [node('Identity', ['one'], ['a'])], output: [valueInfo('a', T.FLOAT, [1, 2])] },
            },
            {
              name: 'else_branch',
              type: o.AttributeProto.AttributeType.GRAPH,
              g: { name: 'e', node: [node('Identity', ['zero'], ['b'])], output: [valueInfo('b', T.FLOAT, [1, 2])] },
            },
          ],
        },
      ],
      initializer: [
        { name: 'half', dataType: T.FLOAT, dims: [], floatData: [0.5] },
        { name: 'one', dataType: T.FLOAT, dims: [1, 2], floatData: [0.9, 0.1] },
        { name: 'zero', dataType: T.FLOAT, dims: [1, 2], floatData: [0.1, 0.9] },
      ],
      input: [valueInfo('images', T.FLOAT, [1, 3, SIZE, SIZE])],
      output: [valueInfo('probs', T.FLOAT, [1, 2])],
    });
    const modelDir = join(dir, 'fp16-if');
    await mkdir(modelDir, { recursive: true });
    await writeFile(join(modelDir, 'model.onnx'), withSubgraph);
    const config = parseModelConfig({ name: 'if', labels: ['light', 'dark'], input: { width: SIZE, height: SIZE } });
    expect(() => convertToFloat16(withSubgraph)).toThrow('operator If');
    const prepared = await prepareModel(modelDir, config, { rewrite: true, precision: 'fp16' });
    expect(prepared.notes).toContain('float16 left out: operator If');
    expect(prepared.input.dtype).toBe('uint8');
  });
});
