import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CourseIdParamsSchema,
  CourseWithLecturesResponseSchema,
  CurriculumResponseSchema,
  DeleteLectureQuerySchema,
  LectureParamsSchema,
  LectureResponseSchema,
  LecturesResponseSchema,
  UpdateLectureSchema,
} from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';
import { jsonBody } from '../../validation.ts';
import { currentUser, requireRole, requireUser } from '../auth/guards.ts';
import { sendCataloguePage } from '../courses/catalogue-cache.ts';
import { findCourse, toCourseJson } from '../courses/courses.service.ts';
import { readForm } from '../media/upload.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { retryVideoProcessing } from '../video/video-processing.ts';
import { addLecture, deleteLecture, getCurriculum, listLectures, setLecturePreview, storeLectureVideo, toLectureJson } from './lectures.service.ts';

const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1/courses, beside courses.routes.ts: a course's lectures. */
export const lectureRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/:id/curriculum', {
    schema: {
      summary: "A course's public curriculum: every lecture's title, description, duration and preview flag; video URLs of free previews only",
      // Any text: a malformed id is a course that is not found, as an unknown one is.
      params: z.object({ id: z.string() }),
      response: { 200: CurriculumResponseSchema },
    },
    handler: async (request, reply) => {
      const { id } = request.params;
      const cached = await ctx.catalogue.page(`curriculum:${id}`, () => getCurriculum(ctx, id));
      return sendCataloguePage(request, reply, cached);
    },
  });

  app.get('/:id', {
    schema: {
      summary: "A course's lectures, for active subscribers and administrators",
      params: CourseIdParamsSchema,
      response: { 200: LecturesResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => {
      const viewer = currentUser(request);
      const course = await findCourse(ctx, request.params.id);
      if (!canWatchLectures(viewer)) throw new AppError(403, answers.subscribeToWatch);
      const lectures = await listLectures(ctx, course.id, viewer);
      return { success: true, message: answers.lecturesFetched, course: toCourseJson(ctx, course), lectures };
    },
  });

  app.post('/:id', {
    schema: {
      summary: "Add a lecture (multipart: lectures (the video file), title, description, and optionally preview: 'true' or 'false')",
      consumes: ['multipart/form-data'],
      params: CourseIdParamsSchema,
      response: { 201: CourseWithLecturesResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request, reply) => {
      const course = await findCourse(ctx, request.params.id);
      const form = await readForm(request, {
        fileField: 'lectures',
        maxBytes: ctx.config.videoMaxBytes,
        tooLargeMessage: answers.videoTooLarge,
        receive: (file) => storeLectureVideo(ctx, file),
        discard: (video) => ctx.media.remove(video.key),
      });
      if (!form.file) throw new AppError(400, messages.allFieldsMandatory);
      await addLecture(ctx, course.id, form.fields, form.file);
      const lectures = await listLectures(ctx, course.id, currentUser(request));
      return reply.code(201).send({
        success: true,
        message: answers.lectureAdded,
        course: { ...toCourseJson(ctx, { ...course, numbersOfLectures: lectures.length }), lectures },
      });
    },
  });

  app.patch('/:courseId/lectures/:lectureId', {
    schema: {
      summary: 'Change a lecture: { preview: true } makes it a free preview anyone may watch, false makes it private again',
      params: LectureParamsSchema,
      body: jsonBody(UpdateLectureSchema),
      response: { 200: LectureResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => {
      const { courseId, lectureId } = request.params;
      const { preview } = request.body;
      const lecture = await setLecturePreview(ctx, { courseId, lectureId, preview, viewer: currentUser(request) });
      return { success: true, message: preview ? answers.lecturePreviewOn : answers.lecturePreviewOff, lecture };
    },
  });

  app.post('/:courseId/lectures/:lectureId/processing', {
    schema: {
      summary: "Process a lecture's video again after its processing failed (409 in any other state)",
      params: LectureParamsSchema,
      response: { 200: LectureResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => {
      const { courseId, lectureId } = request.params;
      const lecture = await retryVideoProcessing(ctx, courseId, lectureId);
      return { success: true, message: answers.videoRetryStarted, lecture: await toLectureJson(ctx, lecture, currentUser(request)) };
    },
  });

  app.delete('/', {
    schema: {
      summary: 'Delete a lecture and its video',
      querystring: DeleteLectureQuerySchema,
      response: { 200: CourseWithLecturesResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => {
      const { courseId, lectureId } = request.query;
      await deleteLecture(ctx, courseId, lectureId);
      const course = await findCourse(ctx, courseId);
      const lectures = await listLectures(ctx, courseId, currentUser(request));
      return { success: true, message: answers.lectureDeleted, course: { ...toCourseJson(ctx, course), lectures } };
    },
  });
};
