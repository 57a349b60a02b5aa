import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { crossSiteTest } from '../../cross-site.ts';
import { AppError } from '../../errors.ts';
import { byAccount, byAddress, loginKey, minutesToWait, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { toUserJson } from '../users/users.service.ts';
import { changePassword, logIn, logOut, requestPasswordReset, resetPassword, signInWithLink } from './auth.service.ts';
import { currentUser } from './guards.ts';
import { isKnownDevice, rememberDevice } from './known-devices.ts';
import { clearSessionCookie, clientOf, SESSION_COOKIE, setSessionCookie } from './sessions.ts';

const tooManyLoginAttempts = (wait: number) => answers.tooManyLoginAttempts(minutesToWait(wait));

/** Logging in and out, the password and the mailed links: the /user paths beside the profile's. */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;
  const isCrossSite = crossSiteTest(ctx.config);
  const secret = ctx.config.sessionSecret;

  route(app, api.users.login, {
    // Every attempt counts against the address; an email locked from this address waits. The
    // service counts the failures, and applies the ceiling across addresses (decision 0021).
    rateLimit: rateLimited(
      { limiter: 'loginPerIp', key: byAddress, message: tooManyLoginAttempts },
      { limiter: 'loginFailuresPerEmailAndIp', key: (request) => loginKey(request.body.email, request.ip), mode: 'check', message: tooManyLoginAttempts },
    ),
    handler: async (request, reply) => {
      const { user, session } = await logIn(ctx, {
        ...request.body,
        client: clientOf(request),
        isKnownDevice: (account) => isKnownDevice(request, secret, account),
      });
      setSessionCookie(request, reply, session);
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.loggedIn, user: toUserJson(ctx, user) };
    },
  });

  route(app, api.users.signInWithLink, {
    // Each is a look-up, and a good one a new session.
    rateLimit: rateLimited({ limiter: 'signInTokenPerIp', key: byAddress }),
    handler: async (request, reply) => {
      const { user, session } = await signInWithLink(ctx, { token: request.params.token, client: clientOf(request) });
      setSessionCookie(request, reply, session);
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.loggedIn, user: toUserJson(ctx, user) };
    },
  });

  // GET, as the spec's client logs out, and POST.
  route(app, api.users.logout, {
    handler: async (request, reply) => {
      // Any page can make a browser GET a URL (an <img>): a logout another site asked for ends nothing.
      if (isCrossSite(request)) throw new AppError(403, answers.foreignOrigin);
      await logOut(ctx, request.cookies[SESSION_COOKIE]);
      clearSessionCookie(request, reply);
      return { success: true, message: answers.loggedOut };
    },
  });

  route(app, api.users.changePassword, {
    // Each checks the old password with a hash.
    rateLimit: rateLimited({ limiter: 'passwordChangePerUser', key: byAccount }),
    handler: async (request, reply) => {
      const { user, session } = await changePassword(ctx, currentUser(request), request.body, clientOf(request));
      setSessionCookie(request, reply, session);
      // The new password forgot every browser (known-devices.ts); this one stays known.
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.passwordChanged };
    },
  });

  route(app, api.users.requestReset, {
    // Per address; the service caps mails per email quietly, with the same answer.
    rateLimit: rateLimited({ limiter: 'resetPerIp', key: byAddress }),
    handler: async (request) => {
      await requestPasswordReset(ctx, request.body);
      return { success: true, message: answers.resetMailSent };
    },
  });

  route(app, api.users.reset, {
    // Each good link costs a password hash.
    rateLimit: rateLimited({ limiter: 'resetTokenPerIp', key: byAddress }),
    handler: async (request, reply) => {
      const user = await resetPassword(ctx, { token: request.params.token, password: request.body.password });
      // Whoever holds the mailed link holds the mailbox: this browser is the owner's.
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.passwordReset };
    },
  });
};
