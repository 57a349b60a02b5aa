import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { passwordPattern } from '@lms/contract/users';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { createPasswordHasher } from '../features/auth/password.ts';
import { openTestDatabase } from '../test/app.ts';
import { ensureInitialAdmin, INITIAL_ADMIN_EMAIL, randomPassword } from './initial-admin.ts';

const passwords = createPasswordHasher(12);
let database: Database;
let dataDir: string;
let logged: string[];
const log = (message: string) => logged.push(message);
const ctx = () => ({ db: database.db, passwords, config: { dataDir } });
const credentialsFile = () => path.join(dataDir, 'initial-admin.txt');

beforeEach(async () => {
  database = await openTestDatabase();
  // A data folder that does not exist yet, as on a first start.
  dataDir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'lms-initial-admin-')), 'data');
  logged = [];
});
afterEach(async () => {
  await database?.close();
  await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
});

async function admins() {
  return database.db.select().from(users).where(eq(users.role, 'ADMIN'));
}

describe('ensureInitialAdmin', () => {
  it('creates admin@lms.local once, with a password that signs in, printed once on a terminal and kept in a private file', async () => {
    await ensureInitialAdmin(ctx(), log, { interactive: true });

    const [admin, ...others] = await admins();
    expect(others).toEqual([]);
    expect(admin).toMatchObject({ email: INITIAL_ADMIN_EMAIL, fullName: 'LMS Admin', role: 'ADMIN' });

    const file = await fs.readFile(credentialsFile(), 'utf8');
    const password = /^password: (.+)$/m.exec(file)?.[1];
    expect(file).toContain(`email: ${INITIAL_ADMIN_EMAIL}\n`);
    expect(password).toMatch(passwordPattern);
    expect(await passwords.verify(password!, admin!.passwordHash)).toBe(true);
    expect((await fs.stat(credentialsFile())).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(dataDir)).toEqual(['initial-admin.txt']);

    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(INITIAL_ADMIN_EMAIL);
    expect(logged[0]).toContain(password);
    expect(logged[0]).toContain(credentialsFile());
  });

  it('prints only the email and where the password is when the output is not a terminal (a journal, a pipe)', async () => {
    await ensureInitialAdmin(ctx(), log, { interactive: false });

    const password = /^password: (.+)$/m.exec(await fs.readFile(credentialsFile(), 'utf8'))?.[1];
    expect(password).toMatch(passwordPattern);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(INITIAL_ADMIN_EMAIL);
    expect(logged[0]).toContain(credentialsFile());
    expect(logged[0]).not.toContain(password);
  });

  it('does nothing on the next start: same account, same password, same file, nothing printed', async () => {
    await ensureInitialAdmin(ctx(), log);
    const [before] = await admins();
    const file = await fs.readFile(credentialsFile(), 'utf8');
    logged = [];

    await ensureInitialAdmin(ctx(), log);

    expect(await admins()).toEqual([before]);
    expect(await fs.readFile(credentialsFile(), 'utf8')).toBe(file);
    expect(logged).toEqual([]);
  });

  it('creates nothing when an administrator already exists', async () => {
    await database.db
      .insert(users)
      .values({ email: 'boss@example.com', fullName: 'The Boss', passwordHash: await passwords.hash('secret#123'), role: 'ADMIN' });

    await ensureInitialAdmin(ctx(), log);

    expect((await admins()).map((admin) => admin.email)).toEqual(['boss@example.com']);
    await expect(fs.access(credentialsFile())).rejects.toThrow();
    expect(logged).toEqual([]);
  });

  it('never takes over an ordinary account that has the email; it says how to make an admin instead', async () => {
    const passwordHash = await passwords.hash('mine#1234');
    await database.db.insert(users).values({ email: INITIAL_ADMIN_EMAIL, fullName: 'Someone Else', passwordHash });

    await ensureInitialAdmin(ctx(), log);

    const [account] = await database.db.select().from(users).where(eq(users.email, INITIAL_ADMIN_EMAIL));
    expect(account).toMatchObject({ role: 'USER', fullName: 'Someone Else', passwordHash });
    expect(await fs.readdir(dataDir)).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('npm run admin');
  });
});

describe('randomPassword', () => {
  it('always satisfies the contract password rule and differs each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const password = randomPassword();
      expect(password).toMatch(passwordPattern);
      expect(password).toHaveLength(16);
      seen.add(password);
    }
    expect(seen.size).toBe(500);
  });
});
