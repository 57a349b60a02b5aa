import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ContactMessagesQuerySchema, ContactMessagesResponseSchema, ContactSchema } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { MessageSchema } from '@lms/contract/users';
import { jsonBody } from '../../validation.ts';
import { requireRole } from '../auth/guards.ts';
import { listContactMessages, sendContactMessage, toContactMessageJson } from './contact.service.ts';

/** Mounted at /api/v1/contact. */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ctx } = app;

  app.post('/', {
    schema: {
      summary: 'Send a message to the team (JSON: name, email, message); stored, then mailed',
      body: jsonBody(ContactSchema),
      response: { 200: MessageSchema },
    },
    handler: async (request) => {
      await sendContactMessage(ctx, { ...request.body, ip: request.ip }, { log: request.log });
      return { success: true, message: messages.contactSent };
    },
  });

  app.get('/', {
    schema: {
      summary: 'The contact inbox, newest first: page, limit',
      querystring: ContactMessagesQuerySchema,
      response: { 200: ContactMessagesResponseSchema },
    },
    preHandler: requireRole('ADMIN'),
    handler: async (request) => {
      const { page, limit } = request.query;
      const inbox = await listContactMessages(ctx, request.query);
      return {
        success: true,
        message: answers.contactMessages,
        messages: inbox.messages.map(toContactMessageJson),
        total: inbox.total,
        page,
        limit,
      };
    },
  });
};
