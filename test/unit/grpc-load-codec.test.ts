// The gRPC load generator's hand-made bytes (bench/grpc-load.ts) against the
// project's proto: a benchmark whose streaming answers were matched to the
// wrong requests, or whose appended id did not replace the encoded one,
// would time something other than what its report says.
import type { MethodDefinition } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { grpcFrame, idField, streamAnswer } from '../../bench/grpc-load.js';
import { loadInferenceService } from '../../src/grpc/inference-proto.js';

const service = loadInferenceService();
const stream = service.ModelStreamInfer as MethodDefinition<object, object>;

describe('the gRPC load generator codec', () => {
  it('appends an id that the server decodes in place of the encoded one', () => {
    const encoded = stream.requestSerialize({ model_name: 'demo', id: 'first', inputs: [], raw_input_contents: [] });
    const decoded = stream.requestDeserialize(Buffer.concat([encoded, idField(`a-${'x'.repeat(200)}`)])) as {
      model_name: string;
      id: string;
    };
    expect(decoded.model_name).toBe('demo');
    expect(decoded.id).toBe(`a-${'x'.repeat(200)}`); // a length past one varint byte
  });

  it("reads a streaming answer's id, and its error when it has one", () => {
    const answer = stream.responseSerialize({
      infer_response: {
        model_name: 'demo',
        model_version: '01JDEM0DETECT0R00000000001',
        id: '3-17',
        outputs: [{ name: 'detections', datatype: 'BYTES', shape: ['1'] }],
        raw_output_contents: [Buffer.from('{"x":1}')],
      },
    });
    expect(streamAnswer(answer)).toEqual({ id: '3-17' });
    const failed = stream.responseSerialize({
      error_message: 'model demo: no such model',
      infer_response: { id: '9' },
    });
    expect(streamAnswer(failed)).toEqual({ id: '9', error: 'model demo: no such model' });
  });

  it('frames a message as gRPC does: flag 0, a big-endian length, the bytes', () => {
    const framed = grpcFrame(Buffer.from([1, 2, 3]));
    expect([...framed]).toEqual([0, 0, 0, 0, 3, 1, 2, 3]);
  });
});
