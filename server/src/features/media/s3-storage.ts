import type { Config } from '../../config.ts';
import type { MediaStorage } from './storage.ts';

type S3Settings = Extract<Config['storage'], { kind: 's3' }>;

/** S3-compatible storage. */
export async function createS3Storage(_settings: S3Settings): Promise<MediaStorage> {
  throw new Error('S3 storage is being built');
}
