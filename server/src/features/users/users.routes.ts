import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { RegisterSchema, UpdateProfileSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { byAddress, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { parseInput } from '../../validation.ts';
import { currentUser } from '../auth/guards.ts';
import { rememberDevice } from '../auth/known-devices.ts';
import { clientOf, setSessionCookie } from '../auth/sessions.ts';
import { readImageForm } from '../media/upload.ts';
import { registerUser, toUserJson, updateProfile } from './users.service.ts';

/** The account's profile: signing up, who am I, editing it. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.users.register, {
    // Counted before the body is read: each sign-up costs a password hash and an image re-encode.
    rateLimit: rateLimited({ limiter: 'signupPerIp', key: byAddress }),
    handler: async (request, reply) => {
      const form = await readImageForm(request, { fileField: 'avatar', maxBytes: ctx.config.imageMaxBytes });
      if (!form.file) throw new AppError(400, messages.fillAllDetails);
      const fields = parseInput(RegisterSchema, form.fields);
      const { user, session } = await registerUser(ctx, { ...fields, avatar: form.file }, clientOf(request));
      setSessionCookie(request, reply, session);
      rememberDevice(request, reply, ctx.config.sessionSecret, user);
      return { success: true, message: answers.accountCreated, user: toUserJson(ctx, user) };
    },
  });

  route(app, api.users.me, {
    handler: async (request) => ({ success: true, message: answers.userDetailsFetched, user: toUserJson(ctx, currentUser(request)) }),
  });

  route(app, api.users.update, {
    handler: async (request) => {
      const user = currentUser(request);
      // Refused before the form is read: nothing of another's profile is uploaded.
      if (request.params.id !== user.id) throw new AppError(403, answers.notOwnProfile);
      const form = await readImageForm(request, { fileField: 'avatar', maxBytes: ctx.config.imageMaxBytes });
      const fields = parseInput(UpdateProfileSchema, form.fields);
      const updated = await updateProfile(ctx, user, { ...fields, avatar: form.file });
      return { success: true, message: answers.profileUpdated, user: toUserJson(ctx, updated) };
    },
  });
};
