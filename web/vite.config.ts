// The console's build: two pages (the app, and /docs, the API reference)
// into web/dist, which the server serves (src/http/static-site.ts). Every
// file under assets/ is named by its content's hash.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

export default defineConfig({
  root: here,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    // Swagger UI is ~1.5 MB (430 kB gzipped), loaded by /docs alone.
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      input: { index: resolve(here, 'index.html'), docs: resolve(here, 'docs.html') },
      // its report of slow plugins names the CSS of Swagger UI, on every build
      checks: { pluginTimings: false },
    },
  },
  // `npm run dev:web`: the console with live reload, talking to a server
  // started with `npm start` on its default port.
  server: {
    proxy: Object.fromEntries(['/v1', '/v2', '/openapi.json'].map((path) => [path, 'http://127.0.0.1:8080'])),
  },
});
