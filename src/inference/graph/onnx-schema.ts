// The few ONNX messages the graph rewrite reads or makes, through protobufjs
// and the official schema (proto/onnx.proto, ONNX 1.17, compiled to
// onnx.json by `npm run proto`): value infos (a graph's inputs and outputs),
// nodes, their attributes and constant tensors, operator set imports.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';

const root = protobuf.Root.fromJSON(
  JSON.parse(readFileSync(new URL('./generated/onnx.json', import.meta.url), 'utf8')) as protobuf.INamespace,
);
const ValueInfoProto = root.lookupType('onnx.ValueInfoProto');
const NodeProto = root.lookupType('onnx.NodeProto');
const TensorProto = root.lookupType('onnx.TensorProto');
const OperatorSetIdProto = root.lookupType('onnx.OperatorSetIdProto');

/** TensorProto.DataType values used here. */
export const DataType = {
  FLOAT: 1,
  UINT8: 2,
  INT32: 6,
  INT64: 7,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
} as const;

/** A tensor-typed graph input or output: its element type and shape (numbers, symbolic names, -1 unknown). */
export interface TensorValueInfo {
  name: string;
  elemType: number;
  /** undefined: no shape declared (rank unknown) */
  shape: Array<number | string> | undefined;
}

interface DecodedDim {
  dim_value?: number | { toNumber(): number };
  dim_param?: string;
}

interface DecodedValueInfo {
  name?: string;
  type?: { tensor_type?: { elem_type?: number; shape?: { dim?: DecodedDim[] } } };
}

const toNumber = (v: number | { toNumber(): number }) => (typeof v === 'number' ? v : v.toNumber());

/** A ValueInfoProto's name and tensor type; undefined for one that is not a tensor (a sequence, a map). */
export function decodeValueInfo(bytes: Uint8Array): TensorValueInfo | undefined {
  const info = ValueInfoProto.toObject(ValueInfoProto.decode(bytes)) as DecodedValueInfo;
  const tensor = info.type?.tensor_type;
  if (!tensor || tensor.elem_type === undefined) return undefined;
  const shape = tensor.shape?.dim?.map((d) =>
    d.dim_value !== undefined
      ? toNumber(d.dim_value)
      : d.dim_param !== undefined && d.dim_param !== ''
        ? d.dim_param
        : -1,
  );
  return { name: info.name ?? '', elemType: tensor.elem_type, shape };
}

export function encodeValueInfo(info: TensorValueInfo): Uint8Array {
  const dims = info.shape?.map((d) =>
    typeof d === 'number' && d >= 0 ? { dim_value: d } : typeof d === 'string' ? { dim_param: d } : {},
  );
  return ValueInfoProto.encode(
    ValueInfoProto.fromObject({
      name: info.name,
      type: { tensor_type: { elem_type: info.elemType, ...(dims && { shape: { dim: dims } }) } },
    }),
  ).finish();
}

/** The domain and version of an operator set import. */
export function decodeOpsetImport(bytes: Uint8Array): { domain: string; version: number } {
  const o = OperatorSetIdProto.toObject(OperatorSetIdProto.decode(bytes), { longs: Number }) as {
    domain?: string;
    version?: number;
  };
  return { domain: o.domain ?? '', version: o.version ?? 0 };
}

/** A constant tensor (an initializer or a Constant's value). */
export interface TensorSpec {
  name?: string;
  dataType: number;
  dims: number[];
  floats?: number[];
  int64s?: number[];
}

function tensorObject(t: TensorSpec): Record<string, unknown> {
  return {
    ...(t.name !== undefined && { name: t.name }),
    data_type: t.dataType,
    dims: t.dims,
    ...(t.floats && { float_data: t.floats }),
    ...(t.int64s && { int64_data: t.int64s }),
  };
}

export function encodeTensor(tensor: TensorSpec): Uint8Array {
  return TensorProto.encode(TensorProto.fromObject(tensorObject(tensor))).finish();
}

/** AttributeProto.AttributeType values used here. */
const AttributeType = { FLOAT: 1, INT: 2, TENSOR: 4, INTS: 7 } as const;

type Attribute =
  | { name: string; int: number }
  | { name: string; ints: number[] }
  | { name: string; float: number }
  | { name: string; tensor: TensorSpec };

function attributeObject(a: Attribute): Record<string, unknown> {
  if ('int' in a) return { name: a.name, type: AttributeType.INT, i: a.int };
  if ('ints' in a) return { name: a.name, type: AttributeType.INTS, ints: a.ints };
  if ('float' in a) return { name: a.name, type: AttributeType.FLOAT, f: a.float };
  return { name: a.name, type: AttributeType.TENSOR, t: tensorObject(a.tensor) };
}

export interface NodeSpec {
  opType: string;
  inputs: string[];
  outputs: string[];
  attributes?: Attribute[];
}

export function encodeNode(node: NodeSpec, name: string): Uint8Array {
  return NodeProto.encode(
    NodeProto.fromObject({
      name,
      op_type: node.opType,
      input: node.inputs,
      output: node.outputs,
      attribute: (node.attributes ?? []).map(attributeObject),
    }),
  ).finish();
}
