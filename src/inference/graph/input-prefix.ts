// Bytes in: the model takes the letterboxed image as uint8 pixels and
// normalises them itself. The image input is replaced by a uint8 input of
// the same shape and layout, followed by Cast → Mul → Add (→ Cast to
// float16), the conversion model.json describes (value = pixel / scale -
// mean) / std per channel). The server then moves a quarter of the bytes
// into the model (to the GPU, on GPU instances, where these nodes run), and
// the pipeline workers write pixels instead of floats.
//
// The arithmetic is the one the native preprocessing did, in the same
// order and precision (pixel * mul + add in float32, mul = 1 / (scale *
// std), add = -mean / std, no fused multiply-add), so the model sees the same
// values to the bit. A Mul by 1 or an Add of 0 is left out: both are exact.
import { normalisation, type InputConfig } from '../pipeline/preprocess.js';
import type { OnnxModel } from './onnx-model.js';
import { DataType, type NodeSpec } from './onnx-schema.js';

/** Per tensor channel (in the tensor's channel order): value = pixel * mul + add, in float32, as the addon computes it. */
function channelNormalisation(input: InputConfig): { mul: number[]; add: number[] } {
  const { mul, add, bgr } = normalisation(input);
  const order = bgr ? [2, 1, 0] : [0, 1, 2];
  return { mul: order.map((c) => Math.fround(mul[c]!)), add: order.map((c) => Math.fround(add[c]!)) };
}

/**
 * Replaces the image input `name` (float32 or float16, as model.json says)
 * with a uint8 one and normalises it in the graph. Returns the new input's
 * name, which the server feeds.
 */
export function addInputPrefix(model: OnnxModel, name: string, input: InputConfig): string {
  const info = model.inputs.find((i) => i.name === name);
  if (!info) throw new Error(`the graph has no input named "${name}"`);
  const wanted = input.dtype === 'float16' ? DataType.FLOAT16 : DataType.FLOAT;
  if (info.elemType !== wanted) throw new Error(`input "${name}" is not ${input.dtype}`);
  if (model.opset < 7) throw new Error(`operator set ${model.opset} is older than 7 (no broadcasting Mul and Add)`);
  const pixels = model.newPublicName(`${name}_uint8`);
  model.replaceInput(name, [{ name: pixels, elemType: DataType.UINT8, shape: info.shape }]);

  // Constants broadcast along the channel axis (NCHW with or without the batch axis, as the graph has it).
  const channelDims = input.layout === 'NHWC' ? [3] : info.shape?.length === 3 ? [3, 1, 1] : [1, 3, 1, 1];
  const { mul, add } = channelNormalisation(input);
  const nodes: NodeSpec[] = [];
  let value = model.newName('pixels_float');
  nodes.push({ opType: 'Cast', inputs: [pixels], outputs: [value], attributes: [{ name: 'to', int: DataType.FLOAT }] });
  const steps: Array<[string, number[], number]> = [
    ['Mul', mul, 1],
    ['Add', add, 0],
  ];
  const needed = steps.filter(([, values, identity]) => values.some((v) => v !== identity));
  needed.forEach(([op, values], i) => {
    const constant = model.constant(`${op.toLowerCase()}_per_channel`, {
      dataType: DataType.FLOAT,
      dims: channelDims,
      floats: values,
    });
    const last = i === needed.length - 1 && input.dtype === 'float32';
    const out = last ? name : model.newName(`pixels_${op.toLowerCase()}`);
    nodes.push({ opType: op, inputs: [value, constant], outputs: [out] });
    value = out;
  });
  if (input.dtype === 'float16') {
    nodes.push({
      opType: 'Cast',
      inputs: [value],
      outputs: [name],
      attributes: [{ name: 'to', int: DataType.FLOAT16 }],
    });
  } else if (needed.length === 0) {
    // scale 1, mean 0, std 1: the cast alone gives the values.
    nodes.push({ opType: 'Identity', inputs: [value], outputs: [name] });
  }
  model.prepend(nodes);
  return pixels;
}
