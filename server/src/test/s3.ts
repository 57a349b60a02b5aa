import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../features/media/s3-storage.ts';

const BUCKET = 'lms-test';
/** s3rver's fixed account. */
const KEY = 'S3RVER';

/**
 * An in-process S3-compatible server (s3rver) on a free loopback port, storing in a
 * temporary folder, with one bucket ready. `env` configures an app to use it.
 */
export async function startTestS3(): Promise<{ settings: S3Settings; env: Record<string, string>; close(): Promise<void> }> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    settings: {
      kind: 's3',
      endpoint,
      bucket: BUCKET,
      region: 'us-east-1',
      accessKeyId: KEY,
      secretAccessKey: KEY,
      publicUrl: undefined,
    },
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
