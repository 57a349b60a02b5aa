import { defineConfig } from 'vitest/config';

// The same integration tests run on embedded PGlite and, when TEST_DATABASE_URL
// names a PostgreSQL server (as in CI), on PostgreSQL too.
const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: databases.map((name) => ({ extends: true, test: { name, env: { TEST_DB: name } } })),
  },
});
