import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { ErrorSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { createReadBuffers } from './read-buffers.ts';
import { isValidMediaSignature } from './signed-urls.ts';
import { isMediaKey, mediaRoot, PRIVATE_MEDIA_PREFIX, type MediaStorage } from './storage.ts';

/** A cached response may be reused for at most this long, and never past the link's expiry. */
export const MAX_CACHE_SECONDS = 3600;
/** Big reads: a 1 MiB range is read in two syscalls instead of sixteen (the default is 64 KiB). */
export const READ_CHUNK_BYTES = 512 * 1024;

/** Types browsers play; `send` would say video/x-m4v for .m4v, which Chrome and Firefox do not recognise. */
const VIDEO_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mkv': 'video/x-matroska',
  '.ogv': 'video/ogg',
};

// Shapes only; the signature decides whether the values are genuine.
export const SignedLinkQuerySchema = z.object({
  viewer: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
  expires: z.string().regex(/^\d{1,11}$/),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/**
 * What the media routes are handed by their caller (routes.ts): whether this request may watch the
 * video at `key` through a link made for `viewerId`, throwing a 403 AppError otherwise. Without
 * it, no link plays.
 */
export interface MediaRouteOptions {
  checkViewer?(request: FastifyRequest, key: string, viewerId: string): Promise<void>;
}

export const refuseEveryViewer = async (): Promise<void> => {
  throw new AppError(403, answers.videoLinkInvalid);
};

/** The file streamed as it is, or read whole; Fastify never serializes either. */
const VideoBytes = z.custom<Readable | Buffer>();

/**
 * Lecture videos of the local storage back end, at the signed URLs that
 * `MediaStorage.privateUrl` makes: `/media/private/videos/<key>?viewer=&expires=&signature=`.
 *
 * A URL works only for the viewer it was made for, while they are logged in and
 * still allowed to watch, and until it expires. A free preview's URL is made for
 * ANY_VIEWER and works for anyone while its lecture is still a preview, until it
 * expires (video-trust.ts). Every refusal is a 403, because
 * it is the link that is no good for this request. The S3 back end hands out
 * presigned bucket URLs instead, so nothing is registered for it.
 */
export const privateMediaRoutes: FastifyPluginAsyncZod<MediaRouteOptions> = async (app, { checkViewer = refuseEveryViewer }) => {
  const { ctx } = app;
  if (ctx.config.storage.kind === 's3') return;
  const root = mediaRoot(ctx.config.dataDir);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PRIVATE_MEDIA_PREFIX}*`,
    schema: {
      hide: true,
      params: z.object({ '*': z.string() }),
      querystring: SignedLinkQuerySchema,
      response: { 200: VideoBytes, 206: VideoBytes, 304: VideoBytes, 403: ErrorSchema, 404: ErrorSchema, 412: ErrorSchema, 416: ErrorSchema },
    },
    // A malformed link is refused like a forged one (403), not reported as a bad request.
    attachValidation: true,
    handler: async (request, reply) => {
      if (request.validationError) throw new AppError(403, answers.videoLinkInvalid);
      const key = request.params['*'];
      const { expiresAt } = await authorizeVideoRequest(request, key, request.query);
      await checkViewer(request, key, request.query.viewer);

      const result = (await readOpenFile(request, reply, ctx.media, key)) ?? (await readStoredFile(request, reply, root, key));
      if (!('stream' in result)) return result;

      const secondsLeft = Math.floor(expiresAt / 1000 - Date.now() / 1000);
      reply.code(result.statusCode).headers(result.headers);
      reply.header('cache-control', `private, max-age=${Math.max(0, Math.min(MAX_CACHE_SECONDS, secondsLeft))}`);
      if (result.statusCode !== 304) {
        reply.header('content-type', VIDEO_TYPES[path.extname(key)] ?? 'application/octet-stream');
      }
      return reply.send(result.stream);
    },
  });
};

/**
 * Checks the link: a video's key, signed for this viewer and expiry, not yet expired. Answers the
 * expiry (ms). The signature is the key check: only keys the storage accepted are ever signed.
 */
async function authorizeVideoRequest(request: FastifyRequest, key: string, query: SignedLinkQuery): Promise<{ expiresAt: number }> {
  // Lecture videos only: a signed key of another folder (an avatar) is not served here.
  if (!key.startsWith('videos/')) throw new AppError(403, answers.videoLinkInvalid);
  const expiresAt = signedLinkExpiry(request.server.ctx.config.sessionSecret, key, query);
  if (expiresAt === undefined) throw new AppError(403, answers.videoLinkInvalid);
  return { expiresAt };
}

export type SignedLinkQuery = z.output<typeof SignedLinkQuerySchema>;

/** When a link to `key` expires (ms), if it was signed with `secret` for its viewer and expiry and has not expired yet; else undefined. */
export function signedLinkExpiry(secret: string, key: string, query: SignedLinkQuery): number | undefined {
  const expiresAt = Number(query.expires) * 1000;
  const grant = { key, viewerId: query.viewer, expiresAt: new Date(expiresAt) };
  if (!isValidMediaSignature(secret, grant, query.signature)) return undefined;
  return expiresAt < Date.now() ? undefined : expiresAt;
}

/** The one range a player asks for: `bytes=<first>-` or `bytes=<first>-<last>`. */
const ONE_RANGE = /^bytes=(\d{1,15})-(\d{0,15})$/;
/** A range or segment up to this size is read in one read into one buffer; a larger one is streamed. */
export const ONE_READ_BYTES = 4 * 1024 * 1024;

/**
 * The private file at `key` as a player asks for it (a GET without conditions, of the whole file
 * or of one range inside it), from the storage's open files: the same status, headers and bytes
 * as `send` answers (readStoredFile), without its stat, open and close; a small file kept in
 * memory with it (open-files.ts) without a read. Undefined for any other request (HEAD, If-*,
 * several ranges, a range outside the file, a missing file), which `send` answers.
 */
export async function readOpenFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: MediaStorage,
  key: string,
): Promise<{ statusCode: 200 | 206; headers: Record<string, string | number>; stream: Readable | Buffer } | undefined> {
  const { headers } = request;
  if (request.method !== 'GET' || !isMediaKey(key)) return undefined;
  if (headers['if-match'] ?? headers['if-none-match'] ?? headers['if-modified-since'] ?? headers['if-unmodified-since'] ?? headers['if-range']) {
    return undefined;
  }
  const asked = headers.range === undefined ? undefined : ONE_RANGE.exec(headers.range);
  if (headers.range !== undefined && !asked) return undefined;
  const file = await storage.openLocal(key);
  if (!file) return undefined;
  let start = 0;
  let end = file.size - 1;
  if (asked) {
    start = Number(asked[1]);
    if (asked[2]) end = Math.min(end, Number(asked[2]));
    if (start > end) {
      file.release();
      return undefined;
    }
  }
  // In send's order and spelling, so that both ways answer alike.
  const answer: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    'Last-Modified': file.mtime.toUTCString(),
    ETag: `W/"${file.size.toString(16)}-${file.mtime.getTime().toString(16)}"`,
  };
  if (asked) answer['Content-Range'] = `bytes ${start}-${end}/${file.size}`;
  const length = Math.max(0, end - start + 1);
  answer['Content-Length'] = length;
  const statusCode = asked ? 206 : 200;
  if (file.contents) {
    file.release();
    return { statusCode, headers: answer, stream: file.contents.subarray(start, start + length) };
  }
  if (!asked && length <= ONE_READ_BYTES && file.hasRoom()) {
    // Its own buffer, kept with the file for the next players; never given back to readBuffers.
    const contents = Buffer.allocUnsafeSlow(length);
    try {
      await readRange(file.fd, contents, 0);
      file.keep(contents);
    } finally {
      file.release();
    }
    return { statusCode, headers: answer, stream: contents };
  }
  if (length > ONE_READ_BYTES) {
    const stream = fs.createReadStream('', {
      fd: file.fd,
      // The descriptor is shared, and only `release` may let it be closed: a stream "closes" it
      // through `keepOpen`, which leaves it open. (autoClose off would not do: a stream destroyed
      // before its end, a range the player abandoned, closes its descriptor all the same, and one
      // that ends emits no 'close', so `release` would never be called.)
      fs: keepOpen,
      start,
      end: Math.max(start, end),
      highWaterMark: READ_CHUNK_BYTES,
    });
    // 'close' comes once no read is under way, also when the answer is abandoned.
    stream.once('close', file.release);
    return { statusCode, headers: answer, stream };
  }
  const bytes = readBuffers.take(length);
  try {
    await readRange(file.fd, bytes, start);
  } catch (error) {
    readBuffers.give(bytes);
    throw error;
  } finally {
    file.release();
  }
  reply.raw.once('finish', () => readBuffers.give(bytes));
  return { statusCode, headers: answer, stream: bytes };
}

const readBuffers = createReadBuffers({ largest: ONE_READ_BYTES });

/** The file system calls of a stream of a descriptor kept open (open-files.ts): it reads, and never closes. */
const keepOpen = {
  open: fs.open,
  read: fs.read,
  close: (_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => callback(null),
};

/** Fills `bytes` from `start` (a read may answer fewer: the rest is read again). */
async function readRange(fd: number, bytes: Buffer, start: number): Promise<void> {
  const { length } = bytes;
  for (let done = 0; done < length;) {
    const read = await new Promise<number>((resolve, reject) =>
      fs.read(fd, bytes, done, length - done, start + done, (error, count) => (error ? reject(error) : resolve(count))),
    );
    if (read === 0) throw new Error('The stored file is shorter than its stat said');
    done += read;
  }
}

/**
 * The private file at `key` as `send` reads it for this request (whole, a range, or not modified),
 * or the reply already sent when it cannot be: 416 and 412 keep send's status and headers.
 */
export async function readStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  key: string,
): Promise<{ statusCode: 200 | 206 | 304; headers: Record<string, string>; stream: Readable } | FastifyReply> {
  const result = await send(request.raw, key, {
    root,
    dotfiles: 'deny',
    index: false,
    cacheControl: false,
    contentType: false,
    highWaterMark: READ_CHUNK_BYTES,
  });
  if (result.type === 'file') return { statusCode: result.statusCode as 200 | 206 | 304, headers: result.headers, stream: result.stream };
  result.stream.destroy();
  if (result.statusCode === 404) throw new AppError(404, answers.notFound);
  // 416 (with `Content-Range: bytes */<size>`) and 412 keep send's status and headers.
  if (result.statusCode === 416 || result.statusCode === 412) {
    return reply.code(result.statusCode).headers(withoutBodyHeaders(result.headers)).send({ success: false, message: answers.invalidRequest });
  }
  throw result.type === 'error' ? result.metadata.error : new AppError(404, answers.notFound);
}

/** send's error headers describe its HTML page; our body is JSON. */
export function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(content-type|content-length|content-security-policy)$/i.test(name)) kept[name] = value;
  }
  return kept;
}
