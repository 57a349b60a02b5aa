import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { attemptResult, learnerQuiz, startAttempt, submitAttempt } from './attempts.service.ts';

/** Taking a quiz: the learner's view of it, starting (or resuming) an attempt, submitting it, reading it back. */
export const attemptRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.quizzes.get, {
    handler: async (request) => ({ success: true, message: answers.quizFetched, quiz: await learnerQuiz(ctx, currentUser(request), request.params.quizId) }),
  });

  route(app, api.quizzes.start, {
    rateLimit: rateLimited({ limiter: 'quizStartsPerAccount', key: byAccount }),
    handler: async (request) => {
      const { attempt, resumed } = await startAttempt(ctx, currentUser(request), request.params.quizId);
      return { success: true, message: resumed ? answers.attemptResumed : answers.attemptStarted, attempt };
    },
  });

  route(app, api.quizzes.submit, {
    handler: async (request) => {
      const result = await submitAttempt(ctx, currentUser(request), { ...request.params, submitted: request.body.answers });
      return { success: true, message: answers.attemptGraded(result.attempt.passed), ...result };
    },
  });

  route(app, api.quizzes.attempt, {
    handler: async (request) => ({ success: true, message: answers.attemptFetched, ...(await attemptResult(ctx, currentUser(request), request.params)) }),
  });
};
