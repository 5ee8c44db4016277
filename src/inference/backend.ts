// One ONNX Runtime session of one model version, able to run a batch: the
// images' tensors are copied into one contiguous input, run, and every
// output is split back into one image's outputs. Lives in an instance
// thread (instance-worker.ts); model registration also loads one in process
// to validate a model before accepting it.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as ort from 'onnxruntime-node';
import { MODEL_FILE, type ModelConfig } from './model-config.js';
import { createOutputDecoder, type OutputInfo, type TensorLike } from './outputs/index.js';
import type { ImageOutputs } from './postprocess.js';
import { fillPadding, inputElements, tensorView } from './preprocess.js';
import { checkInput, createSession, ModelLoadError, outputInfos, type BatchAxis, type SessionOptions } from './session.js';

export { ModelLoadError } from './session.js';

export interface BackendOptions extends SessionOptions {
  /** the largest batch wanted; the model's batch axis may allow less */
  maxBatchSize: number;
  /** a dynamic batch axis always runs maxBatchSize rows (model-config padsToMaxBatchSize) */
  padToMaxBatchSize?: boolean;
}

/** What the loader learns about a version and the scheduler needs. */
export interface BackendInfo {
  provider: string;
  providerFailures: string[];
  outputs: OutputInfo[];
  batchAxis: BatchAxis;
  /** the most images one run takes: 1 for a batch-1 model */
  maxBatchSize: number;
  /** why batching is off although a batch was asked for, if it is */
  batchingNote: string | undefined;
}

type InputArray = Float32Array | Uint16Array;

export interface BatchResult {
  outputs: ImageOutputs[];
  runMs: number;
  /** rows the session ran: the images, or more where the batch axis is fixed or padded */
  rows: number;
}

export class ModelBackend {
  /** one input tensor per batch size, all views of `input` */
  private readonly tensors = new Map<number, ort.Tensor>();

  private constructor(
    readonly config: ModelConfig,
    readonly info: BackendInfo,
    private readonly session: ort.InferenceSession,
    private readonly inputName: string,
    private readonly input: InputArray,
    private readonly padToMax: boolean,
  ) {}

  static async load(directory: string, config: ModelConfig, options: BackendOptions): Promise<ModelBackend> {
    const { session, provider, failures } = await createSession(join(directory, MODEL_FILE), options);
    try {
      const inputName = config.input.name ?? session.inputNames[0];
      if (!inputName) throw new ModelLoadError('the model has no inputs');
      if (session.inputNames.length !== 1) {
        throw new ModelLoadError(`the model has ${session.inputNames.length} inputs; exactly one image input is supported`);
      }
      const batchAxis = checkInput(config, session.inputMetadata.find((m) => m.name === inputName), inputName);
      const outputs = outputInfos(session);
      try {
        createOutputDecoder(config, outputs);
      } catch (error) {
        throw new ModelLoadError((error as Error).message);
      }
      const wanted = Math.max(1, options.maxBatchSize);
      const rows = batchAxis.kind === 'fixed' ? batchAxis.size : wanted;
      const elements = inputElements(config.input);
      const input = config.input.dtype === 'float16' ? new Uint16Array(rows * elements) : new Float32Array(rows * elements);
      const info: BackendInfo = {
        provider,
        providerFailures: failures,
        outputs,
        batchAxis,
        maxBatchSize: batchAxis.kind === 'fixed' ? Math.min(wanted, batchAxis.size) : wanted,
        batchingNote: undefined,
      };
      const backend = new ModelBackend(config, info, session, inputName, input, options.padToMaxBatchSize ?? false);
      await backend.warmUp();
      return backend;
    } catch (error) {
      await session.release().catch(() => {});
      throw error;
    }
  }

  /** rows the session runs for `count` images: a fixed batch axis is always filled, a padded one too */
  private rows(count: number): number {
    if (this.info.batchAxis.kind === 'fixed') return this.info.batchAxis.size;
    return this.padToMax && this.info.maxBatchSize > 1 ? this.info.maxBatchSize : count;
  }

  private tensor(rows: number): ort.Tensor {
    let tensor = this.tensors.get(rows);
    if (!tensor) {
      const { width, height, layout, dtype, batchAxis } = this.config.input;
      const data = this.input.subarray(0, rows * inputElements(this.config.input));
      const image = layout === 'NCHW' ? [3, height, width] : [height, width, 3];
      tensor = new ort.Tensor(dtype, data, batchAxis ? [rows, ...image] : image);
      // Where Float16Array exists (Node 24), onnxruntime-common re-views a
      // float16 Uint16Array as a Float16Array, which Node-API does not know:
      // onnxruntime-node 1.30 then reads 0 bytes ("not enough space"). Keep
      // the Uint16Array, which the binding accepts for float16.
      if (!(tensor.data instanceof Uint16Array) && data instanceof Uint16Array) {
        (tensor as unknown as { cpuData: Uint16Array }).cpuData = data;
      }
      this.tensors.set(rows, tensor);
    }
    return tensor;
  }

  /**
   * Runs on all-padding input: allocates ONNX Runtime's arenas and proves
   * the outputs decode. A model that asks for batching is also run with two
   * images, and batching is turned off (with a note) if its outputs have no
   * batch axis to split on.
   */
  private async warmUp(): Promise<void> {
    const elements = inputElements(this.config.input);
    const pad = tensorView(this.config.input, new ArrayBuffer(elements * this.input.BYTES_PER_ELEMENT));
    fillPadding(this.config.input, pad);
    if (this.info.maxBatchSize > 1) await this.probeBatchAxis(pad);
    const decoder = createOutputDecoder(this.config, this.info.outputs);
    try {
      const [outputs] = (await this.run([pad])).outputs;
      // Nothing passes a threshold above 1: this checks the shapes, not the scores.
      if (decoder.task === 'classify') decoder.scores(outputs!);
      else decoder.decode(outputs!, 1.01);
    } catch (error) {
      throw new ModelLoadError(`warm-up run failed: ${(error as Error).message}`);
    }
  }

  /** Runs two images and turns batching off (or fails a fixed batch) if an output has no batch axis. */
  private async probeBatchAxis(pad: InputArray): Promise<void> {
    const rows = this.rows(2);
    let raw: ort.InferenceSession.OnnxValueMapType;
    try {
      this.input.set(pad, 0);
      this.input.set(pad, pad.length);
      raw = await this.session.run({ [this.inputName]: this.tensor(rows) });
    } catch (error) {
      throw new ModelLoadError(`warm-up run with a batch of ${rows} failed: ${(error as Error).message}`);
    }
    const unbatched = Object.entries(raw).find(([, t]) => t.dims[0] !== rows);
    if (!unbatched) return;
    const reason = `output "${unbatched[0]}" has shape [${unbatched[1].dims.join(', ')}] for a batch of ${rows}: no batch axis to split on`;
    if (this.info.batchAxis.kind === 'fixed') throw new ModelLoadError(reason);
    this.info.maxBatchSize = 1;
    this.info.batchingNote = `batching off: ${reason}`;
  }

  /** Runs one batch of images' tensors and splits the outputs per image. */
  async run(images: readonly InputArray[]): Promise<BatchResult> {
    if (images.length < 1 || images.length > this.info.maxBatchSize) {
      throw new Error(`a batch of ${images.length} images; this model takes 1 to ${this.info.maxBatchSize}`);
    }
    const elements = inputElements(this.config.input);
    images.forEach((image, i) => this.input.set(image, i * elements));
    const rows = this.rows(images.length);
    // A fixed (or padded) batch axis is filled with zeros; their outputs are dropped.
    if (rows > images.length) this.input.fill(0, images.length * elements, rows * elements);
    const started = performance.now();
    const raw = (await this.session.run({ [this.inputName]: this.tensor(rows) })) as Record<string, TensorLike>;
    const runMs = performance.now() - started;
    return { outputs: this.split(raw, images.length, rows), runMs, rows };
  }

  private split(raw: Readonly<Record<string, TensorLike>>, count: number, rows: number): ImageOutputs[] {
    const outputs: ImageOutputs[] = Array.from({ length: count }, () => ({}));
    const batched = this.info.maxBatchSize > 1 || rows > 1;
    for (const [name, tensor] of Object.entries(raw)) {
      const data = tensor.data as InputArray;
      if (!batched) {
        outputs[0]![name] = { dims: tensor.dims, type: tensor.type, data: data.slice() };
        continue;
      }
      if (tensor.dims[0] !== rows) {
        throw new Error(`output "${name}" has shape [${tensor.dims.join(', ')}] for a batch of ${rows}`);
      }
      const per = data.length / rows;
      const dims = [1, ...tensor.dims.slice(1)];
      for (let i = 0; i < count; i++) outputs[i]![name] = { dims, type: tensor.type, data: data.slice(i * per, (i + 1) * per) };
    }
    return outputs;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
