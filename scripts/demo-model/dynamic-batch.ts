// Gives a single-image ONNX detector (YOLO-style export: image input [1,C,H,W], outputs with a
// leading batch axis of 1) a dynamic batch axis, so that the server's dynamic batcher can run
// several images in one call. It exists because the bundled demo model (models/demo/model.onnx)
// was exported with a fixed batch of 1 and its weights live only in that file: there is no
// checkpoint to re-export from, so the graph is edited in place, in JS with onnx-proto (no Python
// `onnx` needed). New exports get the axis directly (export.py and scripts/export-yolov8n.py pass
// dynamic_axes). It works on other single-image exports too, e.g. a static YOLOv8 export whose
// head reshapes to [1, 64, -1].
//
//   node --import tsx scripts/demo-model/dynamic-batch.ts IN.onnx OUT.onnx [--dim-name batch] [--no-check] [--tolerance 1e-5]
//
// What it changes (weights and all other tensors keep their values bit for bit):
// - dim 0 of every graph input and output that is a fixed 1 becomes the symbolic `--dim-name`;
// - graph.valueInfo is dropped (optional shape hints; stale ones would pin batch 1);
// - Reshape nodes whose data depends on the image and whose target shape is a constant starting
//   with 1 get -1 there (or 0, "copy input dim 0", when the shape already has a -1);
// - Resize nodes with constant `sizes` starting with 1 get sizes = Shape(X)[0:1] ++ sizes[1:]
//   (three nodes inserted before the Resize).
// Patterns it cannot fix generically (Squeeze/Gather/Split/Flatten/Concat on axis 0 of image
// data, ConstantOfShape with a constant shape starting with 1, If/Loop subgraphs) are printed as
// warnings. Then, unless --no-check, it runs the old model at batch 1 and the new one at batch 1
// and at batch 3 (three different random images) in onnxruntime-node, graph optimisation 'all',
// and writes OUT only if no output differs by more than --tolerance, relative to
// max(1, largest |output|). A model it cannot make batchable therefore fails here, not in the server.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import * as ort from 'onnxruntime-node';

const { onnx } = onnxProto;
type Tensor = OnnxTypes.ITensorProto;
type Node = OnnxTypes.INodeProto;
type ValueInfo = OnnxTypes.IValueInfoProto;

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'dim-name': { type: 'string', default: 'batch' },
    'no-check': { type: 'boolean', default: false },
    tolerance: { type: 'string', default: '1e-5' },
  },
});
if (positionals.length !== 2) {
  console.error(
    'usage: node --import tsx scripts/demo-model/dynamic-batch.ts IN.onnx OUT.onnx [--dim-name batch] [--no-check] [--tolerance 1e-5]',
  );
  process.exit(2);
}
const [inPath, outPath] = positionals as [string, string];
const dimName = opts['dim-name'] ?? 'batch';
const tolerance = Number(opts.tolerance);

const INT64 = onnx.TensorProto.DataType.INT64;
const num = (v: unknown): number => (v == null ? 0 : typeof v === 'number' ? v : Number(String(v)));

function readInt64s(t: Tensor): number[] | undefined {
  if (t.dataType !== INT64) return undefined;
  if (t.rawData && t.rawData.length > 0) {
    const dv = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    return Array.from({ length: t.rawData.length / 8 }, (_, i) => Number(dv.getBigInt64(i * 8, true)));
  }
  return (t.int64Data ?? []).map(num);
}

/** An int64 tensor holding `values`, in the same storage (raw or int64Data) as `like`. */
function int64Tensor(like: Tensor | undefined, name: string | undefined, values: number[]): Tensor {
  const dims = [values.length];
  if (like?.rawData && like.rawData.length > 0) {
    const raw = new Uint8Array(values.length * 8);
    const dv = new DataView(raw.buffer);
    values.forEach((v, i) => dv.setBigInt64(i * 8, BigInt(v), true));
    return onnx.TensorProto.create({ name, dataType: INT64, dims, rawData: raw });
  }
  return onnx.TensorProto.create({ name, dataType: INT64, dims, int64Data: values });
}

function attr(node: Node, name: string): OnnxTypes.IAttributeProto | undefined {
  return (node.attribute ?? []).find((a) => a.name === name);
}

const model = onnx.ModelProto.decode(readFileSync(inPath));
const graph = model.graph!;
const nodes = graph.node ?? [];
const initializers = new Map((graph.initializer ?? []).map((t) => [t.name!, t]));
const warnings: string[] = [];
const changes: string[] = [];

// --- graph inputs and outputs --------------------------------------------------------------------
const dimText = (d: OnnxTypes.TensorShapeProto.IDimension) =>
  d.dimParam ? d.dimParam : d.dimValue != null ? String(num(d.dimValue)) : '?';
function makeBatchDynamic(v: ValueInfo, what: string): void {
  const dims = v.type?.tensorType?.shape?.dim;
  if (!dims || dims.length === 0) {
    warnings.push(`${what} ${v.name}: no shape or rank 0, left as is`);
    return;
  }
  const before = `[${dims.map(dimText).join(',')}]`;
  const d0 = dims[0]!;
  if (d0.dimParam) {
    warnings.push(`${what} ${v.name}: dim 0 is already symbolic (${d0.dimParam}), left as is`);
    return;
  }
  if (num(d0.dimValue) !== 1) {
    warnings.push(`${what} ${v.name}: dim 0 is ${dimText(d0)}, not 1; left as is (is it really a batch axis?)`);
    return;
  }
  dims[0] = onnx.TensorShapeProto.Dimension.create(
    d0.denotation ? { dimParam: dimName, denotation: d0.denotation } : { dimParam: dimName },
  );
  changes.push(`${what} ${v.name}: ${before} -> [${dims.map(dimText).join(',')}]`);
}
const imageInputs = (graph.input ?? []).filter((i) => !initializers.has(i.name!));
for (const i of imageInputs) makeBatchDynamic(i, 'input');
for (const o of graph.output ?? []) makeBatchDynamic(o, 'output');

if ((graph.valueInfo ?? []).length > 0) {
  changes.push(`dropped ${graph.valueInfo!.length} graph.valueInfo entries (shape hints)`);
  graph.valueInfo = [];
}

// --- which tensors carry image data (as opposed to shapes and constants) -------------------------
const dataTensors = new Set(imageInputs.map((i) => i.name!));
for (const n of nodes) {
  if (n.opType === 'If' || n.opType === 'Loop' || n.opType === 'Scan')
    warnings.push(`${n.opType} ${n.name}: subgraphs are not inspected`);
  if (n.opType === 'Shape' || n.opType === 'Size') continue;
  if ((n.input ?? []).some((x) => dataTensors.has(x))) for (const o of n.output ?? []) dataTensors.add(o);
}

// --- constants: initializers and Constant nodes ---------------------------------------------------
const constantNodes = new Map<string, Node>();
for (const n of nodes) if (n.opType === 'Constant' && n.output?.[0]) constantNodes.set(n.output[0], n);
const consumers = new Map<string, number>();
for (const n of nodes) for (const x of n.input ?? []) consumers.set(x, (consumers.get(x) ?? 0) + 1);
for (const o of graph.output ?? []) consumers.set(o.name!, (consumers.get(o.name!) ?? 0) + 1);

function constantInts(name: string): { values: number[]; like: Tensor | undefined } | undefined {
  const init = initializers.get(name);
  if (init) {
    const values = readInt64s(init);
    return values && { values, like: init };
  }
  const c = constantNodes.get(name);
  if (!c) return undefined;
  const value = attr(c, 'value');
  if (value?.t) {
    const values = readInt64s(value.t);
    return values && { values, like: value.t };
  }
  const ints = attr(c, 'value_ints');
  return ints ? { values: (ints.ints ?? []).map(num), like: undefined } : undefined;
}

let fresh = 0;
const freshName = (base: string) => {
  let name: string;
  do name = `${base}__dynbatch${fresh++}`;
  while (initializers.has(name) || consumers.has(name));
  return name;
};

/** Makes `node.input[index]` a constant int64 tensor holding `values` (a new one if the old is shared). */
function setConstantInput(node: Node, index: number, values: number[], like: Tensor | undefined): void {
  const name = node.input![index]!;
  const uses = consumers.get(name) ?? 0;
  if (uses === 1 && initializers.has(name)) {
    const t = int64Tensor(like, name, values);
    graph.initializer = graph.initializer!.map((old) => (old.name === name ? t : old));
    initializers.set(name, t);
    return;
  }
  if (uses === 1 && constantNodes.has(name)) {
    constantNodes.get(name)!.attribute = [
      { name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: int64Tensor(like, undefined, values) },
    ];
    return;
  }
  // shared with other nodes: give this one its own initializer
  const newName = freshName(name);
  const t = int64Tensor(like, newName, values);
  graph.initializer!.push(t);
  initializers.set(newName, t);
  node.input![index] = newName;
  consumers.set(newName, 1);
  release(name);
}

/** One use of constant `name` fewer; an initializer nothing uses any more is removed. */
function release(name: string): void {
  const uses = (consumers.get(name) ?? 0) - 1;
  consumers.set(name, uses);
  if (uses === 0 && initializers.has(name)) {
    graph.initializer = graph.initializer!.filter((t) => t.name !== name);
    initializers.delete(name);
  }
}

const extraNodes = new Map<Node, Node[]>(); // nodes to insert before a node
const axisOf = (n: Node, def = 0) => num(attr(n, 'axis')?.i ?? def);

for (const n of nodes) {
  const inputs = n.input ?? [];
  const onData = dataTensors.has(inputs[0] ?? '');
  const where = `${n.opType} ${n.name || n.output?.[0]}`;
  switch (n.opType) {
    case 'Reshape': {
      const shape = constantInts(inputs[1] ?? '');
      if (!onData || !shape || shape.values[0] !== 1) break;
      const allowZero = num(attr(n, 'allowzero')?.i) === 1;
      const hasMinusOne = shape.values.includes(-1);
      if (hasMinusOne && allowZero) {
        warnings.push(`${where}: shape [${shape.values}] pins batch 1 and allowzero=1 with a -1 elsewhere; not fixed`);
        break;
      }
      const values = [hasMinusOne ? 0 : -1, ...shape.values.slice(1)];
      setConstantInput(n, 1, values, shape.like);
      changes.push(`${where}: shape [${shape.values}] -> [${values}]`);
      break;
    }
    case 'Resize': {
      const sizes = inputs[3] ? constantInts(inputs[3]) : undefined;
      if (!onData || !sizes || sizes.values[0] !== 1) break;
      const base = n.output?.[0] ?? 'resize';
      const [shapeOut, startName, endName, headOut, restName, sizesOut] = [
        'shape',
        'start',
        'end',
        'head',
        'rest',
        'sizes',
      ].map((s) => freshName(`${base}/${s}`)) as [string, string, string, string, string, string];
      for (const [name, values] of [
        [startName, [0]],
        [endName, [1]],
        [restName, sizes.values.slice(1)],
      ] as const) {
        const t = int64Tensor(undefined, name, [...values]);
        graph.initializer!.push(t);
        initializers.set(name, t);
      }
      extraNodes.set(n, [
        { opType: 'Shape', input: [inputs[0]!], output: [shapeOut], name: shapeOut },
        { opType: 'Slice', input: [shapeOut, startName, endName], output: [headOut], name: headOut },
        {
          opType: 'Concat',
          input: [headOut, restName],
          output: [sizesOut],
          name: sizesOut,
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
      ]);
      release(inputs[3]!);
      n.input![3] = sizesOut;
      changes.push(`${where}: sizes [${sizes.values}] -> Shape(X)[0:1] ++ [${sizes.values.slice(1)}]`);
      break;
    }
    case 'ConstantOfShape': {
      const shape = constantInts(inputs[0] ?? '');
      if (shape && shape.values[0] === 1)
        warnings.push(`${where}: constant shape [${shape.values}] makes a batch-1 tensor`);
      break;
    }
    case 'Squeeze': {
      const axes = attr(n, 'axes')?.ints?.map(num) ?? constantInts(inputs[1] ?? '')?.values;
      if (onData && (!axes || axes.includes(0)))
        warnings.push(`${where}: squeezes ${axes ? 'axis 0' : 'all size-1 axes'} of image data`);
      break;
    }
    case 'Gather':
    case 'Split':
    case 'Concat':
      if (axisOf(n) === 0 && inputs.some((x) => dataTensors.has(x))) warnings.push(`${where}: axis 0 of image data`);
      break;
    case 'Flatten':
      if (onData && axisOf(n, 1) === 0) warnings.push(`${where}: axis 0 of image data`);
      break;
    case 'Slice': {
      const axes = inputs[3] ? constantInts(inputs[3])?.values : undefined;
      if (onData && (axes === undefined || axes.includes(0)))
        warnings.push(`${where}: may slice axis 0 of image data (check it)`);
      break;
    }
    default:
  }
}
if (extraNodes.size > 0) graph.node = nodes.flatMap((n) => [...(extraNodes.get(n) ?? []), n]);

const bytes = onnx.ModelProto.encode(model).finish();
for (const c of changes) console.log('  changed:', c);
for (const w of warnings) console.log('  WARNING:', w);
if (!opts['no-check']) {
  const failure = await check(bytes).catch((error: unknown) =>
    error instanceof Error ? error.message : String(error),
  );
  if (failure) {
    console.error(`check FAILED, ${outPath} not written: ${failure}`);
    process.exit(1);
  }
}
writeFileSync(outPath, bytes);
console.log(`wrote ${outPath} (${bytes.length} bytes)`);

/**
 * Runs the old model at batch 1 and the new one at batch 1 and at batch 3 (three different random
 * images) and compares every output. Returns why it failed, or undefined.
 */
async function check(bytes: Uint8Array): Promise<string | undefined> {
  const options: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  };
  const before = await ort.InferenceSession.create(readFileSync(inPath), options);
  const after = await ort.InferenceSession.create(bytes, options);
  const shapes = imageInputs.map((i) => (i.type?.tensorType?.shape?.dim ?? []).slice(1).map((d) => num(d.dimValue)));
  if (
    imageInputs.some((i) => i.type?.tensorType?.elemType !== onnx.TensorProto.DataType.FLOAT) ||
    shapes.some((s) => s.some((d) => !(d > 0)))
  ) {
    console.log('  check skipped: only float32 inputs with fixed non-batch dims are checked');
    return undefined;
  }
  let seed = 12345;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const run = async (session: ort.InferenceSession, data: Float32Array[], batch: number) => {
    const feeds: Record<string, ort.Tensor> = {};
    imageInputs.forEach((i, k) => (feeds[i.name!] = new ort.Tensor('float32', data[k]!, [batch, ...shapes[k]!])));
    const out = await session.run(feeds);
    return session.outputNames.map((name) => out[name]!);
  };
  /** Largest |a - b| over item `item` of `a` (batch `batchA`) against all of `b`, also relative to max(1, |b|max). */
  const diff = (a: ort.Tensor, b: ort.Tensor, item: number, batchA: number) => {
    const av = a.data as Float32Array;
    const bv = b.data as Float32Array;
    const per = av.length / batchA;
    if (per !== bv.length) throw new Error(`output sizes differ: [${a.dims}] at batch ${batchA} vs [${b.dims}]`);
    let worst = 0;
    let scale = 1;
    for (let k = 0; k < per; k++) {
      const d = Math.abs(av[item * per + k]! - bv[k]!);
      worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
      scale = Math.max(scale, Math.abs(bv[k]!));
    }
    return { abs: worst, rel: worst / scale };
  };
  const batch = 3;
  const data = shapes.map((s) => Float32Array.from({ length: batch * s.reduce((a, b) => a * b, 1) }, random));
  const item = (k: number) => data.map((d) => d.subarray((d.length / batch) * k, (d.length / batch) * (k + 1)));
  const worst = { same: 0, batched: 0, rel: 0 };
  const together = await run(after, data, batch);
  for (let k = 0; k < batch; k++) {
    const old1 = await run(before, item(k), 1);
    const new1 = await run(after, item(k), 1);
    old1.forEach((o, j) => {
      const same = diff(new1[j]!, o, 0, 1);
      const batched = diff(together[j]!, o, k, batch);
      worst.same = Math.max(worst.same, same.abs);
      worst.batched = Math.max(worst.batched, batched.abs);
      worst.rel = Math.max(worst.rel, same.rel, batched.rel);
    });
  }
  console.log(`  check: output dims at batch ${batch}: ${together.map((t) => `[${t.dims}]`).join(' ')}`);
  console.log(
    `  check: max |new(b=1) - old(b=1)| = ${worst.same}; max |new(b=${batch})[k] - old(b=1)| = ${worst.batched}; relative ${worst.rel}`,
  );
  if (!(worst.rel <= tolerance)) return `relative difference ${worst.rel} > ${tolerance}`;
  console.log('  check passed');
  return undefined;
}
