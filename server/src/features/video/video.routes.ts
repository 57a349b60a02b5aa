import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { videoStatus } from './video-processing.ts';

/** How this server processes videos (the lectures' states are on each lecture). */
export const videoRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.video.status, {
    handler: async () => ({ success: true, message: answers.videoStatus, ...videoStatus(ctx) }),
  });
};
