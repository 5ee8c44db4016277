import { defineConfig } from 'vitest/config';

// Two projects: test/unit (pure functions, codecs, config, the layer check:
// no server process, no PostgreSQL; `npm run test:unit`) and test/e2e (the
// real server as a child process, or a database). `npm test` runs both.
export default defineConfig({
  test: {
    // End-to-end files start real servers (worker threads, PostgreSQL); two
    // files at a time keep a 2-core machine responsive.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
