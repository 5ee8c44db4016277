// FP16: a float32 model's weights and arithmetic turned to float16, its
// inputs and outputs kept float32 (a Cast after each float input, before
// each float output), as onnxconverter-common's convert_float_to_float16
// does with keep_io_types. Half the weight memory and bandwidth, and the
// tensor cores' fast path on a GPU; answers move a little (docs: FP16).
//
// Unlike the prefix and suffix, this touches every node, so the model is
// decoded whole (protobufjs, onnx.proto). What converts:
//   - float32 initializers and Constant values become float16 (clamped to
//     float16's largest finite value), Cast-to-float32 becomes Cast-to-float16,
//     ConstantOfShape makes float16;
//   - ops that must stay float32 (Resize and Upsample, whose scales are
//     float32 by definition; Range, TopK, NonMaxSuppression, RoiAlign,
//     CumSum, as onnxconverter-common keeps them) get their float inputs cast
//     back to float32 and their outputs cast to float16.
// A model the conversion cannot follow (subgraphs, functions, operators of
// other domains, random or quantized ops, types it cannot work out) is
// refused with the reason, and runs in float32.
import { CodedError, revivable } from '../../errors.js';
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

const root = protobuf.Root.fromJSON(
  JSON.parse(readFileSync(new URL('./generated/onnx.json', import.meta.url), 'utf8')) as protobuf.INamespace,
);
const ModelProto = root.lookupType('onnx.ModelProto');

/** The newest IR version onnx.proto (ONNX 1.17) describes: a newer model may carry fields a decode would drop. */
const SCHEMA_IR_VERSION = 10;

const FLOAT = 1;
const INT64 = 7;
const BOOL = 9;
const FLOAT16 = 10;

const ATTRIBUTE_TENSOR = 4;
const ATTRIBUTE_GRAPH = 5;
const ATTRIBUTE_GRAPHS = 10;

interface Tensor {
  name?: string;
  data_type?: number;
  dims?: Array<number | string>;
  float_data?: number[];
  int32_data?: number[];
  raw_data?: Uint8Array;
  data_location?: number;
}

interface Attribute {
  name?: string;
  type?: number;
  i?: number | string;
  t?: Tensor;
  g?: unknown;
  graphs?: unknown[];
}

interface Node {
  name?: string;
  op_type?: string;
  domain?: string;
  input?: string[];
  output?: string[];
  attribute?: Attribute[];
}

interface ValueInfo {
  name?: string;
  type?: { tensor_type?: { elem_type?: number } };
}

interface Graph {
  node?: Node[];
  initializer?: Tensor[];
  input?: ValueInfo[];
  output?: ValueInfo[];
  value_info?: ValueInfo[];
  sparse_initializer?: unknown[];
}

interface Model {
  ir_version?: number | string;
  graph?: Graph;
  functions?: unknown[];
}

export class Float16Error extends CodedError {
  readonly code = 'MODEL_FLOAT16_FAILED';
  static {
    revivable('MODEL_FLOAT16_FAILED', ({ message }) => new Float16Error(message));
  }
}

/** Ops kept in float32 (their float inputs cast back, outputs cast to float16). */
const KEEP_FLOAT32 = new Set(['Resize', 'Upsample', 'Range', 'TopK', 'NonMaxSuppression', 'RoiAlign', 'CumSum']);
/** Ops whose output types the conversion cannot work out, or that make float32 of their own. */
const REFUSED = new Set([
  'If',
  'Loop',
  'Scan',
  'RandomNormal',
  'RandomUniform',
  'RandomNormalLike',
  'RandomUniformLike',
  'Multinomial',
  'Bernoulli',
  'QuantizeLinear',
  'DequantizeLinear',
  'DynamicQuantizeLinear',
  'QLinearConv',
  'QLinearMatMul',
  'ConvInteger',
  'MatMulInteger',
  'EyeLike',
  'SequenceConstruct',
  'SequenceAt',
  'SplitToSequence',
  'ConcatFromSequence',
  'Optional',
  'OptionalGetElement',
]);
const BOOLEAN_OUTPUT = new Set([
  'Equal',
  'Less',
  'Greater',
  'LessOrEqual',
  'GreaterOrEqual',
  'Not',
  'And',
  'Or',
  'Xor',
  'IsNaN',
  'IsInf',
]);
const INT64_OUTPUT = new Set(['Shape', 'Size', 'NonZero', 'ArgMax', 'ArgMin', 'NonMaxSuppression']);

// int64 fields are read as decimal strings: exact, whatever their size (INT64_MAX as a Slice end).
const toNumber = (v: number | string | undefined) => Number(v ?? 0);

/** float32 (given as its bits) → IEEE half bits, round to nearest even, clamped to ±65504 (no infinities from finite weights). */
export function halfBits(bits: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 31) return sign | 0x7bff;
  if (e <= 0) {
    if (e < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - e;
    let half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && half & 1)) half++;
  return (sign | half) > (sign | 0x7bff) ? sign | 0x7bff : sign | half;
}

/** A float32 tensor's values, from float_data or little-endian raw_data. */
function floatValues(tensor: Tensor): Float32Array {
  if (tensor.data_location === 1)
    throw new Float16Error(`tensor "${tensor.name ?? ''}" keeps its data in an external file`);
  if (tensor.raw_data && tensor.raw_data.length > 0) {
    const raw = tensor.raw_data;
    const copy = new Uint8Array(raw.length);
    copy.set(raw);
    return new Float32Array(copy.buffer);
  }
  return Float32Array.from(tensor.float_data ?? []);
}

/** The same tensor in float16 (raw_data, little-endian). */
function toFloat16(tensor: Tensor): Tensor {
  const values = floatValues(tensor);
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const halves = new Uint16Array(values.length);
  for (let i = 0; i < bits.length; i++) halves[i] = halfBits(bits[i]!);
  const { float_data: _f, raw_data: _r, ...rest } = tensor;
  return { ...rest, data_type: FLOAT16, raw_data: new Uint8Array(halves.buffer) };
}

let casts = 0;
function castNode(input: string, output: string, to: number): Node {
  return {
    name: `sense::fp16::cast${casts++}`,
    op_type: 'Cast',
    input: [input],
    output: [output],
    attribute: [{ name: 'to', type: 2, i: to }],
  };
}

/** The model converted to float16 inside, float32 at its inputs and outputs. Throws Float16Error when it cannot. */
export function convertToFloat16(bytes: Uint8Array): Uint8Array {
  const model = ModelProto.toObject(ModelProto.decode(bytes), { longs: String }) as Model;
  const irVersion = toNumber(model.ir_version);
  if (irVersion > SCHEMA_IR_VERSION)
    throw new Float16Error(`IR version ${irVersion} is newer than the ${SCHEMA_IR_VERSION} this server reads whole`);
  if (model.functions && model.functions.length > 0) throw new Float16Error('the model defines functions');
  const graph = model.graph;
  if (!graph) throw new Float16Error('no graph');
  if (graph.sparse_initializer && graph.sparse_initializer.length > 0)
    throw new Float16Error('the model has sparse initializers');
  const nodes = graph.node ?? [];
  const types = new Map<string, number>();
  const initializers = new Map<string, Tensor>();
  for (const t of graph.initializer ?? []) {
    types.set(t.name ?? '', t.data_type ?? 0);
    initializers.set(t.name ?? '', t);
  }
  for (const v of graph.input ?? [])
    if (!initializers.has(v.name ?? '')) types.set(v.name ?? '', v.type?.tensor_type?.elem_type ?? 0);

  // 1. Element types of every value, node by node (the nodes are in topological order).
  for (const node of nodes) {
    const op = node.op_type ?? '';
    if (node.domain && node.domain !== 'ai.onnx') throw new Float16Error(`operator ${op} of domain ${node.domain}`);
    if (REFUSED.has(op)) throw new Float16Error(`operator ${op}`);
    if ((node.attribute ?? []).some((a) => a.type === ATTRIBUTE_GRAPH || a.type === ATTRIBUTE_GRAPHS))
      throw new Float16Error(`operator ${op} has a subgraph`);
    const inputs = (node.input ?? []).map((name) => (name === '' ? 0 : types.get(name)));
    if (inputs.some((t) => t === undefined))
      throw new Float16Error(`node "${node.name ?? op}" reads a value not made before it`);
    const attr = (name: string) => (node.attribute ?? []).find((a) => a.name === name);
    const outputs = node.output ?? [];
    outputs.forEach((name, i) => {
      let type: number;
      if (op === 'Cast') type = toNumber(attr('to')?.i);
      else if (op === 'CastLike') type = inputs[1]!;
      else if (op === 'Constant') type = attr('value')?.t?.data_type ?? FLOAT;
      else if (op === 'ConstantOfShape') type = attr('value')?.t?.data_type ?? FLOAT;
      else if (BOOLEAN_OUTPUT.has(op)) type = BOOL;
      else if (INT64_OUTPUT.has(op)) type = INT64;
      else if (op === 'Where') type = inputs[1]!;
      else if (op === 'OneHot') type = inputs[2]!;
      else if ((op === 'TopK' || op === 'MaxPool') && i === 1) type = INT64;
      else if (op === 'Unique' && i > 0) type = INT64;
      else if (op === 'Dropout' && i === 1) type = BOOL;
      else type = inputs[0] ?? 0;
      if (!type) throw new Float16Error(`cannot tell the element type of "${name}" (${op})`);
      types.set(name, type);
    });
  }

  // 2. Which initializers stay float32: those only read by ops kept in float32.
  const readers = new Map<string, boolean[]>();
  for (const node of nodes)
    for (const name of node.input ?? [])
      readers.set(name, [...(readers.get(name) ?? []), KEEP_FLOAT32.has(node.op_type ?? '')]);
  const isGraphOutput = new Set((graph.output ?? []).map((o) => o.name ?? ''));
  const converted = new Set<string>();
  graph.initializer = (graph.initializer ?? []).map((t) => {
    const name = t.name ?? '';
    if (t.data_type !== FLOAT || isGraphOutput.has(name)) return t;
    const reads = readers.get(name) ?? [];
    if (reads.length > 0 && reads.every(Boolean)) return t;
    converted.add(name);
    return toFloat16(t);
  });
  // A value is float16 after the conversion when it was float32, except an initializer left float32.
  const keptFloat = new Set<string>(
    [...initializers.keys()].filter((n) => types.get(n) === FLOAT && !converted.has(n)),
  );
  const half = (name: string) => types.get(name) === FLOAT && !keptFloat.has(name);

  // 3. The nodes, with casts at the float32 boundaries.
  const out: Node[] = [];
  const suffix = '::fp16';
  const inputCasts = new Map<string, string>();
  for (const v of graph.input ?? []) {
    const name = v.name ?? '';
    if (initializers.has(name) || types.get(name) !== FLOAT) continue;
    inputCasts.set(name, name + suffix);
    out.push(castNode(name, name + suffix, FLOAT16));
  }
  const renamedOutputs = new Map<string, string>();
  for (const o of graph.output ?? []) {
    const name = o.name ?? '';
    if (types.get(name) === FLOAT && !inputCasts.has(name) && !initializers.has(name))
      renamedOutputs.set(name, name + suffix);
  }
  const reference = (name: string) => inputCasts.get(name) ?? renamedOutputs.get(name) ?? name;
  for (const node of nodes) {
    const op = node.op_type ?? '';
    const keep = KEEP_FLOAT32.has(op);
    node.input = (node.input ?? []).map((name, i) => {
      if (name === '') return name;
      if (!keep) return reference(name);
      // A kept op reads float32: a graph input as it is, a float16 value cast back.
      if (inputCasts.has(name) || !half(name)) return name;
      const source = reference(name);
      const back = `${source}::fp32::${node.name ?? op}::${i}`;
      out.push(castNode(source, back, FLOAT));
      return back;
    });
    for (const a of node.attribute ?? []) {
      if (a.type === ATTRIBUTE_TENSOR && a.t?.data_type === FLOAT && (op === 'Constant' || op === 'ConstantOfShape'))
        a.t = toFloat16(a.t);
      if (op === 'Cast' && a.name === 'to' && toNumber(a.i) === FLOAT) a.i = FLOAT16;
    }
    if (op === 'ConstantOfShape' && !(node.attribute ?? []).some((a) => a.name === 'value')) {
      node.attribute = [
        ...(node.attribute ?? []),
        { name: 'value', type: ATTRIBUTE_TENSOR, t: { data_type: FLOAT16, dims: [1], raw_data: new Uint8Array(2) } },
      ];
    }
    const outputs = node.output ?? [];
    const afterCasts: Node[] = [];
    node.output = outputs.map((name) => {
      if (keep && types.get(name) === FLOAT) {
        // A kept op's float32 output: cast to float16 for the nodes after it.
        const raw = `${name}::fp32`;
        afterCasts.push(castNode(raw, renamedOutputs.get(name) ?? name, FLOAT16));
        return raw;
      }
      return renamedOutputs.get(name) ?? name;
    });
    out.push(node, ...afterCasts);
  }
  for (const [name, renamed] of renamedOutputs) out.push(castNode(renamed, name, FLOAT));
  graph.node = out;
  // Shapes and types inside the graph are worked out again by the runtime.
  graph.value_info = [];
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
