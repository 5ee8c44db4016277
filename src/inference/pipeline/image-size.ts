// The size of the image inside a predict body too large to keep, counted as
// the body streams past unkept: "filesize: <bytes>" in the 400 means the
// image file's size (docs/CONTRACT.md#predict-filesize), not the size of the body around it.
// Multipart: the bytes of the `file` part; JSON: what the base64 "image"
// string decodes to. Each counter keeps only a few bytes of state, whatever
// the body's size. `result()` is undefined when the body does not have the
// expected shape: the caller then reports what it knows instead.
import { multipartBoundary } from '../../lib/multipart.js';
import type { PredictBodyKind } from './request-body.js';

export interface ImageSizeCounter {
  feed(chunk: Uint8Array): void;
  result(): number | undefined;
}

export function imageSizeCounter(kind: PredictBodyKind, contentType: string): ImageSizeCounter {
  if (kind === 'json') return new JsonImageCounter();
  const boundary = multipartBoundary(contentType);
  return boundary ? new MultipartFileCounter(boundary) : { feed() {}, result: () => undefined };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KEY = Buffer.from('"image"');

/** Finds `"image"`, then counts the characters of its string value. */
class JsonImageCounter implements ImageSizeCounter {
  private state: 'key' | 'colon' | 'open' | 'value' | 'done' = 'key';
  private matched = 0; // bytes of KEY matched so far
  private escaped = false;
  private chars = 0;
  private prefix = ''; // the first characters, to skip a data: URL header
  private padding = 0; // trailing '=' seen

  feed(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length && this.state !== 'done'; i++) {
      const byte = chunk[i]!;
      switch (this.state) {
        case 'key':
          this.matched = byte === KEY[this.matched] ? this.matched + 1 : byte === KEY[0] ? 1 : 0;
          if (this.matched === KEY.length) this.state = 'colon';
          break;
        case 'colon':
          if (byte === 0x3a) this.state = 'open';
          else if (!isSpace(byte)) this.reset();
          break;
        case 'open':
          if (byte === QUOTE) this.state = 'value';
          else if (!isSpace(byte)) this.reset();
          break;
        case 'value':
          if (this.escaped) {
            this.escaped = false;
          } else if (byte === BACKSLASH) {
            this.escaped = true;
            continue;
          } else if (byte === QUOTE) {
            this.state = 'done';
            break;
          }
          this.chars++;
          this.padding = byte === 0x3d ? this.padding + 1 : 0;
          if (this.prefix.length < 64) {
            this.prefix += String.fromCharCode(byte);
            // data:image/png;base64,... : the header is not image data
            if (byte === 0x2c && this.prefix.startsWith('data:')) this.chars = 0;
          }
          break;
      }
    }
  }

  result(): number | undefined {
    if (this.state !== 'value' && this.state !== 'done') return undefined;
    return Math.max(0, Math.floor(((this.chars - this.padding) * 3) / 4));
  }

  private reset(): void {
    this.state = 'key';
    this.matched = 0;
  }
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Finds the `file` part's headers in the first bytes, then counts its data
 * up to the next delimiter (`\r\n--boundary`), searched across chunk edges.
 */
class MultipartFileCounter implements ImageSizeCounter {
  private static readonly HEAD_LIMIT = 64 * 1024;
  private head: Buffer[] = [];
  private headBytes = 0;
  private dataStart = -1; // absolute offset of the file part's data
  private seen = 0; // bytes fed
  private carry = Buffer.alloc(0); // the last delimiter-length bytes of data, for matches across chunks
  private size: number | undefined;
  private gaveUp = false;
  private readonly delimiter: Buffer;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  feed(chunk: Uint8Array): void {
    if (this.size !== undefined || this.gaveUp) return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const offset = this.seen;
    this.seen += bytes.length;
    if (this.dataStart < 0) {
      this.head.push(Buffer.from(bytes)); // a copy: the server reuses chunk memory
      this.headBytes += bytes.length;
      const head = Buffer.concat(this.head);
      const start = this.findFileData(head);
      if (start === undefined) {
        if (this.headBytes > MultipartFileCounter.HEAD_LIMIT) this.gaveUp = true;
        return;
      }
      this.dataStart = start;
      this.head = [];
      this.scan(head.subarray(start), start);
      return;
    }
    this.scan(bytes, offset);
  }

  result(): number | undefined {
    if (this.size !== undefined) return this.size;
    // No closing delimiter (a truncated body): everything after the headers.
    return this.dataStart >= 0 ? this.seen - this.dataStart : undefined;
  }

  /** Looks for the delimiter in `bytes` (which start at absolute `offset`), with the carry before them. */
  private scan(bytes: Buffer, offset: number): void {
    const window = this.carry.length ? Buffer.concat([this.carry, bytes]) : bytes;
    const windowStart = offset - this.carry.length;
    const at = window.indexOf(this.delimiter);
    if (at >= 0) {
      this.size = windowStart + at - this.dataStart;
      return;
    }
    const keep = Math.min(window.length, this.delimiter.length - 1);
    this.carry = Buffer.from(window.subarray(window.length - keep));
  }

  /** The offset where the `file` part's data begins in `head`, once its headers are all there. */
  private findFileData(head: Buffer): number | undefined {
    const opening = this.delimiter.subarray(2); // the first delimiter has no CRLF before it
    let at = head.indexOf(opening);
    while (at >= 0) {
      const headersEnd = head.indexOf('\r\n\r\n', at);
      if (headersEnd < 0) return undefined;
      const headers = head.subarray(at, headersEnd).toString('latin1');
      if (/content-disposition:[^\r\n]*\bname="?file"?(;|\s|\r|$)/i.test(headers)) return headersEnd + 4;
      at = head.indexOf(this.delimiter, headersEnd);
      if (at >= 0) at += 2;
    }
    return undefined;
  }
}
