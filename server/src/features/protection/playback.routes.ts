import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { currentSession } from '../auth/guards.ts';
import { byAccount, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { liveStreams, renewPlayback, startPlayback, stopPlayback } from './playback.service.ts';
import { protectionOf } from '../settings/site-settings.ts';

/** Leases and watermark codes of the signed-in account's playbacks. */
export const playbackRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.playback.start, {
    rateLimit: rateLimited({ limiter: 'playbackStartsPerAccount', key: byAccount, message: () => answers.tooManyPlaybackStarts }),
    handler: async (request, reply) => {
      const viewer = { session: currentSession(request), userAgent: request.headers['user-agent'], address: request.ip };
      const started = await startPlayback(ctx, viewer, request.body.lectureId);
      if ('refused' in started) return reply.code(409).send(started.refused);
      return { success: true, message: answers.playbackStarted, playback: started.playback };
    },
  });

  route(app, api.playback.heartbeat, {
    handler: async (request) => {
      const endsAt = await renewPlayback(ctx, currentSession(request), request.params.id);
      return { success: true, message: answers.playbackRenewed, endsAt: endsAt.toISOString() };
    },
  });

  route(app, api.playback.stop, {
    handler: async (request) => {
      await stopPlayback(ctx, currentSession(request), request.params.id);
      return { success: true, message: answers.playbackStopped };
    },
  });

  route(app, api.playback.streams, {
    handler: async (request) => {
      const session = currentSession(request);
      const limit = session.user.role === 'ADMIN' ? null : (await protectionOf(ctx)).maxStreams;
      return { success: true, message: answers.streamsFetched, limit, streams: await liveStreams(ctx, session) };
    },
  });
};
