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
// either way (test/integration/graph-rewrite.test.ts).
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
import { addCandidatesSuffix, type CandidateOutputs } from '../graph/candidates-suffix.js';
import { convertToFloat16 } from '../graph/float16.js';
import { addInputPrefix } from '../graph/input-prefix.js';
import { OnnxModel } from '../graph/onnx-model.js';
import { MODEL_FILE, type ModelConfig, type Precision } from '../versions/model-config.js';
import { createOutputDecoder, type OutputInfo } from '../outputs/index.js';
import { createRunner, type SessionRunner } from './session-runner.js';
import { checkInput, ModelLoadError, outputInfos, type BatchAxis } from './session.js';

export type { CandidateOutputs } from '../graph/candidates-suffix.js';

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
  /** fp16: the weights converted to float16 (graph/float16.ts); default fp32 */
  precision?: Precision | undefined;
}

/** Bump when the rewrite's output changes, so cached files are made again. */
const REWRITE_VERSION = 4;
/** One pair of files per precision: a version's CPU validation and its GPU instances may differ. */
const preparedFile = (precision: Precision) =>
  precision === 'fp16' ? 'model.prepared.fp16.onnx' : 'model.prepared.onnx';
const preparedInfo = (precision: Precision) =>
  precision === 'fp16' ? 'model.prepared.fp16.json' : 'model.prepared.json';

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
    precision: options.precision ?? 'fp32',
    input: config.input,
    output: config.output,
    labels: config.labels.length,
    keypoints: config.keypoints?.length ?? 0,
  });
}

/** The model the sessions load, prepared (or read back from the cache). Throws ModelLoadError for a model model.json does not describe. */
export async function prepareModel(
  directory: string,
  config: ModelConfig,
  options: PreparationOptions,
): Promise<PreparedModel> {
  const modelFile = join(directory, MODEL_FILE);
  const cacheDirectory = options.cacheDirectory;
  const precision = options.precision ?? 'fp32';
  const key = await cacheKey(modelFile, config, options);
  const file = cacheDirectory && join(cacheDirectory, preparedFile(precision));
  const info = cacheDirectory && join(cacheDirectory, preparedInfo(precision));
  if (file && info) {
    const cached = await readCached(file, info, key);
    if (cached) {
      const { rewritten, ...prepared } = cached.prepared;
      return { ...prepared, source: rewritten ? file : modelFile };
    }
  }
  const original = await readFile(modelFile);
  const { prepared, rewritten } = await rewrite(original, config, options);
  if (!cacheDirectory || !file || !info) return { ...prepared, source: rewritten ?? modelFile };
  // Kept even when nothing was rewritten: the metadata spares the next load a session.
  await mkdir(cacheDirectory, { recursive: true });
  if (rewritten) await writeAtomically(file, rewritten);
  const entry: CachedPreparation = { key, prepared: { ...prepared, rewritten: rewritten !== undefined } };
  await writeAtomically(info, JSON.stringify(entry));
  return { ...prepared, source: rewritten ? file : modelFile };
}

async function readCached(file: string, info: string, key: string): Promise<CachedPreparation | undefined> {
  try {
    const entry = JSON.parse(await readFile(info, 'utf8')) as CachedPreparation;
    if (entry.key !== key) return undefined;
    if (entry.prepared.rewritten && !existsSync(file)) return undefined;
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

/** One short-lived CPU session of `bytes`, for its metadata or to prove it loads. */
async function withSession<T>(bytes: Uint8Array, use: (session: SessionRunner) => T): Promise<T> {
  const session = await createRunner('onnxruntime-node', bytes, {
    provider: 'cpu',
    deviceId: 0,
    intraOpThreads: 1,
    optimize: false,
  });
  try {
    return use(session);
  } finally {
    await session.release();
  }
}

type Preparation = Omit<PreparedModel, 'source'>;

async function rewrite(
  original: Uint8Array,
  config: ModelConfig,
  options: PreparationOptions,
): Promise<{ prepared: Preparation; rewritten: Uint8Array | undefined }> {
  let metadata;
  try {
    metadata = await withSession(original, (s) => ({
      inputNames: s.inputs.map((i) => i.name),
      inputs: [...s.inputs],
      outputs: outputInfos(s),
    }));
  } catch (error) {
    throw new ModelLoadError(`ONNX Runtime cannot load ${MODEL_FILE}: ${(error as Error).message}`);
  }
  const inputName = config.input.name ?? metadata.inputNames[0];
  if (!inputName) throw new ModelLoadError('the model has no inputs');
  if (metadata.inputNames.length !== 1) {
    throw new ModelLoadError(
      `the model has ${metadata.inputNames.length} inputs; exactly one image input is supported`,
    );
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
  const notes: string[] = [];
  // FP16 first: the prefix and suffix then go around the converted graph.
  let base = original;
  if (options.precision === 'fp16') {
    try {
      base = convertToFloat16(original);
      notes.push('weights and arithmetic in float16');
    } catch (error) {
      notes.push(`float16 left out: ${(error as Error).message}`);
    }
  }
  if (!options.rewrite) {
    notes.push('graph rewrite off (GRAPH_REWRITE)');
    return { prepared: { ...unrewritten, notes }, rewritten: base === original ? undefined : base };
  }

  const head = decoder.task === 'detect' ? decoder.denseHead : undefined;
  const headShape = head && metadata.outputs.find((o) => o.name === head.output)?.shape;
  // Each part is tried alone first, so one that cannot apply leaves the other in.
  const parts = {
    prefix:
      config.input.dtype === 'uint8' ? undefined : (model: OnnxModel) => addInputPrefix(model, inputName, config.input),
    suffix: head && headShape ? (model: OnnxModel) => addCandidatesSuffix(model, head, headShape) : undefined,
  };
  const applies = (name: string, part: ((model: OnnxModel) => unknown) | undefined): boolean => {
    if (!part) return false;
    try {
      part(OnnxModel.parse(base));
      return true;
    } catch (error) {
      notes.push(`${name} left out: ${(error as Error).message}`);
      return false;
    }
  };
  const prefix = applies('uint8 input', parts.prefix);
  const suffix = applies('candidates output', parts.suffix);
  if (!head) notes.push(`candidates output: not a dense head (format ${decoder.format})`);
  if (config.input.dtype === 'uint8') notes.push('uint8 input: the model takes pixels already');
  if (!prefix && !suffix)
    return { prepared: { ...unrewritten, notes }, rewritten: base === original ? undefined : base };

  const model = OnnxModel.parse(base);
  const pixels = prefix ? parts.prefix!(model) : undefined;
  const candidates = suffix ? parts.suffix!(model) : undefined;
  const rewritten = model.encode();
  try {
    await withSession(rewritten, () => undefined);
  } catch (error) {
    notes.push(`rewrite left out: ONNX Runtime refused the rewritten model: ${(error as Error).message}`);
    return { prepared: { ...unrewritten, notes }, rewritten: base === original ? undefined : base };
  }
  if (candidates) notes.unshift(`output "${candidates.head}" reduced to its candidates in the graph`);
  if (pixels) notes.unshift(`uint8 input "${pixels}", normalised in the graph`);
  return {
    prepared: {
      ...unrewritten,
      input: pixels ? { name: pixels, dtype: 'uint8' } : unrewritten.input,
      candidates,
      notes,
    },
    rewritten,
  };
}
