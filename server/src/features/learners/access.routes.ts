import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAddress, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { formatIndiaDate } from '../billing/format.ts';
import { grantAccess, revokeAccess } from './access.service.ts';
import { changeEmail, confirmEmailChange } from './email-change.service.ts';

/** What an administrator does to a learner's access and account: complimentary access, a new email. And the link that confirms it. */
export const learnerAccessRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.learners.grantAccess, {
    handler: async (request) => {
      const until = await grantAccess(ctx, currentUser(request), request.params.id, request.body);
      return { success: true, message: answers.accessGranted(formatIndiaDate(until)) };
    },
  });

  route(app, api.learners.revokeAccess, {
    handler: async (request) => {
      await revokeAccess(ctx, currentUser(request), request.params.id, request.body);
      return { success: true, message: answers.accessRevoked };
    },
  });

  route(app, api.learners.changeEmail, {
    // Each change mails both addresses: a few an hour for one account, whoever asks.
    rateLimit: rateLimited({ limiter: 'emailChangesPerAccount', key: (request) => request.params.id }),
    handler: async (request) => {
      const email = await changeEmail(ctx, currentUser(request), request.params.id, request.body);
      return { success: true, message: answers.emailChangeMailed(email) };
    },
  });

  route(app, api.users.confirmEmail, {
    rateLimit: rateLimited({ limiter: 'emailChangeTokenPerIp', key: byAddress }),
    handler: async (request) => {
      await confirmEmailChange(ctx, request.params.token);
      return { success: true, message: answers.emailChangeConfirmed };
    },
  });
};
