// The Open Inference Protocol's tensors in, end to end: a server whose
// sessions run the models as exported (GRAPH_REWRITE=false) takes the demo
// detector's own input, FP32 [N, 3, 320, 320], through its slots, batcher
// and instances, and answers its raw outputs: the same as ONNX Runtime run
// directly on the model file. Wrong datatypes and shapes are 400s naming the field.
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, removeDir, ROOT, startServer, waitFor, type TestServer } from '../helpers/server.js';

let server: TestServer;
let oip: string;
const KEY = 'test-key';

beforeAll(async () => {
  const port = await freePort();
  server = await startServer({
    env: { INFERENCE_API_KEY: KEY, OIP_HTTP_PORT: String(port), GRAPH_REWRITE: 'false', MAX_BATCH_SIZE: '2' },
  });
  oip = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${oip}/v2/health/ready`)).status === 200, 120_000, 'OIP ready');
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await removeDir(server?.dataDir);
});

/** A request of the model's own input in the binary extension, its outputs asked in binary. */
async function inferTensor(tensor: Float32Array, shape: number[], datatype = 'FP32') {
  const bytes = Buffer.from(tensor.buffer, tensor.byteOffset, tensor.byteLength);
  const header = Buffer.from(
    JSON.stringify({
      inputs: [{ name: 'images', datatype, shape, parameters: { binary_data_size: bytes.length } }],
      parameters: { binary_data_output: true },
    }),
  );
  const res = await fetch(`${oip}/v2/models/demo/infer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'inference-header-content-length': String(header.length) },
    body: Buffer.concat([header, bytes]),
  });
  const body = Buffer.from(await res.arrayBuffer());
  const length = Number(res.headers.get('inference-header-content-length') ?? body.length);
  return { status: res.status, head: JSON.parse(body.subarray(0, length).toString()), binary: body.subarray(length) };
}

describe('tensors in', () => {
  it("answers the model's raw outputs, as ONNX Runtime run directly answers them", async () => {
    const shape = [2, 3, 320, 320];
    const input = Float32Array.from({ length: 2 * 3 * 320 * 320 }, (_, i) => ((i * 7919) % 1000) / 1000);
    const session = await ort.InferenceSession.create(join(ROOT, 'models', 'demo', 'model.onnx'));
    const direct = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, shape) });
    const res = await inferTensor(input, shape);
    expect(res.status).toBe(200);
    const outputs = res.head.outputs as Array<{
      name: string;
      datatype: string;
      shape: number[];
      parameters: { binary_data_size: number };
    }>;
    expect(outputs.map((o) => o.name)).toEqual(session.outputNames);
    let at = 0;
    for (const output of outputs) {
      const expected = direct[output.name]!;
      expect(output.datatype).toBe('FP32');
      expect(output.shape).toEqual(expected.dims);
      const got = new Float32Array(
        res.binary.buffer.slice(
          res.binary.byteOffset + at,
          res.binary.byteOffset + at + output.parameters.binary_data_size,
        ),
      );
      at += output.parameters.binary_data_size;
      const want = expected.data as Float32Array;
      expect(got.length).toBe(want.length);
      let worst = 0;
      for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
      expect(worst).toBeLessThan(1e-3);
    }
    expect(at).toBe(res.binary.length);
    await session.release();
  });

  it('answers 400 naming the field for a wrong datatype, shape or byte count, and stays up', async () => {
    const one = new Float32Array(3 * 320 * 320);
    const cases: Array<[Float32Array, number[], string, RegExp]> = [
      [one, [1, 3, 320, 320], 'FP16', /inputs\[0\]: shape \[1, 3, 320, 320\] of FP16 takes 614400 bytes, the data has/],
      [one, [1, 3, 320, 320], 'INT32', /^inputs\[0\]\.datatype: images is FP32, got INT32/],
      [one, [1, 320, 320, 3], 'FP32', /^inputs\[0\]\.shape: images is \[N, 3, 320, 320\], got \[1, 320, 320, 3\]/],
      [one, [2, 3, 320, 320], 'FP32', /^inputs\[0\]: shape \[2, 3, 320, 320\] of FP32 takes 2457600 bytes/],
      [
        new Float32Array(3 * 3 * 320 * 320),
        [3, 3, 320, 320],
        'FP32',
        /^inputs\[0\]\.shape: 3 images, the version's batch limit is 2/,
      ],
    ];
    for (const [tensor, shape, datatype, message] of cases) {
      const res = await inferTensor(tensor, shape, datatype);
      expect(res.status, String(message)).toBe(400);
      expect(res.head.error).toMatch(message);
    }
    expect((await inferTensor(one, [1, 3, 320, 320])).status).toBe(200);
  });
});
