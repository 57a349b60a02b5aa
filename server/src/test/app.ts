import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createPglite, migrationsFolder, openDatabase, type Database } from '../db/client.ts';
import type { JobQueueOptions } from '../job-queue.ts';
import { withSecrets } from '../secrets.ts';

/**
 * Tests run against a real database: PGlite by default, or a fresh database on the
 * PostgreSQL server at TEST_DATABASE_URL in the `postgres` test project.
 */
export const testDatabaseKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export async function openTestDatabase(): Promise<Database> {
  return testDatabaseKind === 'postgres' ? openPostgresTestDatabase() : openDatabase({ pglite: await pgliteFromTemplate() });
}

/**
 * A migrated PGlite folder, dumped once and loaded by every test: far quicker than creating one each time.
 * Kept as a plain tar (42 MB in the temporary folder): unpacking gzip cost a third of a second of CPU per database.
 * A worker runs many test files (isolate: false), so it reads the dump once and keeps it.
 */
let templateDump: Promise<Blob> | undefined;

export async function pgliteFromTemplate(): Promise<PGlite> {
  templateDump ??= readOrMakeTemplate();
  return createPglite({ loadDataDir: await templateDump });
}

async function readOrMakeTemplate(): Promise<Blob> {
  const migrations = (await fs.readdir(migrationsFolder, { recursive: true })).sort().join(',');
  const stamp = (await Promise.all(migrations.split(',').map((file) => fs.stat(path.join(migrationsFolder, file))))).map((stat) => stat.mtimeMs).join(',');
  const id = Buffer.from(`${migrations}|${stamp}`).toString('base64url').slice(-40);
  const template = path.join(os.tmpdir(), `lms-pglite-template-${id}.tar`);
  const dump = await fs.readFile(template).catch(async () => {
    const fresh = await createPglite();
    const database = await openDatabase({ pglite: fresh });
    const blob = await fresh.dumpDataDir('none');
    await database.close();
    const bytes = Buffer.from(await blob.arrayBuffer());
    const partial = `${template}.${process.pid}.part`;
    await fs.writeFile(partial, bytes);
    await fs.rename(partial, template);
    return bytes;
  });
  return new Blob([dump]);
}

/** A new, empty database on the PostgreSQL server at TEST_DATABASE_URL; `drop` removes it. */
export async function createPostgresTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `lms_test_${randomBytes(6).toString('hex')}`;
  const asAdmin = async (statement: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await asAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // node-postgres's pool.end() resolves before its connections have closed: FORCE ends any still
  // open, and the pool's idle-connection listener (db/client.ts) takes the error they report.
  return { url: url.toString(), drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function openPostgresTestDatabase(): Promise<Database> {
  const created = await createPostgresTestDatabase();
  const database = await openDatabase({ url: created.url });
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

export const TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PASSWORD_COST: '12',
  SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
  LOGIN_MAX_PER_IP: '1000',
  SIGNUP_MAX_PER_IP: '1000',
  RAZORPAY_KEY_ID: 'rzp_test_LmsTestKey0001',
  RAZORPAY_KEY_SECRET: 'test-key-secret-0123456789',
  RAZORPAY_WEBHOOK_SECRET: 'test-webhook-secret-0123456789',
  SELLER_NAME: 'LMS Test Seller',
  SELLER_ADDRESS: 'MG Road, Bengaluru 560001',
  // Most tests upload a few random bytes as a video; the pipeline's own tests turn processing on.
  VIDEO_PROCESSING: 'off',
};

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A whole app on a fresh database and data folder; `close` removes both. */
export async function createTestApp({
  env = {},
  logStream,
  rateLimitPrefix = `lms-test-${randomBytes(6).toString('hex')}`,
  jobRules,
  heldSavesFlushMs,
  database: shared,
  catchUpOnEveryRequest = true,
}: {
  env?: Record<string, string>;
  logStream?: Writable;
  rateLimitPrefix?: string;
  jobRules?: JobQueueOptions['rules'];
  heldSavesFlushMs?: number;
  /** Another app's database, for two instances on one database (closed by its owner). */
  database?: Database;
  catchUpOnEveryRequest?: boolean;
} = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  const config = withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, ...env }));
  const database = shared ?? (await openTestDatabase());
  const app = await buildApp(config, {
    database,
    logStream,
    rateLimitPrefix,
    heldSavesFlushMs,
    catchUpOnEveryRequest,
    // Retries a second apart, and other instances' jobs found within half a second.
    jobs: { retryDelaySeconds: 1, pollingIntervalSeconds: 0.5, ...(jobRules && { rules: jobRules }) },
  });
  return {
    app,
    config,
    database,
    dataDir,
    async close() {
      await app.close();
      if (!shared) await database.close();
      // Retried: another instance on the same database may still be finishing a queued mail into this folder.
      await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
