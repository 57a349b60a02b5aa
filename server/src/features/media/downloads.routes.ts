import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { ErrorSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { attachmentDisposition, DOWNLOAD_CACHE_CONTROL } from './download-headers.ts';
import { readStoredFile, SignedLinkQuerySchema, signedLinkExpiry } from './media.routes.ts';
import { mediaRoot, PRIVATE_MEDIA_PREFIX } from './storage.ts';

/**
 * What the download route is handed by its caller (routes.ts): what the file at `key` is saved
 * as, when this request may download it through a link made for `viewerId`; a 403 or 404
 * AppError otherwise. Who may download is the resources' rule.
 */
export interface DownloadRouteOptions {
  checkDownload(request: FastifyRequest, key: string, viewerId: string): Promise<{ fileName: string; contentType: string }>;
}

const FileBytes = z.custom<Readable>();

/**
 * Lectures' files of the local storage back end, at the signed URLs that `MediaStorage.privateUrl`
 * makes: `/media/private/resources/<key>?viewer=&expires=&signature=`. A link works as a video's
 * does: for its viewer only, while they are logged in and still allowed, until it expires. The
 * file is answered as an attachment under the name and type its row keeps, never shown in the
 * page (a text file is not rendered as HTML, a picture not opened in our origin), and ranges let
 * a broken download resume. The S3 back end's presigned URLs carry the same headers as response
 * overrides, so nothing is registered for it.
 */
export const downloadRoutes: FastifyPluginAsyncZod<DownloadRouteOptions> = async (app, { checkDownload }) => {
  const { ctx } = app;
  if (ctx.config.storage.kind === 's3') return;
  const root = mediaRoot(ctx.config.dataDir);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PRIVATE_MEDIA_PREFIX}resources/*`,
    schema: {
      hide: true,
      params: z.object({ '*': z.string() }),
      querystring: SignedLinkQuerySchema,
      response: { 200: FileBytes, 206: FileBytes, 304: FileBytes, 403: ErrorSchema, 404: ErrorSchema, 412: ErrorSchema, 416: ErrorSchema },
    },
    // A malformed link is refused like a forged one (403), not reported as a bad request.
    attachValidation: true,
    handler: async (request, reply) => {
      if (request.validationError) throw new AppError(403, answers.resourceLinkInvalid);
      // The signature covers the whole key: only keys the storage made are ever signed.
      const key = `resources/${request.params['*']}`;
      if (signedLinkExpiry(ctx.config.sessionSecret, key, request.query) === undefined) throw new AppError(403, answers.resourceLinkInvalid);
      const download = await checkDownload(request, key, request.query.viewer);

      const result = await readStoredFile(request, reply, root, key);
      if (!('stream' in result)) return result;
      reply.code(result.statusCode).headers(result.headers);
      reply.header('cache-control', DOWNLOAD_CACHE_CONTROL);
      reply.header('content-disposition', attachmentDisposition(download.fileName));
      if (result.statusCode !== 304) reply.header('content-type', download.contentType);
      return reply.send(result.stream);
    },
  });
};
