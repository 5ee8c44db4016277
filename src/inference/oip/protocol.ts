// The Open Inference Protocol (KServe's "v2" inference protocol, which Triton
// serves) in the server's own, transport-neutral terms: what a request and an
// answer hold once the REST front end (JSON or the binary tensor extension)
// or the gRPC one (the project's inference proto) has parsed them. Both front ends
// speak to one OipService, so a model, a key, admission and fair share behave
// the same whichever way a client comes in (docs/ARCHITECTURE.md).
import { CodedError, type ErrorCode } from '../../errors.js';

/** The protocol's tensor datatypes (its "Tensor Data Types" table). */
export const DATATYPES = [
  'BOOL',
  'UINT8',
  'UINT16',
  'UINT32',
  'UINT64',
  'INT8',
  'INT16',
  'INT32',
  'INT64',
  'FP16',
  'FP32',
  'FP64',
  'BYTES',
] as const;
export type Datatype = (typeof DATATYPES)[number];

/** A request or tensor parameter: the protocol allows a bool, an integer or a string (gRPC adds doubles and uint64). */
export type ParameterValue = boolean | number | string;
export type Parameters = Record<string, ParameterValue>;

/**
 * A tensor's elements. Numeric datatypes: the elements' bytes, little endian,
 * row major (what the binary extension and gRPC's raw contents carry; JSON
 * and typed contents are converted to them by the front end). BYTES: one
 * buffer per element.
 */
export type TensorData = { raw: Uint8Array } | { bytes: Uint8Array[] };

export interface Tensor {
  name: string;
  datatype: Datatype;
  shape: number[];
  parameters?: Parameters;
  data: TensorData;
}

/** An output the client asks for; none listed: every output the way in answers. */
export interface RequestedOutput {
  name: string;
  parameters?: Parameters;
}

export interface InferRequest {
  /** echoed in the answer */
  id?: string;
  parameters?: Parameters;
  inputs: Tensor[];
  outputs?: RequestedOutput[];
}

export interface InferResponse {
  modelName: string;
  modelVersion: string;
  id?: string;
  parameters?: Parameters;
  outputs: Tensor[];
}

export interface TensorMetadata {
  name: string;
  datatype: Datatype;
  /** -1 for a variable dimension */
  shape: number[];
}

export interface ModelMetadata {
  name: string;
  /** the version ids the caller can address, newest first */
  versions: string[];
  platform: 'onnxruntime_onnx';
  inputs: TensorMetadata[];
  outputs: TensorMetadata[];
}

export interface ServerMetadata {
  name: string;
  version: string;
  extensions: string[];
}

/** Who is calling, once a front end has checked the bearer key. */
export interface OipCaller {
  organizationId: string;
}

/**
 * What a protocol error is, whichever front end answers it: REST maps it to
 * 400/401/404/503 with `{"error": "..."}`, gRPC to INVALID_ARGUMENT,
 * UNAUTHENTICATED, NOT_FOUND, UNAVAILABLE / RESOURCE_EXHAUSTED.
 */
export type OipErrorKind = 'invalid' | 'unauthenticated' | 'not-found' | 'unavailable' | 'exhausted' | 'internal';

export class OipError extends CodedError {
  constructor(
    readonly kind: OipErrorKind,
    message: string,
    readonly code: ErrorCode,
    /** for `unavailable` / `exhausted`: when to try again */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** The protocol's operations, one implementation behind both front ends. */
export interface OipService {
  live(): boolean;
  ready(): boolean;
  serverMetadata(): ServerMetadata;
  /** the bearer key's caller; throws OipError('unauthenticated') */
  authenticate(bearerKey: string | undefined): OipCaller;
  /** false for a version that exists but is not Active; throws OipError('not-found') for one the caller cannot see */
  modelReady(caller: OipCaller, name: string, version?: string): boolean;
  modelMetadata(caller: OipCaller, name: string, version?: string): ModelMetadata;
  /** one inference through admission, batched with predict's requests; throws OipError */
  infer(caller: OipCaller, name: string, version: string | undefined, request: InferRequest): Promise<InferResponse>;
}
