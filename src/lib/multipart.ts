// A small multipart/form-data reader (RFC 7578) for bodies already in memory.
// It returns the requested part as a view into the body: no copy. It runs in
// inference workers, so it depends on nothing but Buffer (and errors.ts, for
// its error's code).
import { CodedError, revivable } from '../errors.js';

export class MultipartError extends CodedError {
  readonly code = 'MULTIPART_INVALID';
  static {
    revivable('MULTIPART_INVALID', ({ message }) => new MultipartError(message));
  }
}

/** The boundary parameter of a multipart/form-data Content-Type, or undefined. */
export function multipartBoundary(contentType: string): string | undefined {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data') return undefined;
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(contentType);
  const value = match?.[1] ?? match?.[2];
  return value && value.length <= 70 ? value : undefined;
}

export interface MultipartPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Uint8Array;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

function dispositionParam(disposition: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(disposition);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** Yields every part of the body in order. Throws MultipartError on malformed input. */
export function* multipartParts(body: Uint8Array, boundary: string): Generator<MultipartPart> {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);

  let pos = buf.indexOf(delimiter);
  if (pos < 0) throw new MultipartError('multipart: boundary not found in body');
  pos += delimiter.length;
  for (;;) {
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) return; // "--": closing delimiter
    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
    while (buf[pos] === 0x20 || buf[pos] === 0x09) pos++;
    if (buf[pos] !== 0x0d || buf[pos + 1] !== 0x0a) throw new MultipartError('multipart: malformed part delimiter');
    pos += 2;

    const headerEnd = buf.indexOf(HEADER_END, pos);
    if (headerEnd < 0 || headerEnd - pos > MAX_HEADER_BYTES) {
      throw new MultipartError('multipart: part headers not terminated');
    }
    const headers = new Map<string, string>();
    const headerText = headerEnd === pos ? '' : buf.toString('latin1', pos, headerEnd);
    for (const line of headerText.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new MultipartError('multipart: malformed part header');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const dataStart = headerEnd + HEADER_END.length;
    const dataEnd = buf.indexOf(nextDelimiter, dataStart);
    if (dataEnd < 0) throw new MultipartError('multipart: unexpected end of body');

    const disposition = headers.get('content-disposition') ?? '';
    if (!/^form-data\b/i.test(disposition)) throw new MultipartError('multipart: part is not form-data');
    yield {
      name: dispositionParam(disposition, 'name') ?? '',
      filename: dispositionParam(disposition, 'filename'),
      contentType: headers.get('content-type'),
      data: body.subarray(dataStart, dataEnd),
    };
    pos = dataEnd + nextDelimiter.length;
    if (pos + 2 > buf.length) throw new MultipartError('multipart: unexpected end of body');
  }
}
