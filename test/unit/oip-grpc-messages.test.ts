// The gRPC front end's conversions and checks, without a server: each
// ModelInferRequest is sent through the proto's own serializer and read back
// by its deserializer first, so the tests see messages exactly as the server
// does (64-bit integers as strings, bytes as Buffers, empty repeated fields).
import { Metadata, status } from '@grpc/grpc-js';
import { Logger } from '../../src/log.js';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { loadInferenceService, type ModelInferRequestMessage } from '../../src/grpc/inference-proto.js';
import {
  inferCallOf,
  joinBytesElements,
  modelInferResponseOf,
  modelMetadataResponseOf,
} from '../../src/grpc/oip-messages.js';
import { grpcStatusOf, RETRY_AFTER_KEY, streamErrorMessage } from '../../src/grpc/oip-status.js';
import { OipError } from '../../src/inference/oip/protocol.js';

const infer = loadInferenceService().ModelInfer!;

/** A request as the server receives it: encoded by the proto, decoded with the server's options. */
function wire(message: object): ModelInferRequestMessage {
  return infer.requestDeserialize(infer.requestSerialize(message)) as ModelInferRequestMessage;
}

function refusal(message: object): string {
  try {
    inferCallOf(wire(message));
  } catch (error) {
    expect(error).toBeInstanceOf(OipError);
    expect((error as OipError).kind).toBe('invalid');
    return (error as Error).message;
  }
  throw new Error('the request was taken');
}

const fp32 = (...values: number[]) => Buffer.from(new Float32Array(values).buffer);
const input = (datatype: string, shape: number[], extra: object = {}) => ({ name: 'x', datatype, shape, ...extra });

const logged: string[] = [];
const log = new Logger({ level: 'warn', format: 'text' }, (line) => logged.push(line));

describe('ModelInferRequest to the protocol', () => {
  it('takes raw contents as they are, with the shape, id, parameters and requested outputs', () => {
    const call = inferCallOf(
      wire({
        model_name: 'demo',
        model_version: '3',
        id: 'r1',
        parameters: {
          threshold: { double_param: 0.4 },
          max_detections: { int64_param: 10 },
          box: { string_param: 'xyxy' },
          masks: { bool_param: false },
          big: { uint64_param: 7 },
        },
        inputs: [input('FP32', [1, 3], { parameters: { scale: { double_param: 2.5 } } })],
        outputs: [{ name: 'boxes' }, { name: 'scores', parameters: { binary_data: { bool_param: true } } }],
        raw_input_contents: [fp32(1, 2, 3)],
      }),
    );
    expect(call.modelName).toBe('demo');
    expect(call.modelVersion).toBe('3');
    expect(call.request.id).toBe('r1');
    expect(call.request.parameters).toEqual({ threshold: 0.4, max_detections: 10, box: 'xyxy', masks: false, big: 7 });
    expect(call.request.outputs).toEqual([{ name: 'boxes' }, { name: 'scores', parameters: { binary_data: true } }]);
    const [tensor] = call.request.inputs;
    expect(tensor).toMatchObject({ name: 'x', datatype: 'FP32', shape: [1, 3], parameters: { scale: 2.5 } });
    const raw = (tensor!.data as { raw: Uint8Array }).raw;
    expect([...new Float32Array(new Uint8Array(raw).buffer)]).toEqual([1, 2, 3]);
  });

  it('leaves out what the message leaves empty: no version means the latest, no id, no outputs', () => {
    const call = inferCallOf(
      wire({ model_name: 'demo', inputs: [input('UINT8', [2])], raw_input_contents: [Buffer.from([1, 2])] }),
    );
    expect(call.modelVersion).toBeUndefined();
    expect(call.request).not.toHaveProperty('id');
    expect(call.request).not.toHaveProperty('outputs');
    expect(call.request).not.toHaveProperty('parameters');
  });

  it('splits BYTES raw contents into their length-prefixed elements', () => {
    const images = [Buffer.from('first image'), Buffer.alloc(0), Buffer.from('third')];
    const call = inferCallOf(
      wire({ model_name: 'm', inputs: [input('BYTES', [3])], raw_input_contents: [joinBytesElements(images)] }),
    );
    const { bytes } = call.request.inputs[0]!.data as { bytes: Uint8Array[] };
    expect(bytes.map((b) => Buffer.from(b).toString())).toEqual(['first image', '', 'third']);
  });

  it("hands the service plain Uint8Array views, whose slice() copies (a Buffer's would not)", () => {
    const call = inferCallOf(
      wire({
        model_name: 'm',
        inputs: [input('BYTES', [1]), { ...input('FP32', [1]), name: 'y' }],
        raw_input_contents: [joinBytesElements([Buffer.from('image')]), fp32(1)],
      }),
    );
    const [image] = (call.request.inputs[0]!.data as { bytes: Uint8Array[] }).bytes;
    const { raw } = call.request.inputs[1]!.data as { raw: Uint8Array };
    for (const view of [image!, raw]) {
      expect(Buffer.isBuffer(view)).toBe(false);
      const copy = view.slice();
      expect(copy.buffer).not.toBe(view.buffer);
      expect(copy.byteOffset).toBe(0);
      expect([...copy]).toEqual([...view]);
    }
    expect(Buffer.from(image!).toString()).toBe('image');
  });

  it('converts every typed contents field to little-endian raw bytes, BYTES to its elements', () => {
    const cases: [string, object, number[]][] = [
      ['BOOL', { bool_contents: [true, false] }, [1, 0]],
      ['INT8', { int_contents: [-1, 2] }, [0xff, 2]],
      ['INT16', { int_contents: [-2] }, [0xfe, 0xff]],
      ['INT32', { int_contents: [258] }, [2, 1, 0, 0]],
      ['INT64', { int64_contents: ['-1'] }, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
      ['UINT8', { uint_contents: [255] }, [255]],
      ['UINT16', { uint_contents: [513] }, [1, 2]],
      ['UINT32', { uint_contents: [4294967295] }, [255, 255, 255, 255]],
      ['UINT64', { uint64_contents: ['18446744073709551615'] }, [255, 255, 255, 255, 255, 255, 255, 255]],
      ['FP32', { fp32_contents: [1.5] }, [0, 0, 0xc0, 0x3f]],
      ['FP64', { fp64_contents: [2] }, [0, 0, 0, 0, 0, 0, 0, 0x40]],
    ];
    for (const [datatype, contents, bytes] of cases) {
      const count = Object.values(contents)[0].length as number;
      const call = inferCallOf(wire({ model_name: 'm', inputs: [input(datatype, [count], { contents })] }));
      expect([...(call.request.inputs[0]!.data as { raw: Uint8Array }).raw], datatype).toEqual(bytes);
    }
    const call = inferCallOf(
      wire({
        model_name: 'm',
        inputs: [input('BYTES', [1, 2], { contents: { bytes_contents: [Buffer.from('a'), Buffer.from('bc')] } })],
      }),
    );
    expect(
      (call.request.inputs[0]!.data as { bytes: Uint8Array[] }).bytes.map((b) => Buffer.from(b).toString()),
    ).toEqual(['a', 'bc']);
  });
});

describe('ModelInferRequest refused, naming the field', () => {
  it('wrong byte counts', () => {
    expect(refusal({ model_name: 'm', inputs: [input('FP32', [1, 3])], raw_input_contents: [Buffer.alloc(11)] })).toBe(
      'raw_input_contents[0]: 11 bytes, inputs[0] (x, FP32 [1, 3]) needs 12',
    );
    expect(refusal({ model_name: 'm', inputs: [input('FP16', [4])], raw_input_contents: [Buffer.alloc(16)] })).toMatch(
      /^raw_input_contents\[0\]: 16 bytes, .* needs 8$/,
    );
  });

  it('shapes that do not multiply out to the elements given', () => {
    expect(
      refusal({ model_name: 'm', inputs: [input('FP32', [2, 3], { contents: { fp32_contents: [1, 2, 3, 4] } })] }),
    ).toBe('inputs[0].contents.fp32_contents: 4 elements, inputs[0] (x, FP32 [2, 3]) needs 6');
    expect(
      refusal({
        model_name: 'm',
        inputs: [input('BYTES', [3])],
        raw_input_contents: [joinBytesElements([Buffer.from('a')])],
      }),
    ).toBe('raw_input_contents[0]: 1 elements, inputs[0] (x, BYTES [3]) needs 3');
  });

  it('dimensions of 2^31 and more, or below 0, before anything is counted or allocated', () => {
    expect(
      refusal({ model_name: 'm', inputs: [input('UINT8', [1, 2 ** 31])], raw_input_contents: [Buffer.alloc(1)] }),
    ).toBe('inputs[0].shape[1]: 2147483648 is not a dimension (0 to 2^31 - 1)');
    expect(refusal({ model_name: 'm', inputs: [input('UINT8', [-1])], raw_input_contents: [Buffer.alloc(1)] })).toMatch(
      /^inputs\[0\]\.shape\[0\]: -1 is not a dimension/,
    );
    // the largest dimensions multiply past 2^53 and are still counted exactly
    const huge = 2 ** 31 - 1;
    expect(
      refusal({ model_name: 'm', inputs: [input('UINT8', [huge, huge, huge])], raw_input_contents: [Buffer.alloc(1)] }),
    ).toContain(`needs ${BigInt(huge) ** 3n}`);
  });

  it('unknown datatypes', () => {
    expect(refusal({ model_name: 'm', inputs: [input('FP8', [1])], raw_input_contents: [Buffer.alloc(1)] })).toMatch(
      /^inputs\[0\]\.datatype: "FP8" is not a datatype \(one of BOOL, UINT8, .*BYTES\)$/,
    );
    expect(
      refusal({ model_name: 'm', inputs: [{ name: 'x', shape: [1] }], raw_input_contents: [Buffer.alloc(1)] }),
    ).toMatch(/^inputs\[0\]\.datatype: "" is not a datatype/);
  });

  it('contents and raw_input_contents both given, or raw entries that do not match the inputs', () => {
    expect(
      refusal({
        model_name: 'm',
        inputs: [input('FP32', [1], { contents: { fp32_contents: [1] } })],
        raw_input_contents: [fp32(1)],
      }),
    ).toBe("inputs[0].contents: given with raw_input_contents; send each input's data one way only");
    expect(
      refusal({
        model_name: 'm',
        inputs: [input('FP32', [1]), { ...input('FP32', [1]), name: 'y' }],
        raw_input_contents: [fp32(1)],
      }),
    ).toBe('raw_input_contents: 1 entries for 2 inputs; give one per input, in their order');
  });

  it('BYTES elements cut short', () => {
    const two = joinBytesElements([Buffer.from('abc'), Buffer.from('de')]);
    expect(
      refusal({
        model_name: 'm',
        inputs: [input('BYTES', [2])],
        raw_input_contents: [two.subarray(0, two.length - 1)],
      }),
    ).toBe('raw_input_contents[0]: element 1 says 2 bytes, 1 are left');
    expect(refusal({ model_name: 'm', inputs: [input('BYTES', [2])], raw_input_contents: [two.subarray(0, 9)] })).toBe(
      'raw_input_contents[0]: element 1 is cut short in its 4-byte length (2 bytes left)',
    );
  });

  it('typed contents in the wrong field, out of range, for FP16, or missing', () => {
    expect(refusal({ model_name: 'm', inputs: [input('FP32', [1], { contents: { int_contents: [1] } })] })).toBe(
      "inputs[0].contents.int_contents: a FP32 tensor's elements go in fp32_contents",
    );
    expect(refusal({ model_name: 'm', inputs: [input('UINT8', [2], { contents: { uint_contents: [1, 256] } })] })).toBe(
      'inputs[0].contents.uint_contents[1]: 256 is outside UINT8 (0 to 255)',
    );
    expect(refusal({ model_name: 'm', inputs: [input('INT8', [1], { contents: { int_contents: [-129] } })] })).toBe(
      'inputs[0].contents.int_contents[0]: -129 is outside INT8 (-128 to 127)',
    );
    expect(refusal({ model_name: 'm', inputs: [input('FP16', [1], { contents: { fp32_contents: [1] } })] })).toBe(
      'inputs[0].contents: FP16 has no typed contents; send it in raw_input_contents',
    );
    expect(refusal({ model_name: 'm', inputs: [input('FP32', [1])] })).toBe(
      'inputs[0].contents: no data; give contents or raw_input_contents',
    );
  });

  it('no model, nameless tensors, parameters with no value or past 2^53', () => {
    expect(refusal({ inputs: [] })).toBe('model_name: empty; name the model to run');
    expect(
      refusal({ model_name: 'm', inputs: [{ datatype: 'FP32', shape: [1] }], raw_input_contents: [fp32(1)] }),
    ).toBe('inputs[0].name: empty');
    expect(refusal({ model_name: 'm', inputs: [], outputs: [{}] })).toBe('outputs[0].name: empty');
    expect(refusal({ model_name: 'm', inputs: [], parameters: { p: {} } })).toMatch(/^parameters\.p: no value/);
    expect(refusal({ model_name: 'm', inputs: [], parameters: { p: { int64_param: '9007199254740993' } } })).toBe(
      'parameters.p: 9007199254740993 is past the integers a parameter holds (±2^53)',
    );
  });
});

describe('the protocol to ModelInferResponse', () => {
  it('answers every output in raw_output_contents, BYTES length-prefixed, with the id and parameters', () => {
    const boxes = new Float32Array([0.1, 0.2, 0.3, 0.4]);
    const message = modelInferResponseOf({
      modelName: 'demo',
      modelVersion: '3',
      id: 'r1',
      parameters: { took_ms: 4, note: 'x', ok: true, ratio: 0.5 },
      outputs: [
        { name: 'boxes', datatype: 'FP32', shape: [1, 1, 4], data: { raw: new Uint8Array(boxes.buffer) } },
        { name: 'detections', datatype: 'BYTES', shape: [2], data: { bytes: [Buffer.from('{}'), Buffer.from('[1]')] } },
      ],
    });
    expect(message).toMatchObject({
      model_name: 'demo',
      model_version: '3',
      id: 'r1',
      parameters: {
        took_ms: { int64_param: 4 },
        note: { string_param: 'x' },
        ok: { bool_param: true },
        ratio: { double_param: 0.5 },
      },
      outputs: [
        { name: 'boxes', datatype: 'FP32', shape: [1, 1, 4] },
        { name: 'detections', datatype: 'BYTES', shape: [2] },
      ],
    });
    expect([...message.raw_output_contents[0]!]).toEqual([...new Uint8Array(boxes.buffer)]);
    expect([...message.raw_output_contents[1]!]).toEqual([2, 0, 0, 0, 0x7b, 0x7d, 3, 0, 0, 0, 0x5b, 0x31, 0x5d]);
    // and it encodes: the response serializer takes it as it is
    const decoded = infer.responseDeserialize(infer.responseSerialize(message)) as { raw_output_contents: Buffer[] };
    expect(decoded.raw_output_contents.map((b) => [...b])).toEqual(message.raw_output_contents.map((b) => [...b]));
  });

  it('model metadata with -1 for variable dimensions', () => {
    expect(
      modelMetadataResponseOf({
        name: 'demo',
        versions: ['3', '2'],
        platform: 'onnxruntime_onnx',
        inputs: [{ name: 'image', datatype: 'BYTES', shape: [-1] }],
        outputs: [{ name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] }],
      }),
    ).toEqual({
      name: 'demo',
      versions: ['3', '2'],
      platform: 'onnxruntime_onnx',
      inputs: [{ name: 'image', datatype: 'BYTES', shape: [-1] }],
      outputs: [{ name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] }],
    });
  });
});

describe('errors to gRPC status codes', () => {
  it('maps each OipError kind, with the retry hint in trailing metadata', () => {
    const kinds = [
      ['invalid', status.INVALID_ARGUMENT],
      ['unauthenticated', status.UNAUTHENTICATED],
      ['not-found', status.NOT_FOUND],
      ['unavailable', status.UNAVAILABLE],
      ['exhausted', status.RESOURCE_EXHAUSTED],
      ['internal', status.INTERNAL],
    ] as const;
    for (const [kind, code] of kinds) {
      const answer = grpcStatusOf(new OipError(kind, `a ${kind} error`, 'INVALID'), log);
      expect(answer.code, kind).toBe(code);
      expect(answer.details).toBe(`a ${kind} error`);
      expect(answer.metadata.get(RETRY_AFTER_KEY)).toEqual([]);
    }
    const shed = grpcStatusOf(new OipError('unavailable', 'the queue is full', 'UNAVAILABLE', 3), log);
    expect(shed.metadata.get(RETRY_AFTER_KEY)).toEqual(['3']);
    expect(streamErrorMessage(shed)).toBe('UNAVAILABLE: the queue is full (retry after 3 s)');
  });

  it('maps a DomainError by its kind, and anything else to INTERNAL without its message', () => {
    expect(grpcStatusOf(new DomainError('not-found', 'no such model'), log).code).toBe(status.NOT_FOUND);
    const throttled = grpcStatusOf(new DomainError('throttled', 'over the rate', undefined, 2), log);
    expect(throttled.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(throttled.metadata.get(RETRY_AFTER_KEY)).toEqual(['2']);
    const bug = grpcStatusOf(new TypeError('secret internals'), log);
    expect(bug).toMatchObject({ code: status.INTERNAL, details: 'internal error' });
    // the client hears nothing of it; the server's log has it, with its code
    expect(logged.join('')).toMatch(/OIP gRPC call failed error="secret internals" code=UNCODED/);
    expect(bug.metadata).toBeInstanceOf(Metadata);
  });
});
