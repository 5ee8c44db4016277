// Entry point of a pipeline worker thread (run by piscina): the CPU-heavy
// steps of a prediction on either side of the model. `preprocess` turns a
// request body into an input tensor in a shared-memory slot; `postprocess`
// turns one image's outputs into the response JSON. Sessions live in the
// instance threads, not here, so any worker serves any model version.
import { workerData } from 'piscina';
import { DomainError, serializeError, type ErrorEnvelope } from '../../errors.js';
import { Logger, type LogSettings } from '../../log.js';
import type { Placement } from './letterbox.js';
import type { ModelConfig } from '../versions/model-config.js';
import type { OutputInfo } from '../outputs/index.js';
import { answer, DecoderCache, postprocess, type ImageOutputs } from './postprocess.js';
import type { Answer } from './detections.js';
import type { CropRect } from './crops.js';
import { predictErrors } from '../predict-errors.js';
import type { PredictOptions } from '../predict-options.js';
import type { InputDtype } from '../instances/prepared-model.js';
import {
  cropsInto,
  type KeepSettings,
  type KeptImage,
  preprocessInto,
  tensorView,
  type InputConfig,
} from './preprocess.js';
import { extractImage } from './request-body.js';
import type { JpegDecoder } from './decode-image.js';

export interface PipelineSettings {
  maxImageBytes: number;
  maxImagePixels: number;
  /** which decoder JPEGs get (decode-image.ts jpegDecoder, resolved from JPEG_DECODER) */
  jpegDecoder: JpegDecoder;
}

/** What a worker is started with: the settings, and the server's log settings to log with. */
export interface PipelineWorkerData extends PipelineSettings {
  log: LogSettings;
}

export interface PreprocessTask {
  op: 'preprocess';
  versionId: string;
  /** the request body, transferred (not copied) from the main thread */
  body: ArrayBuffer;
  contentType: string;
  input: InputConfig;
  /** what the slot holds: uint8 pixels for a prepared model, else the model's own input type */
  dtype: InputDtype;
  /** where the input tensor is written */
  slot: SharedArrayBuffer;
  /** keep the decoded image at its own size too, in shared memory (a version with child stages crops from it) */
  keep?: KeepSettings;
}

/** A child stage's crops of a kept image, each resampled into the child's input tensor in a slot of the child's. */
export interface CropsTask {
  op: 'crops';
  versionId: string;
  image: KeptImage;
  rects: CropRect[];
  input: InputConfig;
  dtype: InputDtype;
  /** where the crops' tensors are written, one slot a rect */
  slots: SharedArrayBuffer[];
}

/** Several images' outputs of one load (a child's crops) decoded into answers, not JSON: they are nested in a parent's. */
export interface AnswersTask {
  op: 'answers';
  versionId: string;
  loadKey: string;
  config: ModelConfig;
  outputInfo: OutputInfo[];
  outputs: ImageOutputs[];
  placements: Placement[];
  options: PredictOptions;
}

export interface PostprocessTask {
  op: 'postprocess';
  versionId: string;
  /** identifies one load of the version, for the decoder cache */
  loadKey: string;
  config: ModelConfig;
  outputInfo: OutputInfo[];
  /** this image's outputs, transferred from the instance through the main thread */
  outputs: ImageOutputs;
  placement: Placement;
  options: PredictOptions;
}

export type PipelineTask = PreprocessTask | PostprocessTask | CropsTask | AnswersTask;

/** a DomainError, as its envelope (errors.ts) */
export type Failure = { ok: false; error: ErrorEnvelope };
export type PreprocessOutcome =
  | {
      ok: true;
      placement: Placement;
      decodeMs: number;
      preprocessMs: number;
      kept?: KeptImage | undefined;
      keptInOffered?: boolean | undefined;
    }
  | Failure;
export type PostprocessOutcome = { ok: true; json: string; postprocessMs: number } | Failure;
export type CropsOutcome = { ok: true; placements: Placement[]; cropMs: number } | Failure;
export type AnswersOutcome = { ok: true; answers: Array<Record<string, Answer[]>>; postprocessMs: number } | Failure;
type Outcome = PreprocessOutcome | PostprocessOutcome | CropsOutcome | AnswersOutcome;

const settings = workerData as PipelineWorkerData;
const log = new Logger(settings.log);
const decoders = new DecoderCache();

async function runPreprocess(task: PreprocessTask): Promise<PreprocessOutcome> {
  const image = extractImage(task.contentType, new Uint8Array(task.body), settings.maxImageBytes);
  const result = await preprocessInto(
    image,
    task.input,
    tensorView(task.dtype, task.input, task.slot),
    settings.maxImagePixels,
    settings.jpegDecoder,
    task.keep,
  );
  return { ok: true, ...result };
}

function runCrops(task: CropsTask): CropsOutcome {
  const started = performance.now();
  const placements = cropsInto(task.image, task.rects, task.input, task.dtype, task.slots);
  return { ok: true, placements, cropMs: performance.now() - started };
}

function runAnswers(task: AnswersTask): AnswersOutcome {
  const started = performance.now();
  const decoder = decoders.get(task.loadKey, task.config, task.outputInfo);
  const answers = task.outputs.map((outputs, i) =>
    answer(decoder, task.config.labels, outputs, task.placements[i]!, task.options),
  );
  return { ok: true, answers, postprocessMs: performance.now() - started };
}

/** What each task's op runs. */
function runTask(task: PipelineTask): Outcome | Promise<Outcome> {
  switch (task.op) {
    case 'preprocess':
      return runPreprocess(task);
    case 'postprocess':
      return runPostprocess(task);
    case 'crops':
      return runCrops(task);
    case 'answers':
      return runAnswers(task);
  }
}

function runPostprocess(task: PostprocessTask): PostprocessOutcome {
  const started = performance.now();
  const decoder = decoders.get(task.loadKey, task.config, task.outputInfo);
  const json = postprocess(decoder, task.config.labels, task.outputs, task.placement, task.options);
  return { ok: true, json, postprocessMs: performance.now() - started };
}

/**
 * piscina's single entry point. (Named task functions would be neater, but
 * piscina imports them before tsx's loader is active in development.)
 */
export default async function run(task: PipelineTask): Promise<Outcome> {
  try {
    return await runTask(task);
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: serializeError(error) };
    log.error(`${task.op} failed`, { versionId: task.versionId, error: error as Error });
    return {
      ok: false,
      error: serializeError(predictErrors.inferenceFailed(task.versionId, (error as Error).message)),
    };
  }
}
