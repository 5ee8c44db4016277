// An HTTP/1.1 load generator: N keep-alive connections, each sending one
// prebuilt request and waiting for the whole response before the next.
// Closed loop by default (like wrk): as fast as the server answers, which
// measures capacity. With `rate`, each connection follows a fixed schedule
// instead (like wrk2) and latency is counted from the time a request was
// *due*, not sent, so a server that falls behind the offered load shows it
// in its percentiles (no coordinated omission). Raw sockets and a minimal
// response parser keep its own cost low; the harness measures its ceiling on
// a trivial endpoint and reports it next to the results.
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  host: string;
  /** the server's port; or several servers' (replicas), connection i going to port i mod n */
  port: number | number[];
  /** the complete request, headers and body; or one per connection (used round-robin) */
  request: Buffer | Buffer[];
  connections: number;
  durationMs: number;
  /** requests in this first period are not counted */
  warmupMs?: number;
  /** offered load in requests/s over all connections; closed loop when absent */
  rate?: number;
  /**
   * a connection the server closes is opened again at once and goes on
   * sending (clients that retry immediately); otherwise it stops
   */
  reconnect?: boolean;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** successful (< 400) responses in the measured window */
  requests: number;
  /**
   * successful responses per second: a request shed with 503 or refused is
   * not served work, so it counts as an error, never as throughput
   */
  rps: number;
  /** responses >= 400 and broken connections in the measured window */
  errors: number;
  /** every response in the measured window by status */
  statuses: Record<string, number>;
  /** successful responses over the whole run, warm-up included */
  succeededTotal: number;
  /** latency percentiles of the successful responses */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The p-th percentile of ascending `sorted` (nearest rank); NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Builds a request with the given body; Content-Length always set. */
export function buildRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer = Buffer.alloc(0),
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost', `Content-Length: ${body.length}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body]);
}

/** Parses responses as they arrive; calls onResponse(status) for each complete one. */
class ResponseReader {
  private buffer: Buffer = Buffer.alloc(0);
  private need = -1; // body bytes still expected, -1 while reading headers
  private status = 0;

  constructor(private readonly onResponse: (status: number) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.need < 0) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = this.buffer.toString('latin1', 0, end);
        this.status = Number(head.slice(9, 12));
        const match = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        this.need = match ? Number(match[1]) : 0;
        this.buffer = this.buffer.subarray(end + 4);
      }
      if (this.buffer.length < this.need) return;
      this.buffer = this.buffer.subarray(this.need);
      this.need = -1;
      this.onResponse(this.status);
    }
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const warmupMs = options.warmupMs ?? 0;
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const end = measureFrom + options.durationMs;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let succeededTotal = 0;
  const sockets: Socket[] = [];
  const requests = Array.isArray(options.request) ? options.request : [options.request];

  await Promise.all(
    Array.from(
      { length: options.connections },
      (_, index) =>
        new Promise<void>((resolve) => {
          const request = requests[index % requests.length]!;
          const port = Array.isArray(options.port) ? options.port[index % options.port.length]! : options.port;
          // Paced connections start spread over one interval, then send every `interval` ms.
          const interval = options.rate ? (options.connections / options.rate) * 1000 : 0;
          let due = start + (interval * index) / options.connections;
          const open = () => {
            let sentAt = 0;
            let closed = false;
            const socket = connect({ host: options.host, port, noDelay: true });
            sockets.push(socket);
            const write = () => {
              if (performance.now() >= end) {
                socket.end();
                return;
              }
              socket.write(request);
            };
            const send = () => {
              if (!interval) {
                sentAt = performance.now();
                write();
                return;
              }
              sentAt = due; // latency counts from when the request was due
              due += interval;
              const wait = sentAt - performance.now();
              if (wait > 0) setTimeout(write, wait);
              else write();
            };
            const reader = new ResponseReader((status) => {
              const now = performance.now();
              if (status < 400) succeededTotal++;
              // Throughput is what completes inside the window, whenever it was
              // sent: counting only requests sent inside it would drop the last
              // latency's worth of the window and undercount a loaded server.
              if (now >= measureFrom && now <= end) {
                statuses[status] = (statuses[status] ?? 0) + 1;
                if (status >= 400) errors++;
                else latencies.push(now - sentAt);
              }
              send();
            });
            socket.on('connect', send);
            socket.on('data', (chunk) => reader.push(chunk));
            const finish = () => {
              if (closed) return;
              closed = true;
              if (options.reconnect && performance.now() < end) open();
              else resolve();
            };
            socket.on('error', () => {
              const now = performance.now();
              if (now >= measureFrom && now < end) errors++;
              finish();
            });
            socket.on('close', finish);
          };
          open();
        }),
    ),
  );
  const seconds = options.durationMs / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    connections: options.connections,
    seconds,
    requests: latencies.length,
    rps: latencies.length / seconds,
    errors,
    statuses,
    succeededTotal,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}
