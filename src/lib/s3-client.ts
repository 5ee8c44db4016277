// Requests to an S3-compatible bucket: path-style (endpoint/bucket/key),
// which AWS, MinIO, Ceph and R2 all answer, signed with AWS Signature
// Version 4 (aws-sigv4.ts). Bodies are streamed both ways. The
// credentials never reach a log or an error; errors name what was asked
// (`what`: "model store", "frame store") and S3's own error code.
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { DomainError } from '../errors.js';
import { EMPTY_PAYLOAD_SHA256, signS3Request } from './aws-sigv4.js';

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
/** The metadata header that carries an object's SHA-256 (x-amz-meta-*, returned by HEAD and GET). */
export const SHA256_HEADER = 'x-amz-meta-sha256';

export interface S3Request {
  method: 'GET' | 'HEAD' | 'PUT' | 'DELETE';
  /** the key after the settings' prefix */
  key: string;
  headers?: Record<string, string>;
  body?: Readable | Buffer;
  payloadSha256?: string;
}

export class S3Client {
  constructor(
    private readonly s3: S3Settings,
    /** what the bucket is to this server, for errors: "model store" */
    private readonly what: string,
  ) {}

  send(r: S3Request): Promise<IncomingMessage> {
    const key = `${this.s3.prefix}${r.key}`;
    const url = new URL(
      `${this.s3.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(this.s3.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`,
    );
    const headers = signS3Request(
      { method: r.method, url, headers: r.headers ?? {}, payloadSha256: r.payloadSha256 ?? EMPTY_PAYLOAD_SHA256 },
      this.s3,
    );
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: r.method, headers }, resolve);
      req.setTimeout(IDLE_TIMEOUT_MS, () =>
        req.destroy(new Error(`no answer from the ${this.what} for ${IDLE_TIMEOUT_MS} ms`)),
      );
      req.on('error', (error) =>
        reject(new DomainError('failed', `${this.what} ${r.method} ${key} failed: ${error.message}`)),
      );
      if (Buffer.isBuffer(r.body)) {
        req.end(r.body);
      } else if (r.body) {
        r.body.on('error', (error) => req.destroy(error));
        r.body.pipe(req);
      } else {
        req.end();
      }
    });
  }

  /** Resolves when the status is one of `ok`; otherwise fails with S3's error code (its XML body, at most 4 KiB read). */
  async expect(res: IncomingMessage, method: string, name: string, ok: number[]): Promise<void> {
    if (ok.includes(res.statusCode ?? 0)) return;
    let text = '';
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (text.length < 4096) text += chunk.toString('utf8');
    }
    const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
    throw new DomainError(
      'failed',
      `${this.what} ${method} of ${name} answered ${res.statusCode}${code ? ` ${code}` : ''}`,
    );
  }
}
