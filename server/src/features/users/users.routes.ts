import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { RegisterSchema, UpdateProfileSchema, UserIdParamsSchema, UserResponseSchema } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { addressKey, consume } from '../../rate-limit.ts';
import { currentUser, requireLogin, requireUser } from '../auth/guards.ts';
import { rememberDevice } from '../auth/known-devices.ts';
import { createSession, setSessionCookie } from '../auth/sessions.ts';
import { readImageForm } from '../media/upload.ts';
import { registerUser, toUserJson, updateProfile } from './users.service.ts';

const multipart = { consumes: ['multipart/form-data'] };

/** Mounted at /api/v1/user. */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post('/register', {
    schema: {
      summary: 'Sign up (multipart: fullName, email, password, avatar); logs the new user in',
      ...multipart,
      response: { 201: UserResponseSchema },
    },
    handler: async (request, reply) => {
      // Counted before the body is read: each sign-up costs a password hash and an image re-encode.
      if (!(await consume(ctx.limits.signupPerIp, addressKey(request.ip)))) throw new AppError(429, answers.tooManyRequests);
      const form = await readImageForm(request, { fileField: 'avatar', maxBytes: ctx.config.imageMaxBytes });
      if (!form.file) throw new AppError(400, messages.fillAllDetails);
      const fields = parseInput(RegisterSchema, form.fields);
      const user = await registerUser(ctx, { ...fields, avatar: form.file });
      setSessionCookie(request, reply, await createSession(ctx, user.id));
      rememberDevice(request, reply, ctx.config.sessionSecret, user);
      return reply.code(201).send({ success: true, message: answers.accountCreated, user: toUserJson(ctx, user) });
    },
  });

  app.get('/me', {
    schema: { summary: 'The logged-in user', response: { 200: UserResponseSchema } },
    // Answers even while the user must first choose a password: the web app learns it here.
    preHandler: requireLogin,
    handler: async (request) => ({
      success: true,
      message: answers.userDetailsFetched,
      user: toUserJson(ctx, currentUser(request)),
    }),
  });

  app.put('/update/:id', {
    schema: {
      summary: 'Edit your own profile (multipart: fullName, optional avatar)',
      ...multipart,
      params: UserIdParamsSchema,
      response: { 200: UserResponseSchema },
    },
    preHandler: requireUser,
    handler: async (request) => {
      const user = currentUser(request);
      if (request.params.id !== user.id) throw new AppError(403, answers.notOwnProfile);
      const form = await readImageForm(request, { fileField: 'avatar', maxBytes: ctx.config.imageMaxBytes });
      const fields = parseInput(UpdateProfileSchema, form.fields);
      const updated = await updateProfile(ctx, user, { ...fields, avatar: form.file });
      return { success: true, message: answers.profileUpdated, user: toUserJson(ctx, updated) };
    },
  });
};
