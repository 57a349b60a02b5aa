import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { CreateCourseSchema, UpdateCourseSchema } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';
import { route } from '../../route.ts';
import { parseInput } from '../../validation.ts';
import { isAdminRequest } from '../auth/guards.ts';
import { readImageForm } from '../media/upload.ts';
import { sendCataloguePage } from './catalogue-cache.ts';
import { cachedCataloguePage, cataloguePage, createCourse, deleteCourse, findCourse, toCourseJson, updateCourse } from './courses.service.ts';
import { publishCourse, unpublishCourse } from './publishing.service.ts';

/** The catalogue and its courses; a course's lectures and curriculum are in lectures.routes.ts. */
export const courseRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.courses.list, {
    handler: async (request, reply) => {
      // Administrators' lists hold drafts and live counts: never cached, never shared.
      if (await isAdminRequest(request)) return cataloguePage(ctx, request.query, { includeDrafts: true });
      // The same for every visitor: a browser may keep it, and asks each time whether it changed (ETag).
      reply.header('cache-control', 'private, no-cache');
      return sendCataloguePage(request, reply, await cachedCataloguePage(ctx, request.query));
    },
  });

  route(app, api.courses.create, {
    handler: async (request) => {
      const form = await readImageForm(request, { fileField: 'thumbnail', maxBytes: ctx.config.imageMaxBytes });
      if (!form.file) throw new AppError(400, messages.allFieldsMandatory);
      const fields = parseInput(CreateCourseSchema, form.fields);
      const course = await createCourse(ctx, fields, form.file);
      return { success: true, message: answers.courseCreated, course: toCourseJson(ctx, course) };
    },
  });

  route(app, api.courses.update, {
    handler: async (request) => {
      // An unknown course is refused before its form is read.
      await findCourse(ctx, request.params.id, { includeDrafts: true });
      const form = await readImageForm(request, { fileField: 'thumbnail', maxBytes: ctx.config.imageMaxBytes });
      const fields = parseInput(UpdateCourseSchema, form.fields);
      const course = await updateCourse(ctx, request.params.id, fields, form.file);
      return { success: true, message: answers.courseUpdated, course: toCourseJson(ctx, course) };
    },
  });

  route(app, api.courses.publish, {
    handler: async (request) => {
      const { course, scheduled } = await publishCourse(ctx, request.params.id, request.body);
      return { success: true, message: scheduled ? answers.courseScheduled : answers.coursePublished, course: toCourseJson(ctx, course) };
    },
  });

  route(app, api.courses.unpublish, {
    handler: async (request) => ({
      success: true,
      message: answers.courseUnpublished,
      course: toCourseJson(ctx, await unpublishCourse(ctx, request.params.id)),
    }),
  });

  route(app, api.courses.delete, {
    handler: async (request) => {
      await deleteCourse(ctx, request.params.id);
      return { success: true, message: answers.courseDeleted };
    },
  });
};
