// The model store in PostgreSQL (MODEL_STORE=postgres, the default): each
// version's files as 1 MiB chunks with each file's size and SHA-256
// (migration 015), written in the transaction that inserts the version and
// read back one chunk at a time. Beside it, the choice between it and the
// S3 store (inference/versions/s3-model-store.ts) that MODEL_STORE makes. The
// statements are db/'s; the store's interface is inference/versions/model-store.ts.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import type { Queryable } from '../db/database.js';
import { insertModelFile, insertModelFileChunk, listModelFiles, modelFileChunks } from '../db/model-files.js';
import { writeChecked } from '../inference/versions/checked-copy.js';
import { CONFIG_FILE, MODEL_FILE } from '../inference/versions/model-config.js';
import type { ModelStore } from '../inference/versions/model-store.js';
import { S3ModelStore, type S3Settings } from '../inference/versions/s3-model-store.js';
import { sha256Hash } from '../lib/sha256.js';

export type ModelStoreSettings = { kind: 'postgres' } | ({ kind: 's3' } & S3Settings);

export function createModelStore(settings: ModelStoreSettings, sql: Sql): ModelStore {
  return settings.kind === 's3' ? new S3ModelStore(settings) : new DatabaseModelStore(sql);
}

const CHUNK_BYTES = 1024 * 1024;

class DatabaseModelStore implements ModelStore {
  constructor(private readonly sql: Sql) {}

  /** In `tx` (a transaction of this database), or in one of its own when there is none. */
  async put(tx: Queryable | undefined, versionId: string, directory: string): Promise<void> {
    if (!tx) return void (await this.sql.begin((own) => this.put(own, versionId, directory)));
    for (const name of [MODEL_FILE, CONFIG_FILE]) {
      const hash = sha256Hash();
      let bytes = 0;
      let seq = 0;
      for await (const chunk of createReadStream(join(directory, name), {
        highWaterMark: CHUNK_BYTES,
      }) as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        await insertModelFileChunk(tx, versionId, name, seq++, chunk);
      }
      await insertModelFile(tx, versionId, { name, bytes, sha256: hash.digest('hex') });
    }
  }

  async has(versionId: string): Promise<boolean> {
    return (await listModelFiles(this.sql, versionId)).length > 0;
  }

  async fetch(versionId: string, directory: string): Promise<boolean> {
    const files = await listModelFiles(this.sql, versionId);
    // A failed write closes the chunks' cursor.
    for (const file of files)
      await writeChecked(modelFileChunks(this.sql, versionId, file.name), join(directory, file.name), file.name, file);
    return files.length > 0;
  }

  /** Nothing to do: the files' rows went with the version's row (ON DELETE CASCADE). */
  async remove(): Promise<void> {}
}
