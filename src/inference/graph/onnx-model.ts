// An ONNX model opened for small edits at its edges: its graph's inputs and
// outputs swapped for others, nodes added before and after the existing
// ones, constants added. Only the graph's top-level fields are located
// (wire.ts); the existing nodes and weights are copied as bytes, never
// decoded, so a model of any size and of any newer IR version round-trips
// unchanged apart from the edits.
import { CodedError, revivable } from '../../errors.js';
import {
  decodeOpsetImport,
  decodeValueInfo,
  encodeNode,
  encodeTensor,
  encodeValueInfo,
  type NodeSpec,
  type TensorSpec,
  type TensorValueInfo,
} from './onnx-schema.js';
import {
  concatBytes,
  lengthDelimitedField,
  readFields,
  stringValue,
  WIRE_LENGTH_DELIMITED,
  type WireField,
} from './wire.js';

// Field numbers of onnx.proto.
const MODEL_GRAPH = 7;
const MODEL_OPSET_IMPORT = 8;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_INPUT = 11;
const GRAPH_OUTPUT = 12;
const NODE_OUTPUT = 2;
const TENSOR_NAME = 8;

export class OnnxModelError extends CodedError {
  readonly code = 'MODEL_GRAPH_INVALID';
  static {
    revivable('MODEL_GRAPH_INVALID', ({ message }) => new OnnxModelError(message));
  }
}

/** The prefix of every name the rewrite adds: no exporter makes names like it. */
const OWN_PREFIX = 'sense::';

export class OnnxModel {
  private readonly prepended: Uint8Array[] = [];
  private readonly appended: Uint8Array[] = [];
  private readonly initializers: Uint8Array[] = [];
  private readonly addedInputs: Uint8Array[] = [];
  private readonly replacements = new Map<WireField, TensorValueInfo[]>();
  private nodeCount = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly graphField: WireField,
    private readonly graphFields: WireField[],
    /** the default (ai.onnx) domain's operator set version */
    readonly opset: number,
    /** graph inputs that are not initializers, with their fields */
    private readonly inputFields: Array<[TensorValueInfo, WireField]>,
    private readonly outputFields: Array<[TensorValueInfo, WireField]>,
    /** every name at the graph's top level: inputs, outputs, initializers, node outputs */
    private readonly names: Set<string>,
  ) {}

  static parse(bytes: Uint8Array): OnnxModel {
    let modelFields: WireField[];
    try {
      modelFields = readFields(bytes);
    } catch (error) {
      throw new OnnxModelError(`not an ONNX model: ${(error as Error).message}`);
    }
    const graphs = modelFields.filter((f) => f.number === MODEL_GRAPH && f.wireType === WIRE_LENGTH_DELIMITED);
    if (graphs.length !== 1)
      throw new OnnxModelError(
        graphs.length === 0 ? 'not an ONNX model: no graph' : 'the model has more than one graph field',
      );
    const graph = graphs[0]!;
    const opsets = modelFields
      .filter((f) => f.number === MODEL_OPSET_IMPORT && f.wireType === WIRE_LENGTH_DELIMITED)
      .map((f) => decodeOpsetImport(bytes.subarray(f.valueStart, f.end)));
    const opset = opsets.find((o) => o.domain === '' || o.domain === 'ai.onnx')?.version;
    if (!opset) throw new OnnxModelError('the model imports no version of the default operator set');

    const graphFields = readFields(bytes, graph.valueStart, graph.end);
    const names = new Set<string>();
    const initializerNames = new Set<string>();
    for (const field of graphFields) {
      if (field.wireType !== WIRE_LENGTH_DELIMITED) continue;
      if (field.number === GRAPH_NODE) {
        for (const f of readFields(bytes, field.valueStart, field.end))
          if (f.number === NODE_OUTPUT) names.add(stringValue(bytes, f));
      } else if (field.number === GRAPH_INITIALIZER) {
        const name = readFields(bytes, field.valueStart, field.end).find((f) => f.number === TENSOR_NAME);
        if (name) initializerNames.add(stringValue(bytes, name));
      }
    }
    const valueInfos = (number: number) =>
      graphFields
        .filter((f) => f.number === number && f.wireType === WIRE_LENGTH_DELIMITED)
        .map((f): [TensorValueInfo | undefined, WireField] => [
          decodeValueInfo(bytes.subarray(f.valueStart, f.end)),
          f,
        ]);
    const inputs = valueInfos(GRAPH_INPUT).filter(([info]) => !info || !initializerNames.has(info.name));
    const outputs = valueInfos(GRAPH_OUTPUT);
    const tensorsOnly = (list: Array<[TensorValueInfo | undefined, WireField]>, what: string) =>
      list.map(([info, field]): [TensorValueInfo, WireField] => {
        if (!info) throw new OnnxModelError(`a graph ${what} is not a tensor`);
        return [info, field];
      });
    for (const name of initializerNames) names.add(name);
    for (const [info] of [...inputs, ...outputs]) if (info) names.add(info.name);
    return new OnnxModel(
      bytes,
      graph,
      graphFields,
      opset,
      tensorsOnly(inputs, 'input'),
      tensorsOnly(outputs, 'output'),
      names,
    );
  }

  get inputs(): TensorValueInfo[] {
    return this.inputFields.map(([info]) => info);
  }

  get outputs(): TensorValueInfo[] {
    return this.outputFields.map(([info]) => info);
  }

  /** A name not used in the graph, for a value the rewrite adds. */
  newName(base: string): string {
    let name = `${OWN_PREFIX}${base}`;
    for (let i = 2; this.names.has(name); i++) name = `${OWN_PREFIX}${base}_${i}`;
    this.names.add(name);
    return name;
  }

  /** A name for a graph input or output the server feeds or reads: readable, unused. */
  newPublicName(base: string): string {
    let name = base;
    for (let i = 2; this.names.has(name); i++) name = `${base}_${i}`;
    this.names.add(name);
    return name;
  }

  /** Puts `replacement` where the graph input `name` was declared; the old name becomes a value the added nodes must produce. */
  replaceInput(name: string, replacement: TensorValueInfo[]): void {
    this.replace(this.inputFields, name, replacement, 'input');
  }

  /** Puts `replacement` where the graph output `name` was declared; `name` stays a value inside the graph. */
  replaceOutput(name: string, replacement: TensorValueInfo[]): void {
    this.replace(this.outputFields, name, replacement, 'output');
  }

  private replace(
    list: Array<[TensorValueInfo, WireField]>,
    name: string,
    replacement: TensorValueInfo[],
    what: string,
  ): void {
    const entry = list.find(([info]) => info.name === name);
    if (!entry) throw new OnnxModelError(`the graph has no ${what} named "${name}"`);
    this.replacements.set(entry[1], replacement);
  }

  /** A new graph input, declared after the existing ones. */
  addInput(info: TensorValueInfo): void {
    this.addedInputs.push(lengthDelimitedField(GRAPH_INPUT, encodeValueInfo(info)));
  }

  /** Nodes that run before the graph's own (they may produce values its nodes read). */
  prepend(nodes: readonly NodeSpec[]): void {
    for (const node of nodes)
      this.prepended.push(lengthDelimitedField(GRAPH_NODE, encodeNode(node, this.newName(`node${this.nodeCount++}`))));
  }

  /** Nodes that run after the graph's own (they may read its values). */
  append(nodes: readonly NodeSpec[]): void {
    for (const node of nodes)
      this.appended.push(lengthDelimitedField(GRAPH_NODE, encodeNode(node, this.newName(`node${this.nodeCount++}`))));
  }

  /** A constant, returning its name. */
  constant(base: string, tensor: Omit<TensorSpec, 'name'>): string {
    const name = this.newName(base);
    this.initializers.push(lengthDelimitedField(GRAPH_INITIALIZER, encodeTensor({ ...tensor, name })));
    return name;
  }

  /** The model with the edits, encoded. */
  encode(): Uint8Array {
    const graphParts: Uint8Array[] = [...this.prepended];
    for (const field of this.graphFields) {
      const replacement = this.replacements.get(field);
      const original = this.bytes.subarray(field.start, field.end);
      if (!replacement) graphParts.push(original);
      else for (const info of replacement) graphParts.push(lengthDelimitedField(field.number, encodeValueInfo(info)));
    }
    graphParts.push(...this.appended, ...this.initializers, ...this.addedInputs);
    return concatBytes([
      this.bytes.subarray(0, this.graphField.start),
      lengthDelimitedField(MODEL_GRAPH, concatBytes(graphParts)),
      this.bytes.subarray(this.graphField.end),
    ]);
  }
}
