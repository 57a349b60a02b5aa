import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { getLearner } from './learner-detail.service.ts';
import { learnersExport } from './learners-export.ts';
import { listLearners } from './learners-list.service.ts';

/** The administrator's learners: the list, the CSV of it, and one learner's page. */
export const learnerRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.learners.list, {
    handler: async (request) => ({ success: true, message: answers.learnersFetched, ...(await listLearners(ctx, request.query)) }),
  });

  route(app, api.learners.export, {
    // Every learner, read page by page: a few a minute per admin.
    rateLimit: rateLimited({ limiter: 'exportsPerAccount', key: byAccount }),
    handler: async (request, reply) => {
      const { fileName, body } = learnersExport(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  });

  route(app, api.learners.get, {
    handler: async (request) => ({ success: true, message: answers.learnerFetched, learner: await getLearner(ctx, request.params.id) }),
  });
};
