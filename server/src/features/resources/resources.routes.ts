import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { RESOURCES_PER_LECTURE } from '@lms/contract/media';
import { AppError } from '../../errors.ts';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { readForm } from '../media/upload.ts';
import { attachResource, checkRoomForResource, deleteResource, listResources, sizeLimitText, storeResourceFile } from './resources.service.ts';

/** Files attached to a lecture: listed for those who may watch it, attached and removed by an administrator. */
export const resourceRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const maxBytes = ctx.config.resourceMaxBytes;

  route(app, api.resources.list, {
    handler: async (request) => ({
      success: true,
      message: answers.resourcesFetched,
      resources: await listResources(ctx, { ...request.params, viewer: currentUser(request) }),
      maxBytes,
      maxFiles: RESOURCES_PER_LECTURE,
    }),
  });

  route(app, api.resources.add, {
    // Each upload is up to RESOURCE_MAX_BYTES of bandwidth, disk and a pass over every byte.
    rateLimit: rateLimited({ limiter: 'resourceUploadsPerAccount', key: byAccount }),
    handler: async (request) => {
      // An unknown lecture, or one with no room left, is refused before its file is uploaded.
      await checkRoomForResource(ctx, request.params);
      const form = await readForm(request, {
        fileField: 'file',
        maxBytes,
        tooLargeMessage: answers.resourceTooLarge(sizeLimitText(maxBytes)),
        receive: (file, fileName) => storeResourceFile(ctx, file, fileName),
        discard: (stored) => ctx.media.remove(stored.key),
      });
      if (!form.file) throw new AppError(400, answers.resourceMissing);
      const resource = await attachResource(ctx, { ...request.params, file: form.file, viewer: currentUser(request) });
      return { success: true, message: answers.resourceAdded, resource };
    },
  });

  route(app, api.resources.delete, {
    handler: async (request) => {
      await deleteResource(ctx, request.params);
      return { success: true, message: answers.resourceDeleted };
    },
  });
};
