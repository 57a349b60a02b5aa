import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';
import { route } from '../../route.ts';
import { currentUser, isAdminRequest } from '../auth/guards.ts';
import { sendCataloguePage } from '../courses/catalogue-cache.ts';
import { findCourse } from '../courses/courses.service.ts';
import { readForm } from '../media/upload.ts';
import {
  addLectureToCourse,
  cachedCurriculum,
  courseLectures,
  deleteLectureOfCourse,
  getCurriculum,
  retryLectureProcessing,
  storeLectureVideo,
  updateLecture,
} from './lectures.service.ts';
import { checkLectureExists, replaceLectureVideo } from './replace-video.ts';

/** A course's lectures, and its public curriculum (under /courses, beside courses.routes.ts). */
export const lectureRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.courses.curriculum, {
    handler: async (request, reply) => {
      // An administrator sees a draft's curriculum as its visitors will; uncached, as theirs is.
      if (await isAdminRequest(request)) return getCurriculum(ctx, request.params.id, { includeDrafts: true });
      return sendCataloguePage(request, reply, await cachedCurriculum(ctx, request.params.id));
    },
  });

  route(app, api.lectures.list, {
    handler: async (request) => ({
      success: true,
      message: answers.lecturesFetched,
      ...(await courseLectures(ctx, request.params.id, currentUser(request))),
    }),
  });

  route(app, api.lectures.add, {
    handler: async (request) => {
      // An unknown course is refused before its video is uploaded.
      const course = await findCourse(ctx, request.params.id, { includeDrafts: true });
      const form = await readForm(request, {
        fileField: 'lectures',
        maxBytes: ctx.config.videoMaxBytes,
        tooLargeMessage: answers.videoTooLarge,
        receive: (file) => storeLectureVideo(ctx, file),
        discard: (video) => ctx.media.remove(video.key),
      });
      if (!form.file) throw new AppError(400, messages.allFieldsMandatory);
      const withLectures = await addLectureToCourse(ctx, { course, fields: form.fields, video: form.file, viewer: currentUser(request) });
      return { success: true, message: answers.lectureAdded, course: withLectures };
    },
  });

  route(app, api.lectures.update, {
    handler: async (request) => {
      const change = request.body;
      const lecture = await updateLecture(ctx, { ...request.params, change, viewer: currentUser(request) });
      // A switch of the free preview alone says which way it went.
      const previewOnly = change.title === undefined && change.description === undefined;
      const message = !previewOnly ? answers.lectureUpdated : change.preview ? answers.lecturePreviewOn : answers.lecturePreviewOff;
      return { success: true, message, lecture };
    },
  });

  route(app, api.lectures.retryProcessing, {
    handler: async (request) => ({
      success: true,
      message: answers.videoRetryStarted,
      lecture: await retryLectureProcessing(ctx, { ...request.params, viewer: currentUser(request) }),
    }),
  });

  route(app, api.lectures.replaceVideo, {
    handler: async (request) => {
      const { courseId, lectureId } = request.params;
      // An unknown lecture is refused before its new video is uploaded.
      await checkLectureExists(ctx, courseId, lectureId);
      const form = await readForm(request, {
        fileField: 'lectures',
        maxBytes: ctx.config.videoMaxBytes,
        tooLargeMessage: answers.videoTooLarge,
        receive: (file) => storeLectureVideo(ctx, file),
        discard: (video) => ctx.media.remove(video.key),
      });
      if (!form.file) throw new AppError(400, messages.allFieldsMandatory);
      const lecture = await replaceLectureVideo(ctx, { courseId, lectureId, video: form.file, viewer: currentUser(request) });
      return { success: true, message: lecture.replacement ? answers.videoReplacementStarted : answers.videoReplaced, lecture };
    },
  });

  route(app, api.lectures.delete, {
    handler: async (request) => ({
      success: true,
      message: answers.lectureDeleted,
      course: await deleteLectureOfCourse(ctx, { ...request.query, viewer: currentUser(request) }),
    }),
  });
};
