import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { ErrorSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { loadUser } from '../auth/guards.ts';
import { MAX_CACHE_SECONDS } from '../media/media.routes.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import { CAPTIONS_PREFIX, readCaptionPath } from './caption-urls.ts';
import { findCaptionFile } from './captions.service.ts';

export const WEBVTT_TYPE = 'text/vtt; charset=utf-8';

/**
 * Caption files at the URLs caption-urls.ts makes: `/media/captions/<viewer>.<expires>.<signature>/<captionId>/<version>.vtt`,
 * for `<track>` and the transcript. A genuine, unexpired grant; then a link for ANY_VIEWER works
 * while the lecture is a free preview, and any other only for its viewer's session while they may
 * still read the captions (findCaptionFile). Local disk and S3 alike: the file (at most
 * CAPTION_MAX_BYTES) is read from storage and sent, never a bucket URL, so access is checked on
 * every request. Each version has its own URL, so the browser may keep it until the link expires.
 */
export const captionFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.route({
    method: 'GET',
    url: `${CAPTIONS_PREFIX}*`,
    schema: {
      hide: true,
      params: z.object({ '*': z.string() }),
      response: { 200: z.custom<Buffer>(), 403: ErrorSchema, 404: ErrorSchema },
    },
    handler: async (request, reply) => {
      const asked = readCaptionPath(ctx.config.sessionSecret, request.params['*']);
      if (!asked || asked.grant.expiresAt.getTime() < Date.now()) throw new AppError(403, answers.captionLinkInvalid);
      const { grant, captionId, version } = asked;
      let reader: Parameters<typeof findCaptionFile>[1]['reader'] = ANY_VIEWER;
      if (grant.viewerId !== ANY_VIEWER) {
        const user = await loadUser(request);
        if (!user || user.id !== grant.viewerId) throw new AppError(403, answers.captionLinkInvalid);
        reader = user;
      }
      const { fileKey } = await findCaptionFile(ctx, { captionId, version, reader });
      const bytes = await buffer(ctx.media.read(fileKey) as Readable).catch(() => undefined);
      if (!bytes) throw new AppError(404, answers.captionNotFound);
      const secondsLeft = Math.floor((grant.expiresAt.getTime() - Date.now()) / 1000);
      return reply
        .code(200)
        .header('content-type', WEBVTT_TYPE)
        .header('cache-control', `private, max-age=${Math.max(0, Math.min(MAX_CACHE_SECONDS, secondsLeft))}`)
        .send(bytes);
    },
  });
};
