import fs from 'node:fs';
import path from 'node:path';
import { paths } from '../paths.ts';

/**
 * A new embedded database, made once by the build (`scripts/build.mjs`) with that build's
 * migrations applied. PGlite makes a database by running initdb in WebAssembly: 2 s on an idle
 * 2-core machine, 4-10 s while other work keeps its cores busy. Copying a made one takes half a
 * second, so the first start on a fresh DATA_DIR (and every test, journey and bench that starts
 * one) copies it instead.
 *
 * The copy is made only when `dir` holds nothing yet, by the holder of the folder's lock, under a
 * temporary name renamed into place once whole: a crash halfway leaves no half database to open.
 * Without a template (never built, or a server run from source), or when it cannot be read,
 * PGlite makes the database itself. Answers whether it copied.
 */
export function copyDatabaseTemplate(dir: string, template = paths.databaseTemplate): boolean {
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) return false;
  const present = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  if (present.length > 0) return false;
  const temporary = `${dir}.new-${process.pid}`;
  try {
    fs.rmSync(temporary, { recursive: true, force: true });
    fs.cpSync(template, temporary, { recursive: true });
    // The template is readable by all (the service's user did not build it); the copy is this user's alone.
    for (const name of ['.', ...fs.readdirSync(temporary, { recursive: true })]) {
      const file = path.join(temporary, String(name));
      fs.chmodSync(file, fs.statSync(file).mode & 0o700);
    }
  } catch {
    // A template this user cannot read: a start must not fail for want of a shortcut.
    fs.rmSync(temporary, { recursive: true, force: true });
    return false;
  }
  try {
    // Replaces an empty folder, which rename(2) allows.
    fs.renameSync(temporary, dir);
  } catch (error) {
    fs.rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  return true;
}
