// The protobuf wire format, read and written at the level of fields: where
// each top-level field of a message lies, and a field's bytes made from a
// value. The graph rewrite edits a model this way instead of decoding and
// re-encoding it whole, so the weights are never copied field by field, and
// whatever it does not touch (fields newer than the schema it was written
// against included) goes through byte for byte.
import { CodedError, revivable } from '../../errors.js';

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

/** One field of a message: its tag at `start`, its value at [valueStart, end). */
export interface WireField {
  number: number;
  wireType: number;
  start: number;
  valueStart: number;
  end: number;
  /** the value of a varint field (exact below 2^53) */
  varint: number;
}

export class WireFormatError extends CodedError {
  readonly code = 'MODEL_WIRE_FORMAT';
  static {
    revivable('MODEL_WIRE_FORMAT', ({ message }) => new WireFormatError(message));
  }
}

/** Reads a varint at `at`: [value, position after it]. */
function readVarint(bytes: Uint8Array, at: number, limit: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < limit && i < at + 10; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, i + 1];
    scale *= 128;
  }
  throw new WireFormatError(`truncated varint at byte ${at}`);
}

/** The top-level fields of the message in bytes[from, to), in order. */
export function readFields(bytes: Uint8Array, from = 0, to = bytes.length): WireField[] {
  const fields: WireField[] = [];
  let at = from;
  while (at < to) {
    const start = at;
    const [tag, afterTag] = readVarint(bytes, at, to);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (number === 0) throw new WireFormatError(`field number 0 at byte ${start}`);
    let valueStart = afterTag;
    let varint = 0;
    switch (wireType) {
      case WIRE_VARINT:
        [varint, at] = readVarint(bytes, afterTag, to);
        break;
      case WIRE_FIXED64:
        at = afterTag + 8;
        break;
      case WIRE_LENGTH_DELIMITED: {
        const [length, afterLength] = readVarint(bytes, afterTag, to);
        valueStart = afterLength;
        at = afterLength + length;
        break;
      }
      case WIRE_FIXED32:
        at = afterTag + 4;
        break;
      default:
        throw new WireFormatError(`unsupported wire type ${wireType} at byte ${start}`);
    }
    if (at > to) throw new WireFormatError(`field ${number} at byte ${start} runs past the end of its message`);
    fields.push({ number, wireType, start, valueStart, end: at, varint });
  }
  return fields;
}

function varintBytes(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A length-delimited field: tag, length, then `value`. */
export function lengthDelimitedField(number: number, value: Uint8Array): Uint8Array {
  const head = [...varintBytes(number * 8 + WIRE_LENGTH_DELIMITED), ...varintBytes(value.length)];
  const out = new Uint8Array(head.length + value.length);
  out.set(head, 0);
  out.set(value, head.length);
  return out;
}

/** The UTF-8 string value of a length-delimited field. */
export function stringValue(bytes: Uint8Array, field: WireField): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + field.valueStart, field.end - field.valueStart).toString('utf8');
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
