import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAddress, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { loadUser } from '../auth/guards.ts';
import { searchCaptions } from './search.service.ts';

/** Search inside what lectures say, from the catalogue: open to anyone, as the catalogue is. */
export const captionSearchRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.captions.search, {
    // Each search reads the cues' index and ranks what it finds: cheap, but not free, and open to anyone.
    rateLimit: rateLimited({ limiter: 'captionSearchesPerAddress', key: byAddress }),
    handler: async (request) => ({
      success: true,
      message: answers.captionMatchesFetched,
      matches: await searchCaptions(ctx, { ...request.query, viewer: await loadUser(request) }),
    }),
  });
};
