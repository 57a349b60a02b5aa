import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RuntimeConfig } from '../../secrets.ts';
import { signMediaGrant, type MediaGrant } from './signed-urls.ts';

/**
 * Where media lives: local disk (default) or an S3-compatible bucket, behind the
 * same functions. Every object key is built in this file, random, never from a
 * user's file name. Public keys (avatars, thumbnails) have URLs anyone may load
 * and cache forever; private keys (videos) are reached only through signed,
 * expiring URLs.
 */
export interface MediaStorage {
  /** Stores `body` (a buffer, or a stream of any length) at `key`. On any failure nothing is left at `key`. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  remove(key: string): Promise<void>;
  /** Size of the stored object, or undefined when there is none. */
  stat(key: string): Promise<{ bytes: number } | undefined>;
  /** The object's bytes (tests, and serving local private media). */
  read(key: string): Readable;
  /** URL of a public object. */
  publicUrl(key: string): string;
  /** A URL that lets `grant.viewerId` read a private object until `grant.expiresAt`. */
  privateUrl(grant: MediaGrant): Promise<string>;
  /** Every stored object whose key this module could have made; anything else in the folders or bucket is not ours to see. */
  listStored(): AsyncIterable<StoredMedia>;
  /**
   * Uploads that have not finished: a local `.part` file, an S3 multipart upload. One still under
   * way keeps its `modifiedAt` recent. Throws StorageCannotList when the service cannot say.
   */
  listTemporary(): AsyncIterable<TemporaryUpload>;
  /** Deletes what an unfinished upload has written so far. */
  removeTemporary(upload: TemporaryUpload): Promise<void>;
}

export interface StoredMedia {
  key: string;
  modifiedAt: Date;
}

export interface TemporaryUpload {
  /** The key the upload was going to store. */
  key: string;
  /** Which upload to that key: the random part of a local `.part` name, or S3's upload id. */
  id: string;
  modifiedAt: Date;
}

/** The storage service does not offer a listing (s3rver, and a few S3 look-alikes, lack ListMultipartUploads). */
export class StorageCannotList extends Error {}

export const PUBLIC_MEDIA_PREFIX = '/media/';
export const PRIVATE_MEDIA_PREFIX = '/media/private/';
/** Folders of public media, served with long cache headers; keys are never reused, so a URL never changes. */
export const PUBLIC_MEDIA_FOLDERS = ['avatars', 'thumbnails'] as const;
/** Every folder a key may be in: the public ones and the private videos. */
export const MEDIA_FOLDERS = [...PUBLIC_MEDIA_FOLDERS, 'videos'] as const;
type Folder = (typeof MEDIA_FOLDERS)[number];

const newKey = (folder: Folder, extension: string) => `${folder}/${randomBytes(16).toString('hex')}.${extension}`;
const MEDIA_KEY = new RegExp(`^(${MEDIA_FOLDERS.join('|')})/[0-9a-f]{32}\\.[a-z0-9]{2,5}$`);
/** Keys as this module makes them: a known folder, 32 hex digits, a short extension. */
export const isMediaKey = (key: string) => MEDIA_KEY.test(key);

/** A local upload in progress is written to `<key>.<8 hex digits>.part`, then renamed to its key. */
const temporaryFileName = (file: string, id: string) => `${file}.${id}.part`;
const TEMPORARY_FILE = /^(?<name>.+)\.(?<id>[0-9a-f]{8})\.part$/;

export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media');

/** Local disk under DATA_DIR/media. Writes go to a temporary name first, so a reader never sees half a file. */
export function createLocalStorage(root: string, secret: string): MediaStorage {
  const fileOf = (key: string) => {
    if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, body) {
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
    },
    remove: async (key) => fs.rm(fileOf(key), { force: true }),
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
    async *listStored() {
      for await (const file of filesIn(root)) {
        if (isMediaKey(file.key)) yield { key: file.key, modifiedAt: file.modifiedAt };
      }
    },
    async *listTemporary() {
      for await (const file of filesIn(root)) {
        const temporary = TEMPORARY_FILE.exec(path.posix.basename(file.key))?.groups;
        const key = temporary && `${path.posix.dirname(file.key)}/${temporary.name}`;
        if (key && isMediaKey(key)) yield { key, id: temporary.id!, modifiedAt: file.modifiedAt };
      }
    },
    async removeTemporary({ key, id }) {
      if (!/^[0-9a-f]{8}$/.test(id)) throw new Error(`Not an upload id: ${id}`);
      await fs.rm(temporaryFileName(fileOf(key), id), { force: true });
    },
  };
}

/** The files in each media folder, one at a time (a folder may hold a million avatars), as `folder/name`. */
async function* filesIn(root: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
  for (const folder of MEDIA_FOLDERS) {
    const entries = await fs.opendir(path.join(root, folder)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!entries) continue;
    for await (const entry of entries) {
      if (!entry.isFile()) continue;
      // Gone since the folder was read: renamed into place, or removed.
      const stat = await fs.lstat(path.join(root, folder, entry.name)).catch(() => undefined);
      if (stat) yield { key: `${folder}/${entry.name}`, modifiedAt: stat.mtime };
    }
  }
}

/** The storage the configuration asks for. */
export async function createStorage(config: Pick<RuntimeConfig, 'storage' | 'dataDir' | 'sessionSecret'>): Promise<MediaStorage> {
  if (config.storage.kind === 's3') {
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage(config.storage);
  }
  return createLocalStorage(mediaRoot(config.dataDir), config.sessionSecret);
}

/** Stores a re-encoded avatar and answers its key. */
export async function saveAvatar(storage: MediaStorage, webp: Buffer): Promise<string> {
  const key = newKey('avatars', 'webp');
  await storage.put(key, webp, 'image/webp');
  return key;
}

/** Stores a re-encoded course thumbnail and answers its key. */
export async function saveThumbnail(storage: MediaStorage, webp: Buffer): Promise<string> {
  const key = newKey('thumbnails', 'webp');
  await storage.put(key, webp, 'image/webp');
  return key;
}

/** Streams a lecture video into storage and answers its key; the extension follows the detected type. */
export async function saveLectureVideo(storage: MediaStorage, video: Readable, type: { ext: string; mime: string }): Promise<string> {
  const key = newKey('videos', type.ext);
  await storage.put(key, video, type.mime);
  return key;
}
