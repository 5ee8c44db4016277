// The gRPC messages of the Open Inference Protocol to and from its
// transport-neutral terms (inference/oip/protocol.ts), with every check a
// message needs before the OipService sees it: a datatype the protocol
// names, dimensions under 2^31, contents that hold exactly as many elements
// as the shape multiplies out to, in exactly one of raw_input_contents and
// typed `contents`. A failed check is an OipError('invalid') naming the field,
// which the server answers INVALID_ARGUMENT. Pure: no I/O, no server.
import {
  DATATYPES,
  type Datatype,
  type InferRequest,
  type InferResponse,
  type ModelMetadata,
  OipError,
  type ParameterValue,
  type Parameters,
  type RequestedOutput,
  type Tensor,
} from '../inference/oip/protocol.js';
import type {
  InferInputTensorMessage,
  InferParameterMessage,
  InferTensorContentsMessage,
  ModelInferRequestMessage,
  ModelInferResponseMessage,
  ModelMetadataResponseMessage,
  ParameterMap,
} from './inference-proto.js';

/** A dimension is below this (Triton's limit too): a shape of 2^31 is refused, not allocated. */
const DIMENSION_LIMIT = 2n ** 31n;

/** Bytes per element of each fixed-size datatype. */
const ELEMENT_BYTES: Readonly<Record<Exclude<Datatype, 'BYTES'>, number>> = {
  BOOL: 1,
  UINT8: 1,
  UINT16: 2,
  UINT32: 4,
  UINT64: 8,
  INT8: 1,
  INT16: 2,
  INT32: 4,
  INT64: 8,
  FP16: 2,
  FP32: 4,
  FP64: 8,
};

type ContentsField = keyof InferTensorContentsMessage;

/** Where typed contents of each datatype go; FP16 has no typed field and travels raw only. */
const CONTENTS_FIELD: Readonly<Record<Datatype, ContentsField | undefined>> = {
  BOOL: 'bool_contents',
  UINT8: 'uint_contents',
  UINT16: 'uint_contents',
  UINT32: 'uint_contents',
  UINT64: 'uint64_contents',
  INT8: 'int_contents',
  INT16: 'int_contents',
  INT32: 'int_contents',
  INT64: 'int64_contents',
  FP16: undefined,
  FP32: 'fp32_contents',
  FP64: 'fp64_contents',
  BYTES: 'bytes_contents',
};

const CONTENTS_FIELDS: readonly ContentsField[] = [
  'bool_contents',
  'int_contents',
  'int64_contents',
  'uint_contents',
  'uint64_contents',
  'fp32_contents',
  'fp64_contents',
  'bytes_contents',
];

/** The range of the datatypes narrower than their typed field (int32 / uint32 on the wire). */
const NARROW_RANGE: Readonly<Partial<Record<Datatype, readonly [number, number]>>> = {
  INT8: [-128, 127],
  INT16: [-32768, 32767],
  UINT8: [0, 255],
  UINT16: [0, 65535],
};

const invalid = (message: string) => new OipError('invalid', message, 'INVALID');

/** A ModelInfer call in the protocol's terms: which model, which version (none: its latest Active), the request. */
export interface InferCall {
  modelName: string;
  modelVersion: string | undefined;
  request: InferRequest;
}

export function inferCallOf(message: ModelInferRequestMessage): InferCall {
  if (!message.model_name) throw invalid('model_name: empty; name the model to run');
  const raw = message.raw_input_contents;
  if (raw.length > 0) {
    if (raw.length !== message.inputs.length) {
      throw invalid(
        `raw_input_contents: ${raw.length} entries for ${message.inputs.length} inputs; give one per input, in their order`,
      );
    }
    const typed = message.inputs.findIndex((input) => input.contents !== undefined && input.contents !== null);
    if (typed !== -1) {
      throw invalid(`inputs[${typed}].contents: given with raw_input_contents; send each input's data one way only`);
    }
  }
  const request: InferRequest = { inputs: message.inputs.map((input, i) => tensorOf(input, i, raw[i])) };
  if (message.id) request.id = message.id;
  const parameters = parametersOf('parameters', message.parameters);
  if (parameters) request.parameters = parameters;
  if (message.outputs.length > 0) {
    request.outputs = message.outputs.map((output, i): RequestedOutput => {
      if (!output.name) throw invalid(`outputs[${i}].name: empty`);
      const requested: RequestedOutput = { name: output.name };
      const outputParameters = parametersOf(`outputs[${i}].parameters`, output.parameters);
      if (outputParameters) requested.parameters = outputParameters;
      return requested;
    });
  }
  return { modelName: message.model_name, modelVersion: message.model_version || undefined, request };
}

function tensorOf(input: InferInputTensorMessage, index: number, raw: Uint8Array | undefined): Tensor {
  const field = `inputs[${index}]`;
  if (!input.name) throw invalid(`${field}.name: empty`);
  const datatype = datatypeOf(`${field}.datatype`, input.datatype);
  const { shape, elements } = shapeOf(`${field}.shape`, input.shape);
  const described = `${field} (${input.name}, ${datatype} [${shape.join(', ')}])`;
  const tensor: Tensor = {
    name: input.name,
    datatype,
    shape,
    data:
      raw !== undefined
        ? rawData(`raw_input_contents[${index}]`, described, datatype, elements, raw)
        : typedData(`${field}.contents`, described, datatype, elements, input.contents),
  };
  const parameters = parametersOf(`${field}.parameters`, input.parameters);
  if (parameters) tensor.parameters = parameters;
  return tensor;
}

function datatypeOf(field: string, datatype: string | undefined): Datatype {
  if (!(DATATYPES as readonly string[]).includes(datatype ?? '')) {
    throw invalid(`${field}: ${JSON.stringify(datatype ?? '')} is not a datatype (one of ${DATATYPES.join(', ')})`);
  }
  return datatype as Datatype;
}

/** The shape's dimensions, each 0 to 2^31 - 1, and their product, exactly (a BigInt: [2^31 - 1] × 4 overflows no Number check). */
function shapeOf(field: string, dims: readonly (string | number)[]): { shape: number[]; elements: bigint } {
  let elements = 1n;
  const shape = dims.map((raw, j) => {
    const dim = BigInt(raw);
    if (dim < 0n || dim >= DIMENSION_LIMIT) throw invalid(`${field}[${j}]: ${dim} is not a dimension (0 to 2^31 - 1)`);
    elements *= dim;
    return Number(dim);
  });
  return { shape, elements };
}

function rawData(
  field: string,
  described: string,
  datatype: Datatype,
  elements: bigint,
  raw: Uint8Array,
): Tensor['data'] {
  if (datatype === 'BYTES') return { bytes: bytesElements(field, described, elements, raw) };
  const expected = elements * BigInt(ELEMENT_BYTES[datatype]);
  if (BigInt(raw.byteLength) !== expected) {
    throw invalid(`${field}: ${raw.byteLength} bytes, ${described} needs ${expected}`);
  }
  return { raw: plain(raw) };
}

/** BYTES elements laid out as Triton does: each a 4-byte little-endian length, then its bytes. */
function bytesElements(field: string, described: string, elements: bigint, raw: Uint8Array): Uint8Array[] {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < raw.byteLength) {
    if (at + 4 > raw.byteLength) {
      throw invalid(
        `${field}: element ${out.length} is cut short in its 4-byte length (${raw.byteLength - at} bytes left)`,
      );
    }
    const length = view.getUint32(at, true);
    at += 4;
    if (length > raw.byteLength - at) {
      throw invalid(`${field}: element ${out.length} says ${length} bytes, ${raw.byteLength - at} are left`);
    }
    out.push(new Uint8Array(raw.buffer, raw.byteOffset + at, length));
    at += length;
  }
  if (BigInt(out.length) !== elements) {
    throw invalid(`${field}: ${out.length} elements, ${described} needs ${elements}`);
  }
  return out;
}

function typedData(
  field: string,
  described: string,
  datatype: Datatype,
  elements: bigint,
  contents: InferTensorContentsMessage | undefined | null,
): Tensor['data'] {
  if (!contents) throw invalid(`${field}: no data; give contents or raw_input_contents`);
  const expectedField = CONTENTS_FIELD[datatype];
  const stray = CONTENTS_FIELDS.find((name) => name !== expectedField && contents[name].length > 0);
  if (expectedField === undefined) {
    throw invalid(`${field}: ${datatype} has no typed contents; send it in raw_input_contents`);
  }
  if (stray !== undefined) {
    throw invalid(`${field}.${stray}: a ${datatype} tensor's elements go in ${expectedField}`);
  }
  const values = contents[expectedField];
  if (BigInt(values.length) !== elements) {
    throw invalid(`${field}.${expectedField}: ${values.length} elements, ${described} needs ${elements}`);
  }
  const at = `${field}.${expectedField}`;
  switch (datatype) {
    case 'BYTES':
      return { bytes: contents.bytes_contents.map(plain) };
    case 'BOOL':
      return { raw: Uint8Array.from(contents.bool_contents, (value) => (value ? 1 : 0)) };
    case 'INT8':
      return { raw: bytesOf(Int8Array.from(inRange(at, datatype, contents.int_contents))) };
    case 'INT16':
      return { raw: bytesOf(Int16Array.from(inRange(at, datatype, contents.int_contents))) };
    case 'INT32':
      return { raw: bytesOf(Int32Array.from(contents.int_contents)) };
    case 'UINT8':
      return { raw: Uint8Array.from(inRange(at, datatype, contents.uint_contents)) };
    case 'UINT16':
      return { raw: bytesOf(Uint16Array.from(inRange(at, datatype, contents.uint_contents))) };
    case 'UINT32':
      return { raw: bytesOf(Uint32Array.from(contents.uint_contents)) };
    case 'INT64':
      return { raw: bytesOf(BigInt64Array.from(contents.int64_contents, (value) => BigInt(value))) };
    case 'UINT64':
      return { raw: bytesOf(BigUint64Array.from(contents.uint64_contents, (value) => BigInt(value))) };
    case 'FP32':
      return { raw: bytesOf(Float32Array.from(contents.fp32_contents)) };
    case 'FP64':
      return { raw: bytesOf(Float64Array.from(contents.fp64_contents)) };
    default:
      throw invalid(`${field}: ${datatype} has no typed contents; send it in raw_input_contents`);
  }
}

/**
 * A plain Uint8Array over the same bytes: the decoder hands out Buffers,
 * whose slice() is a view where Uint8Array's is a copy, and the service
 * copies what it keeps with slice().
 */
function plain(view: Uint8Array): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function inRange(field: string, datatype: Datatype, values: readonly number[]): readonly number[] {
  const [low, high] = NARROW_RANGE[datatype]!;
  const out = values.findIndex((value) => value < low || value > high);
  if (out !== -1) throw invalid(`${field}[${out}]: ${values[out]} is outside ${datatype} (${low} to ${high})`);
  return values;
}

/** A typed array's bytes: little endian, as the protocol's raw contents are, on the little-endian hosts Node runs on here. */
function bytesOf(array: ArrayBufferView): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function parametersOf(field: string, map: ParameterMap | undefined): Parameters | undefined {
  const names = Object.keys(map ?? {});
  if (names.length === 0) return undefined;
  const out: Parameters = {};
  for (const name of names) out[name] = parameterValue(`${field}.${name}`, map![name]!);
  return out;
}

function parameterValue(field: string, parameter: InferParameterMessage): ParameterValue {
  switch (parameter.parameter_choice) {
    case 'bool_param':
      return parameter.bool_param === true;
    case 'string_param':
      return parameter.string_param ?? '';
    case 'double_param':
      return parameter.double_param ?? 0;
    case 'int64_param':
    case 'uint64_param': {
      const raw = parameter[parameter.parameter_choice] ?? 0;
      const value = Number(raw);
      if (!Number.isSafeInteger(value))
        throw invalid(`${field}: ${raw} is past the integers a parameter holds (±2^53)`);
      return value;
    }
    default:
      throw invalid(`${field}: no value; set one of bool_param, int64_param, string_param, double_param, uint64_param`);
  }
}

function parameterMessage(value: ParameterValue): InferParameterMessage {
  if (typeof value === 'boolean') return { bool_param: value };
  if (typeof value === 'string') return { string_param: value };
  return Number.isSafeInteger(value) ? { int64_param: value } : { double_param: value };
}

function parameterMessages(parameters: Parameters | undefined): ParameterMap | undefined {
  if (parameters === undefined) return undefined;
  return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, parameterMessage(value)]));
}

/**
 * An answer as ModelInferResponse: every output's data in
 * raw_output_contents (as Triton answers), BYTES elements length-prefixed.
 */
export function modelInferResponseOf(response: InferResponse): ModelInferResponseMessage {
  const message: ModelInferResponseMessage = {
    model_name: response.modelName,
    model_version: response.modelVersion,
    outputs: response.outputs.map((tensor) => ({
      name: tensor.name,
      datatype: tensor.datatype,
      shape: tensor.shape,
      parameters: parameterMessages(tensor.parameters),
    })),
    raw_output_contents: response.outputs.map((tensor) =>
      'raw' in tensor.data ? tensor.data.raw : joinBytesElements(tensor.data.bytes),
    ),
  };
  if (response.id !== undefined) message.id = response.id;
  const parameters = parameterMessages(response.parameters);
  if (parameters) message.parameters = parameters;
  return message;
}

/** BYTES elements as one raw content: each element's length (4 bytes, little endian), then its bytes. */
export function joinBytesElements(elements: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafe(elements.reduce((sum, element) => sum + 4 + element.byteLength, 0));
  let at = 0;
  for (const element of elements) {
    at = out.writeUInt32LE(element.byteLength, at);
    out.set(element, at);
    at += element.byteLength;
  }
  return out;
}

export function modelMetadataResponseOf(metadata: ModelMetadata): ModelMetadataResponseMessage {
  return {
    name: metadata.name,
    versions: metadata.versions,
    platform: metadata.platform,
    inputs: metadata.inputs.map(({ name, datatype, shape }) => ({ name, datatype, shape })),
    outputs: metadata.outputs.map(({ name, datatype, shape }) => ({ name, datatype, shape })),
  };
}
