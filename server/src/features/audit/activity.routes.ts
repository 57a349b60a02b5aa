import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { attachmentDisposition, DOWNLOAD_CACHE_CONTROL } from '../media/download-headers.ts';
import { activityExport, listActivity } from './activity.service.ts';

/** The audit trail for administrators: the Activity page's list, and its CSV. */
export const activityRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.activity.list, {
    handler: async (request) => ({ success: true, message: answers.activityFetched, ...(await listActivity(ctx, request.query)) }),
  });

  route(app, api.activity.export, {
    // Each export may read the whole trail: a few a minute per admin, as the other exports.
    rateLimit: rateLimited({ limiter: 'exportsPerAccount', key: byAccount }),
    handler: async (request, reply) => {
      const { fileName, body } = activityExport(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(fileName))
        .header('cache-control', DOWNLOAD_CACHE_CONTROL)
        .send(body);
    },
  });
};
