import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCommandLine } from '../backup/command-line.ts';
import { writeArchive } from '../backup/archive.ts';
import { requestSnapshot } from '../backup/control-socket.ts';
import { removeAbandonedSnapshots, removeSnapshot, takeSnapshot, type Snapshot } from '../backup/snapshot.ts';
import type { Config } from '../config.ts';
import { databaseTargetOf } from '../db/client.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';

export const USAGE = `Usage: npm run backup [-- <file>]

Writes the embedded database, the uploaded media and the secrets kept in DATA_DIR to one
.tar.gz file, readable only by you (default: lms-backup-<date>T<time>Z.tar.gz here).
Works while the server runs: it copies its database between two queries, consistently.
Restore it into an empty DATA_DIR with: npm run restore -- <file>
With DATABASE_URL or STORAGE=s3, use pg_dump and your bucket's tools instead: docs/backups.md.`;

/** Progress is printed at most this often. */
const PROGRESS_EVERY_MS = 2000;

/**
 * `npm run backup`: prints progress through `say`, returns the last line and the exit code, so tests
 * run it in-process. `signal` (Ctrl-C) stops it, leaving no file behind.
 */
export async function runBackupCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
  signal?: AbortSignal,
): Promise<{ code: number; output: string }> {
  const asked = readCommandLine(argv, env, { usage: USAGE, fileRequired: false });
  if ('code' in asked) return asked;
  const { file, config } = asked;
  const elsewhere = refusal(config);
  if (elsewhere) return { code: 1, output: elsewhere };
  const output = path.resolve(
    file ??
      `lms-backup-${new Date()
        .toISOString()
        .replace(/:/g, '-')
        .replace(/\.\d+Z$/, 'Z')}.tar.gz`,
  );
  if (fs.existsSync(output)) return { code: 1, output: `${output} already exists; name another file.` };
  if (!fs.existsSync(path.dirname(output))) return { code: 1, output: `There is no folder ${path.dirname(output)}.` };
  const dbDir = (databaseTargetOf(config) as { dir: string }).dir;
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) return { code: 1, output: `There is no database in ${config.dataDir} to back up (DATA_DIR).` };

  const started = performance.now();
  say(`Backing up ${config.dataDir} to ${output}`);
  // The archive and the snapshot folder are this user's alone, as everything in DATA_DIR.
  process.umask(0o077);
  let snapshot: Snapshot;
  let done = () => {};
  try {
    const server = await requestSnapshot(config.dataDir);
    if (server) {
      say(`The server is running (process ${server.pid}): it copied its database between two queries.`);
      ({ snapshot, done } = server);
    } else {
      await removeAbandonedSnapshots(config.dataDir);
      // Held while the database is copied, so that no server opens it meanwhile.
      const hold = async <T>(work: () => Promise<T>) => {
        const release = lockDataDir(dbDir);
        try {
          return await work();
        } finally {
          release();
        }
      };
      snapshot = await takeSnapshot(config.dataDir, hold, 'stopped server');
      say('No server is running: the database was copied from its folder.');
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      return {
        code: 1,
        output: `${error.message}\nThat process does not answer backup requests (a server still starting, npm run admin, or a server whose log says it cannot listen for npm run backup): try again once it is done, or stop it.`,
      };
    }
    return { code: 1, output: `Backup failed: ${(error as Error).message}` };
  }

  try {
    const { database, media, kept } = snapshot.manifest;
    const pause = snapshot.manifest.source === 'running server' ? `the server's queries waited ${snapshot.pausedMs} ms` : `copied in ${snapshot.pausedMs} ms`;
    say(`  database: ${database.files} files, ${formatBytes(database.bytes)} (${pause})`);
    say(`  media: ${media.files} files, ${formatBytes(media.bytes)}`);
    say(`  kept files: ${kept.join(', ') || 'none'}`);
    const total = database.bytes + media.bytes;
    let shown = performance.now();
    const { bytes } = await writeArchive(
      snapshot,
      output,
      (written) => {
        if (performance.now() - shown < PROGRESS_EVERY_MS) return;
        shown = performance.now();
        say(`  archived ${formatBytes(written)} of about ${formatBytes(total)}`);
      },
      signal,
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return { code: 0, output: `Backup written: ${output}, ${formatBytes(bytes)} (${seconds} s). Restore it with: npm run restore -- ${output}` };
  } catch (error) {
    return { code: 1, output: `Backup failed, nothing written: ${(error as Error).message}` };
  } finally {
    await removeSnapshot(snapshot.folder);
    done();
  }
}

/** Why this command does not back up what the configuration points at, if it does not. */
function refusal(config: Config): string | undefined {
  const how = 'See docs/backups.md for how to back it up';
  if (config.databaseUrl) return `DATABASE_URL is set: the database is PostgreSQL, which npm run backup does not copy. ${how} (pg_dump -Fc, then the media).`;
  if (config.storage.kind === 's3')
    return `STORAGE=s3: the media are in a bucket, which npm run backup does not copy. ${how} (the database, then aws s3 sync or mc mirror).`;
  return undefined;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // npm runs workspace scripts inside server/; a relative DATA_DIR or file means the folder the command was typed in.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  // A first Ctrl-C stops the backup and removes what it wrote; a second one ends the process at once.
  const stopping = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopping.abort());
  const { code, output } = await runBackupCommand(process.argv.slice(2), process.env, (line) => console.log(line), stopping.signal);
  (code === 0 ? process.stdout : process.stderr).write(`${output}\n`);
  process.exitCode = code;
}
