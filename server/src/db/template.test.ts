import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test/app.ts';
import { createPglite, openDatabase } from './client.ts';
import { copyDatabaseTemplate } from './template.ts';

// The embedded database only: nothing here depends on the test database.
describe.skipIf(testDatabaseKind === 'postgres')('the database a first start copies', () => {
  let scratch: string;
  let template: string;
  beforeAll(async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-template-'));
    // What scripts/build.mjs makes, with a mark of its own to recognise copies by.
    template = path.join(scratch, 'template');
    const made = await createPglite({ dataDir: template });
    await made.exec(`CREATE TABLE made_by_the_build (mark text); INSERT INTO made_by_the_build VALUES ('template')`);
    await made.close();
    // Readable by all, as the build leaves it for a service user who is not the checkout's owner.
    for (const name of ['.', ...(await fs.readdir(template, { recursive: true }))]) {
      const file = path.join(template, name);
      await fs.chmod(file, (await fs.stat(file)).isDirectory() ? 0o755 : 0o644);
    }
  }, 120_000);
  afterAll(async () => {
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  });

  it('is what the server opens on a fresh folder, migrations and all', async () => {
    const dir = path.join(scratch, 'fresh', 'db');
    const database = await openDatabase({ dir }, { databaseTemplate: template });
    try {
      const { rows } = await database.execute('SELECT mark FROM made_by_the_build');
      expect(rows).toEqual([{ mark: 'template' }]);
      // The migrations ran on the copy, as on any database opened.
      expect((await database.execute('SELECT count(*)::int AS n FROM users')).rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
    // Nothing left under a temporary name beside it.
    expect(await fs.readdir(path.dirname(dir))).toEqual(['db']);
  });

  it('fills an empty folder (one a failed start left), private to this user, and leaves one that holds anything alone', async () => {
    const empty = path.join(scratch, 'empty', 'db');
    await fs.mkdir(empty, { recursive: true });
    expect(copyDatabaseTemplate(empty, template)).toBe(true);
    expect(await fs.readdir(empty)).toContain('PG_VERSION');
    // The template is readable by all; no copy of it is.
    const open: string[] = [];
    for (const name of ['.', ...(await fs.readdir(empty, { recursive: true }))]) {
      if (((await fs.lstat(path.join(empty, name))).mode & 0o077) !== 0) open.push(name);
    }
    expect(open).toEqual([]);

    const used = path.join(scratch, 'used', 'db');
    await fs.mkdir(used, { recursive: true });
    await fs.writeFile(path.join(used, 'somebody-else.txt'), 'mine');
    expect(copyDatabaseTemplate(used, template)).toBe(false);
    expect(await fs.readdir(used)).toEqual(['somebody-else.txt']);
  });

  it('is skipped when the build has made none, or one that cannot be copied: PGlite makes the database itself', async () => {
    const dir = path.join(scratch, 'unbuilt', 'db');
    expect(copyDatabaseTemplate(dir, path.join(scratch, 'no-template'))).toBe(false);
    await expect(fs.access(dir)).rejects.toThrow();

    // A file no copy can take (a named pipe), as a template another user left unreadable would be.
    const broken = path.join(scratch, 'broken');
    await fs.mkdir(broken);
    await fs.writeFile(path.join(broken, 'PG_VERSION'), '17');
    execFileSync('mkfifo', [path.join(broken, 'pipe')]);
    const fresh = path.join(scratch, 'after-broken', 'db');
    const database = await openDatabase({ dir: fresh }, { databaseTemplate: broken });
    try {
      expect((await database.execute('SELECT count(*)::int AS n FROM users')).rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
    expect(await fs.readdir(path.dirname(fresh))).toEqual(['db']);
  }, 120_000);
});
