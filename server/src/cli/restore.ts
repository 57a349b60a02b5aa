import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCommandLine } from '../backup/command-line.ts';
import { ArchiveError, extractArchive } from '../backup/archive.ts';
import { countFiles, hasMedia, removeAbandonedSnapshots, restoreFolder, type Manifest } from '../backup/snapshot.ts';
import { closeToOthers, makeDataDirPrivate } from '../data-dir.ts';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite, databaseTargetOf } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { mediaRoot } from '../features/media/storage.ts';
import { formatBytes } from './backup.ts';

export const USAGE = `Usage: npm run restore -- <file>

Restores a backup made by npm run backup (the database, the media and the secrets) into
DATA_DIR, which must hold no database and no media yet: a new folder, or an empty one.
The server must not be running on it; start it afterwards with npm start.`;

/** `npm run restore`: prints progress through `say`, returns the last line and the exit code, so tests run it in-process. */
export async function runRestoreCommand(argv: string[], env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<{ code: number; output: string }> {
  const asked = readCommandLine(argv, env, { usage: USAGE, fileRequired: true });
  if ('code' in asked) return asked;
  const { config } = asked;
  const file = path.resolve(asked.file!);
  if (config.databaseUrl || config.storage.kind === 's3') {
    return {
      code: 1,
      output: `${config.databaseUrl ? 'DATABASE_URL is set' : 'STORAGE=s3'}: a backup of the embedded database and local media restores only into DATA_DIR with neither. See docs/backups.md.`,
    };
  }
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return { code: 1, output: `There is no file ${file}.` };

  const { dataDir } = config;
  const existed = fs.existsSync(dataDir);
  const dbDir = (databaseTargetOf(config) as { dir: string }).dir;
  const started = performance.now();
  let release: () => void;
  try {
    makeDataDirPrivate(dataDir);
    // Held to the end: no server may open the database while it is put in place.
    release = lockDataDir(dbDir);
  } catch (error) {
    if (error instanceof DataDirLockedError) return { code: 1, output: `${error.message}\nRestore into a DATA_DIR no server is using.` };
    return { code: 1, output: `Restore failed: ${(error as Error).message}` };
  }
  const staging = restoreFolder(dataDir);
  let step: 'checking' | 'moving' | 'done' = 'checking';
  try {
    await removeAbandonedSnapshots(dataDir);
    if ((fs.existsSync(dbDir) && fs.readdirSync(dbDir).length > 0) || (await hasMedia(dataDir))) {
      return { code: 1, output: `${dataDir} already holds a database or media: restore into a new or empty DATA_DIR (nothing was changed).` };
    }
    say(`Restoring ${file} (${formatBytes(fs.statSync(file).size)}) into ${dataDir}`);
    fs.mkdirSync(staging);
    const manifest = await extractArchive(file, staging);
    say(`  unpacked the backup taken ${manifest.createdAt} (from a ${manifest.source})`);
    const taken = new Set(fs.readdirSync(dataDir));
    const clash = manifest.kept.find((name) => taken.has(name));
    if (clash) return { code: 1, output: `${dataDir} already has a ${clash}: restore into a new or empty DATA_DIR (nothing was changed).` };
    const counts = await openOnce(path.join(staging, 'db'), manifest);
    step = 'moving';
    moveIntoPlace(staging, dataDir, manifest);
    step = 'done';
    // PGlite writes its files with modes of its own (0666, 0644), past the umask.
    closeToOthers(dataDir);
    const media = await countFiles(mediaRoot(dataDir));
    say(
      `  ${plural(counts.users, 'account')}, ${plural(counts.courses, 'course')}, ${plural(counts.lectures, 'lecture')}, ${plural(counts.payments, 'payment')}`,
    );
    say(`  ${plural(media.files, 'media file')}, ${formatBytes(media.bytes)}; kept files: ${manifest.kept.join(', ') || 'none'}`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return { code: 0, output: `Restored into ${dataDir} (${seconds} s). Start the server on it with npm start.` };
  } catch (error) {
    const reason = error instanceof ArchiveError ? error.message : `Restore failed: ${(error as Error).message}`;
    if (step === 'moving') return { code: 1, output: `${reason}\n${dataDir} holds part of the backup: empty it before trying again.` };
    return { code: 1, output: `${reason}\nNothing was restored: ${dataDir} is as it was.` };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    release();
    // The folder this command made for nothing, unless something else was put there meanwhile.
    if (step !== 'done' && !existed && fs.readdirSync(dataDir).length === 0) fs.rmdirSync(dataDir);
  }
}

/**
 * Opens the unpacked database once before anything is put in place: what a backup holds is
 * proven to open, a copy taken from a running server is brought through crash recovery, and
 * closing it writes a checkpoint, so the server's first start is quick.
 */
async function openOnce(dir: string, manifest: Manifest) {
  let pglite: PGlite;
  try {
    pglite = await createPglite({ dataDir: dir });
  } catch (error) {
    throw new ArchiveError(`The database in the backup does not open (PostgreSQL ${manifest.postgres}): ${(error as Error).message}`);
  }
  try {
    const { rows } = await pglite.query<Record<'users' | 'courses' | 'lectures' | 'payments', number>>(
      'select (select count(*)::int from users) as users, (select count(*)::int from courses) as courses, ' +
        '(select count(*)::int from lectures) as lectures, (select count(*)::int from payments) as payments',
    );
    return rows[0]!;
  } catch (error) {
    throw new ArchiveError(`The database in the backup is not this LMS's: ${(error as Error).message}`);
  } finally {
    await pglite.close();
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Renames the unpacked folders and files into DATA_DIR (one file system: each rename is instant). */
function moveIntoPlace(staging: string, dataDir: string, manifest: Manifest) {
  const dbDir = path.join(dataDir, 'db');
  // Empty (checked above), as a server that stopped before creating its database leaves them.
  fs.rmSync(dbDir, { recursive: true, force: true });
  fs.renameSync(path.join(staging, 'db'), dbDir);
  fs.rmSync(mediaRoot(dataDir), { recursive: true, force: true });
  fs.renameSync(path.join(staging, 'media'), mediaRoot(dataDir));
  for (const name of manifest.kept) fs.renameSync(path.join(staging, 'kept', name), path.join(dataDir, name));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // npm runs workspace scripts inside server/; a relative DATA_DIR or file means the folder the command was typed in.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const { code, output } = await runRestoreCommand(process.argv.slice(2), process.env, (line) => console.log(line));
  (code === 0 ? process.stdout : process.stderr).write(`${output}\n`);
  process.exitCode = code;
}
