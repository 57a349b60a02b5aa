import fs from 'node:fs';
import path from 'node:path';

/** Bits that let the group or anyone else read, write or enter. */
const GROUP_AND_OTHERS = 0o077;
/** How many tightened or failed paths a report names; the counts cover the rest. */
const NAMED_PATHS = 10;

export interface DataDirReport {
  /** Files and folders looked at. */
  checked: number;
  /** How many were open to the group or others and were closed, and the first few of them (relative to DATA_DIR). */
  tightened: { count: number; paths: string[] };
  /** How many could not be closed (another user's files), and the first few with the reason. */
  failed: { count: number; paths: string[] };
  elapsedMs: number;
}

/**
 * Makes DATA_DIR (the embedded database, media, the mail outbox, generated secrets and the
 * initial admin's password) private to the user the server runs as.
 *
 * From here on every file and folder this process creates is 0600 or 0700: the umask reaches what
 * libraries create too, PGlite excepted (see closeToOthers). Files an older version, another tool
 * or a restored backup left readable by others are then closed. Only the group's and others' bits
 * are taken away, so a file its owner made read-only stays read-only.
 *
 * Runs before the database opens, so it walks synchronously: nothing else is running yet, and
 * one lstat after another is quicker than sending each through the thread pool. Measured on the
 * 2-core machine: 10,000 media files in 60-85 ms when already private and 140-160 ms when every
 * one must be closed; 100,000 in 0.55 s and 1.1 s.
 */
export function makeDataDirPrivate(dataDir: string): DataDirReport {
  if (process.platform !== 'win32') process.umask(GROUP_AND_OTHERS);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return closeToOthers(dataDir);
}

/**
 * Takes the group's and others' bits off `folder` and everything in it. For the embedded database
 * once it has opened, too: PGlite sets the modes of the files it writes itself, past the umask
 * (0666 for the files of a new database, 0644 for some it rewrites at each start). DATA_DIR
 * being 0700 already keeps them from others; this keeps them private should it ever be opened up.
 */
export function closeToOthers(folder: string): DataDirReport {
  const started = performance.now();
  const report: DataDirReport = { checked: 0, tightened: { count: 0, paths: [] }, failed: { count: 0, paths: [] }, elapsedMs: 0 };
  if (process.platform !== 'win32') {
    // The folder itself may be a link the operator made (/var/lib/lms -> /srv/lms): its target is what they meant.
    tighten(folder, '.', fs.statSync(folder), report);
    walk(folder, '', report);
  }
  report.elapsedMs = Math.round(performance.now() - started);
  return report;
}

function walk(root: string, relative: string, report: DataDirReport): void {
  let folder: fs.Dir;
  try {
    folder = fs.opendirSync(path.join(root, relative));
  } catch (error) {
    return noteFailure(relative, error, report);
  }
  try {
    // One entry at a time: a media folder may hold a million avatars.
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      const name = path.join(relative, entry.name);
      // Links are left alone: chmod would follow one and change whatever it points at, outside DATA_DIR.
      if (!entry.isFile() && !entry.isDirectory()) continue;
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(path.join(root, name));
      } catch (error) {
        noteFailure(name, error, report);
        continue;
      }
      tighten(path.join(root, name), name, stat, report);
      if (stat.isDirectory()) walk(root, name, report);
    }
  } finally {
    folder.closeSync();
  }
}

function tighten(file: string, name: string, stat: fs.Stats, report: DataDirReport): void {
  report.checked++;
  if ((stat.mode & GROUP_AND_OTHERS) === 0) return;
  try {
    fs.chmodSync(file, stat.mode & 0o7700 & ~GROUP_AND_OTHERS);
  } catch (error) {
    return noteFailure(name, error, report);
  }
  report.tightened.count++;
  if (report.tightened.paths.length < NAMED_PATHS) report.tightened.paths.push(name);
}

function noteFailure(name: string, error: unknown, report: DataDirReport): void {
  const { code } = error as NodeJS.ErrnoException;
  // Removed while we walked (a mail sent by a server that is still stopping): nothing to close.
  if (code === 'ENOENT') return;
  report.failed.count++;
  if (report.failed.paths.length < NAMED_PATHS) report.failed.paths.push(`${name || '.'} (${code ?? String(error)})`);
}
