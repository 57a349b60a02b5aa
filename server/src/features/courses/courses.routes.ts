import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddLectureSchema,
  CourseIdParamsSchema,
  CourseListResponseSchema,
  CourseResponseSchema,
  CourseWithLecturesResponseSchema,
  CreateCourseSchema,
  DeleteLectureQuerySchema,
  LecturesResponseSchema,
  ListCoursesQuerySchema,
  UpdateCourseSchema,
} from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { MessageSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { currentUser, requireRole, requireUser } from '../auth/guards.ts';
import { readForm, readImageForm } from '../media/upload.ts';
import { canWatchLectures } from '../users/users.service.ts';
import {
  createCourse,
  createLecture,
  deleteCourse,
  deleteLecture,
  findCourse,
  listCourses,
  listLectures,
  storeLectureVideo,
  toCourseJson,
  updateCourse,
} from './courses.service.ts';

const multipart = { consumes: ['multipart/form-data'] };
const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1/courses. */
export const courseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/', {
    schema: {
      summary: 'The catalogue, newest first: search (title, category, instructor), category, id, page, limit',
      querystring: ListCoursesQuerySchema,
      response: { 200: CourseListResponseSchema },
    },
    handler: async (request, reply) => {
      const { page, limit, search, category, id } = request.query;
      const cached = await ctx.catalogue.page(JSON.stringify([page, limit, search, category, id]), async () => {
        const { courses, total } = await listCourses(ctx, request.query);
        return { success: true, message: messages.coursesFetched, courses: courses.map((c) => toCourseJson(ctx, c)), total, page, limit };
      });
      const { body, encoding } = await cached.bodyFor(request.headers['accept-encoding']);
      // Already JSON, sent as it is: the response schema describes what is inside the bytes.
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(body as never);
    },
  });

  app.post('/', {
    schema: {
      summary: 'Create a course (multipart: title, description, category, createdBy, thumbnail)',
      ...multipart,
      response: { 201: CourseResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request, reply) => {
      const form = await readImageForm(request, { fileField: 'thumbnail', maxBytes: ctx.config.imageMaxBytes });
      if (!form.file) throw new AppError(400, messages.allFieldsMandatory);
      const fields = parseInput(CreateCourseSchema, form.fields);
      const course = await createCourse(ctx, fields, form.file);
      return reply.code(201).send({ success: true, message: messages.courseCreated, course: toCourseJson(ctx, course) });
    },
  });

  app.put('/:id', {
    schema: {
      summary: 'Edit a course (multipart: any of title, description, category, createdBy, thumbnail)',
      ...multipart,
      params: CourseIdParamsSchema,
      response: { 200: CourseResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request) => {
      await findCourse(ctx, request.params.id);
      const form = await readImageForm(request, { fileField: 'thumbnail', maxBytes: ctx.config.imageMaxBytes });
      const fields = parseInput(UpdateCourseSchema, form.fields);
      const course = await updateCourse(ctx, request.params.id, fields, form.file);
      return { success: true, message: messages.courseUpdated, course: toCourseJson(ctx, course) };
    },
  });

  app.delete('/:id', {
    schema: { summary: 'Delete a course with its lectures and all their media', params: CourseIdParamsSchema, response: { 200: MessageSchema } },
    preHandler: adminOnly,
    handler: async (request) => {
      await deleteCourse(ctx, request.params.id);
      return { success: true, message: messages.courseDeleted };
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
      if (!canWatchLectures(viewer)) throw new AppError(403, messages.subscribeToWatch);
      const lectures = await listLectures(ctx, course.id, viewer);
      return { success: true, message: messages.lecturesFetched, course: toCourseJson(ctx, course), lectures };
    },
  });

  app.post('/:id', {
    schema: {
      summary: 'Add a lecture (multipart: lectures (the video file), title, description)',
      ...multipart,
      params: CourseIdParamsSchema,
      response: { 201: CourseWithLecturesResponseSchema },
    },
    preHandler: adminOnly,
    handler: async (request, reply) => {
      const course = await findCourse(ctx, request.params.id);
      const form = await readForm(request, {
        fileField: 'lectures',
        maxBytes: ctx.config.videoMaxBytes,
        tooLargeMessage: messages.videoTooLarge,
        receive: (file) => storeLectureVideo(ctx, file),
        discard: (video) => ctx.media.remove(video.key),
      });
      const video = form.file;
      if (!video) throw new AppError(400, messages.allFieldsMandatory);
      let fields;
      try {
        fields = parseInput(AddLectureSchema, form.fields);
      } catch (error) {
        await ctx.media.remove(video.key);
        throw error;
      }
      await createLecture(ctx, course.id, fields, video);
      const viewer = currentUser(request);
      const lectures = await listLectures(ctx, course.id, viewer);
      return reply.code(201).send({
        success: true,
        message: messages.lectureAdded,
        course: { ...toCourseJson(ctx, { ...course, numbersOfLectures: lectures.length }), lectures },
      });
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
      return { success: true, message: messages.lectureDeleted, course: { ...toCourseJson(ctx, course), lectures } };
    },
  });
};
