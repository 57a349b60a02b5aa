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
 *
 * A small file's whole contents may be kept with it (`keep`): the segments of a lecture many are
 * watching are then written to each of them from one buffer, without a read (a copy of every byte)
 * for each. Kept contents go with their file (forgotten, replaced, closed), and all of them together
 * stay within MAX_KEPT_BYTES: the first files kept stay while they are asked for; contents not asked
 * for within KEPT_IDLE_MS make room for others. A file that finds no room is read for each request,
 * as before, so a catalogue watched wider than the room never churns it.
 */
export const CHECK_MS = 1000;
/** Files being played at once are few; past this many the least recently used are closed. */
export const MAX_OPEN_FILES = 256;
/** Room for the contents of files kept in memory: the 30 segments of a 60 s lecture's three renditions are ~65 MB. */
export const MAX_KEPT_BYTES = 128 * 1024 * 1024;
/** Kept contents not asked for within this long give their room to a file that is. */
export const KEPT_IDLE_MS = 60_000;

export interface OpenFile {
  fd: number;
  size: number;
  mtime: Date;
  /** The file's whole contents, when kept in memory: never to be written to. */
  contents: Buffer | undefined;
  /** Whether the file's contents would be kept now, were they read whole (`keep`). */
  hasRoom(): boolean;
  /** Keeps `contents`, the file's whole bytes as read from `fd`, for the next readers, when there is room. */
  keep(contents: Buffer): void;
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
  /** How many bytes of contents are kept (tests). */
  readonly keptBytes: number;
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
  contents: Buffer | undefined;
  /** When a reader last had the file. */
  usedAt: number;
}

export function createOpenFiles({
  checkMs = CHECK_MS,
  maxOpen = MAX_OPEN_FILES,
  maxKeptBytes = MAX_KEPT_BYTES,
  keptIdleMs = KEPT_IDLE_MS,
  now = Date.now,
} = {}): OpenFiles {
  const entries = new Map<string, Entry>();
  let keptBytes = 0;
  // One open (or check) at a time per file: the players that asked meanwhile share it.
  const pending = new Map<string, Promise<Entry | undefined>>();
  let closed = false;
  // Bumped by every forget: an open that began before one may have opened what was removed.
  let generation = 0;

  // At once: the descriptor's number may be handed out again as soon as it is closed, and nobody holds it.
  const closeWhenFree = (entry: Entry) => {
    if (entry.readers === 0) fs.closeSync(entry.fd);
  };
  const letGoOf = (entry: Entry) => {
    if (!entry.contents) return;
    keptBytes -= entry.contents.length;
    entry.contents = undefined;
  };
  const drop = (file: string) => {
    const entry = entries.get(file);
    if (!entry) return;
    entries.delete(file);
    entry.dropped = true;
    letGoOf(entry);
    closeWhenFree(entry);
  };
  // Room for `bytes` more, made by letting go of contents nobody asked for within keptIdleMs.
  const makeRoom = (bytes: number): boolean => {
    if (keptBytes + bytes <= maxKeptBytes) return true;
    const idleSince = now() - keptIdleMs;
    for (const entry of entries.values()) {
      if (entry.contents && entry.usedAt < idleSince) letGoOf(entry);
      if (keptBytes + bytes <= maxKeptBytes) return true;
    }
    return false;
  };
  const lend = (entry: Entry): OpenFile => {
    entry.readers++;
    entry.usedAt = now();
    let released = false;
    return {
      fd: entry.fd,
      size: entry.size,
      mtime: entry.mtime,
      contents: entry.contents,
      hasRoom: () => !entry.dropped && !entry.contents && entry.size <= maxKeptBytes && makeRoom(entry.size),
      keep(contents) {
        if (entry.dropped || entry.contents || contents.length !== entry.size || !makeRoom(contents.length)) return;
        entry.contents = contents;
        keptBytes += contents.length;
      },
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
    return {
      fd,
      size: stat.size,
      mtime: stat.mtime,
      mtimeMs: stat.mtimeMs,
      dev: stat.dev,
      ino: stat.ino,
      checkedAt: now(),
      readers: 0,
      dropped: false,
      contents: undefined,
      usedAt: now(),
    };
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
    get keptBytes() {
      return keptBytes;
    },
  };
}
