import { realpathSync, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { INITIAL_ADMIN_FILE } from '../cli/initial-admin.ts';
import { isAlive } from '../db/data-dir-lock.ts';
import { isHlsFolderKey, isMediaKey, MEDIA_FOLDERS, mediaRoot } from '../features/media/storage.ts';

/**
 * The files secrets.ts and cli/initial-admin.ts keep at the top of DATA_DIR. Without them a restored
 * server would sign media links with another secret, give the sandbox other keys, and lose the
 * first admin's password (backup.test.ts checks no other file appears there).
 */
export const KEPT_FILES = ['session-secret', 'sandbox-key-id', 'sandbox-key-secret', 'sandbox-webhook-secret', INITIAL_ADMIN_FILE] as const;

/** The first entry of every archive: what it holds, to check a restore against. */
export const MANIFEST_FILE = 'lms-backup.json';
const FORMAT = 'lms-backup';
const VERSION = 1;

export interface Manifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** When the database was copied. */
  createdAt: string;
  /** Whether a running server took the copy, or the backup command with no server running. */
  source: 'running server' | 'stopped server';
  /** The PostgreSQL major version of the database folder (its PG_VERSION): PGlite opens only its own. */
  postgres: string;
  database: { files: number; bytes: number };
  media: { files: number; bytes: number };
  /** Which of KEPT_FILES DATA_DIR had. */
  kept: string[];
}

export interface Snapshot {
  /** The folder to archive: the manifest, `db/`, `media/` and `kept/`. */
  folder: string;
  manifest: Manifest;
  /** How long the database was kept still (no query ran) while it was copied. */
  pausedMs: number;
}

/** Runs `work` while nothing writes to the database: PGlite's query lock in the server, the data folder's lock without one. */
export type Hold = <T>(work: () => Promise<T>) => Promise<T>;

/** Snapshots live in the media folder, so that their media files can be hard links whichever disk it is on. */
const SNAPSHOT_PREFIX = '.backup-';
const SNAPSHOT_NAME = /^\.backup-(\d+)-[0-9a-f]{8}$/;
const RESTORE_NAME = /^\.restore-(\d+)-[0-9a-f]{8}$/;
/** Files copied or linked at once: enough to keep the thread pool busy, few enough to leave it room for requests. */
const AT_ONCE = 8;

/**
 * Takes what a backup needs, consistently, into a new folder in DATA_DIR's media folder: a copy of
 * the embedded database's folder, a hard link to every media file, and a copy of the kept files.
 *
 * The database is copied inside `hold`, while no query runs. PGlite runs PostgreSQL in this process
 * and writes only while a query runs, and each commit's WAL is written at once (synchronous_commit
 * is on), so the copy is what a crash at that instant would leave: PostgreSQL opens it with crash
 * recovery, which keeps every committed transaction and rolls back one in flight.
 *
 * Media keys are random and files never rewritten, so a link keeps a file as it was even if a
 * lecture is deleted afterwards. Every file is linked before the pause, while the server serves
 * (tens of microseconds a link, and a course may have thousands of HLS segments); in the pause,
 * only what was stored since. So every file the copied database names is there, and the pause
 * lasts the database's copy and a listing of the media folders. A file deleted in between stays in
 * the snapshot, named by no row; after a restore the leftover sweep removes it.
 */
export async function takeSnapshot(dataDir: string, hold: Hold, source: Manifest['source']): Promise<Snapshot> {
  const media = mediaRoot(dataDir);
  await fs.mkdir(media, { recursive: true });
  const folder = path.join(media, `${SNAPSHOT_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(folder);
  try {
    const linked = new Set<string>();
    await linkMedia(dataDir, path.join(folder, 'media'), linked);
    let pausedMs = 0;
    const taken = await hold(async () => {
      const started = performance.now();
      try {
        const database = await copyFolder(path.join(dataDir, 'db'), path.join(folder, 'db'));
        await linkMedia(dataDir, path.join(folder, 'media'), linked);
        const kept = await copyKeptFiles(dataDir, path.join(folder, 'kept'));
        return { database, kept };
      } finally {
        pausedMs = Math.round(performance.now() - started);
      }
    });
    const media = await countFiles(path.join(folder, 'media'));
    const postgres = (await fs.readFile(path.join(folder, 'db', 'PG_VERSION'), 'utf8').catch(() => '')).trim();
    if (!postgres) throw new Error(`${path.join(dataDir, 'db')} holds no database`);
    const manifest: Manifest = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), source, postgres, media, ...taken };
    await fs.writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return { folder, manifest, pausedMs };
  } catch (error) {
    await removeSnapshot(folder);
    throw error;
  }
}

export const removeSnapshot = (folder: string) => fs.rm(folder, { recursive: true, force: true });

/** Removes what backups and restores whose process died left (killed midway); a live one's stay. */
export async function removeAbandonedSnapshots(dataDir: string): Promise<void> {
  for (const [folder, pattern] of [
    [mediaRoot(dataDir), SNAPSHOT_NAME],
    [dataDir, RESTORE_NAME],
  ] as const) {
    for (const name of await fs.readdir(folder).catch((): string[] => [])) {
      const pid = pattern.exec(name)?.[1];
      if (pid && !isAlive(Number(pid))) await fs.rm(path.join(folder, name), { recursive: true, force: true });
    }
  }
}

/** Whether `folder` is a snapshot of DATA_DIR `dataDir` (however either is spelled): what a backup may archive and remove. */
export function isSnapshotOf(dataDir: string, folder: string): boolean {
  try {
    return SNAPSHOT_NAME.test(path.basename(folder)) && realpathSync(path.dirname(folder)) === realpathSync(mediaRoot(dataDir));
  } catch {
    return false;
  }
}

/** The folder a restore unpacks into, in DATA_DIR. */
export const restoreFolder = (dataDir: string) => path.join(dataDir, `.restore-${process.pid}-${randomBytes(4).toString('hex')}`);

/** Whether DATA_DIR's media folder holds anything but snapshots and empty folders. */
export async function hasMedia(dataDir: string): Promise<boolean> {
  const names = await fs.readdir(mediaRoot(dataDir), { recursive: true, withFileTypes: true }).catch(() => []);
  return names.some((entry) => !entry.isDirectory() && !path.relative(mediaRoot(dataDir), entry.parentPath).startsWith(SNAPSHOT_PREFIX));
}

async function copyFolder(from: string, to: string): Promise<{ files: number; bytes: number }> {
  const count = { files: 0, bytes: 0 };
  await fs.mkdir(to);
  const files: string[] = [];
  for (const entry of await fs.readdir(from, { recursive: true, withFileTypes: true })) {
    const name = path.relative(from, path.join(entry.parentPath, entry.name));
    if (entry.isDirectory()) await fs.mkdir(path.join(to, name), { recursive: true });
    else if (entry.isFile()) files.push(name);
  }
  // Several at once: one after another waits on the thread pool for each (0.9 s against 0.15 s for 61 MB in 978 files).
  await eachAtOnce(files, async (name) => {
    // copy_file_range: the kernel copies, and on a file system that can, shares the blocks.
    await fs.copyFile(path.join(from, name), path.join(to, name));
    const { size } = await fs.stat(path.join(to, name));
    count.files++;
    count.bytes += size;
  });
  return count;
}

/** Links into `to` every media file not in `linked` yet, and adds it there. */
async function linkMedia(dataDir: string, to: string, linked: Set<string>): Promise<void> {
  const keys = (await listMediaKeys(mediaRoot(dataDir))).filter((key) => !linked.has(key));
  // Each folder made once, and every link into it waits until it is.
  const folders = new Map<string, Promise<unknown>>();
  await eachAtOnce(keys, async (key) => {
    const folder = path.dirname(path.join(to, key));
    if (!folders.has(folder)) folders.set(folder, fs.mkdir(folder, { recursive: true }));
    await folders.get(folder);
    const source = path.join(mediaRoot(dataDir), key);
    try {
      await fs.link(source, path.join(to, key));
    } catch (error) {
      // Its row went before this, and the file is going now: the database to be copied does not name it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !(await exists(source))) return;
      throw error;
    }
    linked.add(key);
  });
}

/**
 * Every media key stored under `root`: names only, no stat of each file, so that a listing in the
 * pause stays short. Only what a media key names: no upload in progress (.part), nothing another
 * program left there, no snapshot.
 */
async function listMediaKeys(root: string): Promise<string[]> {
  const namesIn = (folder: string) => fs.readdir(path.join(root, folder), { withFileTypes: true }).catch((): Dirent[] => []);
  const keys: string[] = [];
  for (const folder of MEDIA_FOLDERS) {
    for (const entry of await namesIn(folder)) {
      const key = `${folder}/${entry.name}`;
      if (entry.isFile() && isMediaKey(key)) keys.push(key);
      if (entry.isDirectory() && isHlsFolderKey(key)) {
        for (const file of await namesIn(key)) if (file.isFile() && isMediaKey(`${key}/${file.name}`)) keys.push(`${key}/${file.name}`);
      }
    }
  }
  return keys;
}

/** The files under `folder`, all the way down, and their bytes together. */
export async function countFiles(folder: string): Promise<{ files: number; bytes: number }> {
  const count = { files: 0, bytes: 0 };
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch((): Dirent[] => []);
  await eachAtOnce(
    entries.filter((entry) => entry.isFile()),
    async (entry) => {
      // Read before adding: `count.bytes += await …` would add to the total as it was before the wait.
      const { size } = await fs.stat(path.join(entry.parentPath, entry.name));
      count.files++;
      count.bytes += size;
    },
  );
  return count;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** Runs `work` on every item, AT_ONCE at a time, enough to keep the thread pool busy. */
async function eachAtOnce<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

async function copyKeptFiles(dataDir: string, to: string): Promise<string[]> {
  await fs.mkdir(to);
  const kept: string[] = [];
  for (const name of KEPT_FILES) {
    try {
      await fs.copyFile(path.join(dataDir, name), path.join(to, name));
      kept.push(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return kept;
}
