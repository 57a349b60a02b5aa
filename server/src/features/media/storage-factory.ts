import type { RuntimeConfig } from '../../secrets.ts';
import { createLocalStorage } from './local-storage.ts';
import { mediaRoot, type MediaStorage } from './storage.ts';

/** The storage the configuration asks for. The S3 backend is loaded only when asked for: its SDK is large. */
export async function createStorage(config: Pick<RuntimeConfig, 'storage' | 'dataDir' | 'sessionSecret'>): Promise<MediaStorage> {
  if (config.storage.kind === 's3') {
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage(config.storage);
  }
  return createLocalStorage(mediaRoot(config.dataDir), config.sessionSecret);
}

/** Where pages load media from besides this origin: the bucket (and its CDN) with S3 storage, nowhere else on local disk. */
export async function mediaOrigins(config: Pick<RuntimeConfig, 'storage'>): Promise<string[]> {
  if (config.storage.kind !== 's3') return [];
  const { s3Origins } = await import('./s3-storage.ts');
  return s3Origins(config.storage);
}
