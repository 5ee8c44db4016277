// refuseExternalData: a tensor stored as external data is found wherever a
// tensor can be, the refusal never depends on the location it names, and a
// model with every tensor inside (a large one included) passes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExternalDataError, refuseExternalData } from '../../src/inference/graph/external-data.js';
import { NotOnnxError } from '../../src/inference/graph/onnx-file.js';
import { concatBytes, lengthDelimitedField } from '../../src/inference/graph/wire.js';
import { buildExternalDataModel, type ExternalTensorPlace } from '../fixtures/external-data-models.js';
import { buildConstantModel } from '../fixtures/onnx-models.js';
import { fixtureSpec } from '../fixtures/predict-models.js';

const { onnx } = onnxProto;

let dir: string;
let files = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sense-external-data-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

/** What refuseExternalData says of these bytes: 'accepted', or the error's class and message. */
async function verdict(bytes: Uint8Array): Promise<string> {
  const path = join(dir, `model-${files++}.onnx`);
  await writeFile(path, bytes);
  try {
    await refuseExternalData(path);
    return 'accepted';
  } catch (error) {
    if (error instanceof ExternalDataError) return `external: ${error.message}`;
    if (error instanceof NotOnnxError) return `not onnx: ${error.message}`;
    throw error;
  }
}

const PLACES: Array<[ExternalTensorPlace, string]> = [
  ['initializer', ''],
  ['constant', ''],
  ['sparse initializer', ''],
  ['if branch', ' in a subgraph'],
  ['loop body', ' in a subgraph'],
  ['loop in if branch', ' in a subgraph'],
  ['function', ' in a function'],
  ['training graph', ' in a training graph'],
];

describe('refuseExternalData', () => {
  it('accepts a model whose tensors are all inside it, however large', async () => {
    expect(await verdict(buildConstantModel(fixtureSpec()))).toBe('accepted');
    // 16 MB of weights in raw_data: skipped by its length, never read
    const model = onnx.ModelProto.decode(buildConstantModel(fixtureSpec()));
    model.graph!.initializer!.push(
      onnx.TensorProto.create({
        name: 'weights',
        dataType: 1,
        dims: [4, 1024, 1024],
        rawData: new Uint8Array(16 * 1024 * 1024),
      }),
    );
    expect(await verdict(onnx.ModelProto.encode(model).finish())).toBe('accepted');
  });

  for (const [place, where] of PLACES) {
    it(`refuses a tensor stored as external data in a ${place}, naming it`, async () => {
      expect(await verdict(buildExternalDataModel(place, 'weights.bin'))).toBe(
        `external: tensor "outside"${where} is stored as external data, outside model.onnx, which the server does not read: ` +
          'save the model with every tensor inside it (onnx.save_model(model, path, save_as_external_data=False))',
      );
    });
  }

  it('answers the same whatever the location names: an existing file, a directory, a missing file, an absolute path', async () => {
    for (const place of ['initializer', 'loop in if branch'] as const) {
      const answers = new Set<string>();
      for (const location of ['package.json', 'src', 'no-such-file.bin', '/etc/passwd', '../../../etc/hostname']) {
        const answer = await verdict(buildExternalDataModel(place, location));
        expect(answer).toMatch(/^external: /);
        expect(answer).not.toContain(location);
        answers.add(answer);
      }
      expect(answers.size).toBe(1);
    }
  });

  it('refuses data_location EXTERNAL alone, and external_data entries alone', async () => {
    expect(await verdict(buildExternalDataModel('constant', 'w.bin', { externalData: false }))).toMatch(
      /^external: tensor "outside"/,
    );
    expect(await verdict(buildExternalDataModel('if branch', 'w.bin', { dataLocation: false }))).toMatch(
      /^external: tensor "outside" in a subgraph/,
    );
  });

  it('refuses data_location EXTERNAL written as a 64-bit varint, which a parser truncates to the enum 1', async () => {
    // TensorProto: name "wide" (8), data_type FLOAT (2), dims [1] (1), data_location = 2^32 + 1 (14)
    const tensor = Uint8Array.from([
      0x42,
      4,
      ...Buffer.from('wide'),
      0x10,
      1,
      0x08,
      1,
      0x70,
      0x81,
      0x80,
      0x80,
      0x80,
      0x10,
    ]);
    const model = onnx.ModelProto.decode(buildConstantModel(fixtureSpec()));
    const graph = onnx.GraphProto.encode(model.graph!).finish();
    model.graph = null;
    const bytes = concatBytes([
      onnx.ModelProto.encode(model).finish(),
      lengthDelimitedField(7, concatBytes([graph, lengthDelimitedField(5, tensor)])),
    ]);
    expect(await verdict(bytes)).toMatch(/^external: tensor "wide" is stored as external data/);
  });

  it('says a model is not ONNX when a message inside its graph is malformed or nested without end', async () => {
    const model = onnx.ModelProto.decode(buildConstantModel(fixtureSpec()));
    const graph = onnx.GraphProto.encode(model.graph!).finish();
    model.graph = null;
    const head = onnx.ModelProto.encode(model).finish();
    // a node (field 1) that says it is 50 bytes long but holds 2
    const truncated = concatBytes([graph, Uint8Array.from([0x0a, 2, 0x0a, 50])]);
    expect(await verdict(concatBytes([head, lengthDelimitedField(7, truncated)]))).toMatch(
      /^not onnx: its bytes are not an ONNX ModelProto \(a malformed field at byte \d+\)$/,
    );
    // a graph attribute holding a graph whose node holds a graph attribute ... 200 deep
    let nested: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 200; i++)
      nested = lengthDelimitedField(1, lengthDelimitedField(5, lengthDelimitedField(6, nested)));
    expect(await verdict(concatBytes([head, lengthDelimitedField(7, nested)]))).toBe(
      'not onnx: its messages are nested more than 100 deep',
    );
  });

  it('says a model is not ONNX past 20 million fields in its graph, before walking them all', async () => {
    const model = onnx.ModelProto.decode(buildConstantModel(fixtureSpec()));
    const graph = onnx.GraphProto.encode(model.graph!).finish();
    model.graph = null;
    const head = onnx.ModelProto.encode(model).finish();
    // nodes of 1,000 empty attributes (2 bytes each): 20,020,000 fields in 40 MB
    const node = lengthDelimitedField(
      1,
      new Uint8Array(2000).map((_, i) => (i % 2 === 0 ? 0x2a : 0)),
    );
    const nodes = concatBytes(Array.from({ length: 20_000 }, () => node));
    expect(await verdict(concatBytes([head, lengthDelimitedField(7, concatBytes([graph, nodes]))]))).toBe(
      "not onnx: its graph's messages hold more than 20000000 fields",
    );
    // the same graph with a tenth of the nodes is walked whole
    expect(
      await verdict(
        concatBytes([head, lengthDelimitedField(7, concatBytes([graph, nodes.subarray(0, node.length * 2000)]))]),
      ),
    ).toBe('accepted');
  });
});
