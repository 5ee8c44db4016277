// The Open Inference Protocol's REST bodies (KServe's REST protocol document, with
// Triton's binary tensor extension) to and from the transport-neutral terms
// of inference/oip/protocol.ts. A request is JSON, or JSON followed by the
// inputs' bytes when `Inference-Header-Content-Length` says where the JSON
// ends (each such input names its bytes with the `binary_data_size`
// parameter, in order). JSON data may be flat or nested; BYTES elements are
// strings (their UTF-8 bytes) or {"b64": "..."}. Every refusal is the
// protocol's 400 naming the field.
import { halfBits } from '../../inference/graph/float16.js';
import type {
  Datatype,
  InferRequest,
  InferResponse,
  ParameterValue,
  Parameters,
  RequestedOutput,
  Tensor,
  TensorData,
} from '../../inference/oip/protocol.js';
import {
  checkTensor,
  datatypeOf,
  elementBytes,
  elementCount,
  invalidTensor,
  joinBytesElements,
  splitBytesElements,
} from '../../inference/oip/tensors.js';
import { decodeBase64 } from '../../inference/pipeline/request-body.js';

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value of Inference-Header-Content-Length, or undefined without one; throws for a bad one. */
export function headerLength(raw: string | undefined, bodyBytes: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw invalidTensor(`Inference-Header-Content-Length: not a count of bytes: ${JSON.stringify(raw.slice(0, 32))}`);
  const length = Number(raw.trim());
  if (length > bodyBytes)
    throw invalidTensor(`Inference-Header-Content-Length: ${length} bytes, the body has ${bodyBytes}`);
  return length;
}

function parameters(value: unknown, field: string): Parameters | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalidTensor(`${field}: must be an object`);
  for (const [name, v] of Object.entries(value))
    if (typeof v !== 'boolean' && typeof v !== 'number' && typeof v !== 'string')
      throw invalidTensor(`${field}.${name}: a parameter is a boolean, a number or a string`);
  return value as Record<string, ParameterValue>;
}

/** Nested arrays flattened, row major; throws for anything but arrays of scalars. */
function flatten(data: unknown, field: string): unknown[] {
  if (!Array.isArray(data)) return [data];
  if (!data.some(Array.isArray)) return data;
  const flat: unknown[] = [];
  const walk = (value: unknown, depth: number) => {
    if (depth > 32) throw invalidTensor(`${field}: nested more than 32 deep`);
    if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
    else flat.push(value);
  };
  walk(data, 0);
  return flat;
}

const INTEGER_RANGES: Partial<Record<Datatype, [number, number]>> = {
  UINT8: [0, 255],
  INT8: [-128, 127],
  UINT16: [0, 65535],
  INT16: [-32768, 32767],
  UINT32: [0, 4294967295],
  INT32: [-2147483648, 2147483647],
  UINT64: [0, Number.MAX_SAFE_INTEGER],
  INT64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** A float32's bits, for FP16's conversion. */
const FLOAT_BITS = new DataView(new ArrayBuffer(4));

/** JSON elements as the datatype's little-endian bytes. */
function numericBytes(datatype: Datatype, values: readonly unknown[], field: string): Uint8Array {
  const size = elementBytes(datatype)!;
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  values.forEach((value, i) => {
    const at = i * size;
    if (datatype === 'BOOL') {
      if (typeof value !== 'boolean') throw invalidTensor(`${field}[${i}]: BOOL data must be true or false`);
      view.setUint8(at, value ? 1 : 0);
      return;
    }
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw invalidTensor(`${field}[${i}]: ${datatype} data must be numbers, got ${JSON.stringify(value)}`);
    const range = INTEGER_RANGES[datatype];
    if (range && (!Number.isInteger(value) || value < range[0] || value > range[1]))
      throw invalidTensor(`${field}[${i}]: ${value} is not a ${datatype}`);
    switch (datatype) {
      case 'UINT8':
        return view.setUint8(at, value);
      case 'INT8':
        return view.setInt8(at, value);
      case 'UINT16':
        return view.setUint16(at, value, true);
      case 'INT16':
        return view.setInt16(at, value, true);
      case 'UINT32':
        return view.setUint32(at, value, true);
      case 'INT32':
        return view.setInt32(at, value, true);
      case 'UINT64':
        return view.setBigUint64(at, BigInt(value), true);
      case 'INT64':
        return view.setBigInt64(at, BigInt(value), true);
      case 'FP16':
        FLOAT_BITS.setFloat32(0, value);
        return view.setUint16(at, halfBits(FLOAT_BITS.getUint32(0)), true);
      case 'FP32':
        return view.setFloat32(at, value, true);
      case 'FP64':
        return view.setFloat64(at, value, true);
    }
  });
  return out;
}

function bytesElements(values: readonly unknown[], field: string): Uint8Array[] {
  return values.map((value, i) => {
    if (typeof value === 'string') return utf8.encode(value);
    if (isObject(value) && typeof value.b64 === 'string') {
      const decoded = decodeBase64(value.b64);
      if (!decoded) throw invalidTensor(`${field}[${i}].b64: not base64`);
      return decoded;
    }
    throw invalidTensor(`${field}[${i}]: BYTES data must be strings or {"b64": "..."}`);
  });
}

/** Reads the binary section's parts in order, each input's `binary_data_size` bytes. */
class BinarySection {
  private at = 0;

  constructor(private readonly bytes: Uint8Array | undefined) {}

  take(size: unknown, field: string): Uint8Array {
    if (!this.bytes)
      throw invalidTensor(`${field}: binary_data_size without Inference-Header-Content-Length (no binary section)`);
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw invalidTensor(`${field}: binary_data_size must be a whole number of bytes`);
    if (this.at + size > this.bytes.byteLength)
      throw invalidTensor(
        `${field}: binary_data_size ${size}, only ${this.bytes.byteLength - this.at} bytes of binary data left (truncated body?)`,
      );
    const part = this.bytes.subarray(this.at, this.at + size);
    this.at += size;
    return part;
  }

  /** Throws when bytes are left over that no input claimed. */
  finish(): void {
    if (this.bytes && this.at !== this.bytes.byteLength)
      throw invalidTensor(
        `binary data: ${this.bytes.byteLength - this.at} bytes after the inputs' binary_data_size (${this.at} claimed)`,
      );
  }
}

function input(value: unknown, i: number, binary: BinarySection): Tensor {
  const field = `inputs[${i}]`;
  if (!isObject(value)) throw invalidTensor(`${field}: must be an object`);
  if (typeof value.name !== 'string') throw invalidTensor(`${field}.name: must be a string`);
  const datatype = datatypeOf(value.datatype, `${field}.datatype`);
  if (!Array.isArray(value.shape)) throw invalidTensor(`${field}.shape: must be an array of dimensions`);
  const count = elementCount(value.shape, `${field}.shape`);
  const shape = value.shape as number[];
  const params = parameters(value.parameters, `${field}.parameters`);
  let data: TensorData;
  const size = params?.binary_data_size;
  if (size !== undefined) {
    if (value.data !== undefined) throw invalidTensor(`${field}: both data and binary_data_size`);
    const raw = binary.take(size, `${field}.parameters`);
    data = datatype === 'BYTES' ? { bytes: splitBytesElements(raw, `${field} binary data`) } : { raw };
  } else {
    if (value.data === undefined) throw invalidTensor(`${field}.data: missing (or binary_data_size)`);
    const values = flatten(value.data, `${field}.data`);
    if (values.length !== count)
      throw invalidTensor(
        `${field}.data: shape [${shape.join(', ')}] holds ${count} elements, data has ${values.length}`,
      );
    data =
      datatype === 'BYTES'
        ? { bytes: bytesElements(values, `${field}.data`) }
        : { raw: numericBytes(datatype, values, `${field}.data`) };
  }
  const tensor: Tensor = { name: value.name, datatype, shape, data, ...(params && { parameters: params }) };
  checkTensor(tensor, field);
  return tensor;
}

function output(value: unknown, i: number): RequestedOutput {
  const field = `outputs[${i}]`;
  if (!isObject(value)) throw invalidTensor(`${field}: must be an object`);
  if (typeof value.name !== 'string') throw invalidTensor(`${field}.name: must be a string`);
  const params = parameters(value.parameters, `${field}.parameters`);
  return { name: value.name, ...(params && { parameters: params }) };
}

/** An infer request's body: JSON, or (with `jsonBytes`: Inference-Header-Content-Length) JSON and the binary section. */
export function parseInferRequest(body: Uint8Array, jsonBytes: number | undefined): InferRequest {
  const jsonPart = jsonBytes === undefined ? body : body.subarray(0, jsonBytes);
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(jsonPart));
  } catch (error) {
    throw invalidTensor(`request body: not JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw invalidTensor('request body: must be a JSON object');
  if (value.id !== undefined && typeof value.id !== 'string') throw invalidTensor('id: must be a string');
  if (!Array.isArray(value.inputs) || value.inputs.length === 0)
    throw invalidTensor('inputs: must be a non-empty array');
  if (value.outputs !== undefined && !Array.isArray(value.outputs)) throw invalidTensor('outputs: must be an array');
  const binary = new BinarySection(jsonBytes === undefined ? undefined : body.subarray(jsonBytes));
  const inputs = value.inputs.map((v, i) => input(v, i, binary));
  binary.finish();
  const params = parameters(value.parameters, 'parameters');
  return {
    ...(value.id !== undefined && { id: value.id as string }),
    ...(params && { parameters: params }),
    inputs,
    ...(value.outputs !== undefined && { outputs: (value.outputs as unknown[]).map(output) }),
  };
}

/** A numeric tensor's elements as JSON numbers (64-bit integers as far as a double holds them). */
function jsonValues(tensor: Tensor): unknown[] {
  if ('bytes' in tensor.data) return tensor.data.bytes.map((b) => Buffer.from(b).toString('utf8'));
  const { raw } = tensor.data;
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const size = elementBytes(tensor.datatype)!;
  const values: unknown[] = [];
  for (let at = 0; at < raw.byteLength; at += size) {
    switch (tensor.datatype) {
      case 'BOOL':
        values.push(view.getUint8(at) !== 0);
        break;
      case 'UINT8':
        values.push(view.getUint8(at));
        break;
      case 'INT8':
        values.push(view.getInt8(at));
        break;
      case 'UINT16':
        values.push(view.getUint16(at, true));
        break;
      case 'INT16':
        values.push(view.getInt16(at, true));
        break;
      case 'FP16':
        values.push(halfToNumber(view.getUint16(at, true)));
        break;
      case 'UINT32':
        values.push(view.getUint32(at, true));
        break;
      case 'INT32':
        values.push(view.getInt32(at, true));
        break;
      case 'FP32':
        values.push(view.getFloat32(at, true));
        break;
      case 'UINT64':
        values.push(Number(view.getBigUint64(at, true)));
        break;
      case 'INT64':
        values.push(Number(view.getBigInt64(at, true)));
        break;
      case 'FP64':
        values.push(view.getFloat64(at, true));
        break;
      case 'BYTES':
        break;
    }
  }
  return values;
}

function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** An encoded answer: its body, and where its JSON ends when binary outputs follow it. */
export interface EncodedResponse {
  body: Uint8Array | string;
  /** Inference-Header-Content-Length: set when binary outputs follow the JSON */
  jsonBytes?: number;
}

/**
 * An answer as the request asked: each output in JSON, or its bytes after
 * the JSON (its `binary_data` parameter, or the request's
 * `binary_data_output` for outputs that do not say).
 */
export function encodeInferResponse(response: InferResponse, request: InferRequest): EncodedResponse {
  const all = request.parameters?.binary_data_output === true;
  const asked = new Map((request.outputs ?? []).map((o) => [o.name, o.parameters?.binary_data]));
  const binaries: Uint8Array[] = [];
  const outputs = response.outputs.map((tensor) => {
    const wanted = asked.get(tensor.name);
    const binary = wanted === undefined ? all : wanted === true;
    const head = { name: tensor.name, datatype: tensor.datatype, shape: tensor.shape };
    if (!binary) return { ...head, data: jsonValues(tensor) };
    const bytes = 'bytes' in tensor.data ? joinBytesElements(tensor.data.bytes) : tensor.data.raw;
    binaries.push(bytes);
    return { ...head, parameters: { binary_data_size: bytes.byteLength } };
  });
  const json = JSON.stringify({
    model_name: response.modelName,
    model_version: response.modelVersion,
    ...(response.id !== undefined && { id: response.id }),
    ...(response.parameters && { parameters: response.parameters }),
    outputs,
  });
  if (binaries.length === 0) return { body: json };
  const head = utf8.encode(json);
  const body = new Uint8Array(head.byteLength + binaries.reduce((sum, b) => sum + b.byteLength, 0));
  body.set(head, 0);
  let at = head.byteLength;
  for (const part of binaries) {
    body.set(part, at);
    at += part.byteLength;
  }
  return { body, jsonBytes: head.byteLength };
}
