import fs from 'node:fs';
import path from 'node:path';

/**
 * Stored media is never changed in place: a key is written once (renamed into place) and only ever
 * removed. So the private files a player asks for every few seconds (a video's ranges, a ladder's
 * segments) are kept open here with their stat, instead of a stat, an open and a close for every
 * request, each a trip to libuv's thread pool.
 *
 * - A file removed through the storage is forgotten at once (`forget`, `forgetFolder`).
 * - A file removed or replaced some other way (another instance on the same disk, an operator) is
 *   noticed within CHECK_MS: an entry older than that is checked by a stat of its path, and
 *   reopened when the path no longer names the same file, or dropped when it names none.
 * - A descriptor is closed only once no reader holds it: a read in flight never meets a closed,
 *   or reused, descriptor number.
 */
export const CHECK_MS = 1000;
/** Files being played at once are few; past this many the least recently used are closed. */
export const MAX_OPEN_FILES = 256;

export interface OpenFile {
  fd: number;
  size: number;
  mtime: Date;
  /** To call once the reader is done with `fd` (its reads finished). */
  release(): void;
}

export interface OpenFiles {
  /** The regular file at `file`, open, for one reader who calls `release()`; undefined when there is none or it cannot be opened. */
  acquire(file: string): Promise<OpenFile | undefined>;
  /** The file at `file` is gone or going: no later reader gets it. */
  forget(file: string): void;
  /** Every file under `folder` is gone or going. */
  forgetFolder(folder: string): void;
  /** Closes every file no reader holds, and the others as they are released; nothing is kept afterwards. */
  close(): void;
  /** How many files are kept open (tests). */
  readonly size: number;
}

interface Entry {
  fd: number;
  size: number;
  mtime: Date;
  mtimeMs: number;
  dev: number;
  ino: number;
  checkedAt: number;
  readers: number;
  dropped: boolean;
}

export function createOpenFiles({ checkMs = CHECK_MS, maxOpen = MAX_OPEN_FILES, now = Date.now } = {}): OpenFiles {
  const entries = new Map<string, Entry>();
  // One open (or check) at a time per file: the players that asked meanwhile share it.
  const pending = new Map<string, Promise<Entry | undefined>>();
  let closed = false;
  // Bumped by every forget: an open that began before one may have opened what was removed.
  let generation = 0;

  // At once: the descriptor's number may be handed out again as soon as it is closed, and nobody holds it.
  const closeWhenFree = (entry: Entry) => {
    if (entry.readers === 0) fs.closeSync(entry.fd);
  };
  const drop = (file: string) => {
    const entry = entries.get(file);
    if (!entry) return;
    entries.delete(file);
    entry.dropped = true;
    closeWhenFree(entry);
  };
  const lend = (entry: Entry): OpenFile => {
    entry.readers++;
    let released = false;
    return {
      fd: entry.fd,
      size: entry.size,
      mtime: entry.mtime,
      release() {
        if (released) return;
        released = true;
        entry.readers--;
        if (entry.dropped) closeWhenFree(entry);
      },
    };
  };

  const openAnew = async (file: string): Promise<Entry | undefined> => {
    const fd = await new Promise<number | undefined>((resolve) => fs.open(file, 'r', (error, opened) => resolve(error ? undefined : opened)));
    if (fd === undefined) return undefined;
    // The stat of what was opened, not of the path: a rename in between cannot mismatch them.
    const stat = await new Promise<fs.Stats | undefined>((resolve) => fs.fstat(fd, (error, stats) => resolve(error ? undefined : stats)));
    if (!stat?.isFile()) {
      fs.close(fd, () => {});
      return undefined;
    }
    return { fd, size: stat.size, mtime: stat.mtime, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino, checkedAt: now(), readers: 0, dropped: false };
  };

  const sameFile = async (file: string, entry: Entry): Promise<boolean> => {
    const stat = await new Promise<fs.Stats | undefined>((resolve) => fs.stat(file, (error, stats) => resolve(error ? undefined : stats)));
    return !!stat && stat.dev === entry.dev && stat.ino === entry.ino && stat.size === entry.size && stat.mtimeMs === entry.mtimeMs;
  };

  const refresh = async (file: string, known: Entry | undefined): Promise<Entry | undefined> => {
    const startedAt = generation;
    if (known && (await sameFile(file, known))) {
      if (known.dropped) return undefined;
      known.checkedAt = now();
      return known;
    }
    const opened = await openAnew(file);
    // Something was forgotten while this was under way, perhaps this very file: nothing opened is kept.
    if (!opened || generation !== startedAt || entries.get(file) !== known) {
      if (opened) fs.close(opened.fd, () => {});
      if (known && entries.get(file) === known) drop(file);
      return undefined;
    }
    if (known) drop(file);
    entries.set(file, opened);
    if (entries.size > maxOpen) drop(entries.keys().next().value!);
    return opened;
  };

  return {
    async acquire(file) {
      if (closed) return undefined;
      const entry = entries.get(file);
      if (entry && now() - entry.checkedAt < checkMs) {
        // Least recently used first: a file asked for again moves to the end.
        entries.delete(file);
        entries.set(file, entry);
        return lend(entry);
      }
      let opening = pending.get(file);
      if (!opening) {
        opening = refresh(file, entry).finally(() => pending.delete(file));
        pending.set(file, opening);
      }
      const found = await opening;
      return found && !found.dropped ? lend(found) : undefined;
    },
    forget(file) {
      generation++;
      drop(file);
    },
    forgetFolder(folder) {
      generation++;
      const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
      for (const file of [...entries.keys()]) if (file.startsWith(prefix)) drop(file);
    },
    close() {
      closed = true;
      generation++;
      for (const file of [...entries.keys()]) drop(file);
    },
    get size() {
      return entries.size;
    },
  };
}
