// proto/inference.proto against the Open Inference Protocol's wire: each
// message is encoded with the serializers the gRPC server uses and compared
// with bytes written here by hand from the specification's field numbers and
// types (a tag is field << 3 | wire type: 0 varint, 1 fixed64, 2 length
// delimited, 5 fixed32; proto3 packs repeated scalars). A field renumbered or
// retyped in the .proto changes the bytes and fails here; and the hand-written
// bytes decode to the message the server reads.
import type { MethodDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { loadInferenceService } from '../../src/grpc/inference-proto.js';

const service = loadInferenceService();

function method(name: string): MethodDefinition<object, object> {
  const definition = service[name];
  if (!definition) throw new Error(`no method ${name}`);
  return definition as MethodDefinition<object, object>;
}

// --- protobuf by hand -------------------------------------------------------

function varint(value: bigint | number): number[] {
  // negative int32/int64 values are written as their 64-bit two's complement, 10 bytes
  let n = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    const byte = Number(n & 0x7fn);
    n >>= 7n;
    out.push(n > 0n ? byte | 0x80 : byte);
  } while (n > 0n);
  return out;
}

const tag = (field: number, wireType: 0 | 1 | 2 | 5) => varint((field << 3) | wireType);
const ascii = (text: string) => [...Buffer.from(text)];
const bytesField = (field: number, bytes: number[]) => [...tag(field, 2), ...varint(bytes.length), ...bytes];
const stringField = (field: number, text: string) => bytesField(field, ascii(text));
const varintField = (field: number, value: bigint | number) => [...tag(field, 0), ...varint(value)];
const packedVarints = (field: number, values: (bigint | number)[]) =>
  bytesField(
    field,
    values.flatMap((v) => varint(v)),
  );
const fixed32 = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(value);
  return [...b];
};
const fixed64 = (value: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(value);
  return [...b];
};
/** a map<string, M> entry: key 1, value 2 */
const mapEntry = (field: number, key: string, value: number[]) =>
  bytesField(field, [...stringField(1, key), ...bytesField(2, value)]);

function encode(name: string, side: 'request' | 'response', message: object): number[] {
  const m = method(name);
  return [...(side === 'request' ? m.requestSerialize(message) : m.responseSerialize(message))];
}

function decode(name: string, side: 'request' | 'response', bytes: number[]): unknown {
  const m = method(name);
  return (side === 'request' ? m.requestDeserialize : m.responseDeserialize)(Buffer.from(bytes));
}

// ---------------------------------------------------------------------------

describe('proto/inference.proto on the wire', () => {
  it('has the service and methods of the protocol, ModelStreamInfer streaming both ways', () => {
    expect(Object.keys(service).sort()).toEqual([
      'ModelInfer',
      'ModelMetadata',
      'ModelReady',
      'ModelStreamInfer',
      'ServerLive',
      'ServerMetadata',
      'ServerReady',
    ]);
    expect(method('ModelInfer').path).toBe('/inference.GRPCInferenceService/ModelInfer');
    expect(method('ModelStreamInfer')).toMatchObject({ requestStream: true, responseStream: true });
    expect(method('ModelInfer')).toMatchObject({ requestStream: false, responseStream: false });
  });

  it('ModelInferRequest: model_name 1, model_version 2, id 3, parameters 4, inputs 5, outputs 6, raw_input_contents 7', () => {
    const message = {
      model_name: 'demo',
      model_version: '7',
      id: 'r1',
      parameters: { threshold: { double_param: 0.5 } },
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [1], parameters: { p: { bool_param: true } } }],
      outputs: [{ name: 'detections', parameters: { q: { string_param: 's' } } }],
      raw_input_contents: [Buffer.from([3, 0, 0, 0, 0x61, 0x62, 0x63])],
    };
    const expected = [
      ...stringField(1, 'demo'),
      ...stringField(2, '7'),
      ...stringField(3, 'r1'),
      ...mapEntry(4, 'threshold', [...tag(4, 1), ...fixed64(0.5)]),
      // InferInputTensor: name 1, datatype 2, shape 3 (packed int64), parameters 4
      ...bytesField(5, [
        ...stringField(1, 'image'),
        ...stringField(2, 'BYTES'),
        ...packedVarints(3, [1]),
        ...mapEntry(4, 'p', varintField(1, 1)),
      ]),
      // InferRequestedOutputTensor: name 1, parameters 2
      ...bytesField(6, [...stringField(1, 'detections'), ...mapEntry(2, 'q', stringField(3, 's'))]),
      ...bytesField(7, [3, 0, 0, 0, 0x61, 0x62, 0x63]),
    ];
    expect(encode('ModelInfer', 'request', message)).toEqual(expected);

    const read = decode('ModelInfer', 'request', expected) as Record<string, unknown>;
    expect(read).toMatchObject({
      model_name: 'demo',
      model_version: '7',
      id: 'r1',
      parameters: { threshold: { parameter_choice: 'double_param', double_param: 0.5 } },
      inputs: [{ name: 'image', datatype: 'BYTES', shape: ['1'], parameters: { p: { bool_param: true } } }],
      outputs: [{ name: 'detections', parameters: { q: { string_param: 's' } } }],
    });
    expect(Buffer.isBuffer((read.raw_input_contents as unknown[])[0])).toBe(true);
    expect([...(read.raw_input_contents as Buffer[])[0]!]).toEqual([3, 0, 0, 0, 0x61, 0x62, 0x63]);
  });

  it('InferTensorContents: bool 1, int 2, int64 3, uint 4, uint64 5, fp32 6, fp64 7, bytes 8 (an input tensor contents 5)', () => {
    const contents = {
      bool_contents: [true, false],
      int_contents: [-1, 300],
      int64_contents: ['-5', '9007199254740993'],
      uint_contents: [7],
      uint64_contents: ['18446744073709551615'],
      fp32_contents: [1.5],
      fp64_contents: [2.25],
      bytes_contents: [Buffer.from('ab')],
    };
    const expected = bytesField(5, [
      ...stringField(1, 'x'),
      ...bytesField(5, [
        ...packedVarints(1, [1, 0]),
        ...packedVarints(2, [-1, 300]),
        ...packedVarints(3, [-5n, 9007199254740993n]),
        ...packedVarints(4, [7]),
        ...packedVarints(5, [18446744073709551615n]),
        ...bytesField(6, fixed32(1.5)),
        ...bytesField(7, fixed64(2.25)),
        ...stringField(8, 'ab'),
      ]),
    ]);
    expect(encode('ModelInfer', 'request', { inputs: [{ name: 'x', contents }] })).toEqual(expected);
    const read = decode('ModelInfer', 'request', expected) as { inputs: { contents: unknown }[] };
    // 64-bit integers come back exact, as strings (PROTO_LOADER_OPTIONS)
    expect(read.inputs[0]!.contents).toEqual(contents);
  });

  it('InferParameter: bool 1, int64 2, string 3, double 4, uint64 5, one at a time', () => {
    const cases: [object, number[]][] = [
      [{ bool_param: true }, varintField(1, 1)],
      [{ int64_param: '-2' }, varintField(2, -2)],
      [{ string_param: 'v' }, stringField(3, 'v')],
      [{ double_param: 0.25 }, [...tag(4, 1), ...fixed64(0.25)]],
      [{ uint64_param: '18446744073709551615' }, varintField(5, 18446744073709551615n)],
    ];
    for (const [parameter, bytes] of cases) {
      expect(encode('ModelInfer', 'request', { parameters: { k: parameter } })).toEqual(mapEntry(4, 'k', bytes));
    }
  });

  it('ModelInferResponse: model_name 1, model_version 2, id 3, parameters 4, outputs 5, raw_output_contents 6', () => {
    const message = {
      model_name: 'demo',
      model_version: '7',
      id: 'r1',
      parameters: { n: { int64_param: 3 } },
      outputs: [{ name: 'count', datatype: 'INT32', shape: [1, 2] }],
      raw_output_contents: [Buffer.from([1, 0, 0, 0, 2, 0, 0, 0])],
    };
    const expected = [
      ...stringField(1, 'demo'),
      ...stringField(2, '7'),
      ...stringField(3, 'r1'),
      ...mapEntry(4, 'n', varintField(2, 3)),
      // InferOutputTensor: name 1, datatype 2, shape 3
      ...bytesField(5, [...stringField(1, 'count'), ...stringField(2, 'INT32'), ...packedVarints(3, [1, 2])]),
      ...bytesField(6, [1, 0, 0, 0, 2, 0, 0, 0]),
    ];
    expect(encode('ModelInfer', 'response', message)).toEqual(expected);
  });

  it('ModelStreamInferResponse: error_message 1, infer_response 2', () => {
    const message = { error_message: 'NOT_FOUND: no model', infer_response: { model_name: 'm', id: 'a' } };
    const expected = [
      ...stringField(1, 'NOT_FOUND: no model'),
      ...bytesField(2, [...stringField(1, 'm'), ...stringField(3, 'a')]),
    ];
    expect(encode('ModelStreamInfer', 'response', message)).toEqual(expected);
  });

  it('the metadata and health messages', () => {
    expect(encode('ModelMetadata', 'request', { name: 'm', version: '2' })).toEqual([
      ...stringField(1, 'm'),
      ...stringField(2, '2'),
    ]);
    expect(encode('ModelReady', 'request', { name: 'm', version: '2' })).toEqual([
      ...stringField(1, 'm'),
      ...stringField(2, '2'),
    ]);
    expect(encode('ModelReady', 'response', { ready: true })).toEqual(varintField(1, 1));
    expect(encode('ServerLive', 'response', { live: true })).toEqual(varintField(1, 1));
    expect(encode('ServerReady', 'response', { ready: true })).toEqual(varintField(1, 1));
    expect(encode('ServerMetadata', 'response', { name: 's', version: '1', extensions: ['a', 'b'] })).toEqual([
      ...stringField(1, 's'),
      ...stringField(2, '1'),
      ...stringField(3, 'a'),
      ...stringField(3, 'b'),
    ]);
    const tensor = (name: string, datatype: string, shape: number[]) => [
      ...stringField(1, name),
      ...stringField(2, datatype),
      ...packedVarints(3, shape),
    ];
    expect(
      encode('ModelMetadata', 'response', {
        name: 'm',
        versions: ['2', '1'],
        platform: 'onnxruntime_onnx',
        inputs: [{ name: 'image', datatype: 'BYTES', shape: [-1] }],
        outputs: [{ name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] }],
      }),
    ).toEqual([
      ...stringField(1, 'm'),
      ...stringField(2, '2'),
      ...stringField(2, '1'),
      ...stringField(3, 'onnxruntime_onnx'),
      ...bytesField(4, tensor('image', 'BYTES', [-1])),
      ...bytesField(5, tensor('boxes', 'FP32', [-1, -1, 4])),
    ]);
  });
});
