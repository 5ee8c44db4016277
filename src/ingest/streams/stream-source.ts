// One reading of a camera's stream: an ffmpeg child process that decodes the
// video, samples it at the profile's fps, scales each frame to fit the
// model's input, and writes it as a BMP (bmp-frames.ts) on its stdout.
//
// Where the stream comes from decides who connects to it. A tenant chooses
// the URL, so, as for webhooks (platform/rules/ssrf-guard.ts), its host is
// resolved and checked first: an internal address is refused unless
// STREAM_ALLOWED_HOSTS allows it. HTTP streams are fetched by the server
// itself, on the checked address, redirects not followed, and piped into
// ffmpeg; an HLS playlist and its segments are fetched the same way, each
// URI checked, the segments written in order on ffmpeg's stdin
// (hls-source.ts): ffmpeg never fetches a URL itself. RTSP streams are read
// by ffmpeg from the checked address written into the URL (so a second DNS
// answer cannot send it elsewhere). Files are read in real time (`-re`) and
// in a loop, as a camera would send them, from under STREAM_FILES_DIR only,
// symbolic links resolved.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { parseStreamUrl } from '../../lib/stream-url.js';
import { type AllowList, checkDestination, pinnedLookup } from '../../platform/rules/ssrf-guard.js';
import { BmpFrames } from './bmp-frames.js';
import { type HlsReader, isHlsPlaylist, openHls } from './hls-source.js';

export interface SourceSettings {
  ffmpegPath: string;
  /** STREAM_FILES_DIR */
  filesDir: string | undefined;
  /** STREAM_ALLOWED_HOSTS */
  allow: AllowList;
}

/** What the frames are made for: the model's input size, and the profile's rate. */
export interface SourceTarget {
  url: string;
  fps: number;
  width: number;
  height: number;
  /** keep the picture's aspect ratio inside width x height (a letterboxing model) or fill it (stretch) */
  keepAspect: boolean;
}

export interface SourceListener {
  frame(bmp: Buffer): void;
  /** the reading ended: the source closed, failed or was stopped; `reason` says which */
  closed(reason: string): void;
}

export interface OpenedSource {
  /** ends the reading (closed() follows) */
  stop(): void;
}

/** How long an HTTP stream may take to answer its request's headers. */
const HTTP_CONNECT_TIMEOUT_MS = 10_000;
/** ffmpeg's socket timeout for RTSP (microseconds): a camera silent this long fails the reading. */
const RTSP_TIMEOUT_US = 10_000_000;
/** What of ffmpeg's stderr is kept for the reason a reading ended. */
const STDERR_KEPT = 2048;

/** Demuxers for HTTP streams whose Content-Type says what they are (ffmpeg cannot probe a pipe reliably). */
function demuxerFor(contentType: string | undefined): string | undefined {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'multipart/x-mixed-replace') return 'mpjpeg';
  if (type === 'video/mp2t' || type === 'video/mpeg') return 'mpegts';
  return undefined;
}

/** ffmpeg's arguments after its input: sample, scale, and write BMP frames on stdout. */
function outputArguments(target: Omit<SourceTarget, 'url'>): string[] {
  const fit = target.keepAspect ? ':force_original_aspect_ratio=decrease' : '';
  return [
    ...['-an', '-sn', '-dn'],
    ...['-vf', `fps=${target.fps},scale=${target.width}:${target.height}${fit}`],
    ...['-pix_fmt', 'bgr24', '-c:v', 'bmp', '-f', 'image2pipe', 'pipe:1'],
  ];
}

/**
 * Opens the stream: resolves when ffmpeg runs (or the HTTP answer is
 * piped to it); throws, with a reason to show, when it cannot start.
 */
export async function openSource(
  target: SourceTarget,
  settings: SourceSettings,
  listener: SourceListener,
): Promise<OpenedSource> {
  const stream = parseStreamUrl(target.url, settings.filesDir);
  let input: string[];
  let response: IncomingMessage | undefined;
  let httpCall: ClientRequest | undefined;
  let hls: HlsReader | undefined;
  if (stream.kind === 'file') {
    const path = await realpath(stream.path!).catch(() => {
      throw new Error(`no file ${stream.url.pathname}`);
    });
    const root = await realpath(settings.filesDir!);
    if (!path.startsWith(root + sep)) throw new Error("the file is outside the server's stream files directory");
    // In a loop, as a camera that never stops: a replay runs until its stream is disabled.
    input = ['-re', '-stream_loop', '-1', '-i', path];
  } else {
    const destination = await checkDestination(stream.url, settings.allow, undefined, 'STREAM_ALLOWED_HOSTS');
    if (stream.kind === 'rtsp') {
      const pinned = new URL(stream.url.href);
      pinned.hostname = destination.family === 6 ? `[${destination.address}]` : destination.address;
      // Frames timed as they arrive: the camera's own timestamps start anywhere, and the fps filter would
      // fill the gap from zero with a burst of copies of the first frame at every connection.
      input = [
        ...['-rtsp_transport', 'tcp', '-timeout', String(RTSP_TIMEOUT_US)],
        ...['-use_wallclock_as_timestamps', '1', '-i', pinned.href],
      ];
    } else {
      const fetched = await fetchStream(stream.url, pinnedLookup(destination));
      if (isHlsPlaylist(stream.url, fetched.response.headers['content-type'])) {
        hls = await openHls(stream.url, fetched.response, target, (url) => fetchChecked(url, settings.allow)).catch(
          (error: unknown) => {
            fetched.request.destroy();
            throw error;
          },
        );
        // Segments arrive a whole one at a time (a VOD playlist's as fast as they are fetched): ffmpeg reads them
        // at their own timestamps' rate, as a file, so that frames come at the stream's pace.
        input = ['-re', '-f', hls.demuxer, '-i', 'pipe:0'];
      } else {
        ({ response, request: httpCall } = fetched);
        const demuxer = demuxerFor(response.headers['content-type']);
        // MJPEG carries no timestamps: its frames are timed as they arrive, else fps would sample an assumed 25 fps.
        const clock = demuxer === 'mpjpeg' ? ['-use_wallclock_as_timestamps', '1'] : [];
        input = [...clock, ...(demuxer ? ['-f', demuxer] : []), '-i', 'pipe:0'];
      }
    }
  }

  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    settings.ffmpegPath,
    ['-hide_banner', '-nostats', '-loglevel', 'error', '-threads', '1', ...input, ...outputArguments(target)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let reason: string | undefined;
  let closed = false;
  const close = (why: string) => {
    reason ??= why;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    httpCall?.destroy();
    hls?.stop();
  };
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const frames = new BmpFrames(target.width * target.height * 4 + 1024);
  child.stdout.on('data', (chunk: Buffer) => {
    if (closed) return;
    let completed: Buffer[];
    try {
      completed = frames.push(chunk);
    } catch (error) {
      close((error as Error).message);
      return;
    }
    for (const frame of completed) listener.frame(frame);
  });
  child.stdin.on('error', () => {}); // ffmpeg exiting first closes its stdin under the pipe
  if (response) {
    response.pipe(child.stdin);
    response.on('error', (error) => close(`the HTTP stream failed: ${error.message}`));
    response.on('end', () => {
      reason ??= 'the HTTP stream ended';
    });
  } else if (hls) {
    hls.start(child.stdin, {
      failed: close,
      ended: () => {
        reason ??= 'the HLS stream ended';
      },
    });
  } else child.stdin.end();
  child.on('error', (error) => close(`ffmpeg could not run (FFMPEG_PATH=${settings.ffmpegPath}): ${error.message}`));
  child.on('close', (code, signal) => {
    if (closed) return;
    closed = true;
    httpCall?.destroy();
    hls?.stop();
    const said = stderr.trim().split('\n').at(-1)?.trim();
    const skipped = hls?.skipped
      ? ` (${hls.skipped} HLS segment${hls.skipped === 1 ? '' : 's'} skipped to keep up with the live edge)`
      : '';
    listener.closed(
      (reason ?? (said || (code === 0 ? 'the stream ended' : `ffmpeg exited with ${signal ?? `code ${code}`}`))) +
        skipped,
    );
  });
  return { stop: () => close('stopped') };
}

/** An HLS playlist's or segment's URL fetched as the stream's own: its host checked (STREAM_ALLOWED_HOSTS), then fetchStream. */
async function fetchChecked(
  url: URL,
  allow: AllowList,
): Promise<{ response: IncomingMessage; request: ClientRequest }> {
  const destination = await checkDestination(url, allow, undefined, 'STREAM_ALLOWED_HOSTS');
  return fetchStream(url, pinnedLookup(destination));
}

/** The HTTP answer of a stream's URL: 200 only, redirects not followed, on the checked address. */
function fetchStream(
  url: URL,
  lookup: ReturnType<typeof pinnedLookup>,
): Promise<{ response: IncomingMessage; request: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const call = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      lookup,
      timeout: HTTP_CONNECT_TIMEOUT_MS,
    });
    call.on('timeout', () => call.destroy(new Error(`no answer within ${HTTP_CONNECT_TIMEOUT_MS / 1000} s`)));
    call.on('error', reject);
    call.on('response', (response) => {
      call.setTimeout(0);
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        response.resume();
        call.destroy();
        reject(
          new Error(
            status >= 300 && status < 400
              ? `the server answered ${status}, a redirect: streams do not follow redirects`
              : `the server answered ${status}`,
          ),
        );
        return;
      }
      resolve({ response, request: call });
    });
    call.end();
  });
}
