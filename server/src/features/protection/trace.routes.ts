import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { sharingRisk, tracePlaybacks } from './trace.service.ts';

/** The administrator's leak trace and sharing-risk list. */
export const traceRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.protection.trace, {
    // Each trace looks inside every playback's code: enough for reading a clip by hand, not for guessing.
    rateLimit: rateLimited({ limiter: 'tracesPerAccount', key: byAccount }),
    handler: async (request) => {
      const playbacks = await tracePlaybacks(ctx, request.query.code);
      return { success: true, message: answers.traceFound(playbacks.length), playbacks };
    },
  });

  route(app, api.protection.sharingRisk, {
    handler: async () => ({ success: true, message: answers.sharingRiskFetched, ...(await sharingRisk(ctx)) }),
  });
};
