// The model store in an S3-compatible bucket (MODEL_STORE=s3): each
// version's files as objects under S3_PREFIX<versionId>/, streamed from
// disk and back to disk (never whole in memory), each with its SHA-256 in
// its metadata and checked when fetched. The requests are lib/s3-client.ts's.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { S3Client, SHA256_HEADER, type S3Settings } from '../../lib/s3-client.js';
import { writeChecked } from './checked-copy.js';
import { CONFIG_FILE, MODEL_FILE } from './model-config.js';
import type { ModelStore } from './model-store.js';
import { fileSha256 } from '../../lib/sha256.js';

export type { S3Settings };

/** model.json last: a version whose model.json is stored has its model.onnx stored too. */
const FILES = [MODEL_FILE, CONFIG_FILE] as const;

export class S3ModelStore implements ModelStore {
  private readonly s3: S3Client;

  constructor(settings: S3Settings) {
    this.s3 = new S3Client(settings, 'model store');
  }

  private keyOf(versionId: string, name: string): string {
    return `${versionId}/${name}`;
  }

  /** Uploads the files (not in `tx`: S3 has no transactions; a version whose insert rolls back leaves objects its id alone names). */
  async put(_tx: unknown, versionId: string, directory: string): Promise<void> {
    for (const name of FILES) {
      const path = join(directory, name);
      const sha256 = await fileSha256(path);
      const { size } = await stat(path);
      const res = await this.s3.send({
        method: 'PUT',
        key: this.keyOf(versionId, name),
        headers: {
          'content-length': String(size),
          'content-type': 'application/octet-stream',
          [SHA256_HEADER]: sha256,
        },
        body: createReadStream(path),
        payloadSha256: sha256,
      });
      await this.s3.expect(res, 'PUT', name, [200]);
    }
  }

  async has(versionId: string): Promise<boolean> {
    const res = await this.s3.send({ method: 'HEAD', key: this.keyOf(versionId, CONFIG_FILE) });
    res.resume();
    if (res.statusCode === 404) return false;
    await this.s3.expect(res, 'HEAD', CONFIG_FILE, [200]);
    return true;
  }

  async fetch(versionId: string, directory: string): Promise<boolean> {
    if (!(await this.has(versionId))) return false;
    for (const name of FILES) {
      const res = await this.s3.send({ method: 'GET', key: this.keyOf(versionId, name) });
      await this.s3.expect(res, 'GET', name, [200]);
      await writeChecked(res, join(directory, name), name, {
        bytes: Number(res.headers['content-length']),
        sha256: String(res.headers[SHA256_HEADER] ?? ''),
      });
    }
    return true;
  }

  async remove(versionId: string): Promise<void> {
    for (const name of FILES) {
      const res = await this.s3.send({ method: 'DELETE', key: this.keyOf(versionId, name) });
      await this.s3.expect(res, 'DELETE', name, [200, 204, 404]);
    }
  }
}
