// Receiving a model version upload: a multipart body with the ONNX file and
// model.json, streamed part by part to a staging directory in DATA_DIR
// (never held in memory), then moved into place under the version's id.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../ids.js';
import { DomainError, invalid } from '../errors.js';
import { MultipartStream, type PartHeaders, type PartSink } from '../lib/multipart-stream.js';
import { multipartBoundary, MultipartError } from '../lib/multipart.js';
import { ExternalDataError, refuseExternalData } from '../inference/graph/external-data.js';
import { checkOnnxFile, NotOnnxError } from '../inference/graph/onnx-file.js';
import {
  CONFIG_FILE,
  MODEL_FILE,
  parseModelConfig,
  ModelConfigError,
  type ModelConfig,
} from '../inference/versions/model-config.js';

const MAX_CONFIG_BYTES = 1024 * 1024;

/** An upload read chunk by chunk (the HTTP layer's request body stream fits it). */
export interface UploadBody {
  /** Starts reading; resolves with the byte count once the last chunk was consumed. */
  start(onChunk: (chunk: Buffer) => void | Promise<void>): Promise<number>;
}

/**
 * Which file a part is: by its field name (model / config, or the file
 * names), else by its file name. The field decides: `-F model=@a.json`
 * is the model part whatever the file is called, and its content is then
 * checked for what it is.
 */
function fileFor(part: PartHeaders): typeof MODEL_FILE | typeof CONFIG_FILE | undefined {
  if (part.name === 'model' || part.name === MODEL_FILE) return MODEL_FILE;
  if (part.name === 'config' || part.name === CONFIG_FILE) return CONFIG_FILE;
  if (part.filename === MODEL_FILE) return MODEL_FILE;
  if (part.filename === CONFIG_FILE) return CONFIG_FILE;
  return undefined;
}

const PART_OF = { [MODEL_FILE]: '"model"', [CONFIG_FILE]: '"config"' } as const;

function fileSink(path: string, limit: number, what: string): PartSink {
  const stream: WriteStream = createWriteStream(path, { flags: 'wx' });
  let written = 0;
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  return {
    async write(bytes) {
      if (failure) throw failure;
      written += bytes.length;
      if (written > limit)
        throw new DomainError('too-large', 'request body too large', `${what} is over ${limit} bytes`);
      if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    },
    async end() {
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      if (failure) throw failure;
    },
  };
}

export interface ReceivedModel {
  stagingDir: string;
  config: ModelConfig;
}

/**
 * Streams the upload into DATA_DIR/models/.staging-<ulid>/ and checks that
 * both files came, model.json is valid, and model.onnx is a model that keeps
 * every tensor inside it (external-data.ts). Throws an DomainError (400/413)
 * for a bad upload, after removing the staging directory.
 */
export async function receiveModelUpload(
  body: UploadBody,
  contentType: string,
  dataDir: string,
  maxModelBytes: number,
): Promise<ReceivedModel> {
  const boundary = multipartBoundary(contentType);
  if (!boundary) throw invalid('could not parse multipart form', "request Content-Type isn't multipart/form-data");
  const stagingDir = join(dataDir, 'models', `.staging-${newId()}`);
  await mkdir(stagingDir, { recursive: true });
  const seen = new Set<string>();
  try {
    const multipart = new MultipartStream(boundary, (part) => {
      const file = fileFor(part);
      if (!file)
        throw invalid(
          'invalid upload',
          `unexpected part "${part.name}": send "model" (model.onnx) and "config" (model.json)`,
        );
      if (seen.has(file)) {
        throw invalid(
          'invalid upload',
          `two parts hold ${file} (the second: field "${part.name}"${part.filename ? `, file "${part.filename}"` : ''}); send model.onnx as "model" and model.json as "config"`,
        );
      }
      seen.add(file);
      return fileSink(join(stagingDir, file), file === MODEL_FILE ? maxModelBytes : MAX_CONFIG_BYTES, file);
    });
    await body.start((chunk) => multipart.push(chunk));
    multipart.finish();
    for (const file of [MODEL_FILE, CONFIG_FILE]) {
      if (!seen.has(file))
        throw invalid('invalid upload', `${file} is missing: send "model" (model.onnx) and "config" (model.json)`);
    }
    let json: unknown;
    const text = await readFile(join(stagingDir, CONFIG_FILE), 'utf8');
    try {
      json = JSON.parse(text);
    } catch (error) {
      const swapped = !/^\s*[{[]/.test(text)
        ? ` (the ${PART_OF[CONFIG_FILE]} part is not JSON text: are model.onnx and model.json swapped?)`
        : '';
      throw invalid('invalid model.json', `${(error as Error).message}${swapped}`);
    }
    try {
      await checkOnnxFile(join(stagingDir, MODEL_FILE));
      await refuseExternalData(join(stagingDir, MODEL_FILE));
    } catch (error) {
      if (error instanceof NotOnnxError)
        throw invalid(
          'invalid upload',
          `the ${PART_OF[MODEL_FILE]} part (model.onnx) is not an ONNX model: ${error.message}`,
        );
      if (error instanceof ExternalDataError)
        throw invalid('invalid upload', `the ${PART_OF[MODEL_FILE]} part (model.onnx) is refused: ${error.message}`);
      throw error;
    }
    return { stagingDir, config: parseModelConfig(json) };
  } catch (error) {
    await rm(stagingDir, { recursive: true, force: true });
    if (error instanceof MultipartError) throw invalid('could not parse multipart form', error.message);
    if (error instanceof ModelConfigError) throw invalid('invalid model.json', error.message);
    throw error;
  }
}

/** Moves a received upload to its version's directory (its entry in the local cache of model files). */
export async function placeModelUpload(received: ReceivedModel, directory: string): Promise<void> {
  await rename(received.stagingDir, directory);
}
