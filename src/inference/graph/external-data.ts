// Does a model keep a tensor outside its own file? ONNX lets a tensor say
// that its bytes lie in another file (data_location EXTERNAL, with a
// location, offset and length in external_data), which ONNX Runtime opens
// when it loads the model; for a model loaded from bytes, as the server
// loads them, the location is resolved from the process's working
// directory. A tenant's model must carry all of its tensors: otherwise its
// load would read a server file as weights, or its failure would tell the
// tenant whether a path exists on the server, is a directory, and how large
// it is. So an upload is refused when any tensor is stored as external
// data, wherever a tensor can be: initializers, sparse initializers, node
// attributes (a Constant's value), subgraphs (If, Loop, Scan bodies) at any
// depth, functions and training graphs.
//
// The file is read forward in windows, descending only into the messages
// that can hold a tensor; every other field (the weights' raw_data among
// them) is skipped by its length, unread.
import { CodedError, revivable } from '../../errors.js';
import { type FileHandle, open } from 'node:fs/promises';
import { NotOnnxError } from './onnx-file.js';

export class ExternalDataError extends CodedError {
  readonly code = 'MODEL_EXTERNAL_DATA_REFUSED';
  static {
    revivable('MODEL_EXTERNAL_DATA_REFUSED', ({ message }) => new ExternalDataError(message));
  }
}

/** The messages of onnx.proto that hold tensors, directly or below. */
type Message = 'model' | 'graph' | 'node' | 'attribute' | 'sparse' | 'function' | 'training' | 'tensor';

/** Per message, its fields that hold one of those messages (field numbers of onnx.proto). */
const CONTAINED: Record<Exclude<Message, 'tensor'>, Record<number, Message>> = {
  model: { 7: 'graph', 20: 'training', 25: 'function' },
  graph: { 1: 'node', 5: 'tensor', 15: 'sparse' },
  node: { 5: 'attribute' },
  // t, g, tensors, graphs, sparse_tensor, sparse_tensors
  attribute: { 5: 'tensor', 6: 'graph', 10: 'tensor', 11: 'graph', 22: 'sparse', 23: 'sparse' },
  // values, indices
  sparse: { 1: 'tensor', 2: 'tensor' },
  // node, attribute_proto (an attribute's default)
  function: { 7: 'node', 11: 'attribute' },
  // initialization, algorithm
  training: { 1: 'graph', 2: 'graph' },
};

const TENSOR_NAME = 8;
const TENSOR_EXTERNAL_DATA = 13;
const TENSOR_DATA_LOCATION = 14;
const DATA_LOCATION_EXTERNAL = 1;

/** Nested messages deeper than protobuf's own default recursion limit are not a model ONNX Runtime parses. */
const MAX_DEPTH = 100;
/**
 * The fields walked at most (the graph's own, its nodes', attributes' and
 * tensors'; weights skipped unread count as one): a real model has a few
 * million at the very most, and a file of nothing but tiny fields would
 * otherwise hold the server's main thread for seconds (about 35 ns a field).
 */
const MAX_FIELDS = 20_000_000;
/** The longest tensor name quoted in a refusal. */
const MAX_QUOTED_NAME = 100;
const WINDOW_BYTES = 64 * 1024;
/** A tag and a length: two varints of at most 10 bytes. */
const FIELD_HEAD_BYTES = 20;

/** A file read forward through a window: what the walk asks for next is almost always already in it. */
class ForwardReader {
  readonly window = Buffer.alloc(WINDOW_BYTES);
  /** the file position of window[0] */
  from = 0;
  private to = 0;

  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  /**
   * Whether the window holds [at, end). Asked before each field, without a
   * promise: a model's fields are many, and a promise (or a subarray) for
   * each cost several times the walk itself.
   */
  holds(at: number, end: number): boolean {
    return at >= this.from && end <= this.to;
  }

  /** Moves the window to start at `at`. */
  async load(at: number): Promise<void> {
    const { bytesRead } = await this.file.read(this.window, 0, WINDOW_BYTES, at);
    this.from = at;
    this.to = at + bytesRead;
  }

  /** Bytes [at, end), end - at at most WINDOW_BYTES. */
  async bytes(at: number, end: number): Promise<Buffer> {
    if (!this.holds(at, end)) await this.load(at);
    return this.window.subarray(at - this.from, end - this.from);
  }
}

/** The length of the varint at bytes[at], before `limit`; 0 when it is truncated or longer than 10 bytes. */
function varintLength(bytes: Buffer, at: number, limit: number): number {
  for (let i = 0; i < 10 && at + i < limit; i++) if (bytes[at + i]! < 0x80) return i + 1;
  return 0;
}

/** The value of the varint at bytes[at] of `length` bytes: exact below 2^53. */
function varintValue(bytes: Buffer, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) value += (bytes[at + i]! & 0x7f) * 2 ** (7 * i);
  return value;
}

/** Its low 32 bits, exactly: what a parser keeps of an int32 or enum field written as a 64-bit varint. */
function varintLow32(bytes: Buffer, at: number, length: number): number {
  let value = 0;
  for (let i = 0; i < Math.min(length, 5); i++) value += (bytes[at + i]! & 0x7f) * 2 ** (7 * i);
  return value % 2 ** 32;
}

/** Where a tensor is, for the refusal: '' in the model's graph, else which part of the model. */
type Place = '' | ' in a subgraph' | ' in a function' | ' in a training graph';

/** A message being walked: what it is, where it ends, and, for a tensor, what was seen of it. */
interface Frame {
  kind: Message;
  end: number;
  place: Place;
  name: string;
  external: boolean;
}

/**
 * The first tensor stored as external data, walking the messages that can
 * hold one depth first, in file order. A loop over a stack of the messages
 * open at the current position (not a recursion), their frames made once
 * and reused: synchronous and allocating nothing while the window holds the
 * next field.
 */
async function findExternalTensor(reader: ForwardReader): Promise<{ name: string; place: Place } | undefined> {
  const frames: Frame[] = Array.from({ length: MAX_DEPTH + 1 }, () => ({
    kind: 'model',
    end: 0,
    place: '',
    name: '',
    external: false,
  }));
  const enter = (depth: number, kind: Message, end: number, place: Place) => {
    const frame = frames[depth]!;
    frame.kind = kind;
    frame.end = end;
    frame.place = place;
    frame.name = '';
    frame.external = false;
  };
  enter(0, 'model', reader.size, '');
  let depth = 0;
  let at = 0;
  let fields = 0;
  while (depth >= 0) {
    const frame = frames[depth]!;
    if (at === frame.end) {
      depth--;
      if (frame.external) return { name: frame.name, place: frame.place };
      continue;
    }
    if (++fields > MAX_FIELDS) throw new NotOnnxError(`its graph's messages hold more than ${MAX_FIELDS} fields`);
    const headEnd = Math.min(at + FIELD_HEAD_BYTES, frame.end);
    if (!reader.holds(at, headEnd)) await reader.load(at);
    const { window } = reader;
    const head = at - reader.from;
    const limit = headEnd - reader.from;
    const tagLength = varintLength(window, head, limit);
    const tag = varintValue(window, head, tagLength);
    if (tagLength === 0 || tag < 8) throw malformed(at);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    let valueStart = at + tagLength;
    let next: number;
    if (wireType === 0) {
      const length = varintLength(window, head + tagLength, limit);
      if (length === 0) throw malformed(at);
      next = valueStart + length;
      if (
        frame.kind === 'tensor' &&
        number === TENSOR_DATA_LOCATION &&
        varintLow32(window, head + tagLength, length) === DATA_LOCATION_EXTERNAL
      )
        frame.external = true;
    } else if (wireType === 1) next = valueStart + 8;
    else if (wireType === 5) next = valueStart + 4;
    else if (wireType === 2) {
      const length = varintLength(window, head + tagLength, limit);
      if (length === 0) throw malformed(at);
      valueStart += length;
      next = valueStart + varintValue(window, head + tagLength, length);
    } else throw malformed(at);
    if (next > frame.end) throw malformed(at);
    at = next;
    if (wireType !== 2) continue;
    if (frame.kind === 'tensor') {
      if (number === TENSOR_EXTERNAL_DATA) frame.external = true;
      if (number === TENSOR_NAME)
        frame.name = (await reader.bytes(valueStart, Math.min(next, valueStart + MAX_QUOTED_NAME * 4))).toString(
          'utf8',
        );
      continue;
    }
    const contained = CONTAINED[frame.kind][number];
    if (!contained) continue;
    if (depth === MAX_DEPTH) throw new NotOnnxError(`its messages are nested more than ${MAX_DEPTH} deep`);
    enter(++depth, contained, next, placeOf(frame.kind, contained, frame.place));
    at = valueStart;
  }
  return undefined;
}

/** The place of a message contained in a `container` message at `place`. */
function placeOf(container: Message, contained: Message, place: Place): Place {
  if (container === 'model')
    return contained === 'function' ? ' in a function' : contained === 'training' ? ' in a training graph' : '';
  if (container === 'attribute' && contained === 'graph' && place === '') return ' in a subgraph';
  return place;
}

function malformed(at: number): NotOnnxError {
  return new NotOnnxError(`its bytes are not an ONNX ModelProto (a malformed field at byte ${at})`);
}

/**
 * Throws ExternalDataError, naming the tensor, when the model at `path`
 * stores any tensor as external data; NotOnnxError when a message that can
 * hold a tensor is not valid protobuf. Never looks at the location a
 * tensor names: the answer is the same whether that file exists or not.
 */
export async function refuseExternalData(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    const found = await findExternalTensor(new ForwardReader(file, (await file.stat()).size));
    if (found) {
      const { name, place } = found;
      const tensor = name ? `tensor "${[...name].slice(0, MAX_QUOTED_NAME).join('')}"` : 'a tensor without a name';
      throw new ExternalDataError(
        `${tensor}${place} is stored as external data, outside model.onnx, which the server does not read: ` +
          'save the model with every tensor inside it (onnx.save_model(model, path, save_as_external_data=False))',
      );
    }
  } finally {
    await file.close();
  }
}
