// HLS (HTTP Live Streaming) for a camera's stream, read without ffmpeg
// fetching anything. ffmpeg's own HLS demuxer would fetch the URIs a
// playlist names, and a playlist may name any host (an internal one too),
// past the server's destination check. Here the server fetches the playlist
// and each segment itself, every URI resolved against its playlist's URL and
// fetched by the stream's own fetch (stream-source.ts: its host checked
// against STREAM_ALLOWED_HOSTS, on the checked address, 200 only, no
// redirect), and writes the segments' bytes in order on ffmpeg's stdin:
// MPEG-TS segments make one transport stream, fMP4 ones one fragmented MP4
// after their init segment (EXT-X-MAP), which ffmpeg reads from a pipe too.
//
// A master playlist: one variant is read (chooseVariant). A live playlist
// (no EXT-X-ENDLIST) is read again every target duration (1 s at least),
// from three segments before its end at first, each new segment fetched
// once, by its media sequence number; at most `segmentsAhead` segments wait
// to be written, and a reader behind by more skips the oldest to the live
// edge (counted, as are segments that left the playlist before they were
// fetched). A VOD playlist (EXT-X-ENDLIST) ends once its last segment is
// written: the stream is then opened again, as any source that ends.
// Refused, with the reason: encrypted segments (EXT-X-KEY), byte ranges
// (EXT-X-BYTERANGE), an init segment that changes, URIs other than http(s).
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import { maskStreamUrl } from '../../lib/stream-url.js';

const HLS_TUNING = {
  /** where a live playlist is first read from: this many segments before its end (RFC 8216 6.3.3: three target durations) */
  liveStartSegments: 3,
  /** segments listed or fetched and not yet written on ffmpeg's stdin; a live reader behind by more skips the oldest */
  segmentsAhead: 4,
  /** a live playlist is read again every target duration, not more often than this (ms) */
  minReloadMs: 1_000,
  /** a live playlist that lists no new segment for this many target durations (and 10 s) fails the reading */
  staleTargetDurations: 3,
  /** the largest playlist read (bytes) */
  playlistMaxBytes: 1024 * 1024,
  /** the largest segment read (bytes): segments are held whole until written */
  segmentMaxBytes: 32 * 1024 * 1024,
  /** an answer whose body is silent this long fails (ms) */
  idleMs: 10_000,
} as const;

interface Variant {
  uri: URL;
  bandwidth: number;
  width?: number;
  height?: number;
  codecs?: string;
}

interface Segment {
  /** its media sequence number */
  seq: number;
  uri: URL;
}

export interface MediaPlaylist {
  kind: 'media';
  /** seconds */
  targetDuration: number;
  /** EXT-X-ENDLIST: no segment will be added */
  ended: boolean;
  segments: Segment[];
  /** the init segment (EXT-X-MAP) of fMP4 segments */
  map?: URL;
}

type Playlist = MediaPlaylist | { kind: 'master'; variants: Variant[] };

/** The HTTP fetch of a stream's URLs (stream-source.ts): the host checked, on the checked address, 200 only. */
type Fetch = (url: URL) => Promise<{ response: IncomingMessage; request: ClientRequest }>;

const PLAYLIST_TYPES = new Set(['application/vnd.apple.mpegurl', 'application/x-mpegurl', 'audio/mpegurl']);

/** Whether an HTTP stream is an HLS playlist: its path ends in .m3u8, or its answer's Content-Type says so. */
export function isHlsPlaylist(url: URL, contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return url.pathname.toLowerCase().endsWith('.m3u8') || PLAYLIST_TYPES.has(type);
}

/** A tag's attribute list (`A=1,B="x,y"`), quotes removed. */
function attributes(list: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, name, value] of list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g))
    out.set(name!, value!.startsWith('"') ? value!.slice(1, -1) : value!);
  return out;
}

/** A URI of the playlist, resolved against its URL: http(s) only. */
function resolveUri(uri: string, base: URL): URL {
  let url: URL;
  try {
    url = new URL(uri, base);
  } catch {
    throw new Error(`it names ${maskStreamUrl(uri)}, which is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`it names ${maskStreamUrl(url.href)}: only http(s) URIs are read`);
  return url;
}

/**
 * A playlist's text, read (`base`: its URL, which its URIs are resolved
 * against): a master playlist's variants, or a media playlist's segments.
 * Throws, with the reason, for a text that is no playlist and for what is
 * refused.
 */
export function parsePlaylist(text: string, base: URL): Playlist {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines[0] !== '#EXTM3U') throw new Error('it is not an HLS playlist (it does not start with #EXTM3U)');
  const variants: Variant[] = [];
  const segments: Segment[] = [];
  let media = false;
  let targetDuration: number | undefined;
  let longest = 0;
  let mediaSequence = 0;
  let ended = false;
  let map: URL | undefined;
  let variant: Map<string, string> | undefined;
  for (const line of lines.slice(1)) {
    if (!line.startsWith('#')) {
      const uri = resolveUri(line, base);
      if (variant) {
        const [width, height] = (variant.get('RESOLUTION') ?? '').split('x').map(Number);
        variants.push({
          uri,
          bandwidth: Number(variant.get('BANDWIDTH')) || 0,
          ...(width && height ? { width, height } : {}),
          ...(variant.has('CODECS') ? { codecs: variant.get('CODECS')! } : {}),
        });
        variant = undefined;
      } else {
        segments.push({ seq: mediaSequence + segments.length, uri });
        media = true;
      }
      continue;
    }
    const colon = line.indexOf(':');
    const tag = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXT-X-STREAM-INF':
        variant = attributes(value);
        break;
      case '#EXTINF':
        longest = Math.max(longest, Number.parseFloat(value) || 0);
        media = true;
        break;
      case '#EXT-X-TARGETDURATION':
        targetDuration = Number(value) || undefined;
        media = true;
        break;
      case '#EXT-X-MEDIA-SEQUENCE':
        mediaSequence = Number.parseInt(value, 10) || 0;
        break;
      case '#EXT-X-ENDLIST':
        ended = true;
        break;
      case '#EXT-X-KEY': {
        const method = attributes(value).get('METHOD');
        if (method !== 'NONE')
          throw new Error(`its segments are encrypted (EXT-X-KEY METHOD=${method ?? '?'}): encrypted HLS is not read`);
        break;
      }
      case '#EXT-X-BYTERANGE':
        throw new Error('its segments are byte ranges (EXT-X-BYTERANGE), which are not read');
      case '#EXT-X-MAP': {
        const found = attributes(value);
        if (found.has('BYTERANGE'))
          throw new Error('its init segment is a byte range (EXT-X-MAP BYTERANGE), which is not read');
        const uri = resolveUri(found.get('URI') ?? '', base);
        if (map && map.href !== uri.href) throw new Error('its init segment (EXT-X-MAP) changes, which is not read');
        map = uri;
        break;
      }
    }
  }
  if (variants.length > 0) {
    if (media) throw new Error('it mixes a master playlist (EXT-X-STREAM-INF) and a media playlist (EXTINF)');
    return { kind: 'master', variants };
  }
  if (!media) throw new Error('it lists no variant (EXT-X-STREAM-INF) and no segment (EXTINF)');
  return {
    kind: 'media',
    targetDuration: targetDuration ?? Math.max(1, Math.ceil(longest)),
    ended,
    segments,
    ...(map ? { map } : {}),
  };
}

/** Codecs (RFC 6381 names) that are video: a variant whose CODECS names none of them is sound only. */
const VIDEO_CODEC = /^(avc1|avc3|hvc1|hev1|dvh1|dvhe|av01|vp08|vp09|vp8|vp9|mp4v)\b/i;

/**
 * The variant of a master playlist that is read. The model sees every frame
 * at its input's size: a variant whose picture is at least that (not scaled
 * up: fitted inside it when the model letterboxes, both sides when it
 * stretches) loses nothing to a larger one, which only costs bandwidth and
 * decoding, so the lowest bandwidth of those is taken; when none is large
 * enough (or none says its RESOLUTION), the highest bandwidth, the most
 * detail there is. Variants whose CODECS name no video are left out.
 */
export function chooseVariant(
  variants: readonly Variant[],
  target: { width: number; height: number; keepAspect: boolean },
): Variant {
  const video = variants.filter(
    (v) => v.codecs === undefined || v.codecs.split(',').some((codec) => VIDEO_CODEC.test(codec.trim())),
  );
  if (video.length === 0) throw new Error('the master playlist has no video variant');
  const enough = video.filter(
    (v) =>
      v.width !== undefined &&
      v.height !== undefined &&
      (target.keepAspect
        ? v.width >= target.width || v.height >= target.height
        : v.width >= target.width && v.height >= target.height),
  );
  if (enough.length > 0) return enough.reduce((best, v) => (v.bandwidth < best.bandwidth ? v : best));
  return video.reduce((best, v) => (v.bandwidth > best.bandwidth ? v : best));
}

/**
 * The segments of a media playlist (read again) to fetch, given `next`, the
 * media sequence number of the first one not taken yet (undefined before
 * any): a VOD playlist's all, a live one's last `liveStartSegments` at
 * first, then the new ones; `missed`: those that left the playlist before
 * they were taken. A live playlist whose numbers went back fails.
 */
export function segmentsToFetch(
  playlist: MediaPlaylist,
  next: number | undefined,
): { segments: Segment[]; missed: number } {
  const { segments } = playlist;
  if (next === undefined)
    return { segments: playlist.ended ? segments : segments.slice(-HLS_TUNING.liveStartSegments), missed: 0 };
  const last = segments.at(-1);
  if (last && last.seq < next - 1) throw new Error(`it went back (its last segment is ${last.seq}, after ${next - 1})`);
  const fresh = segments.filter((segment) => segment.seq >= next);
  return { segments: fresh, missed: fresh.length > 0 ? fresh[0]!.seq - next : 0 };
}

/** A live reader behind: its oldest waiting segments dropped, `limit` left at most; answers how many went. */
export function keepLiveEdge(waiting: unknown[], limit: number): number {
  const over = Math.max(0, waiting.length - limit);
  waiting.splice(0, over);
  return over;
}

/** An answer's body, whole: at most `max` bytes, failing when silent for idleMs. */
function readBody(response: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(response.headers['content-length']) > max) {
      response.destroy();
      reject(new Error(`it is larger than ${max} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    response.setTimeout(HLS_TUNING.idleMs, () =>
      response.destroy(new Error(`no data for ${HLS_TUNING.idleMs / 1000} s`)),
    );
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        response.destroy();
        reject(new Error(`it is larger than ${max} bytes`));
      } else chunks.push(chunk);
    });
    response.on('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks, size));
    });
    response.on('error', reject);
    response.on('close', () => {
      if (!ended) reject(new Error('the connection closed before the end of the answer'));
    });
  });
}

/** An error's message, prefixed with what was read: "HLS segment http://host/seg.ts: the server answered 404". */
function about(what: string, url: URL, error: unknown): Error {
  return new Error(`${what} ${maskStreamUrl(url.href)}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Reads the playlist the stream's URL answered (`first`), and the variant's
 * if it is a master one; throws with the reason to show. The reader then
 * writes the segments on ffmpeg's stdin (start()).
 */
export async function openHls(
  url: URL,
  first: IncomingMessage,
  target: { width: number; height: number; keepAspect: boolean },
  fetch: Fetch,
): Promise<HlsReader> {
  let playlist: Playlist;
  try {
    playlist = parsePlaylist((await readBody(first, HLS_TUNING.playlistMaxBytes)).toString('utf8'), url);
  } catch (error) {
    throw about('the HLS playlist', url, error);
  }
  let playlistUrl = url;
  if (playlist.kind === 'master') {
    playlistUrl = chooseVariant(playlist.variants, target).uri;
    playlist = await readPlaylist(playlistUrl, fetch, () => {});
    if (playlist.kind === 'master') throw about('the HLS variant', playlistUrl, 'it is a master playlist too');
  }
  if (playlist.ended && playlist.segments.length === 0)
    throw about('the HLS playlist', playlistUrl, 'it lists no segment');
  return new HlsReader(playlistUrl, playlist, fetch);
}

/** A playlist fetched and read; `calling` is handed the request, for stop() to end it. */
async function readPlaylist(url: URL, fetch: Fetch, calling: (request: ClientRequest) => void): Promise<Playlist> {
  try {
    const { response, request } = await fetch(url);
    calling(request);
    return parsePlaylist((await readBody(response, HLS_TUNING.playlistMaxBytes)).toString('utf8'), url);
  } catch (error) {
    throw about('the HLS playlist', url, error);
  }
}

/** A segment listed, and its bytes once fetched. */
interface Waiting {
  segment: Segment;
  bytes?: Buffer;
}

export class HlsReader {
  /** the demuxer ffmpeg reads the segments with */
  readonly demuxer: 'mpegts' | 'mp4';
  /** segments skipped to keep up with a live playlist: dropped while waiting, or gone from it before they were fetched */
  skipped = 0;
  private readonly waiting: Waiting[] = [];
  /** the media sequence number of the first segment not taken yet */
  private next: number | undefined;
  private init: Buffer | undefined;
  /** every segment of an ended playlist is fetched */
  private fetchedAll = false;
  private stopped = false;
  private call: ClientRequest | undefined;
  /** what waits for a change: a segment fetched or written, a reload due, stop() */
  private readonly wakers = new Set<() => void>();
  /** writes waiting for stdin to drain, ended by stop() */
  private readonly stopping = new Set<() => void>();

  constructor(
    private readonly url: URL,
    private playlist: MediaPlaylist,
    private readonly fetch: Fetch,
  ) {
    this.demuxer = playlist.map ? 'mp4' : 'mpegts';
    this.take(playlist);
  }

  /** Fetches the segments and writes them on `stdin`; failed() or ended() follows, unless stopped first. */
  start(stdin: Writable, events: { failed(reason: string): void; ended(): void }): void {
    const fail = (error: Error) => {
      if (!this.stopped) events.failed(error.message);
      this.stop();
    };
    this.fetchLoop().catch(fail);
    this.writeLoop(stdin).then((all) => {
      if (!all || this.stopped) return;
      events.ended();
      stdin.end();
    }, fail);
  }

  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
    this.call?.destroy();
    this.wake();
    for (const done of [...this.stopping]) done();
  }

  /** Lists the playlist's segments to fetch; answers how many were new. */
  private take(playlist: MediaPlaylist): number {
    const { segments, missed } = segmentsToFetch(playlist, this.next);
    this.skipped += missed;
    this.waiting.push(...segments.map((segment) => ({ segment })));
    if (segments.length > 0) this.next = segments.at(-1)!.seq + 1;
    if (!playlist.ended) this.skipped += keepLiveEdge(this.waiting, HLS_TUNING.segmentsAhead);
    return segments.length;
  }

  private async fetchLoop(): Promise<void> {
    const map = this.playlist.map;
    if (map) this.init = await this.get(map, 'HLS init segment', HLS_TUNING.segmentMaxBytes);
    const reloadMs = () => Math.max(HLS_TUNING.minReloadMs, this.playlist.targetDuration * 1000);
    let reloadAt = Date.now() + reloadMs();
    let freshAt = Date.now();
    while (!this.stopped) {
      const unfetched = this.waiting.find((w) => !w.bytes);
      if (unfetched && this.waiting.indexOf(unfetched) < HLS_TUNING.segmentsAhead) {
        unfetched.bytes = await this.get(unfetched.segment.uri, 'HLS segment', HLS_TUNING.segmentMaxBytes);
        this.wake();
        continue;
      }
      if (this.playlist.ended) {
        if (!unfetched) {
          this.fetchedAll = true;
          this.wake();
          return;
        }
        await this.sleep(); // until the writer takes one
        continue;
      }
      const now = Date.now();
      if (now < reloadAt) {
        await this.sleep(reloadAt - now);
        continue;
      }
      reloadAt = now + reloadMs();
      const playlist = await readPlaylist(this.url, this.fetch, (request) => {
        this.call = request;
      });
      if (this.stopped) return;
      if (playlist.kind !== 'media') throw about('the HLS playlist', this.url, 'it became a master playlist');
      if (playlist.map?.href !== map?.href) throw about('the HLS playlist', this.url, 'its init segment changed');
      this.playlist = playlist;
      let fresh: number;
      try {
        fresh = this.take(playlist);
      } catch (error) {
        throw about('the HLS playlist', this.url, error);
      }
      if (fresh > 0) freshAt = now;
      else if (!playlist.ended) {
        const staleMs = Math.max(10_000, HLS_TUNING.staleTargetDurations * playlist.targetDuration * 1000);
        if (now - freshAt > staleMs)
          throw about('the HLS playlist', this.url, `it listed no new segment for ${Math.round(staleMs / 1000)} s`);
      }
    }
  }

  /** Writes the segments as they are fetched; answers whether all of an ended playlist were written. */
  private async writeLoop(stdin: Writable): Promise<boolean> {
    let initWritten = false;
    while (!this.stopped && !stdin.destroyed) {
      const head = this.waiting[0];
      if (head?.bytes) {
        if (!initWritten && this.init) await this.write(stdin, this.init);
        initWritten = true;
        this.waiting.shift();
        this.wake();
        await this.write(stdin, head.bytes);
        continue;
      }
      if (this.fetchedAll && this.waiting.length === 0) return true;
      await this.sleep();
    }
    return false;
  }

  /** Writes on stdin; resolves once it takes more (drained), once it closed, or once the reader stopped. */
  private write(stdin: Writable, bytes: Buffer): Promise<void> {
    if (stdin.write(bytes)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.stopping.delete(done);
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
      // not a wake: a segment fetched meanwhile does not make room on stdin
      this.stopping.add(done);
    });
  }

  /** A segment or init segment fetched whole; a failure names it. */
  private async get(url: URL, what: string, max: number): Promise<Buffer> {
    try {
      const { response, request } = await this.fetch(url);
      this.call = request;
      if (this.stopped) request.destroy();
      return await readBody(response, max);
    } catch (error) {
      throw about(what, url, error);
    } finally {
      this.call = undefined;
    }
  }

  /** Waits for a wake (or `ms`). */
  private sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const done of [...this.wakers]) done();
  }
}
