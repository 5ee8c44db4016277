// The console's files are served from a map made at start: no request path
// reaches the file system, so none can name a file outside web/dist.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_SETTINGS_PATH, loadStaticSite, resolveStaticPath } from '../../src/http/static-site.js';

const parent = mkdtempSync(join(tmpdir(), 'static-site-'));
const dir = join(parent, 'dist');
mkdirSync(join(dir, 'assets'), { recursive: true });
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>index</title>');
writeFileSync(join(dir, 'docs.html'), '<!doctype html><title>docs</title>');
writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log("x");'.repeat(100));
writeFileSync(join(parent, 'secret.txt'), 'not to be served');
const settings = { tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png' };
const site = loadStaticSite(dir, settings)!;
const index = site.files.get('/index.html');

afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('the console as static files', () => {
  it('answers files by their path, /docs by docs.html, and client routes by index.html', () => {
    expect(resolveStaticPath(site, '/assets/index-abc123.js')?.contentType).toBe('text/javascript; charset=utf-8');
    expect(resolveStaticPath(site, '/docs')).toBe(site.files.get('/docs.html'));
    for (const path of ['/', '/models', '/models/01ABC/predict', '/verify-email'])
      expect(resolveStaticPath(site, path), path).toBe(index);
    // for a client that does not ask for pages, only files answer
    expect(resolveStaticPath(site, '/models', { pages: false })).toBeUndefined();
    expect(resolveStaticPath(site, '/docs', { pages: false })).toBe(site.files.get('/docs.html'));
  });

  it('keeps hashed assets for good and revalidates the rest', () => {
    expect(site.files.get('/assets/index-abc123.js')?.cacheControl).toBe('public, max-age=31536000, immutable');
    expect(index?.cacheControl).toBe('no-cache');
  });

  it('gzips text once, when it gains', () => {
    const asset = site.files.get('/assets/index-abc123.js')!;
    expect(asset.gzipped!.length).toBeLessThan(asset.body.length);
  });

  it("answers the server's console settings as a file beside the built ones, revalidated", () => {
    const file = resolveStaticPath(site, CONSOLE_SETTINGS_PATH, { pages: false })!;
    expect(JSON.parse(file.body.toString())).toEqual(settings);
    expect(file.contentType).toBe('application/json');
    expect(file.cacheControl).toBe('no-cache');
  });

  it('answers no path outside the directory, however spelled', () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '//secret.txt',
      '/assets/missing.js',
    ]) {
      expect(resolveStaticPath(site, path), path).toBeUndefined();
    }
  });

  it('is absent when the console was not built', () => {
    expect(loadStaticSite(join(parent, 'nowhere'), settings)).toBeUndefined();
    expect(loadStaticSite(join(dir, 'assets'), settings)).toBeUndefined(); // no index.html
  });
});
