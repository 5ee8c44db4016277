// A streaming multipart/form-data reader for bodies too large to hold in
// memory (model uploads). Chunks go in as they arrive; each part's bytes go
// out to the sink returned for it, without ever buffering a whole part. The
// delimiter may straddle chunks: the last (delimiter length - 1) bytes are
// held back until the next chunk shows whether they start one.
import { MultipartError } from './multipart.js';

export interface PartHeaders {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
}

export interface PartSink {
  write(bytes: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

const MAX_HEADER_BYTES = 16 * 1024;

function param(disposition: string, key: string): string | undefined {
  const match = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(disposition);
  return match ? (match[1] ?? match[2]) : undefined;
}

export class MultipartStream {
  private state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  private pending: Buffer = Buffer.alloc(0);
  private sink: PartSink | undefined;
  private readonly first: Buffer;
  private readonly delimiter: Buffer;

  constructor(
    boundary: string,
    private readonly onPart: (headers: PartHeaders) => PartSink,
  ) {
    this.first = Buffer.from(`--${boundary}`);
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  get finished(): boolean {
    return this.state === 'done';
  }

  async push(chunk: Buffer): Promise<void> {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.state === 'preamble') {
        const at = this.pending.indexOf(this.first);
        if (at < 0) {
          this.pending = this.pending.subarray(Math.max(0, this.pending.length - this.first.length + 1));
          return;
        }
        this.pending = this.pending.subarray(at + this.first.length);
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        // "--" closes the body; CRLF starts the next part's headers.
        if (this.pending.length < 2) return;
        const next = this.pending.toString('latin1', 0, 2);
        if (next === '--') {
          this.state = 'done';
          this.pending = Buffer.alloc(0);
          return;
        }
        if (next !== '\r\n') throw new MultipartError('multipart: malformed part delimiter');
        this.pending = this.pending.subarray(2);
        this.state = 'headers';
      } else if (this.state === 'headers') {
        const end = this.pending.indexOf('\r\n\r\n');
        if (end < 0) {
          if (this.pending.length > MAX_HEADER_BYTES) throw new MultipartError('multipart: part headers too long');
          return;
        }
        this.sink = this.onPart(this.parseHeaders(this.pending.toString('latin1', 0, end)));
        this.pending = this.pending.subarray(end + 4);
        this.state = 'body';
      } else if (this.state === 'body') {
        const at = this.pending.indexOf(this.delimiter);
        if (at < 0) {
          // Everything but a possible delimiter prefix at the end belongs to the part.
          const keep = Math.min(this.pending.length, this.delimiter.length - 1);
          const out = this.pending.subarray(0, this.pending.length - keep);
          if (out.length) await this.sink!.write(Buffer.from(out));
          this.pending = Buffer.from(this.pending.subarray(this.pending.length - keep));
          return;
        }
        if (at > 0) await this.sink!.write(Buffer.from(this.pending.subarray(0, at)));
        await this.sink!.end();
        this.sink = undefined;
        this.pending = this.pending.subarray(at + this.delimiter.length);
        this.state = 'after-delimiter';
      } else {
        return; // epilogue after the closing delimiter is ignored
      }
    }
  }

  private parseHeaders(text: string): PartHeaders {
    const headers = new Map<string, string>();
    for (const line of text.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new MultipartError('multipart: malformed part header');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition') ?? '';
    if (!/^form-data\b/i.test(disposition)) throw new MultipartError('multipart: part is not form-data');
    return {
      name: param(disposition, 'name') ?? '',
      filename: param(disposition, 'filename'),
      contentType: headers.get('content-type'),
    };
  }

  /** Call when the body has ended: a body that stopped mid-part is malformed. */
  finish(): void {
    if (this.state !== 'done') throw new MultipartError('multipart: unexpected end of body');
  }
}
