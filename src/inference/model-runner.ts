// One loaded model version inside one worker: its ONNX Runtime session, its
// reusable input tensor and its output decoder. predict() is the whole
// per-image pipeline: decode, preprocess (native, into the tensor), run,
// decode outputs, NMS, JSON.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as ort from 'onnxruntime-node';
import type { ExecutionProvider } from '../config.js';
import { decodeImage } from './decode-image.js';
import { groupByLabel, selectDetections } from './detections.js';
import { MODEL_FILE, type ModelConfig } from './model-config.js';
import { native, type PreprocessSpec } from './native.js';
import { createOutputDecoder, type OutputDecoder, type OutputInfo, type TensorLike } from './outputs/index.js';

export interface PredictOptions {
  threshold: number;
  iou: number;
  maxDetections: number;
}

export interface StageTimings {
  decodeMs: number;
  preprocessMs: number;
  inferenceMs: number;
  postprocessMs: number;
}

export interface PredictResult {
  /** the response body, serialised here so the main thread only writes it */
  json: string;
  timings: StageTimings;
}

export class ModelLoadError extends Error {}

export interface SessionSettings {
  providers: readonly ExecutionProvider[];
  intraOpThreads: number;
}

async function createSession(
  path: string,
  settings: SessionSettings,
): Promise<{ session: ort.InferenceSession; provider: ExecutionProvider; failures: string[] }> {
  const failures: string[] = [];
  for (const provider of settings.providers) {
    try {
      const session = await ort.InferenceSession.create(path, {
        // CPU stays listed after an accelerator so unsupported nodes still run.
        executionProviders: provider === 'cpu' ? ['cpu'] : [provider, 'cpu'],
        intraOpNumThreads: settings.intraOpThreads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
      return { session, provider, failures };
    } catch (error) {
      failures.push(`${provider}: ${(error as Error).message}`);
    }
  }
  throw new ModelLoadError(`no execution provider could load ${MODEL_FILE}: ${failures.join('; ')}`);
}

function checkInput(config: ModelConfig, meta: ort.InferenceSession.ValueMetadata | undefined, name: string): void {
  if (!meta) throw new ModelLoadError(`the model has no input named "${name}"`);
  if (!meta.isTensor) throw new ModelLoadError(`input "${name}" is not a tensor`);
  const { width, height, layout, dtype } = config.input;
  if (meta.type !== dtype) {
    throw new ModelLoadError(`model.json says input.dtype ${dtype} but input "${name}" is ${meta.type}`);
  }
  const expected = layout === 'NCHW' ? [1, 3, height, width] : [1, height, width, 3];
  const shape = meta.shape;
  const matches =
    shape.length === 4 && shape.every((d, i) => typeof d !== 'number' || d < 0 || d === expected[i]);
  if (!matches) {
    throw new ModelLoadError(
      `model.json describes input "${name}" as ${layout} [${expected.join(', ')}] but the model's input has shape [${shape.join(', ')}]`,
    );
  }
}

export class ModelRunner {
  private constructor(
    readonly config: ModelConfig,
    readonly provider: ExecutionProvider,
    /** why preferred execution providers were skipped, e.g. "cuda: ..." */
    readonly providerFailures: readonly string[],
    private readonly session: ort.InferenceSession,
    private readonly inputName: string,
    private readonly input: Float32Array | Uint16Array,
    private readonly inputTensor: ort.Tensor,
    private readonly decoder: OutputDecoder,
    private readonly normalisation: Pick<PreprocessSpec, 'mul' | 'add' | 'pad' | 'bgr' | 'nhwc'>,
  ) {}

  static async load(directory: string, config: ModelConfig, settings: SessionSettings): Promise<ModelRunner> {
    const { session, provider, failures } = await createSession(join(directory, MODEL_FILE), settings);
    try {
      const inputName = config.input.name ?? session.inputNames[0];
      if (!inputName) throw new ModelLoadError('the model has no inputs');
      if (session.inputNames.length !== 1) {
        throw new ModelLoadError(`the model has ${session.inputNames.length} inputs; exactly one image input is supported`);
      }
      checkInput(config, session.inputMetadata.find((m) => m.name === inputName), inputName);
      const outputs: OutputInfo[] = session.outputMetadata.map((m) => ({
        name: m.name,
        shape: m.isTensor ? m.shape : [],
        type: m.isTensor ? m.type : 'non-tensor',
      }));
      let decoder: OutputDecoder;
      try {
        decoder = createOutputDecoder(config, outputs);
      } catch (error) {
        throw new ModelLoadError((error as Error).message);
      }

      const { width, height, layout, dtype, scale, mean, std, padValue, color } = config.input;
      const elements = width * height * 3;
      const input = dtype === 'float16' ? new Uint16Array(elements) : new Float32Array(elements);
      const dims = layout === 'NCHW' ? [1, 3, height, width] : [1, height, width, 3];
      const inputTensor = new ort.Tensor(dtype, input, dims);
      const normalisation = {
        mul: [0, 1, 2].map((c) => 1 / (scale * std[c]!)) as [number, number, number],
        add: [0, 1, 2].map((c) => -mean[c]! / std[c]!) as [number, number, number],
        pad: [padValue, padValue, padValue] as [number, number, number],
        bgr: color === 'BGR',
        nhwc: layout === 'NHWC',
      };
      const runner = new ModelRunner(config, provider, failures, session, inputName, input, inputTensor, decoder, normalisation);
      await runner.warmUp();
      return runner;
    } catch (error) {
      await session.release().catch(() => {});
      throw error;
    }
  }

  /** One run on an all-padding input: allocates ORT's arenas and proves the outputs decode. */
  private async warmUp(): Promise<void> {
    const { width, height } = this.config.input;
    this.fill(new Uint8Array(3), 1, 1, 3, { dstWidth: width, dstHeight: height, rectX: 0, rectY: 0, rectWidth: 1, rectHeight: 1 });
    try {
      const outputs = await this.session.run({ [this.inputName]: this.inputTensor });
      this.decoder.decode(outputs as Record<string, TensorLike>, 1.01);
    } catch (error) {
      throw new ModelLoadError(`warm-up run failed: ${(error as Error).message}`);
    }
  }

  private fill(
    pixels: Uint8Array,
    width: number,
    height: number,
    channels: number,
    placement: Omit<PreprocessSpec, 'mul' | 'add' | 'pad' | 'bgr' | 'nhwc'>,
  ): void {
    native.preprocess(pixels, width, height, channels, this.input, { ...placement, ...this.normalisation });
  }

  async predict(image: Uint8Array, options: PredictOptions, maxPixels: number): Promise<PredictResult> {
    const t0 = performance.now();
    const { width, height, resize, padValue } = this.config.input;
    const decoded = await decodeImage(image, { width, height, resize, padValue }, maxPixels);
    const t1 = performance.now();
    const { pixels, placement } = decoded;
    this.fill(pixels.data, pixels.width, pixels.height, pixels.channels, placement);
    const t2 = performance.now();
    const outputs = (await this.session.run({ [this.inputName]: this.inputTensor })) as Record<string, TensorLike>;
    const t3 = performance.now();
    const candidates = this.decoder.decode(outputs, options.threshold);
    const detections = selectDetections(candidates, placement, {
      iou: options.iou,
      maxDetections: options.maxDetections,
      nms: !this.decoder.nmsFree,
    });
    const json = JSON.stringify(groupByLabel(detections, this.config.labels));
    const t4 = performance.now();
    return {
      json,
      timings: { decodeMs: t1 - t0, preprocessMs: t2 - t1, inferenceMs: t3 - t2, postprocessMs: t4 - t3 },
    };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
