// A minimum upload rate. A body that trickles in holds its connection and
// its share of the body memory budget for as long as the client likes: a
// few hundred such uploads would hold every other client's requests
// waiting. Bodies being read are watched by one ticker (not a timer per
// request); past a grace period, a body whose average rate over the time it
// was actually being read is below the minimum is answered 408 and its
// connection closed. Time a body spends paused by the server (waiting for a
// queue place or memory) is not the client's and does not count. The rate
// is each server's own (HttpContext.uploadRate), not a process setting.
import { ApiError } from './errors.js';

/** Reading time before the rate is judged: slow starts (TLS, mobile radios) are not punished. */
const GRACE_MS = 5000;
const TICK_MS = 1000;

export interface WatchedBody {
  /** bytes received so far */
  received(): number;
  /** whether the server has paused reading (its own wait, not the client's) */
  paused(): boolean;
  /** ends the request with this error (408) */
  fail(error: ApiError): void;
}

interface Entry {
  body: WatchedBody;
  activeMs: number;
  lastTick: number;
}

/**
 * The minimum upload rate of one server (MIN_UPLOAD_RATE, passed in; 0 turns
 * the watch off) and the ticker over the bodies it is reading.
 */
export class UploadRateWatch {
  private readonly watched = new Set<Entry>();
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly minBytesPerSecond: number) {}

  /** Watches a body while it is read; call the returned function once it is complete or abandoned. */
  watch(body: WatchedBody): () => void {
    if (this.minBytesPerSecond === 0) return unwatched;
    const entry: Entry = { body, activeMs: 0, lastTick: Date.now() };
    this.watched.add(entry);
    if (!this.ticker) {
      this.ticker = setInterval(() => this.tick(), TICK_MS);
      this.ticker.unref();
    }
    return () => this.watched.delete(entry);
  }

  private tick(): void {
    const now = Date.now();
    for (const entry of this.watched) {
      if (!entry.body.paused()) entry.activeMs += now - entry.lastTick;
      entry.lastTick = now;
      if (entry.activeMs < GRACE_MS) continue;
      if (entry.body.received() < (this.minBytesPerSecond * entry.activeMs) / 1000) {
        this.watched.delete(entry);
        entry.body.fail(
          new ApiError(
            408,
            'request body too slow',
            `the body arrived slower than ${this.minBytesPerSecond} bytes/s (MIN_UPLOAD_RATE)`,
          ),
        );
      }
    }
    if (this.watched.size === 0 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }
}

const unwatched = () => {};
