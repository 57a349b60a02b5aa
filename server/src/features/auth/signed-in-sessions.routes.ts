import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { route } from '../../route.ts';
import { currentSession, currentUser } from './guards.ts';
import { clearSessionCookie } from './sessions.ts';
import { endAccountSessions, listSessions, setSuspension, signOutOtherSessions, signOutSession } from './signed-in-sessions.service.ts';

/** The account's signed-in devices, and an administrator's ending of an account's sessions or suspending it. */
export const signedInSessionRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.sessions.list, {
    handler: async (request) => ({
      success: true,
      message: answers.sessionsFetched,
      sessions: await listSessions(ctx, currentUser(request), currentSession(request).id),
    }),
  });

  route(app, api.sessions.signOut, {
    handler: async (request, reply) => {
      const { current } = await signOutSession(ctx, currentUser(request), request.params.id, currentSession(request).id);
      if (current) clearSessionCookie(request, reply);
      return { success: true, message: current ? answers.loggedOut : answers.sessionSignedOut };
    },
  });

  route(app, api.sessions.signOutOthers, {
    handler: async (request) => {
      const ended = await signOutOtherSessions(ctx, currentUser(request), currentSession(request).id);
      return { success: true, message: answers.otherSessionsSignedOut(ended), ended };
    },
  });

  route(app, api.protection.endSessions, {
    handler: async (request) => {
      const ended = await endAccountSessions(ctx, currentUser(request), request.params.id);
      return { success: true, message: answers.accountSessionsEnded(ended), ended };
    },
  });

  route(app, api.protection.suspend, {
    handler: async (request) => {
      const account = await setSuspension(ctx, currentUser(request), request.params.id, request.body);
      return { success: true, message: answers.suspensionSaved(account.suspended), account };
    },
  });
};
