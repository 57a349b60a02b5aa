import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CourseIdParamsSchema,
  CourseListResponseSchema,
  CourseResponseSchema,
  CreateCourseSchema,
  ListCoursesQuerySchema,
  UpdateCourseSchema,
} from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { MessageSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { requireRole } from '../auth/guards.ts';
import { readImageForm } from '../media/upload.ts';
import { sendCataloguePage } from './catalogue-cache.ts';
import { createCourse, deleteCourse, findCourse, listCourses, toCourseJson, updateCourse } from './courses.service.ts';

const multipart = { consumes: ['multipart/form-data'] };
const adminOnly = requireRole('ADMIN');

/** Mounted at /api/v1/courses; a course's lectures are in lectures.routes.ts. */
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
        return { success: true, message: answers.coursesFetched, courses: courses.map((c) => toCourseJson(ctx, c)), total, page, limit };
      });
      return sendCataloguePage(request, reply, cached);
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
      return reply.code(201).send({ success: true, message: answers.courseCreated, course: toCourseJson(ctx, course) });
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
      return { success: true, message: answers.courseUpdated, course: toCourseJson(ctx, course) };
    },
  });

  app.delete('/:id', {
    schema: { summary: 'Delete a course with its lectures and all their media', params: CourseIdParamsSchema, response: { 200: MessageSchema } },
    preHandler: adminOnly,
    handler: async (request) => {
      await deleteCourse(ctx, request.params.id);
      return { success: true, message: answers.courseDeleted };
    },
  });
};
