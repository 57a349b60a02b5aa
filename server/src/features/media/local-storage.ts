import { createReadStream, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createOpenFiles } from './open-files.ts';
import { signMediaGrant } from './signed-urls.ts';
import { FILE_FOLDERS, PRIVATE_MEDIA_PREFIX, PUBLIC_MEDIA_PREFIX, withCheckedKeys, type MediaStorage } from './storage.ts';

/** A local upload in progress is written to `<key>.<8 hex digits>.part`, then renamed to its key. */
const temporaryFileName = (file: string, id: string) => `${file}.${id}.part`;
const TEMPORARY_FILE = /^(?<name>.+)\.(?<id>[0-9a-f]{8})\.part$/;

/** Local disk under DATA_DIR/media. Writes go to a temporary name first, so a reader never sees half a file. */
export function createLocalStorage(root: string, secret: string): MediaStorage {
  const fileOf = (key: string) => path.join(root, key);
  // A key's file is forgotten once a change to it is done; an open under way meanwhile is not kept either.
  const openFiles = createOpenFiles();
  async function put(key: string, body: Buffer | Readable): Promise<void> {
    const file = fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = temporaryFileName(file, randomBytes(4).toString('hex'));
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, (await fs.open(temporary, 'wx')).createWriteStream());
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }
  async function moveIn(key: string, source: string): Promise<void> {
    const file = fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    try {
      await fs.rename(source, file);
    } catch (error) {
      // Another file system (DATA_DIR's work folder mounted apart): copied by the kernel, then renamed into place.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const temporary = temporaryFileName(file, randomBytes(4).toString('hex'));
      try {
        await fs.copyFile(source, temporary, fs.constants.COPYFILE_EXCL);
        await fs.rename(temporary, file);
      } catch (copyError) {
        await fs.rm(temporary, { force: true });
        throw copyError;
      }
      await fs.rm(source, { force: true });
    }
  }
  /** Whatever the change did, no later reader is handed the file that was at `file` before it. */
  async function afterwardsForgotten(file: string, change: Promise<void>): Promise<void> {
    try {
      await change;
    } finally {
      openFiles.forget(file);
    }
  }

  return withCheckedKeys({
    put: (key, body) => afterwardsForgotten(fileOf(key), put(key, body)),
    moveIn: (key, source) => afterwardsForgotten(fileOf(key), moveIn(key, source)),
    remove: (key) => afterwardsForgotten(fileOf(key), fs.rm(fileOf(key), { force: true })),
    async removeFolder(folderKey) {
      try {
        await fs.rm(fileOf(folderKey), { force: true, recursive: true });
      } finally {
        openFiles.forgetFolder(fileOf(folderKey));
      }
    },
    localFile: (key) => fileOf(key),
    openLocal: (key) => openFiles.acquire(fileOf(key)),
    close: () => openFiles.close(),
    async stat(key) {
      const stat = await fs.stat(fileOf(key)).catch(() => undefined);
      return stat?.isFile() ? { bytes: stat.size } : undefined;
    },
    read: (key) => createReadStream(fileOf(key)),
    publicUrl: (key) => `${PUBLIC_MEDIA_PREFIX}${key}`,
    async privateUrl(grant) {
      const query = new URLSearchParams({
        viewer: grant.viewerId,
        expires: String(Math.floor(grant.expiresAt.getTime() / 1000)),
        signature: signMediaGrant(secret, grant),
      });
      return `${PRIVATE_MEDIA_PREFIX}${grant.key}?${query}`;
    },
    listStored: () => filesIn(root),
    async *listTemporary() {
      for await (const file of filesIn(root)) {
        const temporary = TEMPORARY_FILE.exec(path.posix.basename(file.key))?.groups;
        if (temporary) yield { key: `${path.posix.dirname(file.key)}/${temporary.name}`, id: temporary.id!, modifiedAt: file.modifiedAt };
      }
    },
    async removeTemporary({ key, id }) {
      if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`Not an upload id: ${id}`);
      await fs.rm(temporaryFileName(fileOf(key), id), { force: true });
    },
    async check() {
      if (!(await fs.stat(root)).isDirectory()) throw new Error(`${root} is not a folder`);
      await fs.access(root, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    },
  });
}

/**
 * The files in each media folder, one at a time (a folder may hold a million avatars), as `folder/name`;
 * in `hls`, the files of each lecture's folder, as `hls/<hex>/name`.
 */
async function* filesIn(root: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
  for (const folder of FILE_FOLDERS) yield* filesOf(root, folder);
  for await (const sub of entriesOf(root, 'hls')) {
    if (sub.isDirectory()) yield* filesOf(root, `hls/${sub.name}`);
  }
}

async function* filesOf(root: string, folder: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
  for await (const entry of entriesOf(root, folder)) {
    if (!entry.isFile()) continue;
    // Gone since the folder was read: renamed into place, or removed.
    const stat = await fs.lstat(path.join(root, folder, entry.name)).catch(() => undefined);
    if (stat) yield { key: `${folder}/${entry.name}`, modifiedAt: stat.mtime };
  }
}

async function* entriesOf(root: string, folder: string): AsyncGenerator<Dirent> {
  const entries = await fs.opendir(path.join(root, folder)).catch((error: NodeJS.ErrnoException) => {
    // Missing, or removed while being listed (a lecture deleted during a sweep).
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (entries) yield* entries;
}
