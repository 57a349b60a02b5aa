import type { FastifyPluginAsync } from 'fastify';
import { api } from '@lms/contract/api';
import { route } from '../../route.ts';
import { currentUser } from '../auth/guards.ts';
import { refundPayment } from './refunds.service.ts';
import { resendDocument } from './resend.service.ts';

/** An administrator's money actions on a learner: refunding a payment, and sending a document again. */
export const learnerRefundRoutes: FastifyPluginAsync = async (app) => {
  const { ctx } = app;

  route(app, api.learners.refund, {
    handler: async (request) => ({
      success: true,
      ...(await refundPayment(ctx, currentUser(request), request.params.id, request.body, { log: request.log })),
    }),
  });

  route(app, api.learners.resendDocument, {
    handler: async (request) => ({ success: true, ...(await resendDocument(ctx, currentUser(request), request.params.id, request.body)) }),
  });
};
