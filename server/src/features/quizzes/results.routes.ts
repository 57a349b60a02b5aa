import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { courseQuizAttempts, courseQuizResults } from './results.service.ts';

/** The administrator's quiz results of a course: each quiz's figures, and the attempts a page at a time. */
export const quizResultsRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.quizzes.results, {
    handler: async (request) => ({ success: true, message: answers.quizResultsFetched, ...(await courseQuizResults(ctx, request.params.courseId)) }),
  });

  route(app, api.quizzes.attempts, {
    handler: async (request) => ({
      success: true,
      message: answers.quizAttemptsFetched,
      ...(await courseQuizAttempts(ctx, request.params.courseId, request.query)),
    }),
  });
};
