import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { revenueExport } from './revenue-export.ts';
import { getRevenue } from './revenue.service.ts';
import { getCancellationReasons, getEngagement, getPaymentRecords, getUserStats } from './stats.service.ts';

/** The admin's dashboard: the spec puts its two calls under different paths (/admin/status/users, /payments). */
export const statsRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.stats.users, {
    handler: async () => ({ success: true, message: answers.userStats, ...(await getUserStats(ctx)) }),
  });

  route(app, api.stats.engagement, {
    handler: async () => ({ success: true, message: answers.engagementFetched, ...(await getEngagement(ctx)) }),
  });

  route(app, api.stats.cancellations, {
    handler: async () => ({ success: true, message: answers.cancellationsFetched, ...(await getCancellationReasons(ctx)) }),
  });

  route(app, api.stats.revenue, {
    handler: async () => ({ success: true, message: answers.revenueFetched, ...(await getRevenue(ctx)) }),
  });

  route(app, api.stats.revenueExport, {
    // Each export reads up to a year of rows: a few a minute per admin.
    rateLimit: rateLimited({ limiter: 'exportsPerAccount', key: byAccount }),
    handler: async (request, reply) => {
      const { fileName, body } = revenueExport(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  });

  route(app, api.stats.paymentRecords, {
    handler: async (request) => ({ success: true, message: answers.paymentRecords, ...(await getPaymentRecords(ctx, { count: request.query.count })) }),
  });
};
