// A stored model file written into the local cache and checked on the way:
// both model stores (PostgreSQL chunks, S3 objects) keep each file's size
// and SHA-256, and a copy that does not match them is refused before
// anything loads it.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../errors.js';
import { sha256Hash } from '../../lib/sha256.js';

/** What the store says of a file: its size and hex SHA-256 (empty when it has none). */
export interface StoredDigest {
  bytes: number;
  sha256: string;
}

/**
 * Streams `source` into a new file at `path` (pipeline: the file's
 * backpressure paces the reads, and a failed write ends the source), then
 * fails with the reason if what was read is not what the store says.
 */
export async function writeChecked(
  source: AsyncIterable<Buffer>,
  path: string,
  name: string,
  stored: StoredDigest,
): Promise<void> {
  const hash = sha256Hash();
  let bytes = 0;
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        hash.update(chunk);
        bytes += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(path, { flags: 'wx' }),
  );
  const sha256 = hash.digest('hex');
  if (bytes !== stored.bytes || sha256 !== stored.sha256) {
    throw new DomainError(
      'failed',
      `the stored ${name} is corrupt: read ${bytes} bytes with sha256 ${sha256}, stored as ${stored.bytes} bytes with sha256 ${stored.sha256 || '(none)'}`,
    );
  }
}
