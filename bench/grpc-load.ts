// A gRPC load generator over node:http2 itself, the gRPC counterpart of the
// raw-socket HTTP load generator (load-generator.ts): each request message is
// encoded once, before the run, and each call is one HTTP/2 stream carrying
// it in gRPC's framing (a flag byte, a 4-byte big-endian length, the
// message), its answer read no further than its grpc-status trailer. On a
// shared 2-core host every millisecond a client spends is one the server
// does not get: @grpc/grpc-js costs its client 0.7-1 ms of CPU a call
// (its call state machine, interceptors and metadata objects), ten times
// what the HTTP generator costs, which would count against the protocol
// rather than against the server (and a datacentre client, Triton's C++
// perf_analyzer, spends far less). The tests drive the server with
// @grpc/grpc-js itself; this is for measuring it. Streaming requests differ
// only by their id, appended to the encoded message as one more field 3
// (a later occurrence of a singular field replaces an earlier one), and an
// answer's id is read from its few bytes by hand.
import { connect, type ClientHttp2Session, constants } from 'node:http2';

const SERVICE = '/inference.GRPCInferenceService';

/** A message in gRPC's length-prefixed framing, uncompressed. */
export function grpcFrame(message: Uint8Array): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.byteLength);
  framed[0] = 0;
  framed.writeUInt32BE(message.byteLength, 1);
  framed.set(message, 5);
  return framed;
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return bytes;
}

/** ModelInferRequest's field 3 (id, a string), encoded. */
export function idField(id: string): Buffer {
  const text = Buffer.from(id);
  return Buffer.concat([Buffer.from([(3 << 3) | 2, ...varint(text.byteLength)]), text]);
}

/** Reads a varint at `at`: its value and the offset after it. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
    shift += 7;
  }
}

/** The length-delimited fields of a message, by number (the last of each), as views. */
function fields(message: Uint8Array): Map<number, Uint8Array> {
  const found = new Map<number, Uint8Array>();
  let at = 0;
  while (at < message.byteLength) {
    const [key, afterKey] = readVarint(message, at);
    const [field, wire] = [Math.floor(key / 8), key & 7];
    if (wire === 2) {
      const [length, start] = readVarint(message, afterKey);
      found.set(field, message.subarray(start, start + length));
      at = start + length;
    } else if (wire === 0) at = readVarint(message, afterKey)[1];
    else if (wire === 1) at = afterKey + 8;
    else if (wire === 5) at = afterKey + 4;
    else throw new Error(`unexpected wire type ${wire}`);
  }
  return found;
}

/** A ModelStreamInferResponse's error_message (field 1) and its infer_response's id (field 2, then 3). */
export function streamAnswer(message: Uint8Array): { id: string; error?: string } {
  const top = fields(message);
  const error = top.get(1);
  const response = top.get(2);
  const id = response ? fields(response).get(3) : undefined;
  return {
    id: id ? Buffer.from(id).toString() : '',
    ...(error && error.byteLength > 0 && { error: Buffer.from(error).toString() }),
  };
}

/** Splits a stream of gRPC-framed bytes into messages, across chunks. */
class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer, onMessage: (message: Buffer) => void): void {
    this.pending = this.pending.byteLength === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.byteLength >= 5) {
      const length = this.pending.readUInt32BE(1);
      if (this.pending.byteLength < 5 + length) return;
      onMessage(this.pending.subarray(5, 5 + length));
      this.pending = this.pending.subarray(5 + length);
    }
  }
}

export class GrpcLoadClient {
  private readonly session: ClientHttp2Session;

  constructor(
    address: string,
    private readonly bearerKey: string,
  ) {
    // Node's default of 10 MB in flight per session is exceeded by 16 tensors of 1.2 MB (ENHANCE_YOUR_CALM).
    this.session = connect(`http://${address}`, { maxSessionMemory: 1024 });
    this.session.on('error', () => {}); // each stream reports its own failure
  }

  private headers(method: string) {
    return {
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: `${SERVICE}/${method}`,
      [constants.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
      te: 'trailers',
      authorization: `Bearer ${this.bearerKey}`,
    };
  }

  /** One unary ModelInfer of an already framed request: null, or why it failed. */
  unary(framedRequest: Buffer): Promise<string | null> {
    return new Promise((resolve) => {
      const stream = this.session.request(this.headers('ModelInfer'));
      let status: string | undefined;
      let message: string | undefined;
      stream.on('response', (headers) => {
        // A call refused before it ran answers with its status in these headers (trailers-only).
        if (headers['grpc-status'] !== undefined)
          [status, message] = [`${headers['grpc-status']}`, `${headers['grpc-message'] ?? ''}`];
      });
      stream.on('trailers', (trailers) => {
        [status, message] = [`${trailers['grpc-status']}`, `${trailers['grpc-message'] ?? ''}`];
      });
      stream.on('data', () => {}); // the answer is not inspected, only its status
      stream.on('close', () =>
        resolve(status === '0' ? null : `grpc-status ${status ?? 'none'} ${decodeURIComponent(message ?? '')}`),
      );
      stream.on('error', (error) => {
        status = undefined;
        message = error.message;
      });
      stream.end(framedRequest);
    });
  }

  /**
   * One ModelStreamInfer stream: `send` writes a request (already framed),
   * `onAnswer` hears each answer's id and error; `end` closes the sending side,
   * and `closed` settles when the server has finished the stream.
   */
  stream(onAnswer: (answer: { id: string; error?: string }) => void): {
    send: (framedRequest: Buffer) => void;
    end: () => void;
    closed: Promise<string | null>;
  } {
    const stream = this.session.request(this.headers('ModelStreamInfer'));
    const reader = new FrameReader();
    let failure: string | null = null;
    stream.on('data', (chunk: Buffer) => reader.push(chunk, (message) => onAnswer(streamAnswer(message))));
    stream.on('trailers', (trailers) => {
      if (trailers['grpc-status'] !== '0')
        failure = `grpc-status ${trailers['grpc-status']} ${trailers['grpc-message'] ?? ''}`;
    });
    stream.on('error', (error) => {
      failure = error.message;
    });
    const closed = new Promise<string | null>((resolve) => stream.on('close', () => resolve(failure)));
    return { send: (framed) => stream.write(framed), end: () => stream.end(), closed };
  }

  close(): void {
    this.session.close();
  }
}
