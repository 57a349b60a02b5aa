import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { isSnapshotOf, removeAbandonedSnapshots, removeSnapshot, takeSnapshot, type Snapshot } from './snapshot.ts';

/**
 * How `npm run backup` reaches a running server. PGlite lets one process open a database folder,
 * so the server itself copies its database, between two queries (snapshot.ts); the command then
 * archives that copy. A Unix socket in DATA_DIR, mode 600: only the user the server runs as (and
 * root) can connect, the same people who can read DATA_DIR anyway.
 *
 * The protocol is one JSON line each way: `{"command":"snapshot"}`, answered by the snapshot or
 * `{"error": …}`. The command keeps the connection open while it archives; when it closes, the
 * server removes the snapshot.
 */
export const CONTROL_SOCKET = 'control.sock';

/** Linux allows 107 bytes in a socket's path (macOS 104). */
const MAX_SOCKET_PATH = 100;
const REQUEST_TIMEOUT_MS = 10_000;
const MAX_LINE = 64 * 1024;

export interface SnapshotAnswer {
  snapshot: Snapshot;
  /** The server's process. */
  pid: number;
}

/**
 * Listens on DATA_DIR/control.sock for `npm run backup`, with the embedded database and local
 * media only (PostgreSQL and S3 have backup tools of their own: docs/backups.md). Answers how to
 * stop; stopping waits for a snapshot being taken, so that the database is not closed under it.
 * Never throws: a server that cannot listen there serves all the same, and says so.
 */
export async function listenForBackups(app: FastifyInstance): Promise<{ close(): Promise<void> } | undefined> {
  const { config, db } = app.ctx;
  if (config.databaseUrl || config.storage.kind !== 'local' || process.platform === 'win32') return undefined;
  const file = path.join(config.dataDir, CONTROL_SOCKET);
  if (Buffer.byteLength(file) > MAX_SOCKET_PATH) {
    app.log.warn({ file }, 'DATA_DIR is too long a path for a socket: npm run backup can back up this data folder only while the server is stopped');
    return undefined;
  }
  // Drizzle's documented handle on the driver it was given: PGlite, with DATABASE_URL unset.
  const pglite = (db as unknown as { $client: PGlite }).$client;
  // PGlite's own guarantee: no query, in a transaction or not, runs until `work` is done.
  const hold = <T>(work: () => Promise<T>) => pglite.runExclusive(work);

  const taking = new Set<Promise<unknown>>();
  const server = net.createServer((socket) => {
    const answer = (reply: object) => socket.end(`${JSON.stringify(reply)}\n`);
    let closed = false;
    let folder: string | undefined;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      if (folder) void removeSnapshot(folder);
    });
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    void readLine(socket).then(
      async (line) => {
        socket.setTimeout(0);
        if (parse(line)?.command !== 'snapshot') return answer({ error: `Unknown request: ${line.slice(0, 100)}` });
        const work = takeSnapshot(config.dataDir, hold, 'running server');
        taking.add(work);
        try {
          const snapshot = await work;
          folder = snapshot.folder;
          app.log.info(
            { pausedMs: snapshot.pausedMs, database: snapshot.manifest.database, media: snapshot.manifest.media },
            'took a snapshot for npm run backup',
          );
          if (closed) return void removeSnapshot(folder);
          socket.write(`${JSON.stringify({ snapshot, pid: process.pid } satisfies SnapshotAnswer)}\n`);
        } catch (error) {
          app.log.error({ err: error }, 'taking a snapshot for npm run backup failed');
          answer({ error: `The server could not copy its data: ${(error as Error).message}` });
        } finally {
          taking.delete(work);
        }
      },
      () => socket.destroy(),
    );
  });
  try {
    await removeAbandonedSnapshots(config.dataDir);
    // A killed server's: this one holds the database's lock, so no other server can be listening there.
    fs.rmSync(file, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
    fs.chmodSync(file, 0o600);
  } catch (error) {
    // Not worth refusing to serve for: the data folder can still be backed up with the server stopped.
    app.log.warn({ err: error, file }, 'cannot listen for npm run backup; back up this data folder with the server stopped');
    server.close();
    return undefined;
  }
  server.on('error', (error) => app.log.error({ err: error }, 'the backup socket failed'));
  return {
    async close() {
      // Stops listening and removes the socket file; a backup being archived carries on from its snapshot.
      server.close();
      fs.rmSync(file, { force: true });
      await Promise.allSettled(taking);
    },
  };
}

/**
 * Asks the server running on `dataDir` for a snapshot. Answers undefined when none listens; the
 * snapshot is the caller's to remove, and `done()` tells the server the backup is over.
 */
export async function requestSnapshot(dataDir: string): Promise<(SnapshotAnswer & { done(): void }) | undefined> {
  const socket = net.connect(path.join(dataDir, CONTROL_SOCKET));
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    // No socket, or one a killed server left: no server is running there.
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return undefined;
    if (code === 'EACCES')
      throw new Error(`Not allowed to reach the server through ${path.join(dataDir, CONTROL_SOCKET)}: run the backup as the user the server runs as.`, {
        cause: error,
      });
    throw error;
  }
  // The server may stop while the snapshot is archived: the snapshot is all the backup needs from here.
  socket.on('error', () => undefined);
  socket.write(`${JSON.stringify({ command: 'snapshot' })}\n`);
  const reply = parse(await readLine(socket).catch(() => '')) as (Partial<SnapshotAnswer> & { error?: string }) | undefined;
  if (!reply?.snapshot || !reply.pid) {
    socket.destroy();
    throw new Error(reply?.error ?? 'The server stopped before it answered.');
  }
  // The command archives and then removes this folder: only ever a snapshot of this DATA_DIR.
  if (!isSnapshotOf(dataDir, reply.snapshot.folder)) {
    socket.destroy();
    throw new Error(`The server answered a folder that is not a snapshot of ${dataDir}: ${reply.snapshot.folder}`);
  }
  return { snapshot: reply.snapshot, pid: reply.pid, done: () => socket.end() };
}

/** The first line `socket` sends; rejects if it ends first or sends too much. */
function readLine(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) {
        socket.off('data', onData).off('end', onEnd).off('close', onEnd);
        resolve(text.slice(0, end));
      } else if (text.length > MAX_LINE) {
        reject(new Error('line too long'));
      }
    };
    const onEnd = () => reject(new Error('ended before a line'));
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
  });
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
