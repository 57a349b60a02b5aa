import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { openDatabase, type DatabaseTarget } from '../db/client.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { sessions, users } from '../db/schema.ts';
import { createPasswordHasher } from '../features/auth/password.ts';
import { newToken, hashToken } from '../features/auth/sessions.ts';
import { createPostgresTestDatabase, testDatabaseKind } from '../test/app.ts';
import { runAdminCommand } from './admin.ts';

const passwords = createPasswordHasher(12);
const args = (email: string, password: string, name: string) => ['--email', email, '--password', password, '--name', name];

/** Reads one account straight from the database, as the server would see it. */
async function findUser(target: DatabaseTarget, email: string) {
  const database = await openDatabase(target);
  try {
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    return user;
  } finally {
    await database.close();
  }
}

describe('npm run admin: arguments', () => {
  // A data folder that must stay untouched: bad arguments never reach the database.
  const env = { DATA_DIR: path.join(os.tmpdir(), `lms-admin-never-${randomBytes(6).toString('hex')}`), PASSWORD_COST: '12' };

  it.each([
    ['a missing option', ['--email', 'a@example.com', '--password', 'secret#123'], 'Missing --name'],
    ['an unknown option', [...args('a@example.com', 'secret#123', 'Asha Verma'), '--role', 'ADMIN'], "Unknown option '--role'"],
    ['a stray argument', [...args('a@example.com', 'secret#123', 'Asha Verma'), 'extra'], "Unexpected argument 'extra'"],
    ['an invalid email', args('not-an-email', 'secret#123', 'Asha Verma'), `--email: ${messages.invalidEmailId}`],
    ['a weak password', args('a@example.com', 'password', 'Asha Verma'), `--password: ${messages.passwordRule}`],
    ['a short name', args('a@example.com', 'secret#123', '  Ash  '), `--name: ${messages.nameTooShort}`],
  ])('refuses %s with exit code 2, the problem and the usage', async (_case, argv, problem) => {
    const result = await runAdminCommand(argv, env);
    expect(result.code).toBe(2);
    expect(result.output).toContain(problem);
    expect(result.output).toContain('Usage: npm run admin -- --email <email> --password <password> --name <full name>');
    await expect(fs.access(env.DATA_DIR)).rejects.toThrow();
  });

  it('prints the usage for --help and exits 0', async () => {
    expect(await runAdminCommand(['--help'], env)).toEqual({ code: 0, output: expect.stringContaining('Usage: npm run admin') });
    await expect(fs.access(env.DATA_DIR)).rejects.toThrow();
  });

  it('refuses a bad configuration with exit code 1, naming the variable', async () => {
    const result = await runAdminCommand(args('a@example.com', 'secret#123', 'Asha Verma'), { ...env, DATABASE_URL: 'not a url' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('DATABASE_URL');
  });
});

// The embedded database is the same whichever test project runs; once is enough.
describe.runIf(testDatabaseKind === 'pglite')('npm run admin: embedded database in DATA_DIR', () => {
  let dataDir: string;
  let env: Record<string, string>;
  const target = () => ({ dir: path.join(dataDir, 'db') });

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-admin-'));
    env = { DATA_DIR: dataDir, PASSWORD_COST: '12' };
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('creates an administrator on a fresh data folder', { timeout: 90_000 }, async () => {
    const result = await runAdminCommand(args('Root@Example.com', 'secret#123', '  Root Admin '), env);

    expect(result).toEqual({ code: 0, output: 'Created administrator root@example.com' });
    // Nothing of the new database is open to others: PGlite writes its files 0666 of its own accord.
    const open: string[] = [];
    for (const entry of await fs.readdir(dataDir, { recursive: true })) {
      if (((await fs.lstat(path.join(dataDir, entry))).mode & 0o077) !== 0) open.push(entry);
    }
    expect(open).toEqual([]);
    const admin = await findUser(target(), 'root@example.com');
    expect(admin).toMatchObject({ role: 'ADMIN', fullName: 'Root Admin' });
    expect(await passwords.verify('secret#123', admin!.passwordHash)).toBe(true);
  });

  it('promotes an existing user, sets the new password and signs them out everywhere', { timeout: 60_000 }, async () => {
    const database = await openDatabase(target());
    const [user] = await database.db
      .insert(users)
      .values({ email: 'asha@example.com', fullName: 'Asha Verma', passwordHash: await passwords.hash('old#pass1') })
      .returning();
    await database.db.insert(sessions).values({ tokenHash: hashToken(newToken()), userId: user!.id, expiresAt: new Date(Date.now() + 60_000) });
    await database.close();

    const result = await runAdminCommand(args('asha@example.com', 'new#pass2', 'Asha Verma'), env);

    expect(result).toEqual({ code: 0, output: 'Promoted asha@example.com to administrator' });
    const check = await openDatabase(target());
    const [promoted] = await check.db.select().from(users).where(eq(users.email, 'asha@example.com'));
    const left = await check.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    await check.close();
    expect(promoted).toMatchObject({ id: user!.id, role: 'ADMIN' });
    expect(await passwords.verify('new#pass2', promoted!.passwordHash)).toBe(true);
    expect(await passwords.verify('old#pass1', promoted!.passwordHash)).toBe(false);
    expect(left).toEqual([]);
  });

  it('refuses clearly while the server holds the data folder, and changes nothing', { timeout: 60_000 }, async () => {
    const release = lockDataDir(path.join(dataDir, 'db'));
    let result;
    try {
      result = await runAdminCommand(args('late@example.com', 'secret#123', 'Late Admin'), env);
    } finally {
      release();
    }

    expect(result.code).toBe(1);
    expect(result.output).toMatch(/in use by process \d+ \(is the server running\?\)/);
    expect(result.output).toContain('DATABASE_URL');
    expect(await findUser(target(), 'late@example.com')).toBeUndefined();
  });
});

describe.runIf(testDatabaseKind === 'postgres')('npm run admin: PostgreSQL at DATABASE_URL', () => {
  let database: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let url: string;
  // Stands for a running server: PostgreSQL, unlike the embedded folder, is shared while in use.
  let server: pg.Pool;

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    url = database.url;
    server = new pg.Pool({ connectionString: url });
    await server.query('select 1');
  });
  afterAll(async () => {
    await server?.end();
    await database?.drop();
  });

  it('migrates a fresh database and creates the administrator while another pool is connected', async () => {
    const held = await server.connect();
    // Unused when DATABASE_URL is set: nothing may appear there.
    const dataDir = path.join(os.tmpdir(), `lms-admin-unused-${randomBytes(6).toString('hex')}`);
    try {
      const result = await runAdminCommand(args('root@example.com', 'secret#123', 'Root Admin'), {
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        PASSWORD_COST: '12',
      });
      expect(result).toEqual({ code: 0, output: 'Created administrator root@example.com' });
      await expect(fs.access(dataDir)).rejects.toThrow();

      const { rows } = await held.query('select role, password_hash from users where email = $1', ['root@example.com']);
      expect(rows).toHaveLength(1);
      expect(rows[0].role).toBe('ADMIN');
      expect(await passwords.verify('secret#123', rows[0].password_hash)).toBe(true);
    } finally {
      held.release();
    }
  });

  it('promotes an existing user the same way', async () => {
    await server.query(`insert into users (email, full_name, password_hash) values ($1, 'Asha Verma', $2)`, [
      'asha@example.com',
      await passwords.hash('old#pass1'),
    ]);

    const result = await runAdminCommand(args('asha@example.com', 'new#pass2', 'Asha Verma'), { DATABASE_URL: url, PASSWORD_COST: '12' });

    expect(result).toEqual({ code: 0, output: 'Promoted asha@example.com to administrator' });
    const user = await findUser({ url }, 'asha@example.com');
    expect(user?.role).toBe('ADMIN');
    expect(await passwords.verify('new#pass2', user!.passwordHash)).toBe(true);
  });
});
