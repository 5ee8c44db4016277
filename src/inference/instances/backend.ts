// One ONNX Runtime session of one model version, able to run a batch: the
// images' tensors are copied into one contiguous input, run, and every
// output is split back into one image's outputs. The session runs the
// prepared model (prepared-model.ts): pixels in, and for a dense head its
// candidates out, which are split by the image each belongs to. Lives in an
// instance thread (instance-entry.ts); a validation process loads one too,
// before a version is accepted.
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../log.js';
import type { ModelConfig } from '../versions/model-config.js';
import { createOutputDecoder, type OutputInfo, type TensorLike } from '../outputs/index.js';
import type { ImageOutputs } from '../pipeline/postprocess.js';
import {
  prepareModel,
  type CandidateOutputs,
  type InputDtype,
  type PreparationOptions,
  type PreparedModel,
} from './prepared-model.js';
import { fillPadding, inputElements, newTensorArray, type TensorArray } from '../pipeline/preprocess.js';
import type { Feed, RunnerKind, SessionRunner } from './session-runner.js';
import { createSession, fixedRows, ModelLoadError, type BatchAxis, type SessionOptions } from './session.js';

export interface BackendOptions extends SessionOptions {
  /** the largest batch wanted; the model's batch axis may allow less */
  maxBatchSize: number;
  /** a dynamic batch axis always runs maxBatchSize rows (model-config padsToMaxBatchSize) */
  padToMaxBatchSize?: boolean;
  /** how the model is rewritten, and where the rewrite is kept */
  preparation: PreparationOptions;
  /** told as each warm-up run begins and ends, with its time (a validation limits the later runs by the first one's) */
  onWarmUp?: (event: WarmUpEvent) => void;
}

/**
 * A step of the warm-up: a run of `images` begins (the first, of one image,
 * once the session is created), or it has ended after `ms`.
 */
export type WarmUpEvent = { run: { images: number } } | { ran: { images: number; ms: number } };

/** What the loader learns about a version and the scheduler needs. */
export interface BackendInfo {
  provider: string;
  /** what drives the session: onnxruntime-node or the native runner (session-runner.ts) */
  runner: RunnerKind;
  providerFailures: string[];
  outputs: OutputInfo[];
  batchAxis: BatchAxis;
  /** the most images one run takes: 1 for a batch-1 model */
  maxBatchSize: number;
  /** why batching is off although a batch was asked for, if it is */
  batchingNote: string | undefined;
  /** what the input tensor slots hold: uint8 pixels unless the rewrite was left out */
  inputDtype: InputDtype;
  /** the model reduces its dense head to candidates: each image runs with its score threshold as a floor */
  candidates: boolean;
  /** what preparing the model did, and why a part was left out (prepared-model.ts) */
  preparation: string[];
}

type InputArray = TensorArray;

/** The largest float32 not above `value`: a floor the graph compares float32 scores with, never above the threshold. */
export function float32AtMost(value: number): number {
  const rounded = new Float32Array([value]);
  if (rounded[0]! <= value) return rounded[0]!;
  const bits = new Int32Array(rounded.buffer);
  bits[0]! += rounded[0]! > 0 ? -1 : 1;
  return rounded[0]!;
}

export interface BatchResult {
  outputs: ImageOutputs[];
  runMs: number;
  /** rows the session ran: the images, or more where the batch axis is fixed or padded */
  rows: number;
}

export class ModelBackend {
  /** one input tensor per batch size, all views of `input` */
  private readonly tensors = new Map<number, Feed>();
  /** the score floor input per batch size, views of `floors` */
  private readonly floorTensors = new Map<number, Feed>();

  private constructor(
    readonly config: ModelConfig,
    readonly info: BackendInfo,
    private readonly session: SessionRunner,
    private readonly inputName: string,
    private readonly input: InputArray,
    private readonly candidates: CandidateOutputs | undefined,
    private readonly floors: Float32Array,
    private readonly padToMax: boolean,
  ) {}

  static async load(
    directory: string,
    config: ModelConfig,
    options: BackendOptions,
    log: Logger,
  ): Promise<ModelBackend> {
    const prepared = await prepareModel(directory, config, options.preparation);
    const choice = options.runner ?? 'auto';
    if (choice !== 'auto') return ModelBackend.start(prepared, config, { ...options, runner: choice }, log);
    // auto: the native runner for a CUDA instance (CUDA options, pinned
    // memory, I/O binding), proven by its load and warm-up; if anything of
    // that fails, onnxruntime-node with every provider, the reason kept.
    if (options.providers[0] === 'cuda') {
      try {
        return await ModelBackend.start(prepared, config, { ...options, providers: ['cuda'], runner: 'native' }, log);
      } catch (error) {
        return ModelBackend.start(prepared, config, { ...options, runner: 'onnxruntime-node' }, log, [
          `cuda (native runner): ${(error as Error).message}`,
        ]);
      }
    }
    return ModelBackend.start(prepared, config, { ...options, runner: 'onnxruntime-node' }, log);
  }

  private static async start(
    prepared: PreparedModel,
    config: ModelConfig,
    options: BackendOptions & { runner: RunnerKind },
    log: Logger,
    earlier: string[] = [],
  ): Promise<ModelBackend> {
    const { runner: session, provider, failures } = await createSession(prepared.source, options, log);
    try {
      const { batchAxis } = prepared;
      const wanted = Math.max(1, options.maxBatchSize);
      const fixed = fixedRows(batchAxis);
      const rows = fixed ?? wanted;
      const input = newTensorArray(prepared.input.dtype, rows * inputElements(config.input));
      const info: BackendInfo = {
        provider,
        runner: session.kind,
        providerFailures: [...earlier, ...failures],
        outputs: prepared.outputs,
        batchAxis,
        maxBatchSize: Math.min(wanted, fixed ?? wanted),
        batchingNote: undefined,
        inputDtype: prepared.input.dtype,
        candidates: prepared.candidates !== undefined,
        preparation: prepared.notes,
      };
      const floors = new Float32Array(rows);
      const backend = new ModelBackend(
        config,
        info,
        session,
        prepared.input.name,
        input,
        prepared.candidates,
        floors,
        options.padToMaxBatchSize ?? false,
      );
      await backend.warmUp(options.onWarmUp);
      return backend;
    } catch (error) {
      await session.release().catch(() => {});
      throw error;
    }
  }

  /** rows the session runs for `count` images: a fixed batch axis is always filled, a padded one too */
  private rows(count: number): number {
    const fixed = fixedRows(this.info.batchAxis);
    if (fixed !== undefined) return fixed;
    return this.padToMax && this.info.maxBatchSize > 1 ? this.info.maxBatchSize : count;
  }

  private tensor(rows: number): Feed {
    let tensor = this.tensors.get(rows);
    if (!tensor) {
      const { width, height, layout } = this.config.input;
      const data = this.input.subarray(0, rows * inputElements(this.config.input));
      const image = layout === 'NCHW' ? [3, height, width] : [height, width, 3];
      tensor = {
        type: this.info.inputDtype,
        dims: this.info.batchAxis.kind === 'none' ? image : [rows, ...image],
        data,
      };
      this.tensors.set(rows, tensor);
    }
    return tensor;
  }

  private feeds(rows: number, thresholds: readonly number[]): Record<string, Feed> {
    const feeds: Record<string, Feed> = { [this.inputName]: this.tensor(rows) };
    if (this.candidates) {
      // Rows without an image (padding) keep nothing.
      for (let i = 0; i < rows; i++) this.floors[i] = i < thresholds.length ? float32AtMost(thresholds[i]!) : Infinity;
      let floor = this.floorTensors.get(rows);
      if (!floor)
        this.floorTensors.set(
          rows,
          (floor = { type: 'float32', dims: [rows, 1], data: this.floors.subarray(0, rows) }),
        );
      feeds[this.candidates.floor] = floor;
    }
    return feeds;
  }

  /**
   * Runs on all-padding input: allocates ONNX Runtime's arenas and proves
   * the outputs decode. One image runs first, timed (a validation derives
   * the later runs' limit from it); a model that asks for batching is then
   * run with two images, and batching is turned off (with a note) if its
   * outputs have no batch axis to split on. The first run's outputs are
   * decoded once the batching is settled: two runs, as many as before.
   */
  private async warmUp(onWarmUp: BackendOptions['onWarmUp']): Promise<void> {
    const pad = newTensorArray(this.info.inputDtype, inputElements(this.config.input));
    fillPadding(this.config.input, pad);
    // Nothing passes a threshold above 1: this checks the shapes, not the scores.
    const threshold = 1.01;
    let rows = this.rows(1);
    let raw: Record<string, TensorLike>;
    try {
      raw = await this.warmUpRun([pad], rows, [threshold], onWarmUp);
      if (this.info.maxBatchSize > 1) await this.probeBatchAxis(pad, onWarmUp);
      if (this.rows(1) !== rows) {
        // Padded to a batch that the probe turned off: one image runs alone from now on, as it is served.
        rows = this.rows(1);
        raw = await this.warmUpRun([pad], rows, [threshold], onWarmUp);
      }
    } catch (error) {
      if (error instanceof ModelLoadError) throw error;
      throw new ModelLoadError(`warm-up run failed: ${(error as Error).message}`);
    }
    const decoder = createOutputDecoder(this.config, this.info.outputs);
    try {
      const [outputs] = this.split(raw, 1, rows);
      if (decoder.task === 'classify') decoder.scores(outputs!);
      else decoder.decode(outputs!, threshold);
    } catch (error) {
      throw new ModelLoadError(`warm-up run failed: ${(error as Error).message}`);
    }
  }

  /** Runs two images and turns batching off (or fails a fixed batch) if an output has no batch axis. */
  private async probeBatchAxis(pad: InputArray, onWarmUp: BackendOptions['onWarmUp']): Promise<void> {
    const rows = this.rows(2);
    let raw: Record<string, TensorLike>;
    try {
      raw = await this.warmUpRun([pad, pad], rows, [1.01, 1.01], onWarmUp);
    } catch (error) {
      throw new ModelLoadError(`warm-up run with a batch of ${rows} failed: ${(error as Error).message}`);
    }
    const reduced = new Set([this.candidates?.candidates, this.candidates?.image, this.candidates?.classOf]);
    const unbatched = Object.entries(raw).find(([name, t]) => !reduced.has(name) && t.dims[0] !== rows);
    if (!unbatched) return;
    const reason = `output "${unbatched[0]}" has shape [${unbatched[1].dims.join(', ')}] for a batch of ${rows}: no batch axis to split on`;
    if (this.info.batchAxis.kind !== 'dynamic') throw new ModelLoadError(reason);
    this.info.maxBatchSize = 1;
    this.info.batchingNote = `batching off: ${reason}`;
  }

  /**
   * Runs one batch of images' tensors and splits the outputs per image.
   * `thresholds`: each image's score threshold, the floor of its
   * candidates (used when the model reduces its head).
   */
  async run(images: readonly InputArray[], thresholds: readonly number[]): Promise<BatchResult> {
    if (images.length < 1 || images.length > this.info.maxBatchSize) {
      throw new Error(`a batch of ${images.length} images; this model takes 1 to ${this.info.maxBatchSize}`);
    }
    const elements = inputElements(this.config.input);
    images.forEach((image, i) => this.input.set(image, i * elements));
    const rows = this.rows(images.length);
    // A fixed (or padded) batch axis is filled with zeros; their outputs are dropped.
    if (rows > images.length) this.input.fill(0, images.length * elements, rows * elements);
    const started = performance.now();
    const raw = await this.session.run(this.feeds(rows, thresholds));
    const runMs = performance.now() - started;
    return { outputs: this.split(raw, images.length, rows), runMs, rows };
  }

  /**
   * One run of the warm-up as `rows` rows, told as it begins and ends; its
   * raw outputs, split once the batching is settled. The rows past the
   * images are zeros, as in run().
   */
  private async warmUpRun(
    images: readonly InputArray[],
    rows: number,
    thresholds: readonly number[],
    onWarmUp: BackendOptions['onWarmUp'],
  ): Promise<Record<string, TensorLike>> {
    const elements = inputElements(this.config.input);
    images.forEach((image, i) => this.input.set(image, i * elements));
    if (rows > images.length) this.input.fill(0, images.length * elements, rows * elements);
    onWarmUp?.({ run: { images: images.length } });
    const started = performance.now();
    const raw = await this.session.run(this.feeds(rows, thresholds));
    onWarmUp?.({ ran: { images: images.length, ms: performance.now() - started } });
    return raw;
  }

  private split(raw: Readonly<Record<string, TensorLike>>, count: number, rows: number): ImageOutputs[] {
    const outputs: ImageOutputs[] = Array.from({ length: count }, () => ({}));
    const batched = this.info.maxBatchSize > 1 || rows > 1;
    const reduced = this.candidates;
    for (const [name, tensor] of Object.entries(raw)) {
      if (reduced && (name === reduced.candidates || name === reduced.image || name === reduced.classOf)) continue;
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
      for (let i = 0; i < count; i++)
        outputs[i]![name] = { dims, type: tensor.type, data: data.slice(i * per, (i + 1) * per) };
    }
    if (reduced) this.splitCandidates(raw, reduced, outputs);
    return outputs;
  }

  /** The reduced head's rows, by the image each belongs to (they come in image order). */
  private splitCandidates(
    raw: Readonly<Record<string, TensorLike>>,
    reduced: CandidateOutputs,
    outputs: ImageOutputs[],
  ): void {
    const values = raw[reduced.candidates]!;
    const images = raw[reduced.image]!.data as BigInt64Array;
    const classIds = raw[reduced.classOf]!.data as Int32Array;
    const data = values.data as Float32Array | Uint16Array;
    let start = 0;
    for (let i = 0; i < outputs.length; i++) {
      let end = start;
      while (end < images.length && Number(images[end]) === i) end++;
      outputs[i]![reduced.head] = {
        dims: [end - start, reduced.rows],
        type: values.type,
        data: data.slice(start * reduced.rows, end * reduced.rows),
        compact: { classIds: classIds.slice(start, end) },
      };
      start = end;
    }
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
