import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VideoStatusResponseSchema } from '@lms/contract/courses';
import { answers } from '@lms/contract/answers';
import { requireRole } from '../auth/guards.ts';
import { describeFfmpeg, ffmpegWarning } from './ffmpeg.ts';

/** Mounted at /api/v1/video: how this server processes videos (the lectures' states are on each lecture). */
export const videoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.get('/status', {
    schema: {
      summary: 'Whether this server can process videos (admin): if not, why; if so, with which ffmpeg',
      response: { 200: VideoStatusResponseSchema },
    },
    preHandler: requireRole('ADMIN'),
    handler: async () => {
      const { video } = ctx;
      return {
        success: true,
        message: answers.videoStatus,
        available: video.available,
        reason: video.available ? null : answers.videoProcessingOff(video.reason),
        ffmpeg: video.available ? describeFfmpeg(video.tools.build) : null,
        ffmpegWarning: video.available ? ffmpegWarning(video.tools.build) : null,
      };
    },
  });
};
