// SHA-256, the one digest the server makes: of tokens and keys it stores
// only as digests, of files it checks, of its deduplication keys. Hex where
// it is written down or compared with what others compute (model files, S3,
// AWS signatures); base64url where it is a compact key of the server's own
// (ingestion's idempotency keys, rules' memory), kept so because keys
// already stored use it.
import { createHash, type Hash, hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export type DigestEncoding = 'hex' | 'base64url';

/**
 * The digest of `data` (text as UTF-8). One-shot `crypto.hash` rather than
 * a Hash object: ingestion digests every event two or three times, and the
 * object's creation was most of a small digest's cost (a third of the time).
 */
export function sha256(data: string | Uint8Array, encoding: DigestEncoding = 'hex'): string {
  return hash('sha256', data, encoding);
}

/**
 * The digest of several texts, each ended by U+0000, so that ("ab", "c") and
 * ("a", "bc") differ. Hashed as one string: UTF-8 encodes each part alone
 * (U+0000 between them joins no surrogate pair), so the bytes, and the keys
 * already stored, are those of hashing the parts one after another.
 */
export function sha256OfParts(parts: readonly string[], encoding: DigestEncoding = 'hex'): string {
  return hash('sha256', parts.length === 0 ? '' : `${parts.join('\u0000')}\u0000`, encoding);
}

/** A digest made a part at a time, as a stream's chunks arrive. */
export function sha256Hash(): Hash {
  return createHash('sha256');
}

/** The hex digest of a file, read as a stream. */
export async function fileSha256(path: string): Promise<string> {
  const hash = sha256Hash();
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}
