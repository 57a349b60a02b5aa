import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDirPrivate } from './data-dir.ts';
import { createTestApp } from './test/app.ts';
import { signUp } from './test/http.ts';
import { mailTo, waitForMails } from './test/mail.ts';

/** Every file and folder under `root`, with its permission bits ('.' is root itself). */
async function modesUnder(root: string): Promise<Record<string, string>> {
  const names = ['.', ...(await fs.readdir(root, { recursive: true }))];
  const modes: Record<string, string> = {};
  for (const name of names) {
    const stat = await fs.lstat(path.join(root, name));
    if (!stat.isSymbolicLink()) modes[name] = (stat.mode & 0o7777).toString(8);
  }
  return modes;
}

const only = (modes: Record<string, string>, wanted: (mode: string) => boolean) => Object.entries(modes).filter(([, mode]) => !wanted(mode));

// The umask is the process's: put back what the test runner had, for whatever runs after.
let runnerUmask: number;
beforeAll(() => {
  runnerUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(runnerUmask);
});

describe('makeDataDirPrivate', () => {
  let scratch: string;
  afterEach(() => fs.rm(scratch, { recursive: true, force: true }));

  it('closes every file and folder an older version or a restored backup left open to others, and nothing outside', async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-data-dir-'));
    const dataDir = path.join(scratch, 'data');
    const outside = path.join(scratch, 'elsewhere.txt');
    const loose: Record<string, number> = {
      '.': 0o755,
      db: 0o755,
      'db/base': 0o775,
      'db/base/16384': 0o644,
      'db/postmaster.pid': 0o666,
      media: 0o755,
      'media/avatars': 0o755,
      [`media/avatars/${'a'.repeat(32)}.webp`]: 0o644,
      mail: 0o777,
      'mail/2026-01-01T00-00-00-000Z-0a0b0c0d.eml': 0o604,
      'session-secret': 0o640,
      'initial-admin.txt': 0o600,
      'read-only-note.txt': 0o444,
    };
    for (const name of Object.keys(loose).sort()) {
      const file = path.join(dataDir, name);
      if (/\.\w+$|secret|16384|pid$/.test(name)) await fs.writeFile(file, 'x');
      else await fs.mkdir(file, { recursive: true });
      await fs.chmod(file, loose[name]!);
    }
    // An operator's link to something outside: it is not DATA_DIR's to change.
    await fs.writeFile(outside, 'public');
    await fs.chmod(outside, 0o644);
    await fs.symlink(outside, path.join(dataDir, 'media', 'link-to-elsewhere'));

    const report = makeDataDirPrivate(dataDir);

    expect(await modesUnder(dataDir)).toEqual({
      '.': '700',
      db: '700',
      'db/base': '700',
      'db/base/16384': '600',
      'db/postmaster.pid': '600',
      media: '700',
      'media/avatars': '700',
      [`media/avatars/${'a'.repeat(32)}.webp`]: '600',
      mail: '700',
      'mail/2026-01-01T00-00-00-000Z-0a0b0c0d.eml': '600',
      'session-secret': '600',
      'initial-admin.txt': '600',
      // Its owner's bits are its owner's choice.
      'read-only-note.txt': '400',
    });
    expect(((await fs.stat(outside)).mode & 0o777).toString(8)).toBe('644');
    expect(report).toMatchObject({ checked: 13, tightened: { count: 12 }, failed: { count: 0 } });
    expect(report.tightened.paths).toHaveLength(10);
  });

  it('makes a missing data folder, private', async () => {
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-data-dir-'));
    const dataDir = path.join(scratch, 'fresh', 'data');

    const report = makeDataDirPrivate(dataDir);

    expect(await modesUnder(dataDir)).toEqual({ '.': '700' });
    expect(report).toMatchObject({ checked: 1, tightened: { count: 0 }, failed: { count: 0 } });
  });
});

describe('a server started on a private data folder', () => {
  it('writes everything private: an uploaded avatar, a mail, the folders they go in', async () => {
    const t = await createTestApp();
    try {
      // As main.ts does at start; buildApp has already made DATA_DIR/media with the runner's umask.
      makeDataDirPrivate(t.dataDir);

      const account = await signUp(t.app);
      await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: account.email } });
      await waitForMails(t.dataDir, mailTo(account.email));

      const modes = await modesUnder(t.dataDir);
      const avatar = Object.keys(modes).find((name) => name.startsWith('media/avatars/') && name.endsWith('.webp'));
      const mail = Object.keys(modes).find((name) => name.startsWith('mail/') && name.endsWith('.eml'));
      expect(avatar && modes[avatar]).toBe('600');
      expect(mail && modes[mail]).toBe('600');
      expect(only(modes, (mode) => mode === '600' || mode === '700')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
