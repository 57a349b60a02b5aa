import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/client.ts';
import { createTestApp, testDatabaseKind } from '../../test/app.ts';
import { signUp } from '../../test/http.ts';
import { mailedResetToken, waitForParsedMails } from '../../test/mail.ts';

/**
 * A mailed link (a password reset, a one-time sign-in) opens an account: it may exist only in
 * the mail. The database keeps its hash; no table, and no file of the embedded database
 * (its write-ahead log, which a backup archives, included), may hold the token itself.
 */

/** The tables (any schema: the job queue's too) with a row whose text holds `needle`. */
async function tablesHolding(database: Database, needle: string): Promise<string[]> {
  const { rows } = await database.execute(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const holding: string[] = [];
  for (const { schema, name } of rows as { schema: string; name: string }[]) {
    const table = `"${schema}"."${name}"`;
    const { rows: found } = await database.execute(`SELECT count(*)::int AS n FROM ${table} AS t WHERE strpos(t::text, $1) > 0`, [needle]);
    if ((found[0] as { n: number }).n > 0) holding.push(table);
  }
  return holding;
}

/** The files under `dir`, at any depth, whose bytes hold `needle`. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const bytes = Buffer.from(needle);
  const holding: string[] = [];
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await fs.readFile(file)).includes(bytes)) holding.push(path.relative(dir, file));
  }
  return holding;
}

// Each test starts an app of its own; the on-disk database is slower still.
describe('a mailed link at rest', { timeout: 90_000 }, () => {
  it('is in no table once a reset link is mailed, the job queue included', async () => {
    const t = await createTestApp();
    try {
      const account = await signUp(t.app);
      await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: account.email } });
      const token = await mailedResetToken(t.dataDir, account.email);
      expect(await tablesHolding(t.database, token)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('is in no table once a sign-in link is mailed past the login ceiling', async () => {
    const t = await createTestApp({ env: { LOGIN_MAX_PER_ACCOUNT: '1' } });
    try {
      const account = await signUp(t.app);
      const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email: account.email, password } });
      expect((await login('wrong#123')).statusCode).toBe(401);
      expect((await login(account.password)).statusCode).toBe(429);
      const [mail] = await waitForParsedMails(t.dataDir, account.email, /sign-in link/);
      const token = /\/sign-in\/([A-Za-z0-9_-]+)/.exec(mail!.text!)![1]!;
      expect(await tablesHolding(t.database, token)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  // The embedded database's files are this process's to read; PostgreSQL's are the server's.
  it.runIf(testDatabaseKind === 'pglite')('is in no file of the embedded database once a reset link is mailed', { timeout: 120_000 }, async () => {
    const dbDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-links-at-rest-'));
    const database = await openDatabase({ dir: dbDir });
    const t = await createTestApp({ database });
    try {
      const account = await signUp(t.app);
      await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: account.email } });
      const token = await mailedResetToken(t.dataDir, account.email);
      // Whatever the database wrote is on disk once it closes (a checkpoint writes the rest out).
      await t.close();
      await database.close();
      expect((await fs.readdir(dbDir, { recursive: true })).length).toBeGreaterThan(100);
      expect(await filesHolding(dbDir, token)).toEqual([]);
    } finally {
      await t.close().catch(() => {});
      await database.close().catch(() => {});
      await fs.rm(dbDir, { recursive: true, force: true });
    }
  });
});
