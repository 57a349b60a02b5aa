import fs from 'node:fs';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { paths } from '../paths.ts';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';
import { copyDatabaseTemplate } from './template.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Raw SQL with $1… parameters, for the job queue (pg-boss writes its own SQL). A text of
   * several statements framed by BEGIN; … COMMIT; runs as one transaction that is rolled back
   * if a statement fails: sent as it is, a failure would leave the connection stuck in an
   * aborted transaction (PGlite's only connection, or a pooled one).
   */
  execute(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Hears every NOTIFY on `channel`, from any connection, once its transaction commits. On PGlite
   * a change's messages arrive before the query that committed it returns. On PostgreSQL they
   * come over a connection of their own, which is made again when lost: `onListening(false)`
   * says messages may be missed from now, `onListening(true)` that they are heard (again).
   */
  listen(channel: string, handlers: ListenHandlers): Promise<{ stop(): Promise<void> }>;
  /** The PostgreSQL pool's connections now (metrics.ts); PGlite has no pool, one connection in this process. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Open connections, idle or running a query. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is at `max`. */
  waiting: number;
  max: number;
}

export interface ListenHandlers {
  onMessage(payload: string): void;
  onListening(listening: boolean): void;
}

/** Where the data lives: a PostgreSQL URL, an embedded data folder, or an already open PGlite (tests). */
export type DatabaseTarget = { url: string } | { dir: string } | { pglite: PGlite };

export interface DatabaseOptions {
  /**
   * Told when a pooled PostgreSQL connection dies while idle (a server restart, an
   * administrator ending it). The pool drops it and connects anew for the next query;
   * without a listener, node-postgres would crash the process.
   */
  onIdleConnectionError?: (error: Error) => void;
  /** The build's new database, which an embedded folder holding nothing yet gets a copy of (db/template.ts). */
  databaseTemplate?: string;
}

/**
 * Opens a PGlite database with the extensions the migrations use (pg_trgm, for the learners'
 * search): every PGlite this server or its tests open comes through here.
 */
export async function createPglite(options: PGliteOptions & { dataDir?: string } = {}): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  return PGlite.create({ ...options, extensions: { ...options.extensions, pg_trgm } });
}

/** The server's choice, shared by the admin command: PostgreSQL when DATABASE_URL is set, else the embedded folder. */
export const databaseTargetOf = (config: { databaseUrl?: string; dataDir: string }): DatabaseTarget =>
  config.databaseUrl ? { url: config.databaseUrl } : { dir: path.join(config.dataDir, 'db') };

export const migrationsFolder = paths.migrations;
const drizzleOptions = { schema, casing: 'snake_case' } as const;

/**
 * Opens the database and brings its schema up to date with the committed migrations.
 * Each back end's driver is imported only when used, which keeps start-up quick.
 */
export async function openDatabase(target: DatabaseTarget, options: DatabaseOptions = {}): Promise<Database> {
  if ('url' in target) return openPostgres(target.url, options);
  if ('dir' in target) {
    // PGlite has no lock between processes: two openers of one folder corrupt it.
    const release = lockDataDir(target.dir);
    try {
      copyDatabaseTemplate(target.dir, options.databaseTemplate);
      fs.mkdirSync(target.dir, { recursive: true });
      const database = await openPglite(createPglite({ dataDir: target.dir }));
      return { ...database, close: () => database.close().finally(release) };
    } catch (error) {
      release();
      throw error;
    }
  }
  return openPglite(Promise.resolve(target.pglite));
}

async function openPglite(opening: Promise<PGlite>): Promise<Database> {
  // drizzle's files are read while PGlite opens, rather than once it has.
  const [client, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    opening,
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const db = drizzlePglite({ client, ...drizzleOptions });
  if (await migrationsPending((text) => client.query(text))) await migratePglite(db, { migrationsFolder });
  const execute = async (text: string, values?: unknown[]) => {
    if (values?.length) return client.query(text, values);
    const block = transactionBody(text);
    // PGlite's transaction() holds its one connection, rolls back on failure and releases it.
    const results = block === undefined ? await client.exec(text) : await client.transaction((tx) => tx.exec(block));
    return results.at(-1) ?? { rows: [] };
  };
  const listen = async (channel: string, { onMessage, onListening }: ListenHandlers) => {
    const unlisten = await client.listen(channel, onMessage);
    onListening(true);
    return { stop: () => unlisten() };
  };
  return { db, kind: 'pglite', execute, listen, close: () => client.close() };
}

/**
 * Whether a committed migration is newer than the last one the database recorded: drizzle's own
 * test of which to apply, asked with one query. Its migrate() reads and hashes every migration
 * and creates its table if missing, which on PGlite was a tenth of a later start's work.
 */
export async function migrationsPending(query: (text: string) => Promise<{ rows: unknown[] }>, folder = migrationsFolder): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  let rows: unknown[];
  try {
    ({ rows } = await query('SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1'));
  } catch {
    // No table to ask: no migration has run here yet.
    return true;
  }
  const last = rows[0] as { created_at: string | number | bigint | null } | undefined;
  return !(Number(last?.created_at) >= newest);
}

/** The statements between a leading `BEGIN;` and a trailing `COMMIT;`, or undefined for any other text. */
function transactionBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^BEGIN;/i.test(trimmed) || !/COMMIT;$/i.test(trimmed)) return undefined;
  return trimmed.slice('BEGIN;'.length, -'COMMIT;'.length);
}

/** Pooled connections one instance opens to PostgreSQL at most, the job queue's included. */
const POOL_MAX = 10;

async function openPostgres(url: string, { onIdleConnectionError = () => {} }: DatabaseOptions): Promise<Database> {
  const { default: pg } = await import('pg');
  const { drizzle: drizzlePostgres } = await import('drizzle-orm/node-postgres');
  const { migrate: migratePostgres } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX });
  pool.on('error', onIdleConnectionError);
  const db = drizzlePostgres({ client: pool, ...drizzleOptions });
  try {
    // Several instances may start at once against one server: migrate one at a time.
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock(7411)');
      await migratePostgres(drizzlePostgres({ client: connection, ...drizzleOptions }), { migrationsFolder });
    } finally {
      await connection.query('SELECT pg_advisory_unlock(7411)').catch(() => undefined);
      connection.release();
    }
    await db.execute(sql`select 1`);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const execute = async (text: string, values?: unknown[]) => {
    if (values?.length || transactionBody(text) === undefined) return lastResult(await pool.query(text, values));
    const connection = await pool.connect();
    try {
      return lastResult(await connection.query(text));
    } catch (error) {
      await connection.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      connection.release();
    }
  };
  const listen = (channel: string, handlers: ListenHandlers) => listenPostgres(pg, url, channel, handlers);
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX });
  return { db, kind: 'postgres', execute, listen, poolStats, close: () => pool.end() };
}

/** How long a lost listening connection waits before connecting again. */
const RELISTEN_DELAY_MS = 1000;

/** A connection of its own (a pooled one would be handed to other queries) that connects again when lost. */
async function listenPostgres(pg: typeof import('pg').default, url: string, channel: string, { onMessage, onListening }: ListenHandlers) {
  let stopped = false;
  let client: import('pg').Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const connection = new pg.Client({ connectionString: url });
    connection.on('notification', (message) => message.channel === channel && onMessage(message.payload ?? ''));
    // A lost connection also ends: 'end' below says so and connects again.
    connection.on('error', () => undefined);
    connection.on('end', () => {
      if (client !== connection) return;
      client = undefined;
      onListening(false);
      if (!stopped) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${connection.escapeIdentifier(channel)}`);
    } catch {
      await connection.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS);
      return;
    }
    if (stopped) return void (await connection.end());
    client = connection;
    onListening(true);
  };
  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end();
    },
  };
}

/** node-postgres answers an array for a text of several statements: the last one's rows are the answer. */
const lastResult = (result: { rows: unknown[] } | { rows: unknown[] }[]) => (Array.isArray(result) ? (result.at(-1) ?? { rows: [] }) : result);
