// The web console's files (web/, built by Vite into web/dist) served from
// memory. The directory is read once at start: a request can only name one
// of the files found then, looked up by its exact path in a map, so no
// request path ever reaches the file system and `..` or encoded slashes
// cannot escape it. The console is a few hundred kilobytes; text files are
// gzipped once here (the uWS build has no compression of its own).
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ApiError } from './errors.js';
import type { Reply } from './reply.js';
import type { Request } from './request.js';
import { unmatchedRoute, type Route } from './router.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.map', '.svg', '.txt']);

/**
 * Vite names every file under assets/ by a hash of its content: a changed
 * file is a new URL, so browsers may keep these for good. Everything else
 * (index.html, which names the current assets) is revalidated each time.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

interface StaticFile {
  body: Buffer;
  gzipped: Buffer | undefined;
  contentType: string;
  cacheControl: string;
}

export interface StaticSite {
  /** by URL path, e.g. /index.html, /assets/index-3f2a.js */
  files: ReadonlyMap<string, StaticFile>;
}

/** What the console reads from the server before it renders: public, the same for every user. */
export interface ConsoleSettings {
  /** the maps' default tile URL template (MAP_TILE_URL); empty: a grid only */
  tileUrl: string;
}

/** The path of the console's settings, a file generated from the configuration beside the built ones. */
export const CONSOLE_SETTINGS_PATH = '/console-settings.json';

/** Reads every file under `dir`, and the settings as CONSOLE_SETTINGS_PATH; undefined when it has no index.html (the console was not built). */
export function loadStaticSite(dir: string, settings: ConsoleSettings): StaticSite | undefined {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return undefined;
  }
  const files = new Map<string, StaticFile>();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const urlPath = '/' + relative(dir, path).split(sep).join('/');
    const ext = extname(entry.name).toLowerCase();
    const body = readFileSync(path);
    const gzipped = COMPRESSIBLE.has(ext) ? gzipSync(body) : undefined;
    files.set(urlPath, {
      body,
      gzipped: gzipped && gzipped.length < body.length ? gzipped : undefined,
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
    });
  }
  files.set(CONSOLE_SETTINGS_PATH, {
    body: Buffer.from(JSON.stringify(settings)),
    gzipped: undefined,
    contentType: CONTENT_TYPES['.json']!,
    cacheControl: REVALIDATE,
  });
  return files.has('/index.html') ? { files } : undefined;
}

/**
 * Which file answers a path: the file itself; `/docs` for `/docs.html`; and
 * for any other path without a file extension, index.html, so that the
 * console's own routes (/models, /verify-email?token=…) load it and the
 * console's router takes over. A missing asset stays a 404: answering it
 * with HTML would only hide the mistake.
 */
export function resolveStaticPath(
  site: StaticSite,
  path: string,
  options: { pages: boolean } = { pages: true },
): StaticFile | undefined {
  const file = site.files.get(path) ?? site.files.get(`${path}.html`);
  if (file) return file;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.') || !options.pages ? undefined : site.files.get('/index.html');
}

/**
 * What a console page may load and who may frame it. Scripts, styles and
 * requests come from this origin only (Vite builds no inline script; the
 * API is same-origin); images also from any http(s) origin, for the map
 * tiles MAP_TILE_URL (or a user's own setting) names; nobody may frame the
 * pages (clickjacking a signed-in admin), nor plugins or <base> run.
 */
const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: http: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

function serve(file: StaticFile, req: Request, reply: Reply): void {
  const gzip = file.gzipped !== undefined && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  if (file.gzipped) reply.varyOn('Accept-Encoding');
  reply.send(200, gzip ? file.gzipped! : file.body, file.contentType, {
    'Cache-Control': file.cacheControl,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    'X-Content-Type-Options': 'nosniff',
    ...(file.contentType.startsWith('text/html') ? PAGE_SECURITY_HEADERS : {}),
  });
}

/**
 * GET of any path no other route matched. Paths under `apiPrefixes` (the
 * API's own first segments: /v1, /v2, /openapi.json, /metrics) keep the
 * API's JSON 404, so the console never shadows an API mistake; so does any
 * path without a file for a client that does not ask for HTML.
 */
export function staticSiteRoute(
  site: StaticSite,
  apiPrefixes: readonly string[],
  unmatched: (method: string, path: string) => ApiError = unmatchedRoute([]),
): Route {
  const isApi = (path: string) => apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return {
    method: 'get',
    path: '/*',
    name: 'console',
    handler(req, reply) {
      // Only a browser opening a page (Accept: text/html) gets index.html for
      // a path that names no file: an API client's wrong path stays a 404.
      const pages = /\btext\/html\b/.test(req.headers.accept ?? '');
      const file = isApi(req.path) ? undefined : resolveStaticPath(site, req.path, { pages });
      // An API path no GET route takes: 405 when another method's does (GET on predict), else 404.
      if (!file) throw unmatched('GET', req.path);
      serve(file, req, reply);
    },
  };
}

/**
 * An API route whose path is also a console page: GET /, where the platform's
 * API answered its version (docs/CONTRACT.md#v2-coverage). A browser opening the page asks for HTML and
 * gets the console; an API client (any other Accept) the API's answer.
 */
export function sharedWithConsole(route: Route, site: StaticSite): Route {
  const index = site.files.get('/index.html')!;
  return {
    ...route,
    handler: (req, reply) => {
      // Both answers depend on Accept: a cache must not give a browser the JSON, nor a client the page.
      reply.varyOn('Accept');
      return /\btext\/html\b/.test(req.headers.accept ?? '') ? serve(index, req, reply) : route.handler(req, reply);
    },
  };
}
