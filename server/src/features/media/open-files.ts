import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

/** Open files kept between requests: a player's videos and the segments of the ladders it plays. */
const MAX_OPEN_FILES = 64;
/** A file nobody asked for in this long is closed (a deleted file's space is freed only once it is). */
const IDLE_MS = 30_000;

interface OpenFile {
  fd: number;
  stat: fs.Stats;
  /** Streams reading through `fd` now: it is closed only once none is. */
  readers: number;
  lastUsed: number;
  /** Replaced, deleted, idle or evicted: closed as its last reader ends. */
  retired: boolean;
}

export interface StoredFileAnswer {
  statusCode: 200 | 206;
  headers: Record<string, string>;
  stream: Readable;
}

export interface OpenFiles {
  /**
   * The plain case of a player's request for the file at `key` under `root` (GET, the whole file or
   * one `bytes=` range, no condition) answered through a file kept open; undefined for anything
   * else (HEAD, conditions, several or unsatisfiable ranges, a missing file), which `send` answers.
   * The headers are `send`'s, byte for byte.
   */
  read(request: FastifyRequest, root: string, key: string, highWaterMark: number): StoredFileAnswer | undefined;
  closeAll(): void;
}

const CONDITIONS = ['if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since', 'if-range'] as const;
const ONE_RANGE = /^bytes=(\d+)-(\d*)$/;

/**
 * `send` stats, opens, reads and closes the file for every request: four trips to libuv's thread
 * pool, each a switch of threads, for a range a player asks for every few seconds. Here a file
 * stays open, and every request compares it with what is at its path now by a synchronous stat
 * (microseconds, no trip): a file deleted or replaced (a new upload is renamed into place, so it
 * is another inode) is never read through the old descriptor.
 */
export function createOpenFiles({ max = MAX_OPEN_FILES, idleMs = IDLE_MS, now = Date.now } = {}): OpenFiles {
  const files = new Map<string, OpenFile>();
  const retire = (file: string, entry: OpenFile) => {
    if (files.get(file) === entry) files.delete(file);
    entry.retired = true;
    if (entry.readers === 0) fs.close(entry.fd, () => {});
  };
  const sweep = setInterval(() => {
    for (const [file, entry] of files) if (entry.readers === 0 && now() - entry.lastUsed >= idleMs) retire(file, entry);
  }, idleMs / 2);
  sweep.unref();

  /** The open file at `file` as it is now, or undefined when there is none (or no room to keep it). */
  function current(file: string): OpenFile | undefined {
    const onDisk = fs.statSync(file, { throwIfNoEntry: false });
    const kept = files.get(file);
    if (kept && onDisk && sameFile(kept.stat, onDisk)) return kept;
    if (kept) retire(file, kept);
    if (!onDisk?.isFile()) return undefined;
    if (files.size >= max) {
      const idle = [...files].find(([, entry]) => entry.readers === 0);
      if (!idle) return undefined;
      retire(...idle);
    }
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return undefined;
    }
    const stat = fs.fstatSync(fd);
    // Replaced between the stat and the open: send answers this one.
    if (!sameFile(stat, onDisk)) {
      fs.closeSync(fd);
      return undefined;
    }
    const entry: OpenFile = { fd, stat, readers: 0, lastUsed: now(), retired: false };
    files.set(file, entry);
    return entry;
  }

  return {
    read(request, root, key, highWaterMark) {
      if (request.method !== 'GET' || CONDITIONS.some((name) => request.headers[name] !== undefined)) return undefined;
      const file = safePath(root, key);
      if (!file) return undefined;
      const range = request.headers.range;
      const asked = range === undefined ? undefined : ONE_RANGE.exec(range);
      if (range !== undefined && !asked) return undefined;
      const entry = current(file);
      if (!entry) return undefined;
      const { size } = entry.stat;
      let start = 0;
      let end = size - 1;
      if (asked) {
        start = Number(asked[1]);
        end = asked[2] === '' ? size - 1 : Math.min(Number(asked[2]), size - 1);
        if (start > end || start >= size) return undefined;
      }
      if (size === 0) return undefined;
      const headers: Record<string, string> = {
        'Accept-Ranges': 'bytes',
        'Last-Modified': entry.stat.mtime.toUTCString(),
        ETag: `W/"${size.toString(16)}-${entry.stat.mtime.getTime().toString(16)}"`,
        ...(asked && { 'Content-Range': `bytes ${start}-${end}/${size}` }),
        'Content-Length': String(end - start + 1),
      };
      entry.readers++;
      entry.lastUsed = now();
      // The stream ends (or is destroyed, when the client goes) as any other, but leaves the descriptor open.
      const stream = fs.createReadStream('', { fd: entry.fd, fs: keepOpen, start, end, highWaterMark });
      stream.once('close', () => {
        entry.readers--;
        if (entry.retired && entry.readers === 0) fs.close(entry.fd, () => {});
      });
      return { statusCode: asked ? 206 : 200, headers, stream };
    },
    closeAll() {
      clearInterval(sweep);
      for (const [file, entry] of files) retire(file, entry);
    },
  };
}

const keepOpen = { open: fs.open, read: fs.read, close: (_fd: number, done: (error: NodeJS.ErrnoException | null) => void) => done(null) };

const sameFile = (a: fs.Stats, b: fs.Stats) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * The file of `key` under `root`, if the key is a plain relative path: no empty, `.` or `..`
 * segment, no hidden file, no NUL; anything else is left to `send`, which refuses it.
 */
function safePath(root: string, key: string): string | undefined {
  if (key.includes('\0') || key.includes('\\') || key.includes('%')) return undefined;
  if (key.split('/').some((segment) => segment === '' || segment.startsWith('.'))) return undefined;
  return path.join(root, key);
}
