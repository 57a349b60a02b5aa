import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { authoredQuiz, createQuiz, deleteQuiz, placeQuiz, updateQuiz } from './authoring.service.ts';

/** Quizzes as their administrator writes them: added at a place in a course, saved in versions, moved, deleted. */
export const quizAuthoringRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.quizzes.authored, {
    handler: async (request) => ({
      success: true,
      message: answers.quizFetched,
      quiz: await authoredQuiz(ctx, request.params.courseId, request.params.quizId),
    }),
  });

  route(app, api.quizzes.create, {
    handler: async (request) => ({ success: true, message: answers.quizAdded, quiz: await createQuiz(ctx, request.params.courseId, request.body) }),
  });

  route(app, api.quizzes.update, {
    handler: async (request) => {
      const { quiz, changed } = await updateQuiz(ctx, request.params.courseId, request.params.quizId, request.body);
      return { success: true, message: changed ? answers.quizSaved : answers.quizUnchanged, quiz };
    },
  });

  route(app, api.quizzes.place, {
    handler: async (request) => ({
      success: true,
      message: answers.quizPlaced,
      quiz: await placeQuiz(ctx, request.params.courseId, request.params.quizId, request.body),
    }),
  });

  route(app, api.quizzes.delete, {
    handler: async (request) => {
      await deleteQuiz(ctx, request.params.courseId, request.params.quizId);
      return { success: true, message: answers.quizDeleted };
    },
  });
};
