import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { byAddress, rateLimited } from '../../rate-limit.ts';
import { route } from '../../route.ts';
import { contactInbox, sendContactMessage } from './contact.service.ts';

/** The contact form and the admin's inbox. */
export const contactRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.contact.send, {
    // Counted before anything is stored: every accepted message costs a row and a mail.
    rateLimit: rateLimited({ limiter: 'contactPerIp', key: byAddress }),
    handler: async (request) => {
      await sendContactMessage(ctx, request.body, { log: request.log });
      return { success: true, message: messages.contactSent };
    },
  });

  route(app, api.contact.list, {
    handler: async (request) => ({ success: true, message: answers.contactMessages, ...(await contactInbox(ctx, request.query)) }),
  });
};
