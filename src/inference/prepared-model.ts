// The model a version's sessions load: its ONNX file rewritten at the edges
// (graph/), so that bytes go in and candidates come out.
//
//   - bytes in (graph/input-prefix.ts): the image input takes uint8 pixels
//     and the graph normalises them, so the pipeline workers write a quarter
//     of the bytes and a GPU instance copies a quarter to the device;
//   - candidates out (graph/candidates-suffix.ts): a dense YOLO head leaves
//     the model reduced to the anchors that can pass the request's
//     threshold, so a few kilobytes come back instead of megabytes and the
//     decoder reads only candidates.
//
// Either part is left out, with the reason in the log and the version's
// details, where it cannot apply: a model already taking uint8, a graph the
// rewrite cannot handle (too old an operator set, an unexpected head), a
// rewritten model that ONNX Runtime refuses. The answers are the same
// either way (test/unit/graph-rewrite.test.ts).
//
// The first load writes the rewritten model and what was learned about the
// original (its input and outputs as ONNX Runtime reports them) beside the
// version's files; later loads, the version's other instances and other
// loads on this server read them back, unless model.onnx or the parts of
// model.json the rewrite depends on changed.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { addCandidatesSuffix, type CandidateOutputs } from './graph/candidates-suffix.js';
import { addInputPrefix } from './graph/input-prefix.js';
import { OnnxModel } from './graph/onnx-model.js';
import { MODEL_FILE, type ModelConfig } from './model-config.js';
import { createOutputDecoder, type OutputInfo } from './outputs/index.js';
import { checkInput, ModelLoadError, outputInfos, type BatchAxis } from './session.js';

export type { CandidateOutputs } from './graph/candidates-suffix.js';

/** Element type of the input the server feeds: what its tensor slots hold. */
export type InputDtype = 'uint8' | 'float32' | 'float16';

export interface PreparedModel {
  /** what the session loads: the rewritten file, the original one, or the rewritten bytes (no cache directory) */
  source: string | Uint8Array;
  /** the image input the server feeds */
  input: { name: string; dtype: InputDtype };
  /** the original image input's batch axis (session.ts checkInput) */
  batchAxis: BatchAxis;
  /** the outputs as the original model has them: what the decoders read, the reduced head under its own name */
  outputs: OutputInfo[];
  /** set when the dense head leaves the model reduced to its candidates */
  candidates: CandidateOutputs | undefined;
  /** what the rewrite did, and why a part of it was left out */
  notes: string[];
}

export interface PreparationOptions {
  /** where the rewritten model is kept between loads; undefined: rewritten in memory each time */
  cacheDirectory?: string | undefined;
  /** false: the model runs as it is (GRAPH_REWRITE=off) */
  rewrite: boolean;
}

/** Bump when the rewrite's output changes, so cached files are made again. */
const REWRITE_VERSION = 1;
const PREPARED_FILE = 'model.prepared.onnx';
const PREPARED_INFO = 'model.prepared.json';

interface CachedPreparation {
  key: string;
  prepared: Omit<PreparedModel, 'source'> & { rewritten: boolean };
}

/** What the cached files depend on: the model file and the parts of model.json the rewrite reads. */
async function cacheKey(modelFile: string, config: ModelConfig, options: PreparationOptions): Promise<string> {
  const { size, mtimeMs } = await stat(modelFile);
  return JSON.stringify({
    v: REWRITE_VERSION,
    size,
    mtimeMs,
    rewrite: options.rewrite,
    input: config.input,
    output: config.output,
    labels: config.labels.length,
    keypoints: config.keypoints?.length ?? 0,
  });
}

/** The model the sessions load, prepared (or read back from the cache). Throws ModelLoadError for a model model.json does not describe. */
export async function prepareModel(directory: string, config: ModelConfig, options: PreparationOptions): Promise<PreparedModel> {
  const modelFile = join(directory, MODEL_FILE);
  const cacheDirectory = options.cacheDirectory;
  const key = await cacheKey(modelFile, config, options);
  if (cacheDirectory) {
    const cached = await readCached(cacheDirectory, key);
    if (cached) {
      const { rewritten, ...prepared } = cached.prepared;
      return { ...prepared, source: rewritten ? join(cacheDirectory, PREPARED_FILE) : modelFile };
    }
  }
  const original = await readFile(modelFile);
  const { prepared, rewritten } = await rewrite(original, config, options);
  if (!cacheDirectory) return { ...prepared, source: rewritten ?? modelFile };
  // Kept even when nothing was rewritten: the metadata spares the next load a session.
  await mkdir(cacheDirectory, { recursive: true });
  if (rewritten) await writeAtomically(join(cacheDirectory, PREPARED_FILE), rewritten);
  const entry: CachedPreparation = { key, prepared: { ...prepared, rewritten: rewritten !== undefined } };
  await writeAtomically(join(cacheDirectory, PREPARED_INFO), JSON.stringify(entry));
  return { ...prepared, source: rewritten ? join(cacheDirectory, PREPARED_FILE) : modelFile };
}

async function readCached(cacheDirectory: string, key: string): Promise<CachedPreparation | undefined> {
  try {
    const entry = JSON.parse(await readFile(join(cacheDirectory, PREPARED_INFO), 'utf8')) as CachedPreparation;
    if (entry.key !== key) return undefined;
    if (entry.prepared.rewritten && !existsSync(join(cacheDirectory, PREPARED_FILE))) return undefined;
    return entry;
  } catch {
    return undefined;
  }
}

/** Several instances (threads, processes) may prepare at once: each writes whole files under a new name, then renames. */
async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, path);
}

/** One short-lived session of `bytes`, for its metadata or to prove it loads. */
async function withSession<T>(bytes: Uint8Array, use: (session: ort.InferenceSession) => T): Promise<T> {
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['cpu'], intraOpNumThreads: 1, graphOptimizationLevel: 'disabled' });
  try {
    return use(session);
  } finally {
    await session.release();
  }
}

type Preparation = Omit<PreparedModel, 'source'>;

async function rewrite(original: Uint8Array, config: ModelConfig, options: PreparationOptions): Promise<{ prepared: Preparation; rewritten: Uint8Array | undefined }> {
  let metadata;
  try {
    metadata = await withSession(original, (s) => ({ inputNames: [...s.inputNames], inputs: [...s.inputMetadata], outputs: outputInfos(s) }));
  } catch (error) {
    throw new ModelLoadError(`ONNX Runtime cannot load ${MODEL_FILE}: ${(error as Error).message}`);
  }
  const inputName = config.input.name ?? metadata.inputNames[0];
  if (!inputName) throw new ModelLoadError('the model has no inputs');
  if (metadata.inputNames.length !== 1) {
    throw new ModelLoadError(`the model has ${metadata.inputNames.length} inputs; exactly one image input is supported`);
  }
  const inputMeta = metadata.inputs.find((m) => m.name === inputName);
  const batchAxis = checkInput(config, inputMeta, inputName);
  let decoder;
  try {
    decoder = createOutputDecoder(config, metadata.outputs);
  } catch (error) {
    throw new ModelLoadError((error as Error).message);
  }
  const unrewritten: Preparation = {
    input: { name: inputName, dtype: config.input.dtype },
    batchAxis,
    outputs: metadata.outputs,
    candidates: undefined,
    notes: [],
  };
  if (!options.rewrite) return { prepared: { ...unrewritten, notes: ['graph rewrite off (GRAPH_REWRITE)'] }, rewritten: undefined };

  const head = decoder.task === 'detect' ? decoder.denseHead : undefined;
  const headShape = head && metadata.outputs.find((o) => o.name === head.output)?.shape;
  // Each part is tried alone first, so one that cannot apply leaves the other in.
  const parts = {
    prefix: config.input.dtype === 'uint8' ? undefined : (model: OnnxModel) => addInputPrefix(model, inputName, config.input),
    suffix: head && headShape ? (model: OnnxModel) => addCandidatesSuffix(model, head, headShape) : undefined,
  };
  const notes: string[] = [];
  const applies = (name: string, part: ((model: OnnxModel) => unknown) | undefined): boolean => {
    if (!part) return false;
    try {
      part(OnnxModel.parse(original));
      return true;
    } catch (error) {
      notes.push(`${name} left out: ${(error as Error).message}`);
      return false;
    }
  };
  const prefix = applies('uint8 input', parts.prefix);
  const suffix = applies('candidates output', parts.suffix);
  if (!head) notes.push(`candidates output: not a dense head (format ${decoder.format})`);
  if (!prefix && !suffix) return { prepared: { ...unrewritten, notes }, rewritten: undefined };

  const model = OnnxModel.parse(original);
  const pixels = prefix ? parts.prefix!(model) : undefined;
  const candidates = suffix ? parts.suffix!(model) : undefined;
  const rewritten = model.encode();
  try {
    await withSession(rewritten, () => undefined);
  } catch (error) {
    notes.push(`rewrite left out: ONNX Runtime refused the rewritten model: ${(error as Error).message}`);
    return { prepared: { ...unrewritten, notes }, rewritten: undefined };
  }
  if (pixels) notes.unshift(`uint8 input "${pixels}", normalised in the graph`);
  if (candidates) notes.unshift(`output "${candidates.head}" reduced to its candidates in the graph`);
  return {
    prepared: { ...unrewritten, input: pixels ? { name: pixels, dtype: 'uint8' } : unrewritten.input, candidates, notes },
    rewritten,
  };
}
