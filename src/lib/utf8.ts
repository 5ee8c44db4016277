// Request bodies as text: UTF-8 or refused. A lenient decode (Buffer's)
// turns every invalid sequence into U+FFFD, and the replacement would be
// stored as if the client had sent it; a client's malformed bytes are its
// mistake, answered 400 where the body is parsed.
const decoder = new TextDecoder('utf-8', { fatal: true });

export class InvalidUtf8Error extends Error {
  constructor() {
    super('the body is not valid UTF-8');
  }
}

/** The text of `bytes`; throws InvalidUtf8Error for bytes that are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new InvalidUtf8Error();
  }
}
