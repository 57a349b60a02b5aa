import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where media lives. Every object key is built in this file, random, never from
 * a user's file name. Public keys (avatars) are served as static files under /media.
 */
export interface MediaStorage {
  put(key: string, body: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  publicUrl(key: string): string;
}

export const PUBLIC_MEDIA_PREFIX = '/media/';
/** Folders of public media, served with long cache headers; keys are never reused, so they never change. */
export const PUBLIC_MEDIA_FOLDERS = ['avatars'] as const;

const newKey = (folder: (typeof PUBLIC_MEDIA_FOLDERS)[number], extension: string) =>
  `${folder}/${randomBytes(16).toString('hex')}.${extension}`;

export const mediaRoot = (dataDir: string) => path.join(dataDir, 'media');

/** Local disk under DATA_DIR/media. Writes go to a temporary name first, so a reader never sees half a file. */
export function createLocalStorage(root: string): MediaStorage {
  const fileOf = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(path.resolve(root) + path.sep)) throw new Error(`Bad media key: ${key}`);
    return file;
  };
  return {
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(4).toString('hex')}.part`;
      try {
        await fs.writeFile(temporary, body);
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    remove: (key) => fs.rm(fileOf(key), { force: true }),
    publicUrl: (key) => `${PUBLIC_MEDIA_PREFIX}${key}`,
  };
}

/** Stores a re-encoded avatar and answers its key. */
export async function saveAvatar(storage: MediaStorage, webp: Buffer): Promise<string> {
  const key = newKey('avatars', 'webp');
  await storage.put(key, webp);
  return key;
}
