// The Open Inference Protocol's REST bodies and tensor bytes: JSON tensors
// (flat and nested), the binary tensor extension both ways, and the
// refusals that name the field (src/http/oip/codec.ts, src/inference/oip/tensors.ts).
import { describe, expect, it } from 'vitest';
import { encodeInferResponse, headerLength, parseInferRequest } from '../../src/http/oip/codec.js';
import { OipError, type InferResponse } from '../../src/inference/oip/protocol.js';
import { elementCount, joinBytesElements, splitBytesElements } from '../../src/inference/oip/tensors.js';

const body = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OipError);
    expect((error as OipError).kind).toBe('invalid');
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('JSON tensors', () => {
  it('reads nested and flat data of every numeric datatype as little-endian bytes', () => {
    const request = parseInferRequest(
      body({
        id: 'a',
        parameters: { threshold: 0.5 },
        inputs: [
          {
            name: 'f',
            datatype: 'FP32',
            shape: [2, 2],
            data: [
              [1, 2.5],
              [-3, 4],
            ],
          },
          { name: 'i', datatype: 'INT64', shape: [2], data: [-1, 2 ** 40] },
          { name: 'h', datatype: 'FP16', shape: [2], data: [1, -2] },
          { name: 'b', datatype: 'BOOL', shape: [2], data: [true, false] },
          { name: 's', datatype: 'BYTES', shape: [2], data: ['hé', { b64: 'AAEC' }] },
        ],
        outputs: [{ name: 'o', parameters: { binary_data: true } }],
      }),
      undefined,
    );
    expect(request.id).toBe('a');
    expect(request.parameters).toEqual({ threshold: 0.5 });
    const [f, i, h, b, s] = request.inputs;
    expect(Array.from(new Float32Array((f!.data as { raw: Uint8Array }).raw.slice().buffer))).toEqual([1, 2.5, -3, 4]);
    expect(Array.from(new BigInt64Array((i!.data as { raw: Uint8Array }).raw.slice().buffer))).toEqual([
      -1n,
      2n ** 40n,
    ]);
    expect(Array.from(new Uint16Array((h!.data as { raw: Uint8Array }).raw.slice().buffer))).toEqual([0x3c00, 0xc000]);
    expect(Array.from((b!.data as { raw: Uint8Array }).raw)).toEqual([1, 0]);
    expect((s!.data as { bytes: Uint8Array[] }).bytes.map((e) => Buffer.from(e).toString('hex'))).toEqual([
      Buffer.from('hé').toString('hex'),
      '000102',
    ]);
    expect(request.outputs).toEqual([{ name: 'o', parameters: { binary_data: true } }]);
  });

  it.each([
    [
      { inputs: [{ name: 'x', datatype: 'INT8', shape: [1], data: [200] }] },
      /^inputs\[0\]\.data\[0\]: 200 is not a INT8/,
    ],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [1], data: ['1'] }] }, /^inputs\[0\]\.data\[0\]: FP32 data must/],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [3], data: [[1, 2]] }] }, /^inputs\[0\]\.data: shape \[3\]/],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [1.5], data: [1] }] }, /^inputs\[0\]\.shape\[0\]/],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [65536, 65536], data: [] }] }, /^inputs\[0\]\.shape: /],
    [{ inputs: [{ name: 'x', datatype: 'uint8', shape: [1], data: [1] }] }, /^inputs\[0\]\.datatype: unknown/],
    [{ inputs: [{ name: 'x', datatype: 'BYTES', shape: [1], data: [1] }] }, /^inputs\[0\]\.data\[0\]: BYTES data must/],
    [{ inputs: [{ name: 'x', datatype: 'BYTES', shape: [1], data: [{ b64: '$$' }] }] }, /\.b64: not base64/],
    [{ inputs: [{ datatype: 'FP32', shape: [1], data: [1] }] }, /^inputs\[0\]\.name: must be a string/],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [1] }] }, /^inputs\[0\]\.data: missing/],
    [{ inputs: [{ name: 'x', datatype: 'FP32', shape: [1], data: [1], parameters: { p: [] } }] }, /parameters\.p/],
    [{ inputs: {} }, /^inputs: must be a non-empty array/],
    [{ id: 1, inputs: [] }, /^id: must be a string/],
    [[1], /^request body: must be a JSON object/],
  ])('refuses %j naming the field', (value, message) => {
    expect(refusal(() => parseInferRequest(body(value), undefined))).toMatch(message);
  });

  it('refuses a body that is not UTF-8 JSON', () => {
    expect(refusal(() => parseInferRequest(new Uint8Array([0x7b, 0xff, 0x7d]), undefined))).toMatch(
      /^request body: not JSON/,
    );
  });
});

describe('the binary tensor extension', () => {
  it("reads each input's binary_data_size bytes in order after the JSON", () => {
    const json = body({
      inputs: [
        { name: 'a', datatype: 'UINT8', shape: [3], parameters: { binary_data_size: 3 } },
        { name: 'b', datatype: 'BYTES', shape: [2], parameters: { binary_data_size: 11 } },
      ],
    });
    const binary = Buffer.concat([
      Buffer.from([7, 8, 9]),
      Buffer.from(joinBytesElements([Buffer.from('abc'), Buffer.from('')])),
    ]);
    const request = parseInferRequest(Buffer.concat([json, binary]), json.byteLength);
    expect(Array.from((request.inputs[0]!.data as { raw: Uint8Array }).raw)).toEqual([7, 8, 9]);
    expect((request.inputs[1]!.data as { bytes: Uint8Array[] }).bytes.map((e) => Buffer.from(e).toString())).toEqual([
      'abc',
      '',
    ]);
  });

  it('checks the header length against the body', () => {
    expect(headerLength(undefined, 10)).toBeUndefined();
    expect(headerLength('4', 10)).toBe(4);
    expect(refusal(() => headerLength('11', 10))).toMatch(/11 bytes, the body has 10/);
    expect(refusal(() => headerLength('-1', 10))).toMatch(/not a count of bytes/);
  });

  it('splits BYTES elements and refuses a cut one', () => {
    const joined = joinBytesElements([Buffer.from('xy'), Buffer.from('z')]);
    expect(splitBytesElements(joined, 'f').map((e) => Buffer.from(e).toString())).toEqual(['xy', 'z']);
    expect(refusal(() => splitBytesElements(joined.subarray(0, 5), 'f'))).toMatch(/element 0 says 2 bytes, only 1/);
    expect(refusal(() => splitBytesElements(joined.subarray(0, 8), 'f'))).toMatch(/element 1 is cut inside/);
  });

  it('counts elements and refuses dimensions of 2^31 or more', () => {
    expect(elementCount([2, 3, 4], 's')).toBe(24);
    expect(elementCount([], 's')).toBe(1);
    expect(refusal(() => elementCount([2 ** 31], 's'))).toMatch(/^s\[0\]: a dimension must be/);
  });

  it('answers outputs in binary where asked, the rest in JSON, with the JSON length', () => {
    const response: InferResponse = {
      modelName: 'm',
      modelVersion: 'v',
      id: 'r',
      outputs: [
        {
          name: 'scores',
          datatype: 'FP32',
          shape: [2],
          data: { raw: new Uint8Array(new Float32Array([0.5, 1]).buffer) },
        },
        { name: 'text', datatype: 'BYTES', shape: [1], data: { bytes: [Buffer.from('{"a":[]}')] } },
      ],
    };
    expect(encodeInferResponse(response, { inputs: [] })).toEqual({
      body: JSON.stringify({
        model_name: 'm',
        model_version: 'v',
        id: 'r',
        outputs: [
          { name: 'scores', datatype: 'FP32', shape: [2], data: [0.5, 1] },
          { name: 'text', datatype: 'BYTES', shape: [1], data: ['{"a":[]}'] },
        ],
      }),
    });
    const binary = encodeInferResponse(response, {
      inputs: [],
      parameters: { binary_data_output: true },
      outputs: [{ name: 'text', parameters: { binary_data: false } }],
    });
    const bytes = binary.body as Uint8Array;
    const head = JSON.parse(Buffer.from(bytes.subarray(0, binary.jsonBytes)).toString()) as { outputs: unknown[] };
    expect(head.outputs).toEqual([
      { name: 'scores', datatype: 'FP32', shape: [2], parameters: { binary_data_size: 8 } },
      { name: 'text', datatype: 'BYTES', shape: [1], data: ['{"a":[]}'] },
    ]);
    expect(Array.from(new Float32Array(bytes.slice(binary.jsonBytes).buffer))).toEqual([0.5, 1]);
  });
});
