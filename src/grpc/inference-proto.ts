// The project's gRPC definition of the Open Inference Protocol
// (proto/inference.proto) loaded with @grpc/proto-loader, and the shapes its
// messages take in JavaScript under the options chosen here. One loader for
// the server, the tests' clients and scripts/oip-grpc-client.ts, so that all
// read and write the wire the same way.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';

/** The service's full name, as clients address it. */
const SERVICE_NAME = 'inference.GRPCInferenceService';

/**
 * How messages become objects. Field names as the proto spells them
 * (`model_name`, not `modelName`), as Triton's and KServe's documentation
 * does. 64-bit integers (shapes, INT64 and UINT64 contents, integer
 * parameters) as decimal strings: a Number would round past 2^53 without a
 * word, and a shape of 2^31 or a UINT64 element must be seen exactly to be
 * refused or kept; the server reads them with BigInt. Bytes stay Buffers (the
 * decoder's views of the message, not copies). Repeated and map fields are
 * always present (empty when absent); a oneof names its member
 * (`parameter_choice`); unset scalars are left out rather than defaulted.
 */
const PROTO_LOADER_OPTIONS: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  arrays: true,
  objects: true,
  oneofs: true,
};

/** proto/inference.proto, found from this file's folder upwards (src/grpc/ in development, dist/grpc/ built). */
function inferenceProtoPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'proto', 'inference.proto');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('proto/inference.proto not found above src/grpc/');
    dir = parent;
  }
}

/** The service's methods with their (de)serializers, ready for a grpc-js Server or client constructor. */
export function loadInferenceService(): ServiceDefinition {
  const definition = loadSync(inferenceProtoPath(), PROTO_LOADER_OPTIONS);
  return definition[SERVICE_NAME] as ServiceDefinition;
}

/** A parameter as decoded: the member set, named by `parameter_choice`; 64-bit integers as strings. */
export interface InferParameterMessage {
  parameter_choice?: 'bool_param' | 'int64_param' | 'string_param' | 'double_param' | 'uint64_param';
  bool_param?: boolean;
  int64_param?: string | number;
  string_param?: string;
  double_param?: number;
  uint64_param?: string | number;
}

export type ParameterMap = Record<string, InferParameterMessage>;

export interface InferTensorContentsMessage {
  bool_contents: boolean[];
  int_contents: number[];
  int64_contents: string[];
  uint_contents: number[];
  uint64_contents: string[];
  fp32_contents: number[];
  fp64_contents: number[];
  bytes_contents: Uint8Array[];
}

export interface InferInputTensorMessage {
  name?: string;
  datatype?: string;
  shape: (string | number)[];
  parameters: ParameterMap;
  contents?: InferTensorContentsMessage;
}

interface InferRequestedOutputTensorMessage {
  name?: string;
  parameters: ParameterMap;
}

export interface ModelInferRequestMessage {
  model_name?: string;
  model_version?: string;
  id?: string;
  parameters: ParameterMap;
  inputs: InferInputTensorMessage[];
  outputs: InferRequestedOutputTensorMessage[];
  raw_input_contents: Uint8Array[];
}

interface InferOutputTensorMessage {
  name: string;
  datatype: string;
  shape: (string | number)[];
  parameters?: ParameterMap;
}

export interface ModelInferResponseMessage {
  model_name: string;
  model_version: string;
  id?: string;
  parameters?: ParameterMap;
  outputs: InferOutputTensorMessage[];
  raw_output_contents: Uint8Array[];
}

export interface ModelStreamInferResponseMessage {
  error_message?: string;
  infer_response?: ModelInferResponseMessage;
}

/** ModelReadyRequest and ModelMetadataRequest */
export interface ModelRequestMessage {
  name?: string;
  version?: string;
}

interface TensorMetadataMessage {
  name: string;
  datatype: string;
  shape: (string | number)[];
}

export interface ModelMetadataResponseMessage {
  name: string;
  versions: string[];
  platform: string;
  inputs: TensorMetadataMessage[];
  outputs: TensorMetadataMessage[];
}
