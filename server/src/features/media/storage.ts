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
  /** Removes the object at `key`, or, for an HLS folder key (`hls/<hex>`), every object in the folder. */
  remove(key: string): Promise<void>;
  /** The object's path on this machine's disk when storage is local (ffmpeg reads it in place); undefined on S3. */
  localFile(key: string): string | undefined;
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
  /** Throws unless the storage answers (/readyz): the media folder is there and usable, or the bucket answers. */
  check(signal: AbortSignal): Promise<void>;
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
/**
 * Folders of public media, served with long cache headers; keys are never reused, so a URL never changes.
 * Posters (a frame of a lecture, cut by the video pipeline) are public like thumbnails: random keys,
 * handed only to those shown the lecture.
 */
export const PUBLIC_MEDIA_FOLDERS = ['avatars', 'thumbnails', 'posters'] as const;
/** Folders of single files: the public ones, the private videos, and the private invoice and credit-note PDFs. */
const FILE_FOLDERS = [...PUBLIC_MEDIA_FOLDERS, 'videos', 'documents'] as const;
/** Every folder a key may be in; `hls` holds one private folder of playlists and segments per lecture. */
export const MEDIA_FOLDERS = [...FILE_FOLDERS, 'hls'] as const;
type FileFolder = (typeof FILE_FOLDERS)[number];

const newKey = (folder: FileFolder, extension: string) => `${folder}/${randomBytes(16).toString('hex')}.${extension}`;
const FILE_KEY = new RegExp(`^(${FILE_FOLDERS.join('|')})/[0-9a-f]{32}\\.[a-z0-9]{2,5}$`);
const HLS_FOLDER_KEY = /^hls\/[0-9a-f]{32}$/;
/** A file of an HLS folder: playlists (`master.m3u8`, `0.m3u8`…) and segments (`0_00001.ts`…). */
const HLS_FILE_KEY = /^hls\/[0-9a-f]{32}\/[a-z0-9_]{1,40}\.(m3u8|ts)$/;
/** Keys of stored objects as this module makes them: a known folder, 32 hex digits, a short extension; or a file of an HLS folder. */
export const isMediaKey = (key: string) => FILE_KEY.test(key) || HLS_FILE_KEY.test(key);
/** The key a lecture row keeps for its HLS ladder: `hls/<32 hex digits>`, a folder of files. */
export const isHlsFolderKey = (key: string) => HLS_FOLDER_KEY.test(key);
/** A new, empty HLS folder's key. */
export const newHlsFolderKey = () => `hls/${randomBytes(16).toString('hex')}`;
/** The key of the file `name` (e.g. `master.m3u8`) in the HLS folder `folderKey`. */
export const hlsFileKey = (folderKey: string, name: string) => `${folderKey}/${name}`;
/** The key a row keeps for a stored object: its HLS folder for a playlist or segment, else the key itself. */
export const ownerKeyOf = (key: string) => (HLS_FILE_KEY.test(key) ? key.slice(0, key.lastIndexOf('/')) : key);

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
  const folderOf = (key: string) => {
    if (!isHlsFolderKey(key)) throw new Error(`Not an HLS folder key: ${key}`);
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
    remove: async (key) => fs.rm(isHlsFolderKey(key) ? folderOf(key) : fileOf(key), { force: true, recursive: isHlsFolderKey(key) }),
    localFile: (key) => fileOf(key),
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
    async check() {
      if (!(await fs.stat(root)).isDirectory()) throw new Error(`${root} is not a folder`);
      await fs.access(root, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    },
  };
}

/**
 * The files in each media folder, one at a time (a folder may hold a million avatars), as `folder/name`;
 * in `hls`, the files of each lecture's folder, as `hls/<hex>/name`.
 */
async function* filesIn(root: string): AsyncGenerator<{ key: string; modifiedAt: Date }> {
  for (const folder of FILE_FOLDERS) yield* filesOf(root, folder);
  for await (const sub of entriesOf(root, 'hls')) {
    if (sub.isDirectory() && isHlsFolderKey(`hls/${sub.name}`)) yield* filesOf(root, `hls/${sub.name}`);
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

async function* entriesOf(root: string, folder: string): AsyncGenerator<import('node:fs').Dirent> {
  const entries = await fs.opendir(path.join(root, folder)).catch((error: NodeJS.ErrnoException) => {
    // Missing, or removed while being listed (a lecture deleted during a sweep).
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (entries) yield* entries;
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

/** Stores a lecture's poster frame (re-encoded WebP) under `key` (a new one unless given) and answers the key. */
export async function savePoster(storage: MediaStorage, webp: Buffer, key = newKey('posters', 'webp')): Promise<string> {
  await storage.put(key, webp, 'image/webp');
  return key;
}

/**
 * The keys a video processing run stores its ladder and poster under, named after the run (a
 * random UUID no client sees): a run killed while storing them left files that only the run's id
 * leads to, and the sweep of dead runs removes them at once instead of an hour later.
 */
export function videoRunKeys(run: string): { hlsKey: string; posterKey: string } {
  const hex = run.replaceAll('-', '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`Not a run id: ${run}`);
  return { hlsKey: `hls/${hex}`, posterKey: `posters/${hex}.webp` };
}

/** Streams a lecture video into storage and answers its key; the extension follows the detected type. */
export async function saveLectureVideo(storage: MediaStorage, video: Readable, type: { ext: string; mime: string }): Promise<string> {
  const key = newKey('videos', type.ext);
  await storage.put(key, video, type.mime);
  return key;
}

/** Stores an invoice's or a credit note's PDF (private: served only by the billing routes) and answers its key. */
export async function saveDocumentPdf(storage: MediaStorage, pdf: Buffer): Promise<string> {
  const key = newKey('documents', 'pdf');
  await storage.put(key, pdf, 'application/pdf');
  return key;
}
