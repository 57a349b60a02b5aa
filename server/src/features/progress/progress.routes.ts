import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { CourseIdParamsSchema } from '@lms/contract/courses';
import { answers } from '@lms/contract/answers';
import {
  CompletionSchema,
  CourseProgressResponseSchema,
  LectureProgressParamsSchema,
  MyProgressResponseSchema,
  ProgressSettingsResponseSchema,
  ProgressSettingsSchema,
  SaveProgressResponseSchema,
  SaveProgressSchema,
} from '@lms/contract/progress';
import { AppError } from '../../errors.ts';
import { consume } from '../../rate-limit.ts';
import { jsonBody } from '../../validation.ts';
import { currentUser, requireUser } from '../auth/guards.ts';
import { hashToken, SESSION_COOKIE } from '../auth/sessions.ts';
import { checkSaveMayBeHeld, createKnownLectures } from './known-lectures.ts';
import { getCourseProgress, getMyProgress } from './my-courses.service.ts';
import { saveProgress, setLectureCompleted, setProgressSettings } from './progress.service.ts';

/** Whether this session may write now (PROGRESS_WRITES_PER_MINUTE); keyed by the session, never by its secret. */
const withinRate = (request: FastifyRequest) =>
  consume(request.server.ctx.limits.progressPerSession, hashToken(request.cookies[SESSION_COOKIE] ?? '').slice(0, 32));

/** Mounted at /api/v1/progress: the signed-in learner's own progress. */
export const progressRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const known = createKnownLectures();

  app.get('/', {
    schema: { summary: 'Every course the learner has started, most recent first, with where to pick each up', response: { 200: MyProgressResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => ({ success: true, message: answers.progressFetched, ...(await getMyProgress(ctx, currentUser(request))) }),
  });

  app.get('/courses/:id', {
    schema: {
      summary: "The learner's progress in each lecture of a course (course: null until started)",
      params: CourseIdParamsSchema,
      response: { 200: CourseProgressResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => ({
      success: true,
      message: answers.progressFetched,
      ...(await getCourseProgress(ctx, currentUser(request), request.params.id)),
    }),
  });

  app.post('/lectures/:lectureId', {
    schema: {
      summary:
        'Save the position in a lecture (every ~10 s, on pause, seek and leave; sendBeacon works). 202 when the session is over its rate: the latest save is written a moment later',
      params: LectureProgressParamsSchema,
      body: jsonBody(SaveProgressSchema),
      response: { 200: SaveProgressResponseSchema, 202: SaveProgressResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { lectureId } = request.params;
      const save = () => saveProgress(ctx, user, lectureId, request.body);
      if (await withinRate(request)) {
        const { isPreview, lecture, course } = await save();
        known.remember(lectureId, isPreview);
        return { success: true, message: answers.progressSaved, lecture, course };
      }
      // Held only when it would be written: a flood about lectures that do not exist, or that are not
      // the learner's to watch, is refused now instead of filling the area others share.
      await checkSaveMayBeHeld(ctx, known, user, lectureId);
      if (!ctx.heldSaves.hold(user.id, `${user.id}:${lectureId}`, save)) throw new AppError(429, answers.tooManyRequests);
      return reply.code(202).send({ success: true, message: answers.progressSaved });
    },
  });

  app.put('/lectures/:lectureId/completed', {
    schema: {
      summary: 'Mark a lecture as completed ({ completed: true }) or not',
      params: LectureProgressParamsSchema,
      body: jsonBody(CompletionSchema),
      response: { 200: SaveProgressResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => {
      if (!(await withinRate(request))) throw new AppError(429, answers.tooManyRequests);
      const { completed } = request.body;
      const saved = await setLectureCompleted(ctx, currentUser(request), request.params.lectureId, completed);
      return { success: true, message: completed ? answers.lectureMarkedDone : answers.lectureMarkedNotDone, ...saved };
    },
  });

  app.put('/settings', {
    schema: { summary: "The learner's player settings: whether the next lecture starts by itself", body: jsonBody(ProgressSettingsSchema), response: { 200: ProgressSettingsResponseSchema } },
    preHandler: requireUser,
    handler: async (request) => {
      if (!(await withinRate(request))) throw new AppError(429, answers.tooManyRequests);
      return { success: true, message: answers.progressSettingsSaved, settings: await setProgressSettings(ctx, currentUser(request), request.body) };
    },
  });
};
