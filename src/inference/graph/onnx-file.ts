// Is this file an ONNX model at all? Asked of an upload before it is
// accepted, so that a JPEG or a model.json sent as model.onnx is refused at
// once with a reason, not accepted and Failed later. Only the top-level
// fields of the ModelProto are walked (each field's tag and length, the
// graph's megabytes skipped unread), so a model of any size is checked in a
// few reads.
import { CodedError, revivable } from '../../errors.js';
import { open } from 'node:fs/promises';

export class NotOnnxError extends CodedError {
  readonly code = 'MODEL_NOT_ONNX';
  static {
    revivable('MODEL_NOT_ONNX', ({ message }) => new NotOnnxError(message));
  }
}

/** A real model has a handful of top-level fields (version, producer, opsets, graph, metadata). */
const MAX_TOP_LEVEL_FIELDS = 10_000;
const MODEL_GRAPH = 7;
const MODEL_OPSET_IMPORT = 8;

/** What a file that is not a model seems to be, by its first bytes. */
function looksLike(head: Uint8Array): string {
  const text = Buffer.from(head.subarray(0, 16)).toString('latin1').trimStart();
  if (text.startsWith('{') || text.startsWith('[')) return ' (it looks like JSON: model.json?)';
  if (head[0] === 0xff && head[1] === 0xd8) return ' (it looks like a JPEG image)';
  if (text.startsWith('\x89PNG')) return ' (it looks like a PNG image)';
  if (text.startsWith('PK')) return ' (it looks like a zip archive: unpack it first)';
  return '';
}

/** Throws NotOnnxError naming what is wrong when the file at `path` is not a protobuf ModelProto with a graph. */
export async function checkOnnxFile(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    const head = new Uint8Array(16);
    await file.read(head, 0, 16, 0);
    if (size === 0) throw new NotOnnxError('the file is empty');
    const window = new Uint8Array(32);
    let at = 0;
    let fields = 0;
    let graph = false;
    let opset = false;
    const fail = (why: string) => new NotOnnxError(`${why}${looksLike(head)}`);
    while (at < size) {
      if (++fields > MAX_TOP_LEVEL_FIELDS)
        throw fail('its bytes are not an ONNX ModelProto (too many top-level fields)');
      const { bytesRead } = await file.read(window, 0, window.length, at);
      let p = 0;
      const varint = (): number => {
        let value = 0;
        for (let scale = 1; p < bytesRead && p < 10; scale *= 128) {
          const byte = window[p++]!;
          value += (byte & 0x7f) * scale;
          if (byte < 0x80) return value;
        }
        throw fail('its bytes are not an ONNX ModelProto');
      };
      const tag = varint();
      const number = Math.floor(tag / 8);
      const wireType = tag % 8;
      if (number === 0) throw fail('its bytes are not an ONNX ModelProto');
      let length: number;
      if (wireType === 0) {
        varint();
        length = 0;
      } else if (wireType === 1) length = 8;
      else if (wireType === 5) length = 4;
      else if (wireType === 2) length = varint();
      else throw fail('its bytes are not an ONNX ModelProto');
      if (number === MODEL_GRAPH && wireType === 2) graph = true;
      if (number === MODEL_OPSET_IMPORT && wireType === 2) opset = true;
      at += p + length;
      if (at > size)
        throw fail('its bytes are not an ONNX ModelProto (a field runs past the end: a truncated upload?)');
    }
    if (!graph) throw fail('it has no graph');
    if (!opset) throw fail('it imports no operator set');
  } finally {
    await file.close();
  }
}
