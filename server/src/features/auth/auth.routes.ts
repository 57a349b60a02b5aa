import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answers } from '@lms/contract/answers';
import {
  ChangePasswordSchema,
  ForgotPasswordSchema,
  LoginSchema,
  MessageSchema,
  ResetPasswordSchema,
  ResetTokenParamsSchema,
  SignInTokenParamsSchema,
  UserResponseSchema,
} from '@lms/contract/users';
import { crossSiteTest } from '../../cross-site.ts';
import { AppError } from '../../errors.ts';
import { jsonBody } from '../../validation.ts';
import { toUserJson } from '../users/users.service.ts';
import { changePassword, logIn, requestPasswordReset, resetPassword, signInWithLink } from './auth.service.ts';
import { currentUser, requireLogin } from './guards.ts';
import { isKnownDevice, rememberDevice } from './known-devices.ts';
import { clearSessionCookie, revokeSession, SESSION_COOKIE, setSessionCookie } from './sessions.ts';

/** Mounted at /api/v1/user, beside the profile routes. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;
  const isCrossSite = crossSiteTest(ctx.config);
  const secret = ctx.config.sessionSecret;

  app.post('/login', {
    schema: { summary: 'Log in', body: jsonBody(LoginSchema), response: { 200: UserResponseSchema } },
    handler: async (request, reply) => {
      const { user, session } = await logIn(ctx, {
        ...request.body,
        ip: request.ip,
        isKnownDevice: (account) => isKnownDevice(request, secret, account),
      });
      setSessionCookie(request, reply, session);
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.loggedIn, user: toUserJson(ctx, user) };
    },
  });

  app.post('/sign-in/:token', {
    schema: {
      summary: 'Sign in with a one-time link, mailed when the right password came past the login limit from an unknown browser',
      params: SignInTokenParamsSchema,
      response: { 200: UserResponseSchema },
    },
    handler: async (request, reply) => {
      const { user, session } = await signInWithLink(ctx, { token: request.params.token, ip: request.ip });
      setSessionCookie(request, reply, session);
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.loggedIn, user: toUserJson(ctx, user) };
    },
  });

  // The spec's client logs out with GET; POST is the proper verb and works too.
  app.route({
    method: ['GET', 'POST'],
    url: '/logout',
    schema: { summary: 'Log out: ends this session', response: { 200: MessageSchema } },
    handler: async (request, reply) => {
      // Any page can make a browser GET a URL (an <img>): a logout another site asked for ends nothing.
      if (isCrossSite(request)) throw new AppError(403, answers.foreignOrigin);
      const token = request.cookies[SESSION_COOKIE];
      if (token) await revokeSession(ctx, token);
      clearSessionCookie(request, reply);
      return { success: true, message: answers.loggedOut };
    },
  });

  app.post('/change-password', {
    schema: {
      summary: 'Change password: ends every other session',
      body: jsonBody(ChangePasswordSchema),
      response: { 200: MessageSchema },
    },
    // The one thing an administrator who must first choose a password may do (with `me`).
    preHandler: requireLogin,
    handler: async (request, reply) => {
      const { user, session } = await changePassword(ctx, currentUser(request), request.body);
      setSessionCookie(request, reply, session);
      // The new password forgot every browser (known-devices.ts); this one stays known.
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.passwordChanged };
    },
  });

  app.post('/reset', {
    schema: {
      summary: 'Forgot password: mails a reset link; the same answer for any email',
      body: jsonBody(ForgotPasswordSchema),
      response: { 200: MessageSchema },
    },
    handler: async (request) => {
      await requestPasswordReset(ctx, { ...request.body, ip: request.ip });
      return { success: true, message: answers.resetMailSent };
    },
  });

  app.post('/reset/:token', {
    schema: {
      summary: 'Set a new password with a reset link (single use, 15 minutes)',
      params: ResetTokenParamsSchema,
      body: jsonBody(ResetPasswordSchema),
      response: { 200: MessageSchema },
    },
    handler: async (request, reply) => {
      const user = await resetPassword(ctx, { token: request.params.token, password: request.body.password, ip: request.ip });
      // Whoever holds the mailed link holds the mailbox: this browser is the owner's.
      rememberDevice(request, reply, secret, user);
      return { success: true, message: answers.passwordReset };
    },
  });
};
