import type { Readable } from 'node:stream';
import send from '@fastify/send';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { ErrorSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { HLS_PREFIX, MASTER_PLAYLIST, readHlsPath, type HlsCaptionName } from './hls-urls.ts';
import { ladderTiming, subtitlePlaylist, withSubtitles, withTimestampMap, type SubtitleTrack } from './hls-subtitles.ts';
import { MAX_CACHE_SECONDS, READ_CHUNK_BYTES, readOpenFile, refuseEveryViewer, withoutBodyHeaders, type MediaRouteOptions } from './media.routes.ts';
import { hlsFileKey, mediaRoot } from './storage.ts';
import type { Context } from '../../context.ts';

const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';
/** How long a segment's bucket URL lives (S3): a segment is fetched the moment it is redirected. */
export const SEGMENT_URL_SECONDS = 60;
/** A rendition playlist of a 10-hour lecture in 6 s segments is ~150 KB; anything far bigger is not ours. */
const PLAYLIST_MAX_BYTES = 1024 * 1024;

const Bytes = z.custom<Readable | Buffer | string>();
const WEBVTT_TYPE = 'text/vtt; charset=utf-8';

/** A lecture's captions as its ladder offers them: each language's current file, and the video's length. */
export interface LadderCaptions {
  durationSeconds: number | null;
  tracks: (SubtitleTrack & { fileKey: string })[];
}

/**
 * What the HLS route is handed besides the viewer check (routes.ts): the captions of the lecture
 * whose ladder is `folderKey`, offered as subtitle renditions. Without it, ladders have none.
 */
export interface HlsRouteOptions extends MediaRouteOptions {
  findCaptions?(ctx: Context, folderKey: string): Promise<LadderCaptions>;
}

const noCaptions = async (): Promise<LadderCaptions> => ({ durationSeconds: null, tracks: [] });

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
 *
 * Both: the master playlist is read and sent with the lecture's captions as a SUBTITLES group
 * (hls-subtitles.ts), never cached, and the subtitle playlists and files it names are made here
 * from the captions' rows and stored WebVTT files.
 */
export const hlsRoutes: FastifyPluginAsyncZod<HlsRouteOptions> = async (app, { checkViewer = refuseEveryViewer, findCaptions = noCaptions }) => {
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

      const { grant } = asked;
      const secondsLeft = Math.floor((grant.expiresAt.getTime() - Date.now()) / 1000);
      const cacheControl = `private, max-age=${Math.max(0, Math.min(MAX_CACHE_SECONDS, secondsLeft))}`;
      // Caption renditions are made from the lecture's captions as they are asked for; a learner
      // needs the same lease for them as for the playlists beside them (checkViewer, above).
      if ('caption' in asked) {
        const made = await captionRendition(ctx, grant.key, asked.caption, findCaptions);
        return reply
          .code(200)
          .header('content-type', made.type)
          .header('cache-control', made.type === WEBVTT_TYPE ? cacheControl : 'private, no-store')
          .send(made.body);
      }
      const { fileKey } = asked;
      // The master playlist names the lecture's captions, which change without the ladder changing: never cached.
      if (fileKey === hlsFileKey(grant.key, MASTER_PLAYLIST)) {
        const { tracks } = await findCaptions(ctx, grant.key);
        return reply
          .code(200)
          .header('content-type', PLAYLIST_TYPE)
          .header('cache-control', 'private, no-store')
          .send(withSubtitles(await readPlaylist(ctx, fileKey), tracks));
      }
      const isPlaylist = fileKey.endsWith('.m3u8');

      if (ctx.config.storage.kind === 's3') {
        if (!isPlaylist) {
          // A bucket URL cannot be withdrawn: it lives a minute, so a device signed out or
          // stopped from elsewhere fetches no more than a minute's segments through it.
          const expiresAt = new Date(Math.min(grant.expiresAt.getTime(), Date.now() + SEGMENT_URL_SECONDS * 1000));
          const url = await ctx.media.privateUrl({ key: fileKey, viewerId: grant.viewerId, expiresAt });
          return reply.code(302).header('cache-control', 'private, no-store').header('location', url).send('');
        }
        // Sent as stored: its segment names stay relative, so every segment comes back here and
        // passes the viewer's checks (session, lease) before it is redirected to the bucket.
        return reply
          .code(200)
          .header('content-type', PLAYLIST_TYPE)
          .header('cache-control', 'private, no-store')
          .send(await readPlaylist(ctx, fileKey));
      }

      const result =
        (await readOpenFile(request, reply, ctx.media, fileKey)) ??
        (await send(request.raw, fileKey, {
          root,
          dotfiles: 'deny',
          index: false,
          cacheControl: false,
          contentType: false,
          highWaterMark: READ_CHUNK_BYTES,
        }));
      if ('type' in result && result.type !== 'file') {
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

/** A playlist of the ladder as stored (local disk or bucket); 404 when there is none, or it is far bigger than ours are. */
async function readPlaylist(ctx: Context, fileKey: string): Promise<string> {
  const stat = await ctx.media.stat(fileKey);
  if (!stat || stat.bytes > PLAYLIST_MAX_BYTES) throw new AppError(404, answers.notFound);
  return readText(ctx.media.read(fileKey));
}

/**
 * A language's subtitle playlist (`captions-<language>.m3u8`), or its current file with the
 * ladder's timestamp map (`captions-<language>-v<version>.vtt`); 404 for a language the lecture
 * has no captions in, or a version that is not the current one.
 */
async function captionRendition(
  ctx: Context,
  folderKey: string,
  asked: HlsCaptionName,
  findCaptions: NonNullable<HlsRouteOptions['findCaptions']>,
): Promise<{ type: string; body: string }> {
  const { tracks, durationSeconds } = await findCaptions(ctx, folderKey);
  const track = tracks.find((candidate) => candidate.language === asked.language);
  if (!track || (asked.version !== undefined && asked.version !== track.version)) throw new AppError(404, answers.notFound);
  const timing = await ladderTiming(ctx.media, folderKey, await readPlaylist(ctx, hlsFileKey(folderKey, MASTER_PLAYLIST)));
  if (asked.version === undefined) {
    return { type: PLAYLIST_TYPE, body: subtitlePlaylist(track, durationSeconds ?? timing.seconds ?? 1) };
  }
  return { type: WEBVTT_TYPE, body: withTimestampMap(await readText(ctx.media.read(track.fileKey)), timing.firstPts) };
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
