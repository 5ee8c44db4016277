// Tensor bytes as the Open Inference Protocol lays them out, for both front
// ends: each datatype's element size, a BYTES tensor's elements as the
// binary extension and gRPC's raw contents carry them (each a 4-byte little
// endian length, then its bytes), and the checks of a shape against the
// elements a tensor holds. Every refusal names the tensor it is about.
import { DATATYPES, type Datatype, OipError, type Tensor } from './protocol.js';

/** Bytes of one element; undefined for BYTES, whose elements each have their own length. */
export function elementBytes(datatype: Datatype): number | undefined {
  switch (datatype) {
    case 'BOOL':
    case 'UINT8':
    case 'INT8':
      return 1;
    case 'UINT16':
    case 'INT16':
    case 'FP16':
      return 2;
    case 'UINT32':
    case 'INT32':
    case 'FP32':
      return 4;
    case 'UINT64':
    case 'INT64':
    case 'FP64':
      return 8;
    case 'BYTES':
      return undefined;
  }
}

/** Throws the protocol error for a tensor's request field. */
export function invalidTensor(message: string): OipError {
  return new OipError('invalid', message, 'INVALID');
}

function isDatatype(value: unknown): value is Datatype {
  return typeof value === 'string' && (DATATYPES as readonly string[]).includes(value);
}

/** A protocol datatype, or the error naming the field that holds something else. */
export function datatypeOf(value: unknown, field: string): Datatype {
  if (!isDatatype(value))
    throw invalidTensor(
      `${field}: unknown datatype ${JSON.stringify(value)}; the protocol's are ${DATATYPES.join(', ')}`,
    );
  return value;
}

/** Largest dimension a shape may have (the protocol's int64 dims, held to what an array can index). */
const MAX_DIMENSION = 2 ** 31 - 1;

/**
 * The number of elements a shape holds; throws naming `field` for a
 * dimension that is not a whole number from 0 to 2^31 - 1, or a product past
 * what one request could carry.
 */
export function elementCount(shape: readonly unknown[], field: string): number {
  let count = 1;
  for (const [i, dim] of shape.entries()) {
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 0 || dim > MAX_DIMENSION)
      throw invalidTensor(`${field}[${i}]: a dimension must be a whole number from 0 to ${MAX_DIMENSION}, got ${dim}`);
    count *= dim;
  }
  if (count > MAX_DIMENSION)
    throw invalidTensor(`${field}: ${shape.join(' × ')} elements is more than any request holds`);
  return count;
}

/** A BYTES tensor's elements out of their binary form (4-byte little-endian length, bytes), views into `raw`. */
export function splitBytesElements(raw: Uint8Array, field: string): Uint8Array[] {
  const elements: Uint8Array[] = [];
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  let at = 0;
  while (at < raw.byteLength) {
    if (at + 4 > raw.byteLength)
      throw invalidTensor(`${field}: BYTES element ${elements.length} is cut inside its 4-byte length`);
    const length = view.getUint32(at, true);
    at += 4;
    if (at + length > raw.byteLength)
      throw invalidTensor(
        `${field}: BYTES element ${elements.length} says ${length} bytes, only ${raw.byteLength - at} follow`,
      );
    elements.push(raw.subarray(at, at + length));
    at += length;
  }
  return elements;
}

/** BYTES elements in their binary form: each a 4-byte little-endian length, then its bytes. */
export function joinBytesElements(elements: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(elements.reduce((sum, e) => sum + 4 + e.byteLength, 0));
  const view = new DataView(out.buffer);
  let at = 0;
  for (const element of elements) {
    view.setUint32(at, element.byteLength, true);
    out.set(element, at + 4);
    at += 4 + element.byteLength;
  }
  return out;
}

/**
 * Checks that a tensor's data holds what its shape says: as many BYTES
 * elements, or as many bytes as its elements take; throws naming the field.
 */
export function checkTensor(tensor: Tensor, field: string): void {
  const count = elementCount(tensor.shape, `${field}.shape`);
  const size = elementBytes(tensor.datatype);
  if ('bytes' in tensor.data) {
    if (size !== undefined) throw invalidTensor(`${field}: ${tensor.datatype} data given as BYTES elements`);
    if (tensor.data.bytes.length !== count)
      throw invalidTensor(
        `${field}: shape [${tensor.shape.join(', ')}] holds ${count} elements, the data has ${tensor.data.bytes.length}`,
      );
  } else {
    if (size === undefined) throw invalidTensor(`${field}: BYTES data must be split into its elements`);
    if (tensor.data.raw.byteLength !== count * size)
      throw invalidTensor(
        `${field}: shape [${tensor.shape.join(', ')}] of ${tensor.datatype} takes ${count * size} bytes, the data has ${tensor.data.raw.byteLength}`,
      );
  }
}
