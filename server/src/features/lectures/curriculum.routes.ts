import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { addSection, deleteSection, moveLecture, moveSection, renameSection } from './curriculum.service.ts';

/** How the admin arranges a course's curriculum: its sections, and the order of its lectures (curriculum.service.ts). */
export const curriculumRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.lectures.move, {
    handler: async (request) => {
      await moveLecture(ctx, { ...request.params, ...request.body });
      return { success: true, message: answers.lectureMoved };
    },
  });

  route(app, api.lectures.addSection, {
    handler: async (request) => ({
      success: true,
      message: answers.sectionAdded,
      section: await addSection(ctx, { courseId: request.params.id, title: request.body.title }),
    }),
  });

  route(app, api.lectures.renameSection, {
    handler: async (request) => ({
      success: true,
      message: answers.sectionRenamed,
      section: await renameSection(ctx, { ...request.params, title: request.body.title }),
    }),
  });

  route(app, api.lectures.deleteSection, {
    handler: async (request) => {
      await deleteSection(ctx, request.params);
      return { success: true, message: answers.sectionDeleted };
    },
  });

  route(app, api.lectures.moveSection, {
    handler: async (request) => {
      await moveSection(ctx, { ...request.params, afterId: request.body.afterId });
      return { success: true, message: answers.sectionMoved };
    },
  });
};
