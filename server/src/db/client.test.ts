import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { withSecrets } from '../secrets.ts';
import { createPostgresTestDatabase, pgliteFromTemplate, TEST_ENV, testDatabaseKind } from '../test/app.ts';
import { recordLogs } from '../test/logs.ts';
import { migrationsPending } from './client.ts';

describe.runIf(testDatabaseKind === 'postgres')('a PostgreSQL connection that dies while idle', () => {
  it('is logged as a warning, and the server goes on answering from a new connection', async () => {
    const created = await createPostgresTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-idle-'));
    const logs = recordLogs();
    const config = withSecrets(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: created.url }));
    const app = await buildApp(config, { logStream: logs.stream });
    try {
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      const warned = () => logs.entries().some((entry) => String(entry.msg).startsWith('database connection lost while idle'));

      // What a restart or an administrator does to the connections the pool keeps open.
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const ended = await admin
        .query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [new URL(created.url).pathname.slice(1)])
        .finally(() => admin.end());
      expect(ended.rowCount).toBeGreaterThan(0);
      await expect.poll(warned, { timeout: 5000 }).toBe(true);

      // The pool holds several connections (the job queue polls beside requests): each dead one is
      // reported as the pool notices it, and the next query gets a working one.
      await expect.poll(async () => (await app.inject({ url: '/healthz' })).statusCode, { timeout: 5000 }).toBe(200);
      expect(logs.entries().find((entry) => String(entry.msg).startsWith('database connection lost'))).toMatchObject({
        level: 40,
        err: { message: 'terminating connection due to administrator command' },
      });
    } finally {
      await app.close();
      await created.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(testDatabaseKind === 'pglite')('migrationsPending', () => {
  it('says so until the newest committed migration is recorded, and not once it is', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-migrations-'));
    await fs.mkdir(path.join(folder, 'meta'));
    // Newer than any the database has recorded (the project's own, applied to the test database).
    const entries = ['0000_first', '0001_second'].map((tag, idx) => ({ idx, version: '7', when: 9_000_000_000_000 + idx, tag, breakpoints: true }));
    for (const { tag } of entries) await fs.writeFile(path.join(folder, `${tag}.sql`), `CREATE TABLE pending_${tag.slice(5)} (id integer);`);
    // The journal as an older build committed it, then as this one does.
    const commit = (committed: typeof entries) =>
      fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: committed }));
    const client = await pgliteFromTemplate();
    try {
      const query = (text: string) => client.query(text);
      expect(await migrationsPending(query)).toBe(false);
      await commit(entries.slice(0, 1));
      expect(await migrationsPending(query, folder)).toBe(true);
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      expect(await migrationsPending(query, folder)).toBe(false);

      await commit(entries);
      expect(await migrationsPending(query, folder)).toBe(true);
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      expect(await migrationsPending(query, folder)).toBe(false);
      const tables = await client.query("SELECT tablename FROM pg_tables WHERE tablename LIKE 'pending_%' ORDER BY tablename");
      expect(tables.rows).toEqual([{ tablename: 'pending_first' }, { tablename: 'pending_second' }]);
    } finally {
      await client.close();
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
