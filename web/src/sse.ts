// A reader of text/event-stream (server-sent events) as the HTML standard
// parses it: lines end in \n, \r\n or \r; a blank line ends a message;
// `event:`, `data:` (lines joined with \n) and `id:`; lines starting with a
// colon are comments (the server's keep-alive). The console reads the live
// event tail with fetch() (EventSource cannot send the Authorization
// header), so it parses the stream itself. No DOM here: the tests use it too.

export interface SseMessage {
  /** `message` when the server named none */
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  /** the last line ended in \r at the end of a chunk: a \n starting the next one belongs to it */
  private afterCr = false;

  /** The messages completed by this chunk of text (a message may span chunks). */
  push(chunk: string): SseMessage[] {
    if (chunk === '') return [];
    this.buffer += this.afterCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    this.afterCr = false;
    const out: SseMessage[] = [];
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const crlf = this.buffer.startsWith('\r\n', end);
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) this.afterCr = true;
      this.buffer = this.buffer.slice(end + (crlf ? 2 : 1));
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      const message = this.data.length
        ? { event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined && { id: this.id }) }
        : undefined;
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}
