import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * Takes the embedded database folder for this process, or throws when a live
 * process holds it. The lock is a file next to the folder naming the holder's pid;
 * a lock left by a process that died is taken over.
 * Returns the release function.
 */
export function lockDataDir(dbDir: string): () => void {
  const lockFile = `${path.resolve(dbDir)}.lock`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      if (isAlive(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${dbDir} is in use by process ${holder} (is the server running?). ` +
            'Stop it first, or use PostgreSQL through DATABASE_URL to share the database.',
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dbDir}`);
}

/** Whether process `pid` is running (this one counts); backups use it for the snapshots they leave. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
