// HLS read by the server, never by ffmpeg: playlists parsed (master and
// media, URIs resolved against the playlist's URL, EXT-X-MAP, what is
// refused), the variant chosen, a live playlist's new segments taken once
// and a reader behind skipped to the live edge, and the reader writing the
// segments in order, every URI through the stream's fetch, with a fake one
// here (no server, no ffmpeg).
import type { ClientRequest, IncomingMessage } from 'node:http';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chooseVariant,
  isHlsPlaylist,
  keepLiveEdge,
  type MediaPlaylist,
  openHls,
  parsePlaylist,
  segmentsToFetch,
} from '../../src/ingest/streams/hls-source.js';
import { checkDestination, parseAllowList } from '../../src/platform/rules/ssrf-guard.js';

const BASE = new URL('http://viewer:s3cret@cam.example/live/index.m3u8');

/** ffmpeg's VOD playlist of the test clip (-f hls -hls_time 2 -hls_list_size 0 -hls_segment_type mpegts). */
const VOD = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXTINF:2.000000,
clip0.ts
#EXTINF:2.000000,
clip1.ts
#EXTINF:2.000000,
clip2.ts
#EXT-X-ENDLIST
`;

/** A live playlist listing segments `from` to `to`. */
function live(from: number, to: number, extra = ''): string {
  const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${from}`, extra];
  for (let seq = from; seq <= to; seq++) lines.push('#EXTINF:1.0,', `s${seq}.ts`);
  return lines.join('\n');
}

const media = (text: string, base = BASE) => parsePlaylist(text, base) as MediaPlaylist;

describe('parsePlaylist', () => {
  it("reads a media playlist: segments numbered from its media sequence, URIs resolved against the playlist's URL", () => {
    const playlist = media(
      [
        '#EXTM3U',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-MEDIA-SEQUENCE:40',
        '#EXT-X-KEY:METHOD=NONE',
        '#EXTINF:6.0,',
        'seg40.ts',
        '#EXTINF:6.0,',
        '/other/seg41.ts',
        '#EXTINF:6.0,',
        '../up/seg42.ts?token=a',
        '#EXTINF:6.0,',
        'https://cdn.example/seg43.ts',
        '#EXTINF:6.0,',
        '//cdn.example/seg44.ts',
      ].join('\r\n'),
    );
    expect(playlist).toMatchObject({ kind: 'media', targetDuration: 6, ended: false });
    expect(playlist.map).toBeUndefined();
    expect(playlist.segments.map((s) => [s.seq, s.uri.href])).toEqual([
      [40, 'http://viewer:s3cret@cam.example/live/seg40.ts'],
      [41, 'http://viewer:s3cret@cam.example/other/seg41.ts'],
      [42, 'http://viewer:s3cret@cam.example/up/seg42.ts?token=a'],
      // another host gets no credentials
      [43, 'https://cdn.example/seg43.ts'],
      [44, 'http://cdn.example/seg44.ts'],
    ]);
    expect(media(VOD)).toMatchObject({ ended: true, targetDuration: 2 });
    expect(media(VOD).segments.map((s) => s.seq)).toEqual([0, 1, 2]);
  });

  it('reads a master playlist: its variants with bandwidth, resolution and codecs', () => {
    const playlist = parsePlaylist(
      [
        '#EXTM3U',
        '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,CODECS="avc1.4d401e,mp4a.40.2"',
        'low/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=1280x720',
        'https://cdn.example/high/index.m3u8',
        '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,URI="iframes.m3u8"',
      ].join('\n'),
      BASE,
    );
    expect(playlist).toEqual({
      kind: 'master',
      variants: [
        {
          uri: new URL('http://viewer:s3cret@cam.example/live/low/index.m3u8'),
          bandwidth: 800000,
          width: 640,
          height: 360,
          codecs: 'avc1.4d401e,mp4a.40.2',
        },
        { uri: new URL('https://cdn.example/high/index.m3u8'), bandwidth: 2500000, width: 1280, height: 720 },
      ],
    });
  });

  it("reads fMP4 segments' init segment (EXT-X-MAP)", () => {
    const playlist = media(
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2,\nf0.m4s\n#EXTINF:2,\nf1.m4s\n#EXT-X-ENDLIST',
    );
    expect(playlist.map?.href).toBe('http://viewer:s3cret@cam.example/live/init.mp4');
    expect(playlist.segments.map((s) => s.uri.pathname)).toEqual(['/live/f0.m4s', '/live/f1.m4s']);
  });

  it('refuses what is no playlist, encrypted segments, byte ranges and URIs that are not http(s), credentials masked', () => {
    const refused: Array<[string, string]> = [
      ['<html>not found</html>', 'not an HLS playlist'],
      ['#EXTM3U\n#EXT-X-VERSION:3\n', 'lists no variant'],
      [live(0, 2, '#EXT-X-KEY:METHOD=AES-128,URI="key.bin"'), 'encrypted (EXT-X-KEY METHOD=AES-128)'],
      [live(0, 2, '#EXT-X-KEY:METHOD=SAMPLE-AES,URI="key.bin"'), 'encrypted HLS is not read'],
      [live(0, 1, '#EXT-X-BYTERANGE:1000@0'), 'EXT-X-BYTERANGE'],
      [live(0, 1, '#EXT-X-MAP:URI="init.mp4",BYTERANGE="700@0"'), 'EXT-X-MAP BYTERANGE'],
      ['#EXTM3U\n#EXT-X-MAP:URI="a.mp4"\n#EXTINF:1,\na.m4s\n#EXT-X-MAP:URI="b.mp4"\n#EXTINF:1,\nb.m4s', 'changes'],
      ['#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile:///etc/passwd', 'only http(s) URIs are read'],
      ['#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n#EXTINF:2,\na.ts', 'mixes a master playlist'],
    ];
    for (const [text, says] of refused) expect(() => parsePlaylist(text, BASE), says).toThrow(says);
    expect(() => parsePlaylist('#EXTM3U\n#EXTINF:1,\nrtsp://u:pw@cam.example/x', BASE)).toThrow(
      'it names rtsp://u:***@cam.example/x',
    );
  });
});

describe('isHlsPlaylist', () => {
  it('knows a playlist by its path or its content type', () => {
    const url = (path: string) => new URL(`http://cam.example${path}`);
    expect(isHlsPlaylist(url('/live/INDEX.M3U8'), undefined)).toBe(true);
    expect(isHlsPlaylist(url('/live'), 'application/vnd.apple.mpegurl')).toBe(true);
    expect(isHlsPlaylist(url('/live'), 'application/x-mpegURL; charset=utf-8')).toBe(true);
    expect(isHlsPlaylist(url('/live.m3u'), 'audio/mpegurl')).toBe(true);
    expect(isHlsPlaylist(url('/video.mjpg'), 'multipart/x-mixed-replace; boundary=frame')).toBe(false);
    expect(isHlsPlaylist(url('/video.ts'), 'video/mp2t')).toBe(false);
  });
});

describe('chooseVariant', () => {
  const variants = [
    { uri: new URL('http://a/1080.m3u8'), bandwidth: 6_000_000, width: 1920, height: 1080 },
    { uri: new URL('http://a/360.m3u8'), bandwidth: 800_000, width: 640, height: 360 },
    { uri: new URL('http://a/720.m3u8'), bandwidth: 3_000_000, width: 1280, height: 720 },
    { uri: new URL('http://a/audio.m3u8'), bandwidth: 64_000, codecs: 'mp4a.40.2' },
  ];
  const name = (target: { width: number; height: number; keepAspect: boolean }) =>
    chooseVariant(variants, target).uri.pathname;

  it('takes the lowest bandwidth whose picture is not scaled up to the model, else the highest', () => {
    expect(name({ width: 320, height: 320, keepAspect: true })).toBe('/360.m3u8');
    // letterboxed into 640x640, a 640x360 picture is fitted, not scaled up
    expect(name({ width: 640, height: 640, keepAspect: true })).toBe('/360.m3u8');
    // stretched to 640x640, it would be: 720 is the lowest that fills both sides
    expect(name({ width: 640, height: 640, keepAspect: false })).toBe('/720.m3u8');
    expect(name({ width: 2048, height: 2048, keepAspect: true })).toBe('/1080.m3u8');
  });

  it('leaves sound-only variants out, and takes the highest bandwidth when none says its resolution', () => {
    const unsized = [
      { uri: new URL('http://a/low.m3u8'), bandwidth: 500_000 },
      { uri: new URL('http://a/high.m3u8'), bandwidth: 900_000, codecs: 'avc1.64001f,mp4a.40.2' },
      { uri: new URL('http://a/sound.m3u8'), bandwidth: 2_000_000, codecs: 'mp4a.40.2' },
    ];
    expect(chooseVariant(unsized, { width: 320, height: 320, keepAspect: true }).uri.pathname).toBe('/high.m3u8');
    expect(() => chooseVariant([unsized[2]!], { width: 320, height: 320, keepAspect: true })).toThrow(
      'no video variant',
    );
  });
});

describe('the live edge', () => {
  it("takes a VOD playlist's segments all, a live one's last three, then each new one once", () => {
    expect(segmentsToFetch(media(VOD), undefined).segments.map((s) => s.seq)).toEqual([0, 1, 2]);
    expect(segmentsToFetch(media(live(10, 20)), undefined)).toMatchObject({
      segments: [{ seq: 18 }, { seq: 19 }, { seq: 20 }],
      missed: 0,
    });
    expect(segmentsToFetch(media(live(0, 1)), undefined).segments.map((s) => s.seq)).toEqual([0, 1]);
    // read again: the new ones only; unchanged: none
    expect(segmentsToFetch(media(live(12, 22)), 21).segments.map((s) => s.seq)).toEqual([21, 22]);
    expect(segmentsToFetch(media(live(12, 22)), 23)).toEqual({ segments: [], missed: 0 });
    // segments that left the playlist before they were taken are missed, counted
    expect(segmentsToFetch(media(live(30, 32)), 25)).toMatchObject({
      segments: [{ seq: 30 }, { seq: 31 }, { seq: 32 }],
      missed: 5,
    });
    // numbers that go back (an encoder restarted) fail the reading: it is opened afresh
    expect(() => segmentsToFetch(media(live(0, 3)), 40)).toThrow('went back');
  });

  it('drops the oldest waiting segments of a reader behind, and counts them', () => {
    const waiting = [1, 2, 3, 4, 5, 6];
    expect(keepLiveEdge(waiting, 4)).toBe(2);
    expect(waiting).toEqual([3, 4, 5, 6]);
    expect(keepLiveEdge(waiting, 4)).toBe(0);
  });
});

/** A fake of the stream's fetch: answers `files` by path, the host checked as the server checks it (127.0.0.1 allowed). */
function fakeFetch(files: Record<string, string | (() => string)>) {
  const fetched: string[] = [];
  const allow = parseAllowList(['127.0.0.1']);
  const fetch = async (url: URL): Promise<{ response: IncomingMessage; request: ClientRequest }> => {
    await checkDestination(url, allow, undefined, 'STREAM_ALLOWED_HOSTS');
    fetched.push(url.pathname);
    const file = files[url.pathname];
    if (file === undefined) throw new Error('the server answered 404');
    const body = Buffer.from(typeof file === 'function' ? file() : file);
    const response = Object.assign(Readable.from([body]), { headers: {}, setTimeout: () => response });
    return { response: response as unknown as IncomingMessage, request: { destroy() {} } as unknown as ClientRequest };
  };
  const first = (path: string) => fetch(new URL(`http://127.0.0.1${path}`)).then(({ response }) => response);
  return { fetch, fetched, first };
}

/** A stdin that keeps what is written. */
function sink(): { stdin: Writable; written: string[] } {
  const written: string[] = [];
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callback();
    },
  });
  return { stdin, written };
}

const TARGET = { width: 320, height: 320, keepAspect: true };

describe('the HLS reader', () => {
  afterEach(() => vi.useRealTimers());

  it("writes a master playlist's variant's init segment, then its segments in order, then ends", async () => {
    const { fetch, fetched, first } = fakeFetch({
      '/master.m3u8':
        '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=9000,RESOLUTION=1920x1080\nbig/v.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=100,RESOLUTION=640x360\nsmall/v.m3u8',
      '/small/v.m3u8':
        '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:2,\nf0.m4s\n#EXTINF:2,\n/small/f1.m4s\n#EXT-X-ENDLIST',
      '/small/init.mp4': 'INIT',
      '/small/f0.m4s': 'F0',
      '/small/f1.m4s': 'F1',
    });
    const url = new URL('http://127.0.0.1/master.m3u8');
    const reader = await openHls(url, await first('/master.m3u8'), TARGET, fetch);
    expect(reader.demuxer).toBe('mp4');
    const { stdin, written } = sink();
    const outcome = await new Promise<string>((resolve) => {
      reader.start(stdin, { failed: (reason) => resolve(`failed: ${reason}`), ended: () => resolve('ended') });
    });
    expect(outcome).toBe('ended');
    expect(written).toEqual(['INIT', 'F0', 'F1']);
    expect(fetched).toEqual(['/master.m3u8', '/small/v.m3u8', '/small/init.mp4', '/small/f0.m4s', '/small/f1.m4s']);
  });

  it('fails, naming the segment and STREAM_ALLOWED_HOSTS, on a segment of a host it refuses, and fetches nothing from it', async () => {
    const { fetch, fetched, first } = fakeFetch({
      '/vod.m3u8': '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://u:pw@10.0.0.1/s0.ts\n#EXT-X-ENDLIST',
    });
    const reader = await openHls(new URL('http://127.0.0.1/vod.m3u8'), await first('/vod.m3u8'), TARGET, fetch);
    expect(reader.demuxer).toBe('mpegts');
    const { stdin, written } = sink();
    const reason = await new Promise<string>((resolve) => {
      reader.start(stdin, { failed: resolve, ended: () => resolve('ended') });
    });
    expect(reason).toContain('HLS segment http://u:***@10.0.0.1/s0.ts: blocked: 10.0.0.1 is an internal address');
    expect(reason).toContain('STREAM_ALLOWED_HOSTS');
    expect(fetched).toEqual(['/vod.m3u8']);
    expect(written).toEqual([]);
  });

  it('refuses a playlist that is none, and an encrypted one, before any segment', async () => {
    const { fetch, first } = fakeFetch({ '/a.m3u8': 'hello', '/b.m3u8': live(0, 3, '#EXT-X-KEY:METHOD=AES-128') });
    await expect(openHls(new URL('http://127.0.0.1/a.m3u8'), await first('/a.m3u8'), TARGET, fetch)).rejects.toThrow(
      'the HLS playlist http://127.0.0.1/a.m3u8: it is not an HLS playlist',
    );
    await expect(openHls(new URL('http://127.0.0.1/b.m3u8'), await first('/b.m3u8'), TARGET, fetch)).rejects.toThrow(
      'encrypted',
    );
  });

  it('reads a live playlist again each target duration, and skips a reader behind to the live edge', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let to = 5;
    const files: Record<string, string | (() => string)> = { '/live.m3u8': () => live(Math.max(0, to - 5), to) };
    for (let seq = 0; seq < 40; seq++) files[`/s${seq}.ts`] = `S${seq}`;
    const { fetch, fetched, first } = fakeFetch(files);
    const reader = await openHls(new URL('http://127.0.0.1/live.m3u8'), await first('/live.m3u8'), TARGET, fetch);
    // ffmpeg busy: the first segment written is not taken until told
    const written: string[] = [];
    let release: (() => void) | undefined;
    const stdin = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        release = callback;
      },
    });
    const failures: string[] = [];
    reader.start(stdin, { failed: (reason) => failures.push(reason), ended: () => failures.push('ended') });
    await vi.advanceTimersByTimeAsync(10);
    // started three segments before the end
    expect(written).toEqual(['S3']);
    // six target durations pass while S3 is written: six new segments, four wait (S8 to S11), S4 to S7 skipped
    for (let i = 0; i < 6; i++) {
      to++;
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(fetched.filter((path) => path === '/live.m3u8').length).toBe(7);
    expect(reader.skipped).toBe(4);
    // ffmpeg takes them: the live edge on from S3
    for (let i = 0; i < 10 && written.length < 5; i++) {
      const taken = release;
      release = undefined;
      taken?.();
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(written).toEqual(['S3', 'S8', 'S9', 'S10', 'S11']);
    // each segment fetched once at most
    const segments = fetched.filter((path) => path.endsWith('.ts'));
    expect(new Set(segments).size).toBe(segments.length);
    expect(failures).toEqual([]);
    reader.stop();
  });
});
