import type { Readable } from 'node:stream';
import send from '@fastify/send';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { ErrorSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { HLS_PREFIX, readHlsPath } from './hls-urls.ts';
import { MAX_CACHE_SECONDS, READ_CHUNK_BYTES, refuseEveryViewer, withoutBodyHeaders, type MediaRouteOptions } from './media.routes.ts';
import { mediaRoot } from './storage.ts';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';
/** How long a segment's bucket URL lives (S3): a segment is fetched the moment it is redirected. */
export const SEGMENT_URL_SECONDS = 60;
/** A rendition playlist of a 10-hour lecture in 6 s segments is ~150 KB; anything far bigger is not ours. */
const PLAYLIST_MAX_BYTES = 1024 * 1024;

const Bytes = z.custom<Readable | string>();

/**
 * A lecture's HLS ladder at the URLs hls-urls.ts makes: `/media/hls/<viewer>.<expires>.<signature>/<hex>/<file>`.
 * The same rules as the MP4 (media.routes.ts): a genuine, unexpired grant, then the viewer's session
 * and right to watch, or a free preview (`checkViewer`); every refusal a 403.
 *
 * Local disk: playlists and segments are sent from disk unchanged (their relative URIs keep the
 * grant in the path), with Range and conditional requests, cacheable by the browser only.
 * S3: a playlist is read from the bucket and sent as it is; each segment asked for here is
 * redirected to a presigned URL that lives SEGMENT_URL_SECONDS. One more hop a segment (every
 * ~6 s of video) buys what a presigned playlist cannot: a signed-out or stopped device's stream
 * ends within a minute, as it does at once on local disk.
 */
export const hlsRoutes: FastifyPluginAsyncZod<MediaRouteOptions> = async (app, { checkViewer = refuseEveryViewer }) => {
  const { ctx } = app;
  const root = mediaRoot(ctx.config.dataDir);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${HLS_PREFIX}*`,
    schema: {
      hide: true,
      params: z.object({ '*': z.string() }),
      response: { 200: Bytes, 206: Bytes, 302: Bytes, 304: Bytes, 403: ErrorSchema, 404: ErrorSchema, 412: ErrorSchema, 416: ErrorSchema },
    },
    handler: async (request, reply) => {
      const asked = readHlsPath(ctx.config.sessionSecret, request.params['*']);
      if (!asked || asked.grant.expiresAt.getTime() < Date.now()) throw new AppError(403, answers.videoLinkInvalid);
      await checkViewer(request, asked.grant.key, asked.grant.viewerId);

      const { fileKey, grant } = asked;
      const secondsLeft = Math.floor((grant.expiresAt.getTime() - Date.now()) / 1000);
      const cacheControl = `private, max-age=${Math.max(0, Math.min(MAX_CACHE_SECONDS, secondsLeft))}`;
      const isPlaylist = fileKey.endsWith('.m3u8');

      if (ctx.config.storage.kind === 's3') {
        if (!isPlaylist) {
          // A bucket URL cannot be withdrawn: it lives a minute, so a device signed out or
          // stopped from elsewhere fetches no more than a minute's segments through it.
          const expiresAt = new Date(Math.min(grant.expiresAt.getTime(), Date.now() + SEGMENT_URL_SECONDS * 1000));
          const url = await ctx.media.privateUrl({ key: fileKey, viewerId: grant.viewerId, expiresAt });
          return reply.code(302).header('cache-control', 'private, no-store').header('location', url).send('');
        }
        const stat = await ctx.media.stat(fileKey);
        if (!stat || stat.bytes > PLAYLIST_MAX_BYTES) throw new AppError(404, answers.notFound);
        // Sent as stored: its segment names stay relative, so every segment comes back here and
        // passes the viewer's checks (session, lease) before it is redirected to the bucket.
        return reply
          .code(200)
          .header('content-type', PLAYLIST_TYPE)
          .header('cache-control', 'private, no-store')
          .send(await readText(ctx.media.read(fileKey)));
      }

      const result = await send(request.raw, fileKey, {
        root,
        dotfiles: 'deny',
        index: false,
        cacheControl: false,
        contentType: false,
        highWaterMark: READ_CHUNK_BYTES,
      });
      if (result.type !== 'file') {
        result.stream.destroy();
        if (result.statusCode === 416 || result.statusCode === 412) {
          return reply.code(result.statusCode).headers(withoutBodyHeaders(result.headers)).send({ success: false, message: answers.invalidRequest });
        }
        throw new AppError(404, answers.notFound);
      }
      reply
        .code(result.statusCode as 200 | 206 | 304)
        .headers(result.headers)
        .header('cache-control', cacheControl);
      if (result.statusCode !== 304) reply.header('content-type', isPlaylist ? PLAYLIST_TYPE : SEGMENT_TYPE);
      return reply.send(result.stream);
    },
  });
};

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
