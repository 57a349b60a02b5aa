import { configDefaults, defineConfig } from 'vitest/config';

// The same integration tests run on embedded PGlite and, when TEST_DATABASE_URL
// names a PostgreSQL server (as in CI), on PostgreSQL too.
const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

// Tests that open no database: on PostgreSQL they would only run again what already ran.
const withoutDatabase = [
  'src/batch-loader.test.ts',
  'src/config.test.ts',
  'src/event-loop-stats.test.ts',
  'src/route.test.ts',
  'src/features/auth/session-cache.test.ts',
  'src/features/courses/catalogue-cache.test.ts',
  'src/features/media/storage.test.ts',
  'src/features/resources/file-names.test.ts',
  'src/features/storefront/page-head.test.ts',
  'src/features/video/ffmpeg.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    // Files share a worker's modules: importing the app, and compiling PGlite, once per worker rather
    // than once per file took a third off the run. A file that mocks a module imports what uses it
    // after vi.resetModules() (contract.test.ts).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: databases.map((name) => ({
      extends: true,
      test: { name, env: { TEST_DB: name }, ...(name === 'postgres' && { exclude: [...configDefaults.exclude, ...withoutDatabase] }) },
    })),
  },
});
