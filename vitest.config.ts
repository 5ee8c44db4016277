import { defineConfig } from 'vitest/config';

// test/unit (pure functions, codecs, config, the layer check: no server
// process, no PostgreSQL, no ONNX Runtime session, no child process; `npm run
// test:unit`, seconds), test/integration (real ONNX Runtime sessions in
// process, tests that spawn a process: the bench CLI, pbjs, a node scenario,
// and route tests against the app in process on a copy of one migrated
// database; `npm run test:integration`) and test/e2e (the real server as a
// child process, with its own PostgreSQL). `npm test` runs them all.
const CONTENTION = ['test/e2e/tenant-floods.test.ts', 'test/e2e/rule-floods.test.ts'];

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
      {
        extends: true,
        // One PostgreSQL and one migrated template database for the run, each in-process server's database a copy.
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], globalSetup: ['test/helpers/template-database.ts'] },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: CONTENTION } },
      // Tests that compare a tenant's throughput alone and under another's
      // flood measure shares of the machine: beside other test files the
      // "alone" and "under" windows saw different background load (a kept
      // share of 0.24 in a full run, 0.47-0.52 on a quiet machine, both
      // before and after the same change). They run last, one at a time.
      {
        extends: true,
        test: { name: 'contention', include: CONTENTION, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
