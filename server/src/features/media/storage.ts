import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { OpenFile } from './open-files.ts';
import type { MediaGrant } from './signed-urls.ts';

/**
 * Where media lives: local disk (default, local-storage.ts) or an S3-compatible bucket
 * (s3-storage.ts), behind this one interface; storage-factory.ts picks the one the
 * configuration asks for. Every object key is built in this file, random, never from a
 * user's file name, and every key handed to the storage is checked here, once, whatever
 * the backend. Public keys (avatars, thumbnails) have URLs anyone may load and cache
 * forever; private keys (videos) are reached only through signed, expiring URLs.
 */
export interface MediaStorage {
  /** Stores `body` (a buffer, or a stream of any length) at `key`. On any failure nothing is left at `key`. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /**
   * Stores the file at `file` (a path on this machine) at `key`, taking it: the file is gone
   * afterwards. Local disk moves it into place (no byte passes through the event loop); S3 streams it.
   * On any failure nothing is left at `key`.
   */
  moveIn(key: string, file: string, contentType: string): Promise<void>;
  /** Removes the object at `key`, or, for an HLS folder key (`hls/<hex>`), every object in the folder. */
  remove(key: string): Promise<void>;
  /** The object's path on this machine's disk when storage is local (ffmpeg reads it in place); undefined on S3. */
  localFile(key: string): string | undefined;
  /**
   * The stored file kept open on this machine's disk (open-files.ts), for one reader who releases
   * it: how the private media routes read a player's ranges and segments. Undefined when there is
   * none, and always on S3.
   */
  openLocal(key: string): Promise<OpenFile | undefined>;
  /** Lets go of what the storage keeps open. */
  close(): void;
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
 * handed only to those shown the lecture. `logos` holds the site's logo and the icons made from it.
 */
export const PUBLIC_MEDIA_FOLDERS = ['avatars', 'thumbnails', 'posters', 'logos'] as const;
/**
 * Folders of single files: the public ones, the private videos, the private invoice and credit-note
 * PDFs, the private files attached to lectures, the lectures' private caption files (WebVTT), and
 * the private PDFs of certificates.
 */
export const FILE_FOLDERS = [...PUBLIC_MEDIA_FOLDERS, 'videos', 'documents', 'resources', 'captions', 'certificates'] as const;
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

/**
 * What a backend does, for keys already checked: `withCheckedKeys` hands it only keys this
 * file could have made, so a stray value never names another file or object.
 */
export interface StorageBackend extends Omit<MediaStorage, 'remove'> {
  /** Removes the file at `key`. */
  remove(key: string): Promise<void>;
  /** Removes an HLS folder (`hls/<hex>`) and every file in it. */
  removeFolder(folderKey: string): Promise<void>;
}

export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media');

/** The key itself, when this file could have made it; throws otherwise. */
function checked(key: string): string {
  if (!isMediaKey(key)) throw new Error(`Not a media key: ${key}`);
  return key;
}

async function* keysOfOurs<T extends { key: string }>(items: AsyncIterable<T>): AsyncGenerator<T> {
  for await (const item of items) if (isMediaKey(item.key)) yield item;
}

/**
 * The storage callers get: every key checked before the backend sees it, and only keys of
 * ours listed. A public URL is only a name, reading nothing, so its key is not checked.
 */
export function withCheckedKeys(backend: StorageBackend): MediaStorage {
  return {
    put: async (key, body, contentType) => backend.put(checked(key), body, contentType),
    moveIn: async (key, file, contentType) => backend.moveIn(checked(key), file, contentType),
    remove: async (key) => (isHlsFolderKey(key) ? backend.removeFolder(key) : backend.remove(checked(key))),
    localFile: (key) => backend.localFile(checked(key)),
    openLocal: async (key) => backend.openLocal(checked(key)),
    close: () => backend.close(),
    stat: async (key) => backend.stat(checked(key)),
    read: (key) => backend.read(checked(key)),
    publicUrl: (key) => backend.publicUrl(key),
    privateUrl: async (grant) => backend.privateUrl({ ...grant, key: checked(grant.key) }),
    listStored: () => keysOfOurs(backend.listStored()),
    listTemporary: () => keysOfOurs(backend.listTemporary()),
    removeTemporary: async (upload) => backend.removeTemporary({ ...upload, key: checked(upload.key) }),
    check: (signal) => backend.check(signal),
  };
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

/**
 * Stores one picture of the site's logo (the logo as re-encoded, or an icon made from it; public)
 * and answers its key. Only ever bytes sharp wrote: nothing uploaded is served as it came.
 */
export async function saveLogoPicture(storage: MediaStorage, bytes: Buffer, type: { ext: 'png' | 'webp'; mime: 'image/png' | 'image/webp' }): Promise<string> {
  const key = newKey('logos', type.ext);
  await storage.put(key, bytes, type.mime);
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

/**
 * The key of a certificate's PDF as made with `name`: named after both, so that a certificate
 * whose pdf_key is this key has a PDF with its current name, and a PDF made again after the name
 * changed is a new file beside the old one, which stays downloadable until the new one replaces it.
 */
export function certificatePdfKey(certificateId: string, name: string): string {
  const hex = createHash('sha256').update(`${certificateId}\n${name}`).digest('hex').slice(0, 32);
  return `certificates/${hex}.pdf`;
}

/** Stores a certificate's PDF (private: served only by the certificates' download route) under its key. */
export async function saveCertificatePdf(storage: MediaStorage, key: string, pdf: Buffer): Promise<void> {
  await storage.put(key, pdf, 'application/pdf');
}

/**
 * Streams a file attached to a lecture into storage (private: reached through download links) and
 * answers its key; the extension follows the type its content showed, never the uploaded name.
 */
export async function saveLectureResource(storage: MediaStorage, file: Readable, type: { ext: string; mime: string }): Promise<string> {
  const key = newKey('resources', type.ext);
  await storage.put(key, file, type.mime);
  return key;
}

/**
 * Stores a lecture's caption file (private: served by the captions' own signed route) and answers
 * its key. Always WebVTT as this server wrote it from the parsed cues, never the upload's bytes.
 */
export async function saveCaptionFile(storage: MediaStorage, webVtt: string): Promise<string> {
  const key = newKey('captions', 'vtt');
  await storage.put(key, Buffer.from(webVtt, 'utf8'), 'text/vtt; charset=utf-8');
  return key;
}
