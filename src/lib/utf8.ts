// Request bodies as text: UTF-8 or refused. A lenient decode (Buffer's)
// turns every invalid sequence into U+FFFD, and the replacement would be
// stored as if the client had sent it; a client's malformed bytes are its
// mistake, answered 400 where the body is parsed. (Checked with isUtf8,
// simdutf underneath, then decoded: cheaper than a fatal TextDecoder for the
// small bodies ingestion takes by the thousand.)
import { isUtf8 } from 'node:buffer';

class InvalidUtf8Error extends Error {
  constructor() {
    super('the body is not valid UTF-8');
  }
}

/** The text of `bytes`; throws InvalidUtf8Error for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  if (!isUtf8(bytes)) throw new InvalidUtf8Error();
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
