// node --import tsx scripts/tiny-model.ts <dir> [--size 64]
// Writes a tiny, valid detector into <dir>: model.onnx (a few hundred
// bytes, built with onnx-proto, no PyTorch) and its model.json. It follows
// the YOLOv8 convention (one output [1, 4 + 2, 1]: one candidate box, then
// a score per label) and really looks at the image: its one box covers the
// middle of the input, and its two scores, for the labels "red" and
// "blue", are the mean of the red and of the blue channel (0..1 after the
// server's scaling). A red picture is answered "red" with a score near 1.
// For trying an upload, the CLI or the console without a real model; see
// docs/MODELS.md#a-tiny-model-for-trying-things.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';

const { onnx } = onnxProto;
const T = onnx.TensorProto.DataType;
const A = onnx.AttributeProto.AttributeType;

const USAGE =
  'Usage: node --import tsx scripts/tiny-model.ts <dir> [--size 64]   writes <dir>/model.onnx and <dir>/model.json\n';

/** The ONNX model: images [1, 3, size, size] float32 in, output0 [1, 6, 1] out. */
function tinyDetector(size: number): Uint8Array {
  const node = (
    opType: string,
    input: string[],
    output: string[],
    attribute: OnnxTypes.IAttributeProto[] = [],
  ): OnnxTypes.INodeProto => ({
    opType,
    input,
    output,
    attribute,
    name: output[0],
  });
  const int64 = (name: string, values: number[]): OnnxTypes.ITensorProto => ({
    name,
    dataType: T.INT64,
    dims: [values.length],
    int64Data: values,
  });
  const shape = (dims: number[]): OnnxTypes.ITypeProto => ({
    tensorType: { elemType: T.FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } },
  });
  const graph: OnnxTypes.IGraphProto = {
    name: 'tiny-detector',
    node: [
      // The mean of each channel: [3].
      node(
        'ReduceMean',
        ['images'],
        ['means'],
        [
          { name: 'axes', type: A.INTS, ints: [0, 2, 3] },
          { name: 'keepdims', type: A.INT, i: 0 },
        ],
      ),
      node('Slice', ['means', 'red_start', 'red_end'], ['red']),
      node('Slice', ['means', 'blue_start', 'blue_end'], ['blue']),
      // One candidate: cx, cy, w, h in input pixels, then the two scores.
      node('Concat', ['box', 'red', 'blue'], ['row'], [{ name: 'axis', type: A.INT, i: 0 }]),
      node('Reshape', ['row', 'output_shape'], ['output0']),
    ],
    initializer: [
      { name: 'box', dataType: T.FLOAT, dims: [4], floatData: [size / 2, size / 2, size / 2, size / 2] },
      int64('red_start', [0]),
      int64('red_end', [1]),
      int64('blue_start', [2]),
      int64('blue_end', [3]),
      int64('output_shape', [1, 6, 1]),
    ],
    input: [{ name: 'images', type: shape([1, 3, size, size]) }],
    output: [{ name: 'output0', type: shape([1, 6, 1]) }],
  };
  const model: OnnxTypes.IModelProto = {
    irVersion: 7,
    producerName: 'sense scripts/tiny-model.ts',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/** model.json for it: the labels in the order of its scores. */
function tinyDetectorConfig(size: number) {
  return {
    name: 'tiny',
    description:
      'A tiny test detector (scripts/tiny-model.ts): one box in the middle, scored by the mean red and blue of the image',
    labels: ['red', 'blue'],
    input: {
      name: 'images',
      width: size,
      height: size,
      layout: 'NCHW',
      dtype: 'float32',
      resize: 'letterbox',
      scale: 255,
      padValue: 114,
    },
    output: { format: 'yolov8' },
    defaults: { threshold: 0.5, iou: 0.5, maxDetections: 10 },
  };
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { size: { type: 'string', default: '64' }, help: { type: 'boolean', short: 'h' } },
  });
  const size = Number(values.size);
  if (values.help || positionals.length !== 1 || !Number.isInteger(size) || size < 8 || size > 4096) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 2;
  }
  const dir = resolve(positionals[0]!);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.onnx'), tinyDetector(size));
  await writeFile(join(dir, 'model.json'), `${JSON.stringify(tinyDetectorConfig(size), null, 2)}\n`);
  process.stdout.write(`${dir}/model.onnx\n${dir}/model.json\n`);
  return 0;
}

process.exitCode = await main();
