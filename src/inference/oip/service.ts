// The Open Inference Protocol's operations over the server's models, once,
// for both front ends (docs/ARCHITECTURE.md, "The path of an OIP request").
// A model is addressed by its name in the caller's organization, or, when
// the organization has none of that name, a public model's (the bundled
// demo, as on predict); a version by its id or its number, none meaning the
// model's latest Active version. An image input runs predict's own path:
// each image is one pass through predict's admission (the organization's
// share, the version's queue, fair share, the same metrics series) with the
// image as its body, batched with predict's requests, and answers predict's
// JSON byte for byte, with boxes, scores, classes and count beside it on
// request (as OpenVINO Model Server answers images).
import { DomainError, type ErrorCode } from '../../errors.js';
import { SERVER_NAME, SERVER_VERSION } from '../../lib/server-version.js';
import type { DeployedVersion } from '../inference-service.js';
import { skippedReasons } from '../child-stages.js';
import { MAX_DETECTIONS_LIMIT, predictOptions, type PredictOptions, TOP_K_LIMIT } from '../predict-options.js';
import type { ImageOutputs } from '../pipeline/postprocess.js';
import { RAW_IMAGE_CONTENT_TYPE } from '../pipeline/request-body.js';
import { bufferedBody, type PredictAdmission, type PredictPass } from '../scheduling/admission.js';
import { maxBatchSizeOf } from '../versions/model-config.js';
import {
  type Datatype,
  type InferRequest,
  type InferResponse,
  type ModelMetadata,
  type OipCaller,
  OipError,
  type OipErrorKind,
  type OipService,
  type Parameters,
  type RequestedOutput,
  type ServerMetadata,
  type Tensor,
  type TensorMetadata,
} from './protocol.js';
import { checkTensor, invalidTensor } from './tensors.js';

/** The names the protocol addresses models by (platform/model-names.ts keeps them in memory). */
export interface ModelNames {
  /** a model's name, by its id */
  modelName(modelId: string): string | undefined;
  /** a version's number within its model, by the version's id */
  versionNumber(versionId: string): number | undefined;
}

/** What the service reads of the scheduler (inference-service.ts's InferenceService). */
interface DeployedVersions {
  deployed(): Iterable<DeployedVersion>;
  /** one image's input tensor run as the model takes it: its raw outputs (throws for a rewritten version) */
  runTensor(version: DeployedVersion, organizationId: string, input: Uint8Array): Promise<ImageOutputs>;
  /** 'ok' once every version found at start has loaded and one is Active */
  modelReadiness(): 'ok' | 'loading' | 'none-active';
}

export interface OipCoreDependencies {
  versions: DeployedVersions;
  /** predict's gates: every image of an OIP request passes them as a predict request does */
  admission: PredictAdmission<DeployedVersion>;
  names: ModelNames;
  /** the organization of an enabled inference key (platform/inference-keys.ts), or undefined */
  organizationOf(key: string | undefined): string | undefined;
  /** BATCHING_MAX_BATCH_SIZE: a version's batch limit where its model.json sets none */
  defaultMaxBatchSize: number;
  /** the protocol's extensions the front ends serve (the REST one adds binary_tensor_data) */
  extensions: readonly string[];
}

/** The image way's input (or the model's own input name with datatype BYTES). */
const IMAGE_INPUT = 'image';

/** The image way's outputs, in the order metadata lists them. */
const IMAGE_OUTPUTS: readonly TensorMetadata[] = [
  { name: 'detections', datatype: 'BYTES', shape: [-1] },
  { name: 'boxes', datatype: 'FP32', shape: [-1, -1, 4] },
  { name: 'scores', datatype: 'FP32', shape: [-1, -1] },
  { name: 'classes', datatype: 'INT32', shape: [-1, -1] },
  { name: 'count', datatype: 'INT32', shape: [-1] },
];
type ImageOutput = 'detections' | 'boxes' | 'scores' | 'classes' | 'count';
const IMAGE_OUTPUT_NAMES = IMAGE_OUTPUTS.map((o) => o.name);

/**
 * Parameters the protocol or its clients send for the transport's sake
 * (Triton's binary extension, sequence and priority hints, MLServer's
 * content_type): accepted and not predict options.
 */
const PROTOCOL_PARAMETERS = new Set([
  'binary_data_output',
  'binary_data',
  'binary_data_size',
  'content_type',
  'headers',
  'priority',
  'sequence_id',
  'sequence_start',
  'sequence_end',
  'timeout',
  'triton_enable_empty_final_response',
]);

const PREDICT_PARAMETERS = ['threshold', 'iou', 'max_detections', 'top_k', 'keypoint_threshold', 'box'] as const;

const KIND_CODES: Readonly<Record<OipErrorKind, ErrorCode>> = {
  invalid: 'INVALID',
  unauthenticated: 'UNAUTHENTICATED',
  'not-found': 'NOT_FOUND',
  unavailable: 'UNAVAILABLE',
  exhausted: 'THROTTLED',
  internal: 'FAILED',
};

function oipError(kind: OipErrorKind, message: string, retryAfterSeconds?: number): OipError {
  return new OipError(kind, message, KIND_CODES[kind], retryAfterSeconds);
}

/** A domain error of predict's path as the protocol's: the same kind of refusal, its words and code kept. */
function asOipError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const message = error.detail ? `${error.message}: ${error.detail}` : error.message;
  const kind: OipErrorKind =
    error.kind === 'invalid' || error.kind === 'too-large'
      ? 'invalid'
      : error.kind === 'not-found' || error.kind === 'unauthenticated'
        ? error.kind
        : error.kind === 'unavailable'
          ? 'unavailable'
          : error.kind === 'throttled'
            ? 'exhausted'
            : 'internal';
  return new OipError(kind, message, error.code, error.retryAfterSeconds);
}

/** A model as the caller addresses it: its versions the caller can see, newest first. */
interface AddressedModel {
  name: string;
  versions: DeployedVersion[];
}

export class OipCore implements OipService {
  private readonly metadata: ServerMetadata;

  constructor(private readonly deps: OipCoreDependencies) {
    this.metadata = { name: SERVER_NAME, version: SERVER_VERSION, extensions: [...deps.extensions] };
  }

  live(): boolean {
    return true;
  }

  ready(): boolean {
    return this.deps.versions.modelReadiness() === 'ok';
  }

  serverMetadata(): ServerMetadata {
    return this.metadata;
  }

  authenticate(bearerKey: string | undefined): OipCaller {
    const organizationId = this.deps.organizationOf(bearerKey);
    if (!organizationId) throw oipError('unauthenticated', 'invalid or missing inference key (Authorization: Bearer)');
    return { organizationId };
  }

  modelReady(caller: OipCaller, name: string, version?: string): boolean {
    const model = this.model(caller, name);
    if (version !== undefined) return this.version(model, version).status === 'Active';
    return model.versions.some((v) => v.status === 'Active');
  }

  modelMetadata(caller: OipCaller, name: string, version?: string): ModelMetadata {
    const model = this.model(caller, name);
    const chosen = version === undefined ? this.latest(model) : this.version(model, version);
    return {
      name: model.name,
      versions: (version === undefined ? model.versions : [chosen]).map((v) => v.id),
      platform: 'onnxruntime_onnx',
      // An encoded image per element (the model's own input name takes them too).
      inputs: [{ name: IMAGE_INPUT, datatype: 'BYTES', shape: [-1] }],
      outputs: IMAGE_OUTPUTS.map((o) => ({ ...o, shape: [...o.shape] })),
    };
  }

  async infer(
    caller: OipCaller,
    name: string,
    version: string | undefined,
    request: InferRequest,
  ): Promise<InferResponse> {
    const model = this.model(caller, name);
    const target = version === undefined ? this.latest(model) : this.version(model, version);
    if (target.status === 'Initializing')
      throw oipError('unavailable', `model ${name} version ${target.id} is loading; try again shortly`, 1);
    if (target.status === 'Failed')
      throw oipError('internal', `model ${name} version ${target.id} failed to load: ${target.reason ?? 'unknown'}`);
    const limit = maxBatchSizeOf(target.config, this.deps.defaultMaxBatchSize);
    const answer = (outputs: Tensor[]): InferResponse => ({
      modelName: name,
      modelVersion: target.id,
      ...(request.id !== undefined && { id: request.id }),
      outputs,
    });
    const organizationId = caller.organizationId;
    const [first] = request.inputs;
    if (request.inputs.length === 1 && first!.name === target.config.input.name && first!.datatype !== 'BYTES') {
      // Tensors in: the model's own input, each image's tensor run as is through its slots, batcher and instances.
      const tensors = tensorInput(target, first!, limit);
      const ran = await this.runPasses(target, organizationId, tensors, (pass, tensor) =>
        pass.runJob(bufferedBody(tensor), (bytes) => this.deps.versions.runTensor(target, organizationId, bytes)),
      );
      return answer(rawOutputs(request.outputs, ran));
    }
    const images = this.imageInput(target, request.inputs);
    const outputs = requestedOutputs(request.outputs);
    const options = optionsOf(request.parameters ?? {}, target);
    if (images.length > limit)
      throw invalidTensor(`inputs[0].shape: ${images.length} images, model ${name}'s batch limit is ${limit}`);
    // A copy each, exactly sized: the worker takes the image's whole ArrayBuffer, which the caller's
    // message may share (a Buffer's slice() would be a view into it, so the copy is made explicitly).
    const answers = await this.runPasses(target, organizationId, images, (pass, image) =>
      pass.run(bufferedBody(new Uint8Array(image)), RAW_IMAGE_CONTENT_TYPE, options),
    );
    const skipped = skippedReasons(answers.flatMap((a) => a.skipped));
    return {
      ...answer(
        imageOutputs(
          outputs,
          answers.map((a) => a.json),
          target.config.labels,
        ),
      ),
      // A child stage that could not run, as predict's X-Children-Skipped says it.
      ...(skipped !== undefined && { parameters: { children_skipped: skipped } }),
    };
  }

  /**
   * Each element through predict's admission, a pass each, all entered
   * before any runs (so they batch together); the first refusal fails the request.
   */
  private async runPasses<T>(
    version: DeployedVersion,
    organizationId: string,
    elements: readonly Uint8Array[],
    run: (pass: PredictPass<DeployedVersion>, element: Uint8Array) => Promise<T | undefined>,
  ): Promise<T[]> {
    const { admission } = this.deps;
    let admitted;
    try {
      admitted = admission.admit(version.id, organizationId);
    } catch (error) {
      throw asOipError(error);
    }
    const passes: PredictPass<DeployedVersion>[] = [];
    try {
      // The body is in memory already, counted by the front end that read it.
      for (let i = 0; i < elements.length; i++) passes.push(admission.enter(admitted, 0));
    } catch (error) {
      for (const pass of passes) pass.abandon();
      throw asOipError(error);
    }
    const settled = await Promise.allSettled(passes.map((pass, i) => run(pass, elements[i]!)));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw asOipError(failed.reason);
    return settled.map((s) => {
      const value = (s as PromiseFulfilledResult<T | undefined>).value;
      // undefined only for a pass abandoned, which nothing here does
      if (value === undefined) throw oipError('internal', 'an element of the request was abandoned');
      return value;
    });
  }

  /** The image elements of a request's one input: `image`, or the model's own input name, datatype BYTES, shape [N]. */
  private imageInput(version: DeployedVersion, inputs: readonly Tensor[]): Uint8Array[] {
    if (inputs.length !== 1)
      throw invalidTensor(`inputs: expected one input (${IMAGE_INPUT}, BYTES, shape [N]), got ${inputs.length}`);
    const input = inputs[0]!;
    const own = version.config.input.name;
    if (input.name !== IMAGE_INPUT && input.name !== own)
      throw invalidTensor(
        `inputs[0].name: unknown input ${JSON.stringify(input.name)}; this model takes ${JSON.stringify(IMAGE_INPUT)}${own ? ` or ${JSON.stringify(own)}` : ''} (BYTES: encoded images)`,
      );
    if (input.datatype !== 'BYTES')
      throw invalidTensor(
        `inputs[0].datatype: ${input.name} takes encoded images as BYTES, got ${input.datatype}${own ? ` (a tensor goes in the model's own input, ${own})` : ''}`,
      );
    if (input.shape.length !== 1)
      throw invalidTensor(`inputs[0].shape: an image input's shape is [N], got [${input.shape.join(', ')}]`);
    checkTensor(input, 'inputs[0]');
    const elements = (input.data as { bytes: Uint8Array[] }).bytes;
    if (elements.length === 0) throw invalidTensor('inputs[0].shape: no image');
    return elements;
  }

  /** The model `name` as the caller sees it: its organization's, else a public one's; throws not-found. */
  private model(caller: OipCaller, name: string): AddressedModel {
    const { names } = this.deps;
    const own: DeployedVersion[] = [];
    const shared: DeployedVersion[] = [];
    for (const v of this.deps.versions.deployed()) {
      if (names.modelName(v.modelId) !== name) continue;
      if (v.organizationId === caller.organizationId) own.push(v);
      else if (v.public) shared.push(v);
    }
    const found = own.length > 0 ? own : shared;
    if (found.length === 0) throw oipError('not-found', `model ${JSON.stringify(name)} not found`);
    // Two models of one name: the first made (as the management API finds a model by name).
    const modelId = found.reduce((first, v) => (v.modelId < first ? v.modelId : first), found[0]!.modelId);
    const versions = found
      .filter((v) => v.modelId === modelId)
      .sort((a, b) => (names.versionNumber(b.id) ?? 0) - (names.versionNumber(a.id) ?? 0));
    return { name, versions };
  }

  /** A version of the model by its id or its number; throws not-found. */
  private version(model: AddressedModel, version: string): DeployedVersion {
    const found = model.versions.find(
      (v) => v.id === version || String(this.deps.names.versionNumber(v.id)) === version,
    );
    if (!found)
      throw oipError('not-found', `model ${JSON.stringify(model.name)} has no version ${JSON.stringify(version)}`);
    return found;
  }

  /** The latest Active version, else the latest (whose state the caller is told). */
  private latest(model: AddressedModel): DeployedVersion {
    return model.versions.find((v) => v.status === 'Active') ?? model.versions[0]!;
  }
}

function requestedOutputs(outputs: readonly RequestedOutput[] | undefined): ImageOutput[] {
  if (!outputs || outputs.length === 0) return ['detections'];
  return outputs.map((output, i) => {
    if (!IMAGE_OUTPUT_NAMES.includes(output.name))
      throw invalidTensor(
        `outputs[${i}].name: unknown output ${JSON.stringify(output.name)}; the outputs are ${IMAGE_OUTPUT_NAMES.join(', ')}`,
      );
    return output.name as ImageOutput;
  });
}

/** Predict's options out of the request's parameters, validated as predict's query is. */
function optionsOf(parameters: Parameters, version: DeployedVersion): PredictOptions {
  for (const name of Object.keys(parameters))
    if (!PROTOCOL_PARAMETERS.has(name) && !(PREDICT_PARAMETERS as readonly string[]).includes(name))
      throw invalidTensor(
        `parameters.${name}: unknown parameter; predict's options are ${PREDICT_PARAMETERS.join(', ')}`,
      );
  const number = (name: string, min: number, max: number, integer: boolean): number | undefined => {
    const raw = parameters[name];
    if (raw === undefined) return undefined;
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
      throw invalidTensor(
        `parameters.${name}: must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got ${JSON.stringify(raw)}`,
      );
    return value;
  };
  const box = parameters.box;
  if (box !== undefined && typeof box !== 'boolean' && box !== 'true' && box !== 'false')
    throw invalidTensor(`parameters.box: must be true or false, got ${JSON.stringify(box)}`);
  return predictOptions(
    {
      threshold: number('threshold', 0, 1, false),
      iou: number('iou', 0, 1, false),
      maxDetections: number('max_detections', 1, MAX_DETECTIONS_LIMIT, true),
      topK: number('top_k', 1, TOP_K_LIMIT, true),
      keypointThreshold: number('keypoint_threshold', 0, 1, false),
      box: box === undefined ? undefined : box === true || box === 'true',
    },
    version.config.defaults,
  );
}

interface Found {
  box: [number, number, number, number];
  score: number;
  label: number;
}

type Point = [number, number];
interface AnsweredDetection {
  type: string;
  data: { min?: Point; max?: Point; points?: Point[] };
  score: number;
}

/**
 * The detections of one predict answer as rows: a rectangle's corners, a
 * polygon's bounding box, a class's whole image; best first. Points (a
 * keypoint answered alone) have no box and are left out.
 */
function rows(json: string, labels: readonly string[]): Found[] {
  const answer = JSON.parse(json) as Record<string, AnsweredDetection[]>;
  const found: Found[] = [];
  for (const [label, detections] of Object.entries(answer)) {
    const index = labels.indexOf(label);
    for (const d of detections) {
      let box: Found['box'] | undefined;
      if (d.type === 'rectangle' && d.data.min && d.data.max) box = [...d.data.min, ...d.data.max];
      else if (d.type === 'polygon' && d.data.points) {
        const xs = d.data.points.map((p) => p[0]);
        const ys = d.data.points.map((p) => p[1]);
        box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      } else if (d.type === 'class') box = [0, 0, 1, 1];
      if (box) found.push({ box, score: d.score, label: index });
    }
  }
  return found.sort((a, b) => b.score - a.score);
}

const utf8 = new TextEncoder();

/** The requested outputs of N images' answers; K, the most detections of one image, pads the others (zeros, class -1). */
function imageOutputs(outputs: readonly ImageOutput[], jsons: readonly string[], labels: readonly string[]): Tensor[] {
  const n = jsons.length;
  const tensorsWanted = outputs.some((o) => o !== 'detections');
  const found = tensorsWanted ? jsons.map((json) => rows(json, labels)) : [];
  const k = found.reduce((most, f) => Math.max(most, f.length), 0);
  return outputs.map((name): Tensor => {
    switch (name) {
      case 'detections':
        return { name, datatype: 'BYTES', shape: [n], data: { bytes: jsons.map((json) => utf8.encode(json)) } };
      case 'boxes': {
        const values = new Float32Array(n * k * 4);
        found.forEach((f, i) => f.forEach((row, j) => values.set(row.box, (i * k + j) * 4)));
        return { name, datatype: 'FP32', shape: [n, k, 4], data: { raw: new Uint8Array(values.buffer) } };
      }
      case 'scores': {
        const values = new Float32Array(n * k);
        found.forEach((f, i) => f.forEach((row, j) => (values[i * k + j] = row.score)));
        return { name, datatype: 'FP32', shape: [n, k], data: { raw: new Uint8Array(values.buffer) } };
      }
      case 'classes': {
        const values = new Int32Array(n * k).fill(-1);
        found.forEach((f, i) => f.forEach((row, j) => (values[i * k + j] = row.label)));
        return { name, datatype: 'INT32', shape: [n, k], data: { raw: new Uint8Array(values.buffer) } };
      }
      case 'count':
        return {
          name,
          datatype: 'INT32',
          shape: [n],
          data: { raw: new Uint8Array(Int32Array.from(found, (f) => f.length).buffer) },
        };
    }
  });
}

const DATATYPE_OF_INPUT: Readonly<Record<DeployedVersion['config']['input']['dtype'], Datatype>> = {
  float32: 'FP32',
  float16: 'FP16',
  uint8: 'UINT8',
};

/** One image's dimensions of the model's input, as model.json lays it out. */
function imageDims(version: DeployedVersion): number[] {
  const { width, height, layout } = version.config.input;
  return layout === 'NHWC' ? [height, width, 3] : [3, height, width];
}

/** The model's own input, [N, …one image], of its datatype: each image's bytes (views into the data). */
function tensorInput(version: DeployedVersion, input: Tensor, limit: number): Uint8Array[] {
  const name = input.name;
  const datatype = DATATYPE_OF_INPUT[version.config.input.dtype];
  if (input.datatype !== datatype)
    throw invalidTensor(`inputs[0].datatype: ${name} is ${datatype}, got ${input.datatype}`);
  const dims = imageDims(version);
  const expected = `[N, ${dims.join(', ')}]`;
  if (input.shape.length !== dims.length + 1 || dims.some((d, i) => input.shape[i + 1] !== d))
    throw invalidTensor(`inputs[0].shape: ${name} is ${expected}, got [${input.shape.join(', ')}]`);
  const n = input.shape[0]!;
  if (n < 1) throw invalidTensor('inputs[0].shape: no image');
  if (n > limit) throw invalidTensor(`inputs[0].shape: ${n} images, the version's batch limit is ${limit}`);
  checkTensor(input, 'inputs[0]');
  const raw = (input.data as { raw: Uint8Array }).raw;
  const per = raw.byteLength / n;
  return Array.from({ length: n }, (_, i) => raw.subarray(i * per, (i + 1) * per));
}

/** ONNX Runtime's element types as the protocol's datatypes. */
const DATATYPE_OF_OUTPUT: Readonly<Record<string, Datatype>> = {
  bool: 'BOOL',
  uint8: 'UINT8',
  int8: 'INT8',
  uint16: 'UINT16',
  int16: 'INT16',
  uint32: 'UINT32',
  int32: 'INT32',
  uint64: 'UINT64',
  int64: 'INT64',
  float16: 'FP16',
  float32: 'FP32',
  float64: 'FP64',
};

/** Each image's raw outputs stacked on the batch axis, the requested ones (all when none is named) in the order asked. */
function rawOutputs(requested: readonly RequestedOutput[] | undefined, ran: readonly ImageOutputs[]): Tensor[] {
  const first = ran[0]!;
  const names = Object.keys(first);
  const wanted = requested && requested.length > 0 ? requested.map((o) => o.name) : names;
  return wanted.map((name, i) => {
    const tensor = first[name];
    if (!tensor)
      throw invalidTensor(
        `outputs[${i}].name: unknown output ${JSON.stringify(name)}; the model's are ${names.join(', ')}`,
      );
    const datatype = DATATYPE_OF_OUTPUT[tensor.type];
    if (!datatype) throw oipError('internal', `output ${name}: element type ${tensor.type} has no protocol datatype`);
    const parts = ran.map((outputs) => {
      const data = outputs[name]!.data as ArrayBufferView;
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    });
    const raw = new Uint8Array(parts.reduce((sum, p) => sum + p.byteLength, 0));
    parts.reduce((at, part) => (raw.set(part, at), at + part.byteLength), 0);
    // Split per image on a batch axis of 1; a model without one answers one image's as they are.
    const shape = tensor.dims[0] === 1 ? [ran.length, ...tensor.dims.slice(1)] : [...tensor.dims];
    return { name, datatype, shape, data: { raw } };
  });
}
