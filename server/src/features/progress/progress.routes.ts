import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { isOverLimit, rateLimited, type Limit } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { hashToken, SESSION_COOKIE } from '../auth/sessions.ts';
import { getCourseProgress, getMyProgress } from './my-courses.service.ts';
import { saveOrHoldProgress, setLectureCompleted, setProgressSettings } from './progress.service.ts';

/** Progress writes a session may make (PROGRESS_WRITES_PER_MINUTE), keyed by the session, never by its secret. */
const writesPerSession: Limit = {
  limiter: 'progressPerSession',
  key: (request: FastifyRequest) => hashToken(request.cookies[SESSION_COOKIE] ?? '').slice(0, 32),
};

/** The signed-in learner's own progress. */
export const progressRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.progress.mine, {
    handler: async (request) => ({ success: true, message: answers.progressFetched, ...(await getMyProgress(ctx, currentUser(request))) }),
  });

  route(app, api.progress.course, {
    handler: async (request) => ({
      success: true,
      message: answers.progressFetched,
      ...(await getCourseProgress(ctx, currentUser(request), request.params.id)),
    }),
  });

  route(app, api.progress.save, {
    // Every save is held and written with the others of its flush; past the rate it is answered nothing (202).
    rateLimit: rateLimited({ ...writesPerSession, over: 'let-through' }),
    writesLater: true,
    handler: async (request, reply) => {
      const saved = await saveOrHoldProgress(ctx, {
        user: currentUser(request),
        lectureId: request.params.lectureId,
        input: request.body,
        overRate: isOverLimit(request),
      });
      if (!saved) return reply.code(202).send({ success: true, message: answers.progressSaved });
      return { success: true, message: answers.progressSaved, ...saved };
    },
  });

  route(app, api.progress.complete, {
    rateLimit: rateLimited(writesPerSession),
    handler: async (request) => {
      const { completed } = request.body;
      const saved = await setLectureCompleted(ctx, currentUser(request), request.params.lectureId, completed);
      return { success: true, message: completed ? answers.lectureMarkedDone : answers.lectureMarkedNotDone, ...saved };
    },
  });

  route(app, api.progress.settings, {
    rateLimit: rateLimited(writesPerSession),
    handler: async (request) => ({
      success: true,
      message: answers.progressSettingsSaved,
      settings: await setProgressSettings(ctx, currentUser(request), request.body),
    }),
  });
};
