// Server-sent events (text/event-stream) over a streamed answer: the
// framing, a keep-alive comment so that proxies and clients see the
// connection alive, and a bounded buffer for a client that reads slower
// than events come: past `bufferBytes` waiting, the client is dropped (its
// connection closed) rather than buffered for ever. A dropped client
// reconnects and searches for what it missed.
import type { ResponseStream } from './reply.js';

export interface EventStreamOptions {
  /** bytes of messages a stream may hold for a slow client before it is dropped */
  bufferBytes: number;
  /** a comment line this often, so that idle connections stay open through proxies */
  keepAliveMs: number;
  /** checks a message against its declared schema (RESPONSE_VALIDATION); false: it does not match, and the stream is ended */
  check?: (event: string, data: unknown) => boolean;
}

/** The first chunk: sends the headers at once, so the client knows the stream is open. */
export const STREAM_OPENING = ':ok\n\n';

/** One message: `id:`, `event:` and one `data:` line of JSON (JSON.stringify writes no line breaks). */
function formatMessage(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class EventStream {
  /** messages waiting while the client cannot take more */
  private queue: string[] = [];
  private queuedBytes = 0;
  /** a write was only partly taken: wait for the client before writing more */
  private blocked = false;
  private readonly keepAlive: ReturnType<typeof setInterval>;
  /** why the stream was dropped, when it was */
  dropped: string | undefined;

  constructor(
    private readonly raw: ResponseStream,
    private readonly options: EventStreamOptions,
  ) {
    this.keepAlive = setInterval(() => {
      if (!this.blocked) this.write(': keep-alive\n\n');
    }, options.keepAliveMs);
    this.keepAlive.unref();
    raw.onWritable(() => this.flush());
    raw.onClose(() => {
      clearInterval(this.keepAlive);
      this.queue = [];
      this.queuedBytes = 0;
    });
  }

  get closed(): boolean {
    return this.raw.closed;
  }

  /** Sends a message, or queues it behind a slow client; drops a client whose queue passes the limit. */
  send(event: string, data: unknown, id?: string): void {
    if (this.raw.closed) return;
    if (this.options.check && !this.options.check(event, data)) {
      this.raw.end();
      return;
    }
    const message = formatMessage(event, data, id);
    if (!this.blocked) {
      this.write(message);
      return;
    }
    this.queue.push(message);
    this.queuedBytes += message.length;
    if (this.queuedBytes > this.options.bufferBytes) {
      this.dropped = `the client read too slowly: over ${this.options.bufferBytes} bytes of events waited for it`;
      this.raw.close();
    }
  }

  /** Ends the stream normally. */
  end(): void {
    this.raw.end();
  }

  /** Runs once when the stream is over, whatever ended it. */
  onClose(handler: () => void): void {
    this.raw.onClose(handler);
  }

  private write(chunk: string): void {
    if (!this.raw.write(chunk)) this.blocked = true;
  }

  /** The client can take more: what waited goes out in one write (a comment, if nothing waited, sends what the socket holds). */
  private flush(): void {
    if (!this.blocked || this.raw.closed) return;
    const chunk = this.queue.length ? this.queue.join('') : ':\n\n';
    this.queue = [];
    this.queuedBytes = 0;
    this.blocked = false;
    this.write(chunk);
  }
}
