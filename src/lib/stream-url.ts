// The URL of a camera's video stream, as a vision profile names it: RTSP
// (rtsp://, rtsps://), HTTP (http://, https://: MJPEG, MPEG-TS or HLS) or a
// file (file://) under the directory the server was given for replays
// (STREAM_FILES_DIR; without it files are refused). Credentials ride in the
// URL's userinfo, as cameras take them: the URL is sealed at rest, and shown
// with its password masked.
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type StreamKind = 'rtsp' | 'http' | 'file';

export interface StreamUrl {
  kind: StreamKind;
  url: URL;
  /** a file stream's path, under the files directory */
  path?: string;
}

const KINDS: Record<string, StreamKind> = {
  'rtsp:': 'rtsp',
  'rtsps:': 'rtsp',
  'http:': 'http',
  'https:': 'http',
  'file:': 'file',
};

/** A stream URL checked, or an Error whose message says what is wrong with it. */
export function parseStreamUrl(raw: string, filesDir: string | undefined): StreamUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('not a URL');
  }
  const kind = KINDS[url.protocol];
  if (!kind) throw new Error(`${url.protocol} is not a stream this server reads: rtsp, rtsps, http, https or file`);
  if (kind !== 'file') {
    if (!url.hostname) throw new Error('the URL names no host');
    return { kind, url };
  }
  if (filesDir === undefined) throw new Error('file:// streams are off on this server (STREAM_FILES_DIR is not set)');
  if (url.hostname !== '') throw new Error('a file:// URL names a local file: file:///path');
  const path = resolve(fileURLToPath(url));
  const root = resolve(filesDir);
  if (!path.startsWith(root + sep)) throw new Error(`the file must be under the server's stream files directory`);
  return { kind, url, path };
}

/** The URL as the API shows it: its password masked. */
export function maskStreamUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password === '') return raw;
    url.password = '***';
    return url.href;
  } catch {
    return raw;
  }
}
