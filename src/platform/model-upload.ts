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
import { CONFIG_FILE, MODEL_FILE, parseModelConfig, ModelConfigError, type ModelConfig } from '../inference/model-config.js';

const MAX_CONFIG_BYTES = 1024 * 1024;

/** An upload read chunk by chunk (the HTTP layer's request body stream fits it). */
export interface UploadBody {
  /** Starts reading; resolves with the byte count once the last chunk was consumed. */
  start(onChunk: (chunk: Buffer) => void | Promise<void>): Promise<number>;
}

/** Which file a part is: by field name (model / config) or by file name. */
function fileFor(part: PartHeaders): typeof MODEL_FILE | typeof CONFIG_FILE | undefined {
  if (part.name === 'model' || part.name === MODEL_FILE || part.filename === MODEL_FILE) return MODEL_FILE;
  if (part.name === 'config' || part.name === CONFIG_FILE || part.filename === CONFIG_FILE) return CONFIG_FILE;
  return undefined;
}

function fileSink(path: string, limit: number, what: string): PartSink {
  const stream: WriteStream = createWriteStream(path, { flags: 'wx' });
  let written = 0;
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  return {
    async write(bytes) {
      if (failure) throw failure;
      written += bytes.length;
      if (written > limit) throw new DomainError('too-large', 'request body too large', `${what} is over ${limit} bytes`);
      if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    },
    async end() {
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
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
 * both files came and model.json is valid. Throws an DomainError (400/413) for
 * a bad upload, after removing the staging directory.
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
      if (!file) throw invalid('invalid upload', `unexpected part "${part.name}": send "model" (model.onnx) and "config" (model.json)`);
      if (seen.has(file)) throw invalid('invalid upload', `${file} was sent twice`);
      seen.add(file);
      return fileSink(join(stagingDir, file), file === MODEL_FILE ? maxModelBytes : MAX_CONFIG_BYTES, file);
    });
    await body.start((chunk) => multipart.push(chunk));
    multipart.finish();
    for (const file of [MODEL_FILE, CONFIG_FILE]) {
      if (!seen.has(file)) throw invalid('invalid upload', `${file} is missing: send "model" (model.onnx) and "config" (model.json)`);
    }
    let json: unknown;
    try {
      json = JSON.parse(await readFile(join(stagingDir, CONFIG_FILE), 'utf8'));
    } catch (error) {
      throw invalid('invalid model.json', (error as Error).message);
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
