// What a camera's stream is read from, checked before any connection: the
// URL's kinds, files only under the configured directory, credentials
// masked when shown; and the BMP frames ffmpeg writes, split without
// parsing pixels, whatever the chunks' boundaries.
import { describe, expect, it } from 'vitest';
import { BmpFrames } from '../../src/ingest/streams/bmp-frames.js';
import { maskStreamUrl, parseStreamUrl } from '../../src/lib/stream-url.js';

/** A BMP-like frame of `size` bytes: the signature, its size, then `fill`. */
function frame(size: number, fill: number): Buffer {
  const bytes = Buffer.alloc(size, fill);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(size, 2);
  return bytes;
}

describe('BmpFrames', () => {
  it('splits a byte stream into its frames whatever the chunks', () => {
    const stream = Buffer.concat([frame(60, 1), frame(100, 2), frame(54, 3)]);
    for (const chunk of [1, 7, 14, 59, 61, 500]) {
      const splitter = new BmpFrames(1000);
      const out: Buffer[] = [];
      for (let at = 0; at < stream.length; at += chunk) out.push(...splitter.push(stream.subarray(at, at + chunk)));
      expect(out.map((f) => [f.length, f[20]])).toEqual([
        [60, 1],
        [100, 2],
        [54, 3],
      ]);
    }
  });

  it('refuses bytes that are no BMP and frames past the bound', () => {
    expect(() => new BmpFrames(1000).push(Buffer.from('GIF89a-and-more-bytes'))).toThrow(
      'not a sequence of BMP frames',
    );
    expect(() => new BmpFrames(100).push(frame(200, 0))).toThrow('outside the bounds');
    expect(() => new BmpFrames(100).push(frame(20, 0))).toThrow('outside the bounds');
  });
});

describe('parseStreamUrl', () => {
  it('takes RTSP and HTTP URLs, and files under the directory only', () => {
    expect(parseStreamUrl('rtsp://cam.example:554/live', undefined).kind).toBe('rtsp');
    expect(parseStreamUrl('rtsps://cam.example/live', undefined).kind).toBe('rtsp');
    expect(parseStreamUrl('https://cam.example/video.mjpg', undefined).kind).toBe('http');
    expect(parseStreamUrl('file:///srv/clips/a.mkv', '/srv/clips')).toMatchObject({
      kind: 'file',
      path: '/srv/clips/a.mkv',
    });
    expect(() => parseStreamUrl('file:///srv/clips/../secret.mkv', '/srv/clips')).toThrow('under the server');
    expect(() => parseStreamUrl('file:///srv/clipsother/a.mkv', '/srv/clips')).toThrow('under the server');
    expect(() => parseStreamUrl('file:///srv/clips/a.mkv', undefined)).toThrow('STREAM_FILES_DIR');
    expect(() => parseStreamUrl('file://host/srv/clips/a.mkv', '/srv/clips')).toThrow('local file');
    expect(() => parseStreamUrl('gopher://cam.example/', undefined)).toThrow('not a stream this server reads');
    expect(() => parseStreamUrl('cam.example/live', undefined)).toThrow('not a URL');
  });

  it('masks a password, and leaves a URL without one as it is', () => {
    expect(maskStreamUrl('rtsp://admin:hunter2@10.0.0.5/stream1')).toBe('rtsp://admin:***@10.0.0.5/stream1');
    expect(maskStreamUrl('http://cam.example/video.mjpg')).toBe('http://cam.example/video.mjpg');
  });
});
