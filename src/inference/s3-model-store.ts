// The model store in an S3-compatible bucket (MODEL_STORE=s3): each
// version's files as objects under S3_PREFIX<versionId>/, streamed from
// disk and back to disk (never whole in memory), each with its SHA-256 in
// its metadata and checked when fetched. Path-style requests
// (endpoint/bucket/key), which AWS, MinIO, Ceph and R2 all answer, signed
// with AWS Signature Version 4. The credentials never reach a log or an error.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DomainError } from '../errors.js';
import { EMPTY_PAYLOAD_SHA256, signS3Request } from '../lib/aws-sigv4.js';
import { writeChecked } from './checked-copy.js';
import { CONFIG_FILE, MODEL_FILE } from './model-config.js';
import type { ModelStore } from './model-store.js';

export interface S3Settings {
  /** e.g. https://s3.eu-central-1.amazonaws.com or http://minio:9000 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** put before each key, e.g. models/ */
  prefix: string;
}

/** Longest an S3 request may go without a byte moving before it fails. */
const IDLE_TIMEOUT_MS = 60_000;
/** The metadata header that carries a file's SHA-256 (x-amz-meta-*, returned by HEAD and GET). */
const SHA256_HEADER = 'x-amz-meta-sha256';
/** model.json last: a version whose model.json is stored has its model.onnx stored too. */
const FILES = [MODEL_FILE, CONFIG_FILE] as const;

interface S3Request {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  key: string;
  headers?: Record<string, string>;
  body?: Readable;
  payloadSha256?: string;
}

export class S3ModelStore implements ModelStore {
  constructor(private readonly s3: S3Settings) {}

  private keyOf(versionId: string, name: string): string {
    return `${this.s3.prefix}${versionId}/${name}`;
  }

  /** Uploads the files (not in `tx`: S3 has no transactions; a version whose insert rolls back leaves objects its id alone names). */
  async put(_tx: unknown, versionId: string, directory: string): Promise<void> {
    for (const name of FILES) {
      const path = join(directory, name);
      const sha256 = await fileSha256(path);
      const { size } = await stat(path);
      const res = await this.send({
        method: 'PUT',
        key: this.keyOf(versionId, name),
        headers: { 'content-length': String(size), 'content-type': 'application/octet-stream', [SHA256_HEADER]: sha256 },
        body: createReadStream(path),
        payloadSha256: sha256,
      });
      await this.expect(res, 'PUT', name, [200]);
    }
  }

  async has(versionId: string): Promise<boolean> {
    const res = await this.send({ method: 'HEAD', key: this.keyOf(versionId, CONFIG_FILE) });
    res.resume();
    if (res.statusCode === 404) return false;
    await this.expect(res, 'HEAD', CONFIG_FILE, [200]);
    return true;
  }

  async fetch(versionId: string, directory: string): Promise<boolean> {
    if (!(await this.has(versionId))) return false;
    for (const name of FILES) {
      const res = await this.send({ method: 'GET', key: this.keyOf(versionId, name) });
      await this.expect(res, 'GET', name, [200]);
      await writeChecked(res, join(directory, name), name, { bytes: Number(res.headers['content-length']), sha256: String(res.headers[SHA256_HEADER] ?? '') });
    }
    return true;
  }

  async remove(versionId: string): Promise<void> {
    for (const name of FILES) {
      const res = await this.send({ method: 'DELETE', key: this.keyOf(versionId, name) });
      await this.expect(res, 'DELETE', name, [200, 204, 404]);
    }
  }

  private send(r: S3Request): Promise<IncomingMessage> {
    const url = new URL(`${this.s3.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(this.s3.bucket)}/${r.key.split('/').map(encodeURIComponent).join('/')}`);
    const headers = signS3Request({ method: r.method, url, headers: r.headers ?? {}, payloadSha256: r.payloadSha256 ?? EMPTY_PAYLOAD_SHA256 }, this.s3);
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: r.method, headers }, resolve);
      req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`no answer from the model store for ${IDLE_TIMEOUT_MS} ms`)));
      req.on('error', (error) => reject(new DomainError('failed', `model store ${r.method} ${r.key} failed: ${error.message}`)));
      if (r.body) {
        r.body.on('error', (error) => req.destroy(error));
        r.body.pipe(req);
      } else {
        req.end();
      }
    });
  }

  /** Resolves when the status is one of `ok`; otherwise fails with S3's error code (its XML body, at most 4 KiB read). */
  private async expect(res: IncomingMessage, method: string, name: string, ok: number[]): Promise<void> {
    if (ok.includes(res.statusCode ?? 0)) return;
    let text = '';
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (text.length < 4096) text += chunk.toString('utf8');
    }
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
    throw new DomainError('failed', `model store ${method} of ${name} answered ${res.statusCode}${code ? ` ${code}` : ''}`);
  }
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}
