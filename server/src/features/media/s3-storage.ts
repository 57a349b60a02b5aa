import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { PassThrough, Readable, pipeline } from 'node:stream';
import type { Config } from '../../config.ts';
import { attachmentDisposition, DOWNLOAD_CACHE_CONTROL } from './download-headers.ts';
import { isMediaKey, MEDIA_FOLDERS, StorageCannotList, withCheckedKeys, type MediaStorage, type StorageBackend } from './storage.ts';

export type S3Settings = Extract<Config['storage'], { kind: 's3' }>;

/**
 * A stream is uploaded in parts, so memory stays flat whatever the video's size: a few
 * parts are held at once (those in flight, the one filling, copies). S3's smallest part,
 * 5 MiB, allows objects up to 48 GiB in 10,000 parts; measured on a 1 GiB upload, RSS grew
 * ~45 MB with 5 MiB parts against ~65 MB with 8 MiB, against a budget of 64 MB.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** The longest a SigV4 presigned URL may live. */
const MAX_URL_SECONDS = 7 * 24 * 3600;

/** The bucket's own URL, path-style on a custom endpoint (MinIO, R2, …), virtual-hosted on AWS. */
function bucketUrl(settings: S3Settings): string {
  return settings.endpoint ? `${settings.endpoint.replace(/\/+$/, '')}/${settings.bucket}` : `https://${settings.bucket}.s3.${settings.region}.amazonaws.com`;
}

const publicBase = (settings: S3Settings) => (settings.publicUrl ?? bucketUrl(settings)).replace(/\/+$/, '');

/**
 * The origins media is served from (public objects, maybe from a CDN, and presigned
 * private ones from the bucket), for the app's CSP img-src and media-src.
 */
export function s3Origins(settings: S3Settings): string[] {
  return [...new Set([new URL(publicBase(settings)).origin, new URL(bucketUrl(settings)).origin])];
}

/**
 * S3-compatible storage. Public keys (avatars/, thumbnails/) must be readable
 * anonymously (a bucket policy, or a CDN in front); videos/, hls/, documents/, resources/, captions/
 * and certificates/ must not be.
 */
export async function createS3Storage(settings: S3Settings): Promise<MediaStorage> {
  // Loaded here, not at the top: the SDK is large and most runs use local storage.
  const [
    {
      S3Client,
      AbortMultipartUploadCommand,
      DeleteObjectCommand,
      GetObjectCommand,
      HeadBucketCommand,
      HeadObjectCommand,
      ListMultipartUploadsCommand,
      paginateListObjectsV2,
      paginateListParts,
    },
    { Upload },
    { getSignedUrl },
  ] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage'), import('@aws-sdk/s3-request-presigner')]);
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: Boolean(settings.endpoint),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Newer SDKs add CRC32 checksums to every upload (and, for streams, aws-chunked bodies
    // with trailers) and expect them on downloads; S3-compatible servers often lack them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const remove = async (key: string) => void (await client.send(new DeleteObjectCommand({ Bucket, Key: key })));
  // A folder is its objects: each one of ours is deleted (a ladder is a few hundred segments).
  const removeFolder = async (folderKey: string) => {
    for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: `${folderKey}/` })) {
      for (const object of page.Contents ?? []) {
        if (object.Key && isMediaKey(object.Key)) await remove(object.Key);
      }
    }
  };

  const backend: StorageBackend = {
    async put(key, body, contentType) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // Upload aborts its multipart upload itself; the delete covers a store that completed anyway.
        await remove(key).catch(() => undefined);
        if (Buffer.isBuffer(body)) throw error;
        // The source's own error (the client went away, a size limit) explains the failure
        // better than whatever the aborted upload reported after it.
        const cause = body.errored ?? error;
        body.destroy();
        throw cause;
      }
    },
    async moveIn(key, file, contentType) {
      await backend.put(key, createReadStream(file), contentType);
      await fs.rm(file, { force: true });
    },
    remove,
    removeFolder,
    localFile: () => undefined,
    openLocal: async () => undefined,
    close: () => {},
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { bytes: head.ContentLength ?? 0 };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    read(key) {
      const command = new GetObjectCommand({ Bucket, Key: key });
      const out = new PassThrough();
      client.send(command).then(
        ({ Body }) => {
          if (!(Body instanceof Readable)) return out.destroy(new Error(`No body for ${key}`));
          pipeline(Body, out, (error) => error && out.destroy(error));
        },
        (error: unknown) => out.destroy(error as Error),
      );
      return out;
    },
    publicUrl: (key) => `${publicBase(settings)}/${key}`,
    async privateUrl(grant) {
      // S3 cannot bind a URL to a viewer: anyone holding it may read the object until it
      // expires. The binding is by the short expiry and by handing it only to that viewer.
      const seconds = Math.ceil((grant.expiresAt.getTime() - Date.now()) / 1000);
      const expiresIn = Math.min(MAX_URL_SECONDS, Math.max(1, seconds));
      // A file to save is answered as an attachment with its own name and type, kept out of shared caches.
      const download = grant.download && {
        ResponseContentDisposition: attachmentDisposition(grant.download.fileName),
        ResponseContentType: grant.download.contentType,
        ResponseCacheControl: DOWNLOAD_CACHE_CONTROL,
      };
      return await getSignedUrl(client, new GetObjectCommand({ Bucket, Key: grant.key, ...download }), { expiresIn });
    },
    async *listStored() {
      for (const folder of MEDIA_FOLDERS) {
        for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: `${folder}/` })) {
          for (const object of page.Contents ?? []) {
            if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date() };
          }
        }
      }
    },
    async *listTemporary() {
      for (const folder of MEDIA_FOLDERS) {
        let marker: { KeyMarker?: string; UploadIdMarker?: string } = {};
        for (;;) {
          const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: `${folder}/`, ...marker })).catch((error: unknown) => {
            if (isNotImplemented(error)) throw new StorageCannotList('This S3 service cannot list unfinished multipart uploads.');
            throw error;
          });
          for (const upload of page.Uploads ?? []) {
            if (!upload.Key || !upload.UploadId) continue;
            yield { key: upload.Key, id: upload.UploadId, modifiedAt: await lastActivity(upload.Key, upload.UploadId, upload.Initiated) };
          }
          if (!page.IsTruncated) break;
          marker = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
        }
      }
    },
    async removeTemporary({ key, id }) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: id }));
    },
    async check(signal) {
      // The cheapest request that proves the bucket is there and these credentials reach it.
      await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: signal });
    },
  };
  return withCheckedKeys(backend);

  /**
   * When an upload last sent a part: S3 dates an upload by when it began, and a long video
   * over a slow link is still under way hours later.
   */
  async function lastActivity(Key: string, UploadId: string, initiated = new Date(0)): Promise<Date> {
    let latest = initiated.getTime();
    for await (const page of paginateListParts({ client }, { Bucket, Key, UploadId })) {
      for (const part of page.Parts ?? []) latest = Math.max(latest, part.LastModified?.getTime() ?? 0);
    }
    return new Date(latest);
  }
}

function isNotImplemented(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotImplemented' || $metadata?.httpStatusCode === 501;
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}
