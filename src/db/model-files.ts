// Queries of the model files stored in the database (migration 015): chunks
// written and read one at a time.
import type { Queryable } from './database.js';

export interface StoredModelFile {
  name: string;
  bytes: number;
  sha256: string;
}

export async function insertModelFileChunk(
  tx: Queryable,
  versionId: string,
  name: string,
  seq: number,
  data: Buffer,
): Promise<void> {
  await tx`INSERT INTO model_file_chunks (version_id, name, seq, data) VALUES (${versionId}, ${name}, ${seq}, ${data})`;
}

/** Written after the file's chunks, in the same transaction (the chunks' key is checked at commit). */
export async function insertModelFile(tx: Queryable, versionId: string, file: StoredModelFile): Promise<void> {
  await tx`INSERT INTO model_files (version_id, name, bytes, sha256) VALUES (${versionId}, ${file.name}, ${file.bytes}, ${file.sha256})`;
}

export async function listModelFiles(sql: Queryable, versionId: string): Promise<StoredModelFile[]> {
  return sql<
    StoredModelFile[]
  >`SELECT name, bytes::float8 AS bytes, sha256 FROM model_files WHERE version_id = ${versionId} ORDER BY name`;
}

/** A stored file's chunks in order, fetched one row at a time. */
export async function* modelFileChunks(sql: Queryable, versionId: string, name: string): AsyncGenerator<Buffer> {
  const rows = sql<Array<{ data: Buffer }>>`
    SELECT data FROM model_file_chunks WHERE version_id = ${versionId} AND name = ${name} ORDER BY seq`.cursor(1);
  for await (const [row] of rows) yield row!.data;
}
